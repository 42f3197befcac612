# Programs that mask every signal in a thread, vfork and exec, close every
# descriptor, then start threads, and leave through _exit: they run as
# without pct, and the profile is readable.
. "$(dirname "$0")/lib.sh"
"$PROGS/hostile" >plain.txt || fail "plain run"
for opts in "" "-F 1000" "-e wall"; do
	"$PCTBIN" record $opts -o h.pct "$PROGS/hostile" >out 2>err || fail "'$opts': status $?: $(cat err)"
	cmp -s out plain.txt || fail "'$opts': output changed: $(cat out)"
	"$PCTBIN" report --by=thread --format=tsv h.pct >t.tsv || fail "'$opts': report"
	# the main thread and the four threads started after close-all
	[ "$(grep -vc '^samples' t.tsv)" -ge 5 ] || fail "'$opts': threads: $(cat t.tsv)"
	grep -q "pct: [^ ]* samples" err || fail "'$opts': no summary: $(cat err)"
	rm -f h.pct h.*.pct
done
pass "hostile program unharmed"
