#!/bin/sh
# No best-effort process is left stopped or frozen: normal exit, SIGTERM, SIGINT, daemon crash (SIGKILL, abort),
# workload exit; for the mechanisms sigstop, freeze and fifo-hold, with periodic and with overflow sampling.
# Cleans up every process and cgroup it makes.
TH=$1; HOG=$2
[ "$(id -u)" = 0 ] || { echo "skip: needs root (SCHED_FIFO, cgroup freeze)"; exit 77; }
[ "$(nproc)" -ge 2 ] || { echo "skip: needs 2 cores"; exit 77; }
CG2=$(awk '$3 == "cgroup2" {print $2; exit}' /proc/mounts)
[ -n "$CG2" ] || { echo "skip: no cgroup2 mount"; exit 77; }
DIR=$(mktemp -d /tmp/chainlab-th-test.XXXXXX)
CG=$CG2/chainlab-th-test-$$
HOGPID=; DPID=; FAIL=0
cleanup() {
  [ -n "$DPID" ] && kill -9 "$DPID" 2>/dev/null
  [ -n "$HOGPID" ] && { kill -CONT "$HOGPID" 2>/dev/null; kill "$HOGPID" 2>/dev/null; }
  if [ -d "$CG" ]; then echo 0 > "$CG/cgroup.freeze"; for p in $(cat "$CG/cgroup.procs"); do echo "$p" > "$CG2/cgroup.procs"; kill -9 "$p"; done; rmdir "$CG"; fi 2>/dev/null
  wait 2>/dev/null; rm -rf "$DIR"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
fail() { echo "FAIL: $*"; FAIL=1; }
counter() { od -An -t u8 -j16 -N8 "$DIR/hog.shm" 2>/dev/null | tr -d ' '; }
start_hog() {
  rm -f "$DIR/hog.shm"
  taskset -c 1 "$HOG" --shm="$DIR/hog.shm" --size=1048576 >/dev/null & HOGPID=$!
  i=0; while [ ! -s "$DIR/hog.shm" ] && [ $i -lt 200 ]; do sleep 0.01; i=$((i+1)); done
}
stop_hog() { kill -CONT "$HOGPID" 2>/dev/null; kill "$HOGPID" 2>/dev/null; wait "$HOGPID" 2>/dev/null; HOGPID=; }
state() { awk '{print $3}' "/proc/$1/stat" 2>/dev/null; }
# the hog must move bytes again within 2 s
progresses() {
  i=0; while [ $i -lt 40 ]; do
    a=$(counter); sleep 0.05; b=$(counter)
    [ -n "$a" ] && [ "$a" != "$b" ] && [ "$(state "$HOGPID")" != T ] && return 0
    i=$((i+1)); done; return 1
}
# wait until the daemon has the hog suspended at least once (so the test exercises a suspended state)
saw_suspended() {
  i=0; while [ $i -lt 200 ]; do
    case $1 in
      sigstop) [ "$(state "$HOGPID")" = T ] && return 0 ;;
      freeze) grep -q 'frozen 1' "$CG/cgroup.events" 2>/dev/null && return 0 ;;
      fifo-hold) return 0 ;;
    esac
    sleep 0.005; i=$((i+1)); done; return 1
}
args() {
  echo "source=coop shm=$DIR/hog.shm cores=1 sample=100us suspend=20ms read_threshold=1MB/s mechanism=$1 sampling=$SAMPLING"
  case $1 in sigstop) echo "pids=$HOGPID" ;; freeze) echo "pids=$HOGPID cgroup=$CG cgroup_create=true" ;; fifo-hold) echo "sampler_cpu=0" ;; esac
}
for SAMPLING in periodic overflow; do
for mech in sigstop freeze fifo-hold; do
  for how in normal SIGTERM SIGINT SIGKILL abort hang; do
    [ $how = hang ] && [ $mech = fifo-hold ] && continue   # a stopped daemon stops its hold threads too
    start_hog
    dur=; [ $how = normal ] && dur=duration=300ms
    if [ $how = abort ]; then
      # periodic: 3000 samples of 100 us; overflow: 20 notifications, each followed by a 20 ms suspension;
      # long enough for the check below to see a suspension on a busy machine before the crash
      after=3000; [ $SAMPLING = overflow ] && after=20
      CHAINLAB_THROTTLE_CRASH_AFTER=$after "$TH" $(args $mech) $dur > "$DIR/out" 2>&1 & DPID=$!
    else
      "$TH" $(args $mech) $dur > "$DIR/out" 2>&1 & DPID=$!
    fi
    saw_suspended $mech || fail "$mech/$how: never saw the hog suspended"
    case $how in
      SIGTERM) sleep 0.1; kill -TERM $DPID ;;
      SIGINT) sleep 0.1; kill -INT $DPID ;;
      SIGKILL) sleep 0.1; kill -KILL $DPID ;;
      hang) sleep 0.1; kill -STOP $DPID     # a hung daemon: the guardian must resume the hog within ~1 s
            progresses || fail "$mech/hang: hog left suspended while the daemon hangs"
            kill -CONT $DPID; kill -TERM $DPID ;;
    esac
    wait $DPID; rc=$?; DPID=
    case $how in
      normal|SIGTERM|SIGINT|hang) [ $rc = 0 ] || fail "$mech/$how: rc=$rc $(cat "$DIR/out")"
        grep -q '"suspensions":[1-9]' "$DIR/out" || fail "$mech/$how: no suspension counted: $(cat "$DIR/out")" ;;
    esac
    progresses || fail "$mech/$how: hog left suspended (state $(state "$HOGPID"))"
    # after a crash the guardian thaws first (the hog moves again), then moves the pids out and removes the cgroup
    i=0; while [ $mech = freeze ] && [ -d "$CG" ] && [ $i -lt 100 ]; do sleep 0.02; i=$((i+1)); done
    [ $mech = freeze ] && [ -d "$CG" ] && fail "$mech/$how: cgroup $CG left behind"
    stop_hog
    echo "ok $SAMPLING $mech $how"
  done
  # the workload exits: the daemon started it and ends by itself
  rm -f "$DIR/hog.shm"
  extra=; [ $mech = sigstop ] && extra=; [ $mech = freeze ] && extra="cgroup=$CG cgroup_create=true"
  [ $mech = fifo-hold ] && extra="sampler_cpu=0"
  timeout 10 "$TH" source=coop shm="$DIR/hog.shm" cores=1 suspend=20ms read_threshold=1MB/s mechanism=$mech sampling=$SAMPLING $extra \
     -- "$HOG" --shm="$DIR/hog.shm" --size=1048576 --duration-ms=300 > "$DIR/out" 2>&1
  rc=$?
  [ $rc = 0 ] && grep -q '"exit":"workload-exit"' "$DIR/out" || fail "$mech/workload-exit: rc=$rc $(cat "$DIR/out")"
  [ -d "$CG" ] && fail "$mech/workload-exit: cgroup left behind"
  echo "ok $SAMPLING $mech workload-exit"
done
done
exit $FAIL
