#!/bin/sh
# Faults around the throttler and the hog (issue 17):
#  F22 the guardian killed alone: the daemon resumes everything, removes its cgroup and exits (no SIGPIPE death);
#      guardian and daemon are told apart in ps (comm and command line).
#  F23 SIGTERM during a long overflow suspension resumes the hog at once.
#  F24 chainlab-hog --shm=FILE never replaces someone's file (only a counter file left by a dead hog).
#  F10 the hog and the daemon end when the process that started them dies (PR_SET_PDEATHSIG).
TH=$1; HOG=$2
[ "$(id -u)" = 0 ] || { echo "skip: needs root (cgroup freeze)"; exit 77; }
[ "$(nproc)" -ge 2 ] || { echo "skip: needs 2 cores"; exit 77; }
CG2=$(awk '$3 == "cgroup2" {print $2; exit}' /proc/mounts)
[ -n "$CG2" ] || { echo "skip: no cgroup2 mount"; exit 77; }
DIR=$(mktemp -d /tmp/chainlab-th-faults.XXXXXX)
CG=$CG2/chainlab-th-faults-$$
HOGPID=; DPID=; FAIL=0
drop_cg() {  # what a failing daemon left: thaw, move out, remove
  if [ -d "$CG" ]; then echo 0 > "$CG/cgroup.freeze"; for p in $(cat "$CG/cgroup.procs"); do echo "$p" > "$CG2/cgroup.procs"; done; rmdir "$CG"; fi 2>/dev/null
}
cleanup() {
  [ -n "$DPID" ] && kill -9 "$DPID" 2>/dev/null
  drop_cg
  [ -n "$HOGPID" ] && { kill -CONT "$HOGPID" 2>/dev/null; kill -9 "$HOGPID" 2>/dev/null; }
  wait 2>/dev/null; rm -rf "$DIR"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
fail() { echo "FAIL: $*"; FAIL=1; }
state() { awk '{print $3}' "/proc/$1/stat" 2>/dev/null; }
comm() { cat "/proc/$1/comm" 2>/dev/null; }
# poll up to $1 * 10 ms for a condition
until_ms() { n=$1; shift; i=0; while [ $i -lt "$n" ]; do "$@" && return 0; sleep 0.01; i=$((i+1)); done; return 1; }
gone() { ! kill -0 "$1" 2>/dev/null || [ "$(state "$1")" = Z ]; }
not_stopped() { [ "$(state "$HOGPID")" != T ] && ! grep -qs 'frozen 1' "$CG/cgroup.events"; }
suspended() { [ "$(state "$HOGPID")" = T ] || grep -qs 'frozen 1' "$CG/cgroup.events"; }
start_hog() {
  rm -f "$DIR/hog.shm"
  taskset -c 1 "$HOG" --shm="$DIR/hog.shm" --size=1048576 >/dev/null & HOGPID=$!
  until_ms 300 test -s "$DIR/hog.shm" || fail "hog did not start"
}
stop_hog() { drop_cg; kill -CONT "$HOGPID" 2>/dev/null; kill "$HOGPID" 2>/dev/null; wait "$HOGPID" 2>/dev/null; HOGPID=; }
guardian_of() {  # the daemon's child (the guardian: the daemon has no other child here)
  for s in /proc/[0-9]*/stat; do
    { read -r l < "$s"; } 2>/dev/null || continue
    set -- "$1" ${l##*) }
    [ "$3" = "$1" ] && p=${s#/proc/} && { echo "${p%/stat}"; return 0; }
  done; return 1
}
# a daemon that does not exit by itself within 3 s is a failure, not a hung test
reap() { until_ms 300 gone "$1" || { fail "$2: daemon still running"; kill -9 "$1"; }; wait "$1"; }

# ---- F22: kill the guardian alone ----
for SAMPLING in periodic overflow; do
  for mech in sigstop freeze; do
    start_hog
    extra="pids=$HOGPID"; [ $mech = freeze ] && extra="pids=$HOGPID cgroup=$CG cgroup_create=true"
    "$TH" source=coop shm="$DIR/hog.shm" cores=1 sample=100us suspend=20ms read_threshold=1MB/s \
        mechanism=$mech sampling=$SAMPLING $extra > "$DIR/out" 2> "$DIR/err" & DPID=$!
    G=; until_ms 300 guardian_of $DPID > /dev/null && G=$(guardian_of $DPID)
    if [ -z "$G" ]; then fail "$SAMPLING/$mech: no guardian under the daemon"; else
      [ "$(comm "$G")" = chainlab-guard ] || fail "$SAMPLING/$mech: guardian named '$(comm "$G")' (want chainlab-guard)"
      case "$(tr '\0' ' ' < /proc/$G/cmdline)" in chainlab-throttle-guardian*) ;;
        *) fail "$SAMPLING/$mech: guardian command line not rewritten: $(tr '\0' ' ' < /proc/$G/cmdline)" ;; esac
      [ "$(comm $DPID)" != "$(comm $G)" ] || fail "$SAMPLING/$mech: daemon and guardian have the same name"
      until_ms 300 suspended || fail "$SAMPLING/$mech: never saw the hog suspended"
      kill -9 "$G"
    fi
    reap $DPID "$SAMPLING/$mech"; rc=$?; DPID=
    [ $rc = 1 ] || fail "$SAMPLING/$mech: daemon rc=$rc after the guardian died (141 = SIGPIPE) $(cat "$DIR/err")"
    grep -q '"exit":"guardian-lost"' "$DIR/out" || fail "$SAMPLING/$mech: no exit guardian-lost: $(cat "$DIR/out")"
    until_ms 100 not_stopped || fail "$SAMPLING/$mech: hog left $(state "$HOGPID") / cgroup frozen"
    [ -d "$CG" ] && fail "$SAMPLING/$mech: cgroup $CG left behind"
    stop_hog
    echo "ok F22 guardian killed: $SAMPLING $mech"
  done
done

# ---- F23: SIGTERM during a 20 s overflow suspension resumes at once ----
for mech in sigstop freeze; do
  start_hog
  extra="pids=$HOGPID"; [ $mech = freeze ] && extra="pids=$HOGPID cgroup=$CG cgroup_create=true"
  "$TH" source=coop shm="$DIR/hog.shm" cores=1 sample=100us suspend=20s read_threshold=1MB/s proportional=false \
      mechanism=$mech sampling=overflow $extra > "$DIR/out" 2>&1 & DPID=$!
  until_ms 300 suspended || fail "F23 $mech: never saw the hog suspended"
  kill -TERM $DPID
  until_ms 200 gone $DPID || fail "F23 $mech: daemon still running 2 s after SIGTERM (waits for the suspension)"
  until_ms 100 not_stopped || fail "F23 $mech: hog still suspended 1 s after SIGTERM"
  reap $DPID "F23 $mech"; DPID=
  [ -d "$CG" ] && fail "F23 $mech: cgroup left behind"
  stop_hog
  echo "ok F23 SIGTERM mid-suspension: $mech"
done

# ---- F24: --shm=FILE never deletes someone's file ----
printf 'precious\n' > "$DIR/mine"
"$HOG" --shm="$DIR/mine" --duration-ms=50 > /dev/null 2> "$DIR/err"; rc=$?
[ $rc = 2 ] || fail "F24: hog rc=$rc on an existing file"
[ "$(cat "$DIR/mine")" = precious ] || fail "F24: the existing file was replaced or deleted"
grep -q 'refusing' "$DIR/err" || fail "F24: no clear message: $(cat "$DIR/err")"
ls "$DIR"/mine.tmp* > /dev/null 2>&1 && fail "F24: temporary file left behind"
# a counter file left by a killed hog may be reused
start_hog; kill -9 $HOGPID; wait $HOGPID 2>/dev/null; HOGPID=
[ -s "$DIR/hog.shm" ] || fail "F24: no stale counter file to test with"
"$HOG" --shm="$DIR/hog.shm" --duration-ms=50 > /dev/null 2> "$DIR/err" || fail "F24: a dead hog's counter file refused: $(cat "$DIR/err")"
[ -e "$DIR/hog.shm" ] && fail "F24: counter file not removed at exit"
echo "ok F24"

# ---- F10: the hog and the daemon end with their starter ----
rm -f "$DIR/hog.shm"
sh -c '"$0" --shm="$1" --size=1048576 > /dev/null & echo $! > "$2"; exec sleep 60' "$HOG" "$DIR/hog.shm" "$DIR/hp" & S=$!
until_ms 300 test -s "$DIR/hog.shm" || fail "F10: hog did not start"
HOGPID=$(cat "$DIR/hp")
kill -9 $S; wait $S 2>/dev/null
until_ms 200 gone $HOGPID || { fail "F10: the hog outlived its starter"; kill $HOGPID; }
HOGPID=
start_hog
sh -c '"$0" source=coop shm="$1" cores=1 sample=100us suspend=20ms read_threshold=1MB/s mechanism=sigstop pids="$2" \
   > /dev/null 2>&1 & echo $! > "$3"; exec sleep 60' "$TH" "$DIR/hog.shm" $HOGPID "$DIR/dp" & S=$!
until_ms 300 test -s "$DIR/dp"; DPID=$(cat "$DIR/dp")
until_ms 300 suspended || fail "F10: never saw the hog suspended"
kill -9 $S; wait $S 2>/dev/null
until_ms 200 gone $DPID || { fail "F10: the daemon outlived its starter"; kill -TERM $DPID; }
DPID=
until_ms 100 not_stopped || fail "F10: hog left stopped after the daemon's starter died"
stop_hog
# a workload the daemon started ends when the daemon is killed
rm -f "$DIR/hog.shm"
"$TH" source=coop shm="$DIR/hog.shm" cores=1 read_threshold=1000GB/s mechanism=none -- "$HOG" --shm="$DIR/hog.shm" \
   > /dev/null 2>&1 & DPID=$!
until_ms 300 test -s "$DIR/hog.shm"
W=$(od -An -t d8 -j8 -N8 "$DIR/hog.shm" | tr -d ' ')
kill -9 $DPID; wait $DPID 2>/dev/null; DPID=
[ -n "$W" ] && until_ms 200 gone "$W" || { fail "F10: the workload outlived the killed daemon"; kill "$W"; }
echo "ok F10 hog/daemon end with their starter"
[ $FAIL = 0 ] && echo "test_faults: ok"
exit $FAIL
