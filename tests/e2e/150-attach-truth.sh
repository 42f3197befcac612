# pct record -p attaches to a running multi-threaded program for a
# window and its shares match the program's own clocks over that window
# (attach-truth logs each turn of its functions with CLOCK_MONOTONIC and
# CLOCK_THREAD_CPUTIME_ID; the window is the profile's clock_start_ns to
# clock_end_ns), with each mechanism; the program runs on after the
# detach and exits 0 with its output whole.
# pct-test: timing (its shares are of CPU time, and the ptrace mechanism's stops wait for a CPU)
. "$(dirname "$0")/lib.sh"
. "$ROOT/tests/hosts/attach-lib.sh"
ran=0
for m in perf ptrace; do
	dur=1.2
	while :; do
		# (the window need not start after the program's threads: a turn
		# that crosses its start counts for its part inside, window_truth)
		"$HOSTS/attach-truth" 3 "$(awk -v d=$dur 'BEGIN { print d + 1.2 }')" >log-$m.tsv 2>ready-$m &
		t=$!
		wait_line ready-$m ready || fail "attach-truth did not start"
		attach_window $m $t --duration=$dur || continue 2
		[ $rc = 0 ] || fail "$m: record -p exits $rc: $(cat $m.err)"
		[ $st = 0 ] || fail "$m: attach-truth exits $st after the detach"
		grep -q "with the $m mechanism" $m.err || fail "$m: the summary does not name the mechanism: $(cat $m.err)"
		# it ran on after the detach: turns started after the window
		after=$(awk -F'\t' -v t1="$(header_u64 $m.pct 368)" '$2 > t1 + 300000000 { n++ } END { print n + 0 }' log-$m.tsv)
		[ "$after" -gt 3 ] || fail "$m: attach-truth did not run on after the detach ($after turns)"
		"$PCTBIN" report --format=tsv $m.pct >$m.tsv || fail "$m: report"
		window_truth log-$m.tsv $m.pct >truth-$m.tsv
		n=$(measured_samples truth-$m.tsv $m.tsv)
		[ "$n" -lt "${TRUTH_MIN:-200}" ] && [ "${dur%.*}" -lt $LONGEST_RUN ] &&
			{ echo "$m: $n samples in $dur s: again for twice as long"; dur=$(awk -v d=$dur 'BEGIN { print 2 * d }'); continue; }
		break
	done
	echo "== $m: $(grep -c . log-$m.tsv) turns logged, $after after the window of $dur s"
	# every sample is of one period; with ptrace, the periods that passed
	# without one are counted as dropped, so a sample stands for more CPU
	# time (taken_period)
	check_truth truth-$m.tsv $m.tsv "$(taken_period $m.pct)" ||
		fail "$m: the window's shares disagree with the program's clocks"
	ran=$((ran + 1))
done
[ $ran -gt 0 ] || skip "neither mechanism can attach here"
pass "$ran mechanisms: the attached window matches the program's own clocks"
