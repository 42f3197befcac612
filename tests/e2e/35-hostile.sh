# Programs that mask every signal in a thread, vfork and exec, close every
# descriptor, then start threads, and leave through _exit: they run as
# without pct, and the profile is readable.
# pct-test: plain (its subject is the runtime, which build-san leaves uninstrumented: the sanitized run adds nothing)
. "$(dirname "$0")/lib.sh"
"$PROGS/hostile" >plain.txt || fail "plain run"
for opts in "" "-F 1000" "-e wall"; do
	"$PCTBIN" record $opts -o h.pct "$PROGS/hostile" >out 2>err || fail "'$opts': status $?: $(cat err)"
	cmp -s out plain.txt || fail "'$opts': output changed: $(cat out)"
	"$PCTBIN" report --by=thread --format=tsv h.pct >t.tsv || fail "'$opts': report"
	# the four threads started after close-all, and with timers the main
	# thread too; a perf event is a descriptor, so closing every descriptor
	# ends the main thread's sampling (harmlessly: pct never closes or
	# uses a number the program may have reused, see threads.c)
	# (each burns 0.1 s of CPU: 25 samples at 250 Hz, none for a thread
	# with a probability of e^-25, e^-12 with half of them lost on a loaded
	# machine; and a record run whose threads raced the load is run again,
	# three times at most)
	want=5; [ "$opts" = "-F 1000" ] && want=4
	try=1
	while [ "$(grep -vc '^samples' t.tsv)" -lt $want ] && [ $try -lt 3 ]; do
		echo "'$opts': fewer than $want threads sampled; again: $(cat t.tsv)"
		rm -f h.pct h.*.pct
		"$PCTBIN" record $opts -o h.pct "$PROGS/hostile" >out 2>err || fail "'$opts': status $?: $(cat err)"
		cmp -s out plain.txt || fail "'$opts': output changed: $(cat out)"
		"$PCTBIN" report --by=thread --format=tsv h.pct >t.tsv || fail "'$opts': report"
		try=$((try + 1))
	done
	[ "$(grep -vc '^samples' t.tsv)" -ge $want ] || fail "'$opts': threads: $(cat t.tsv)"
	grep -q "^pct: .*[0-9] samples" err || fail "'$opts': no summary: $(cat err)"
	rm -f h.pct h.*.pct
done
pass "hostile program unharmed"
