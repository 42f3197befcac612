# A blocking read, a poll and a nanosleep in one thread while another
# thread spins: no call ever fails with EINTR under any event.
# pct-test: plain (its subject is the runtime, which build-san leaves uninstrumented: the sanitized run adds nothing)
. "$(dirname "$0")/lib.sh"
for opts in "" "-F 1000" "-F 5000" "-e wall" "-e user"; do
	"$PCTBIN" record $opts -o e.pct "$PROGS/eintr" 2 >out 2>err || fail "'$opts': $(cat out err)"
	echo "pct record $opts: $(cat out)"
	grep -q $'^eintr\t0\t' out || fail "EINTR with '$opts': $(cat out)"
	rm -f e.pct
done
pass "no EINTR"
