#!/bin/sh
# Replay source through the daemon: the trace matches the input, crossing -> suspension in the same sample,
# suspension lasts T (+- one sample), budgets replenish at period boundaries, dynamic groups share.
TH=$1
DIR=$(mktemp -d /tmp/chainlab-th-replay.XXXXXX); trap 'rm -rf "$DIR"' EXIT
FAIL=0; fail() { echo "FAIL: $*"; FAIL=1; }
# 40 samples of 100 us on cores 1 and 2; core 1 reads 2 GB/s in samples 5..8, core 2 is quiet
awk 'BEGIN { for (k = 0; k < 40; k++) { t = k * 100000; r = (k >= 5 && k <= 8) ? 200000 : 0;
             print t, 0, r, k * 64; print t, 1, 0, 0 } }' > "$DIR/in.txt"
"$TH" source=replay replay="$DIR/in.txt" cores=0,1 read_threshold=1GB/s suspend=900us mechanism=none \
     trace="$DIR/trace.csv" > "$DIR/out.json" || fail "duty run rc=$?"
# trace = input (time, core, read, write) in order
tail -n +2 "$DIR/trace.csv" | awk -F, '{print $1, $2, $3, $4}' > "$DIR/back.txt"
cmp -s "$DIR/in.txt" "$DIR/back.txt" || fail "trace does not match the replayed input"
first=$(awk -F, '$2==0 && $8==1 {print $1; exit}' "$DIR/trace.csv")
resume=$(awk -F, '$2==0 && $8==-1 {print $1; exit}' "$DIR/trace.csv")
[ "$first" = 500000 ] || fail "crossing at 500000 suspended at '$first'"
[ -n "$resume" ] && [ $((resume - first)) -ge 800000 ] && [ $((resume - first)) -le 1000000 ] || fail "suspension $first..$resume is not T=900us +- 100us"
grep -q '"core":1,"suspended_ns":0,"suspensions":0' "$DIR/out.json" || fail "quiet core 1 was suspended: $(cat "$DIR/out.json")"
# budget: 300 lines per 100 us, Q = 1000 lines per 1 ms
awk 'BEGIN { for (k = 1; k <= 50; k++) print k * 100000, 1, 300 * 64, 0 }' > "$DIR/b.txt"
"$TH" mode=budget source=replay replay="$DIR/b.txt" cores=1 period=1ms budget=1000 mechanism=none \
     trace="$DIR/b.csv" > "$DIR/b.json" || fail "budget run rc=$?"
bad=$(awk -F, 'NR > 1 && $8 == -1 && $1 % 1000000 != 0' "$DIR/b.csv")
[ -z "$bad" ] || fail "resume not at a period boundary: $bad"
n=$(awk -F, 'NR > 1 && $8 == -1' "$DIR/b.csv" | wc -l)
[ "$n" -ge 4 ] || fail "expected at least 4 replenishments, got $n"
# dynamic: two cores at 300 lines each share Q = 1000 -> both stop in the second sample of each period
awk 'BEGIN { for (k = 1; k <= 20; k++) { print k * 100000, 0, 300 * 64, 0; print k * 100000, 1, 300 * 64, 0 } }' > "$DIR/d.txt"
"$TH" mode=budget distribution=dynamic source=replay replay="$DIR/d.txt" cores=0,1 period=1ms budget=1000 \
     mechanism=none trace="$DIR/d.csv" > "$DIR/d.json" || fail "dynamic run rc=$?"
s1=$(awk -F, '$2==0 && $8==1 {print $1; exit}' "$DIR/d.csv"); s2=$(awk -F, '$2==1 && $8==1 {print $1; exit}' "$DIR/d.csv")
[ "$s1" = 200000 ] && [ "$s2" = 200000 ] || fail "dynamic group did not share its budget ($s1, $s2)"
"$TH" mode=budget source=replay replay="$DIR/d.txt" cores=0,1 period=1ms budget=1000 mechanism=none trace="$DIR/s.csv" > /dev/null
s1=$(awk -F, '$2==0 && $8==1 {print $1; exit}' "$DIR/s.csv")
[ "$s1" = 400000 ] || fail "static per-core budget: first suspension at $s1, want 400000"
# a bad replay line is reported
printf '0 1 0 0\nnonsense\n' > "$DIR/bad.txt"
"$TH" source=replay replay="$DIR/bad.txt" cores=1 threshold=1GB/s mechanism=none > /dev/null 2> "$DIR/err"
[ $? != 0 ] && grep -q 'replay line 2' "$DIR/err" || fail "bad replay line not reported"
[ $FAIL = 0 ] && echo "test_replay: ok"
exit $FAIL
