# On the same attached process at the same time, pct record -p (the perf
# mechanism) and `perf record -p` (task-clock, the same 4 ms period)
# agree on how the samples split among the program's functions: a
# chi-square test of homogeneity of the two rows of counts (work_a,
# work_b, work_c, and the rest), df 3, below 21.11 (1e-4 to fail by
# chance were the two the same sampling).  (Their
# numbers of samples are not compared: perf's window starts later, by as
# much as 0.7 s on the loaded test machine, as it reads the process's
# modules first.)
# pct-test: timing plain (its shares are of CPU time; the kernel's side of attaching is its subject; 150 and 157 run the attach layer sanitized)
. "$(dirname "$0")/lib.sh"
. "$ROOT/tests/hosts/attach-lib.sh"
command -v perf >/dev/null || fail "perf is missing (linux-perf; scripts/deps.sh installs it)"
"$HOSTS/attach-truth" 2 3 >/dev/null 2>ready &
t=$!
wait_line ready ready || fail "attach-truth did not start"
# (perf record -p PID -- sleep N, run from a script in the background,
# kills its sleep at once: perf 6.1; timeout's SIGINT ends it instead)
timeout -s INT 2.5 perf record -q -e task-clock -c 4000000 -p $t -o perf.data >perf.out 2>perf.err &
pf=$!
"$PCTBIN" record -p $t --duration=2.5 --mechanism=perf -o pct.pct 2>pct.err
rc=$?
wait $pf
prc=$?
wait $t
refused pct.err && skip "the perf mechanism cannot be used here: $(cat pct.err)"
[ $rc = 0 ] || fail "pct record -p exits $rc: $(cat pct.err)"
[ $prc = 124 ] || [ $prc = 0 ] || skip "perf record -p fails here (exit $prc): $(cat perf.err perf.out)"
perf report -i perf.data --stdio -n --sort sym -q 2>/dev/null |
	awk '$3 == "[.]" || $3 == "[k]" { f = ($4 ~ /^work_[abc]$/) ? $4 : "other"; n[f] += $2 } END { for (f in n) print f "\t" n[f] }' | sort >perf.tsv
"$PCTBIN" report --format=tsv pct.pct | awk -F'\t' 'NR > 1 { f = ($NF ~ /^work_[abc]$/) ? $NF : "other"; n[f] += $1 }
	END { for (f in n) print f "\t" n[f] }' | sort >pct.tsv
join -t "$(printf '\t')" -a 1 -a 2 -e 0 -o 0,1.2,2.2 pct.tsv perf.tsv >both.tsv
cat both.tsv
awk -F'\t' '{ a[NR] = $2; b[NR] = $3; A += $2; B += $3; k = NR }
	END {
		if (A < 150 || B < 150) { printf "too few samples: pct %d, perf %d\n", A, B; exit 1 }
		for (i = 1; i <= k; i++) {
			e1 = (a[i] + b[i]) * A / (A + B); e2 = (a[i] + b[i]) * B / (A + B)
			if (e1 > 0) chi += (a[i] - e1) ^ 2 / e1
			if (e2 > 0) chi += (b[i] - e2) ^ 2 / e2
		}
		printf "pct %d samples, perf %d; chi-square %.2f, df %d (p = 1e-4 at 21.11 for df 3)\n", A, B, chi, k - 1
		exit !(chi < 21.11)
	}' both.tsv || fail "pct's perf mechanism and perf record -p disagree"
pass "the perf mechanism and perf record -p agree on the same process"
