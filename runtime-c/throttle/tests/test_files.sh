#!/bin/sh
# Files the throttler and the hog are told to read (issue 29): a FIFO, a device or a directory given as the hog's
# --shm, the coop source's shm=, replay= or --config is refused at once with the path and the reason, never
# opened for a blocking read; a config file above its limit is refused, never cut.
TH=$1; HOG=$2
DIR=$(mktemp -d /tmp/chainlab-th-files.XXXXXX); trap 'rm -rf "$DIR"' EXIT
FAIL=0; fail() { echo "FAIL: $*"; FAIL=1; }
mkfifo "$DIR/fifo"
# rc needle command...: ends within 10 s (a blocked open would not), with rc and the needle in its stderr
expect() {
  want=$1; needle=$2; shift 2
  err=$(timeout 10 "$@" 2>&1 >/dev/null); rc=$?
  [ $rc = 124 ] && { fail "$*: still running after 10 s"; return; }
  [ $rc = "$want" ] || fail "$*: rc=$rc, want $want ($err)"
  case $err in *"$needle"*) ;; *) fail "$*: message '$err' lacks '$needle'" ;; esac
}
FIFO_IS="$DIR/fifo: it is a pipe (FIFO), not a regular file"
expect 2 "--shm $FIFO_IS: refusing to replace it" "$HOG" --shm="$DIR/fifo" --duration-ms=50
expect 2 "--shm /dev/zero: it is a device, not a regular file" "$HOG" --shm=/dev/zero --duration-ms=50
expect 2 "--shm $DIR: it is a directory, not a regular file" "$HOG" --shm="$DIR" --duration-ms=50
[ -p "$DIR/fifo" ] || fail "the hog replaced the FIFO"
ls "$DIR"/fifo.tmp* > /dev/null 2>&1 && fail "the hog left a temporary file"
COOP="source=coop cores=1 read_threshold=1GB/s mechanism=none duration=50ms"
expect 1 "coop: hog counters $FIFO_IS" "$TH" $COOP shm="$DIR/fifo"
expect 1 "coop: hog counters /dev/zero: it is a device" "$TH" $COOP shm=/dev/zero
expect 1 "replay: cannot read $FIFO_IS" "$TH" source=replay replay="$DIR/fifo" cores=1 read_threshold=1GB/s mechanism=none
expect 2 "cannot read config $FIFO_IS" "$TH" --config "$DIR/fifo"
expect 2 "cannot read config /dev/zero: it is a device" "$TH" --config /dev/zero
# a config above 1 MiB (comment lines) is refused, not cut at the limit and read as far as it goes
awk 'BEGIN { for (k = 0; k < 40000; k++) print "# a comment line to make the file large"; print "bogus" }' > "$DIR/big.conf"
expect 2 "big.conf: larger than 1048576 bytes" "$TH" --config "$DIR/big.conf"
[ $FAIL = 0 ] && echo "test_files: ok"
exit $FAIL
