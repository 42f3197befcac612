# pct record -p -e wall, with each mechanism, samples every thread of a
# running process by wall-clock time, as the runtime does: a blocked
# thread where /proc/TID/syscall says it waits, a running one by its CPU
# time.  attach-truth's two computing threads and one sleeper, blocked in
# read(2) for the whole run: the sleeper's samples are all in the C
# library's read, one a period of the window (clock_start_ns to
# clock_end_ns); the computing threads' functions match their clocks.
# pct-test: timing plain (its shares are of CPU time; the kernel's side of attaching is its subject; 150 and 157 run the attach layer sanitized)
. "$(dirname "$0")/lib.sh"
. "$ROOT/tests/hosts/attach-lib.sh"
ran=0
for m in perf ptrace; do
	dur=1.2
	while :; do
		"$HOSTS/attach-truth" 2 "$(awk -v d=$dur 'BEGIN { print d + 0.7 }')" 1 >log-$m.tsv 2>ready-$m &
		t=$!
		wait_line ready-$m ready || fail "attach-truth did not start"
		attach_window $m $t -e wall --duration=$dur || continue 2
		[ $rc = 0 ] || fail "$m: record -p -e wall exits $rc: $(cat $m.err)"
		[ $st = 0 ] || fail "$m: attach-truth exits $st after the detach"
		"$PCTBIN" report --split=thread --format=tsv $m.pct >split-$m.tsv || fail "$m: report --split=thread"
		# the sleeper: the thread with no sample in work_a, work_b or work_c
		read -r stid sn sfn <<<"$(awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
			{ n[$c["tid"]] += $c["samples"]; if ($c["function"] ~ /^work_[abc]$/) w[$c["tid"]] = 1
			  else f[$c["tid"]] = f[$c["tid"]] "," $c["module"] ":" $c["function"] }
			END { for (t in n) if (!(t in w)) print t, n[t], f[t] }' split-$m.tsv)"
		[ -n "$stid" ] || fail "$m: no thread without work_* samples (the sleeper): $(cat split-$m.tsv)"
		win=$(awk -v a="$(header_u64 $m.pct 312)" -v b="$(header_u64 $m.pct 368)" 'BEGIN { printf "%.4f", (b - a) / 1e9 }')
		per=$(awk -v p="$(header_u64 $m.pct 64)" 'BEGIN { printf "%.4f", p / 1e9 }')
		echo "$m: the sleeper (tid $stid): $sn samples of $per s in a window of $win s, at ${sfn#,}"
		case ${sfn#,} in *libc.so*:*read*) ;; *) fail "$m: the sleeper's samples are not at read in the C library: $sfn" ;; esac
		case ${sfn#,} in *,*) fail "$m: the sleeper's samples are at more than one place: $sfn" ;; esac
		# one sample a period of the window: not a statistical figure (a pass
		# over the blocked threads every period, the periods a late pass
		# missed counted in it); 2 samples for the ends, 2% for the sampler's
		# start and end inside the window
		awk -v n="$sn" -v w="$win" -v p="$per" 'BEGIN { e = w / p; exit !(n <= e + 2 + 0.02 * e && n >= e - 2 - 0.02 * e) }' ||
			fail "$m: the sleeper has $sn samples, not one a period of the $win s window"
		# the computing threads, against their clocks: their samples are of
		# CPU time (a sample's CPU time: the period x their samples and the
		# periods dropped, over their samples; the sleeper's left out)
		"$PCTBIN" report --format=tsv $m.pct >$m.tsv || fail "$m: report"
		window_truth log-$m.tsv $m.pct >truth-$m.tsv
		n=$(measured_samples truth-$m.tsv $m.tsv)
		[ "$n" -lt "${TRUTH_MIN:-200}" ] && [ "${dur%.*}" -lt $LONGEST_RUN ] &&
			{ echo "$m: $n samples in $dur s: again for twice as long"; dur=$(awk -v d=$dur 'BEGIN { print 2 * d }'); continue; }
		break
	done
	n=$(header_u64 $m.pct 192) d=$(header_u64 $m.pct 200)
	cper=$(awk -v p="$per" -v n="$n" -v d="$d" -v s="$sn" 'BEGIN { printf "%.9f", p * (n - s + d) / (n - s) }')
	check_truth truth-$m.tsv $m.tsv "$cper" || fail "$m: the computing threads' shares disagree with their clocks"
	ran=$((ran + 1))
done
[ $ran -gt 0 ] || skip "neither mechanism can attach here"
pass "$ran mechanisms: -e wall samples a blocked thread where it waits, one a period, and the running ones by CPU time"
