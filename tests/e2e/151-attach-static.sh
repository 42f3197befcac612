# pct record COMMAND on a static executable without libpct (the runtime
# cannot be preloaded into it): record says so in one line, samples it
# from outside from its first instruction with each mechanism, with -g
# (at 500 Hz: twice the tick, so that ptrace, which wakes once a tick at
# most, drops every other period),
# and the profile matches the program's own clocks; its stacks unwind
# through its thread function (run, the caller of every turn, in every
# thread); its output and exit status are its own.
# pct-test: timing plain (its shares are of CPU time; the kernel's side of attaching is its subject; 150 and 157 run the attach layer sanitized)
. "$(dirname "$0")/lib.sh"
. "$ROOT/tests/hosts/attach-lib.sh"
prog=$HOSTS/attach-truth-static
[ -x "$prog" ] || skip "no static build of attach-truth (libc.a missing?)"
readelf -lW "$prog" | grep -q INTERP && fail "attach-truth-static has a PT_INTERP"
ran=0
for m in perf ptrace; do
	dur=1.5
	while :; do
		"$PCTBIN" record -g -F 500 --mechanism=$m -o $m.pct "$prog" 2 $dur >log-$m.tsv 2>$m.err
		rc=$?
		if [ $rc != 0 ] && refused $m.err; then
			echo "$m: $(cat $m.err)"
			continue 2
		fi
		[ $rc = 0 ] || fail "$m: exit status $rc, not the program's 0: $(cat $m.err)"
		grep -q "is a static executable (no PT_INTERP.*from outside with the $m mechanism" $m.err ||
			fail "$m: record does not say it samples from outside: $(cat $m.err)"
		[ "$(grep -c 'sampling it from outside' $m.err)" = 1 ] || fail "$m: said more than once: $(cat $m.err)"
		awk -F'\t' 'NF != 4 || $1 !~ /^work_[abc]$/ { bad = 1 } END { exit bad || NR < 20 }' log-$m.tsv ||
			fail "$m: the program's output is not whole: $(head -3 log-$m.tsv)"
		"$PCTBIN" report --format=tsv $m.pct >$m.tsv 2>rep.err || fail "$m: report: $(cat rep.err)"
	# (ptrace at twice the tick: the periods between its wakes, counted)
	[ $m = ptrace ] && { "$PCTBIN" report -n 1 $m.pct | grep "periods passed between the ptrace sampler's wakes, not sampled (counted in the effective rate" ||
		fail "$m: the report does not say what its dropped periods are: $("$PCTBIN" report -n 1 $m.pct | head -5)"; }
		all_truth log-$m.tsv >truth-$m.tsv
		n=$(measured_samples truth-$m.tsv $m.tsv)
		[ "$n" -lt "${TRUTH_MIN:-200}" ] && [ "${dur%.*}" -lt $LONGEST_RUN ] &&
			{ echo "$m: $n samples in $dur s: again for twice as long"; dur=$(awk -v d=$dur 'BEGIN { print 2 * d }'); continue; }
		break
	done
	echo "== $m"
	check_truth truth-$m.tsv $m.tsv "$(taken_period $m.pct)" ||
		fail "$m: the shares disagree with the program's clocks"
	# -g: every turn's stack reaches run()
	total=$(awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["function"] == "run" { print $c["total_percent"] }' $m.tsv)
	echo "$m: run() holds ${total:-no}% of the samples with stacks"
	awk -v t="${total:-0}" 'BEGIN { exit !(t >= 90) }' || fail "$m: stacks do not unwind to run(): $(cat rep.err)"
	ran=$((ran + 1))
done
[ $ran -gt 0 ] || skip "neither mechanism can sample here"
pass "$ran mechanisms: a static program sampled from outside, -g stacks unwound, its clocks matched"
