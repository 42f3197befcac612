# A program killed with SIGKILL mid-run leaves a readable profile of what
# was sampled before: counts live in a MAP_SHARED mapping of the file.
# pct-test: plain (its subject is the runtime, which build-san leaves uninstrumented: the sanitized run adds nothing)
. "$(dirname "$0")/lib.sh"
PCT=killed.pct LD_PRELOAD=$LIBPCT "$PROGS/selftime" 30 >/dev/null &
pid=$!
# kill it after 2 s of CPU time, not of wall time: on a loaded machine
# 2 s of wall time may hold far less CPU (bounded at 60 s of waiting)
tck=$(getconf CLK_TCK)
for _ in $(seq 600); do
	cpu=$(awk -v t="$tck" '{ print int(($14 + $15) * 100 / t) }' /proc/$pid/stat 2>/dev/null) || break
	[ "${cpu:-0}" -ge 200 ] && break
	sleep 0.1
done
kill -KILL $pid
wait $pid 2>/dev/null
"$PCTBIN" report --format=tsv killed.pct >r.tsv || fail "report of a killed run failed"
n=$(awk -F'\t' 'NR > 1 { n += $1 } END { print n + 0 }' r.tsv)
# about 2 s of CPU at the tick rate (250 Hz here): at least 1 s worth
[ "$n" -ge 250 ] || fail "only $n samples after 2 s"
"$PCTBIN" report killed.pct | sed -n 2p | grep -Eq 'over 1\.[5-9][0-9]*|over 2\.[0-9]*' || fail "CPU time covered: $("$PCTBIN" report killed.pct | sed -n 2p)"
grep -q work_a r.tsv || fail "work_a missing from the killed profile"
pass "$n samples survived SIGKILL"
