#!/bin/sh
# Refusals with clear messages: no PMU (ENOENT), bad parameters; exit status 2 for configuration errors.
TH=$1
FAIL=0; fail() { echo "FAIL: $*"; FAIL=1; }
expect() { # rc needle args...
  want=$1; needle=$2; shift 2
  err=$("$TH" "$@" 2>&1 >/dev/null); rc=$?
  [ $rc = "$want" ] || fail "$*: rc=$rc, want $want ($err)"
  case $err in *"$needle"*) ;; *) fail "$*: message '$err' lacks '$needle'" ;; esac
}
if [ ! -d /sys/bus/event_source/devices/cpu ]; then
  expect 1 "no hardware PMU" cores=1 threshold=1GB/s mechanism=none duration=50ms
fi
expect 2 "must be shorter than period" mode=budget cores=1 sample=2ms period=1ms budget=10 mechanism=none
expect 2 "out of range" cores=999 threshold=1GB/s mechanism=none
expect 2 "unknown event 'bogus'" event=bogus
expect 2 "needs pids=" cores=1 threshold=1GB/s
expect 2 "is not key=value" cores
"$TH" --help | grep -q "mode=duty-cycle|budget" || fail "--help"
[ $FAIL = 0 ] && echo "test_errors: ok"
exit $FAIL
