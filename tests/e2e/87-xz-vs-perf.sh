# xz -T2, whose worker threads block every signal, against perf (issue
# 15, item 2: pct took 7 samples for 7.06 s of CPU, "1.0 Hz"): pct and
# `perf record -e task-clock` at the same 4 ms period must agree on the
# number of samples, on each thread's share, and on each function's share
# of liblzma's samples, within statistical error on a loaded machine.
# pct-test: timing plain (a rate or CPU-time measurement of the uninstrumented runtime)
. "$(dirname "$0")/lib.sh"
command -v xz >/dev/null || fail "xz is missing (xz-utils; scripts/deps.sh installs it)"
command -v perf >/dev/null || fail "perf is missing (linux-perf; scripts/deps.sh installs it)"
# about 10 MB that xz -6 compresses in 2-4 s of CPU
{ seq 1 450000; yes 'the quick brown fox jumps over the lazy dog' | head -c 7000000; } >data
"$PCTBIN" record -o xz.pct xz -T2 -6 -c data >pct.xz 2>rec.err || fail "pct record xz: $(cat rec.err)"
cat rec.err
perf record -q -e task-clock -c 4000000 -o perf.data -- xz -T2 -6 -c data >perf.xz 2>perf.err ||
	fail "perf record (software event task-clock) failed here: $(cat perf.err)"
cmp -s pct.xz perf.xz || fail "xz's output differs under pct and perf"
"$PCTBIN" report xz.pct | head -4
# (1) counts (perf's sort key "pid" is the thread): both runs sample 4 ms
# of CPU time, but xz's CPU time varies between runs on a loaded machine
# (2.5 and 3.1 s seen), so each is held to its own run: pct's samples
# cover at least 70% of the CPU time record measured (wait4; 0.4% before,
# 7 samples for 7 s), and perf took enough to compare with: 200 (its
# count is its run's, not a verdict on pct; 296 were seen for about 1.4 s
# of xz's CPU time, under the 300 asked before; the comparisons below take
# their tolerance from the counts)
perf report -i perf.data --stdio -n --sort pid -q 2>/dev/null | awk '$2 > 0 { split($3, a, ":"); print a[1] "\t" $2 }' >perf-thread.tsv
"$PCTBIN" report --by=thread --format=tsv xz.pct | awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	{ print $c["tid"] "\t" $c["samples"] }' >pct-thread.tsv
n_pct=$(awk '{ n += $2 } END { print n + 0 }' pct-thread.tsv)
n_perf=$(awk '{ n += $2 } END { print n + 0 }' perf-thread.tsv)
tree=$(sed -n 's/^pct: the samples cover [0-9]*% ([0-9.]* s) of the \([0-9.]*\) s of CPU time the command used.*/\1/p' rec.err)
echo "samples: pct $n_pct for $tree s of CPU time, perf $n_perf"
awk -v a="$n_pct" -v b="$n_perf" -v t="$tree" 'BEGIN { exit !(b >= 200 && t > 0 && a * 0.004 >= 0.7 * t) }' ||
	fail "pct took $n_pct samples for $tree s of CPU time (perf: $n_perf)"
# (2) by thread: the main thread (the lowest tid) and the workers, largest
# first; two-sample z of each share below 5 (6e-7 from sampling noise
# alone, the rest for the two runs' own variation), or the shares within
# 2 points
ranked() { sort -n "$1" | head -1 | cut -f2; sort -n "$1" | tail -n +2 | cut -f2 | sort -rn; }
paste <(ranked pct-thread.tsv) <(ranked perf-thread.tsv) >threads.tsv
# compare LABEL-FILE: rows "pct_count perf_count" (missing = 0)
compare() {
	awk -v what="$1" -v n1="$n_pct" -v n2="$n_perf" -v slack="${SLACK:-0.02}" '
	{ a = $1 + 0; b = $2 + 0; p1 = a / N1; p2 = b / N2; pp = (a + b) / (N1 + N2)
	  se = sqrt(pp * (1 - pp) * (1 / N1 + 1 / N2)); z = se > 0 ? (p1 - p2) / se : 0
	  ok = (z < 5 && z > -5) || (p1 - p2 < slack && p2 - p1 < slack)
	  printf "%s %-28s pct %5d (%5.1f%%)  perf %5d (%5.1f%%)  z %5.2f  %s\n", what, $3, a, 100 * p1, b, 100 * p2, z, ok ? "ok" : "MISMATCH"
	  if (!ok) bad = 1 }
	END { exit bad }' N1="$2" N2="$3" "$4"
}
awk '{ print $1, $2, (NR == 1 ? "main thread" : "worker " (NR - 1)) }' threads.tsv >threads.cmp
[ "$(wc -l <threads.cmp)" -ge 2 ] || fail "expected the main thread and a worker: $(cat pct-thread.tsv perf-thread.tsv)"
compare thread "$n_pct" "$n_perf" threads.cmp || fail "the threads' shares differ from perf's"
# (3) by function, within liblzma (stripped: perf gives addresses, which
# pct's own symbolizer names, so both sides name functions alike; the
# kernel's samples, which perf keeps apart and pct charges to the user PC,
# stay out)
lib=$("$PCTBIN" report --by=module --format=tsv xz.pct | awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$c["module"] ~ /liblzma/ { print $c["module"]; exit }')
[ -n "$lib" ] || fail "no liblzma in pct's profile"
"$PCTBIN" report --format=tsv xz.pct | awk -F'\t' -v lib="$lib" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$c["module"] == lib { n[$c["function"]] += $c["samples"] } END { for (f in n) print f "\t" n[f] }' | sort >pct-fn.tsv
{ printf 'module\tbuild_id\toffset\tsamples\n'
  perf report -i perf.data --stdio -n --sort dso,sym -q 2>/dev/null |
	awk -v lib="$lib" -v base="${lib##*/}" '$3 == base && $4 == "[.]" && $5 ~ /^0x/ { printf "%s\t\t%s\t%d\n", lib, $5, $2 }'
} >perf-lzma.tsv
"$PCTBIN" sym perf-lzma.tsv 2>/dev/null | awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	{ n[$c["function"]] += $c["samples"] } END { for (f in n) print f "\t" n[f] }' | sort >perf-fn.tsv
m_pct=$(awk -F'\t' '{ n += $2 } END { print n + 0 }' pct-fn.tsv)
m_perf=$(awk -F'\t' '{ n += $2 } END { print n + 0 }' perf-fn.tsv)
echo "liblzma: pct $m_pct samples, perf $m_perf"
awk -v a="$m_pct" -v b="$m_perf" 'BEGIN { exit !(a >= 200 && b >= 200) }' || fail "too few samples in liblzma"
join -t "$(printf '\t')" -a 1 -a 2 -e 0 -o 0,1.2,2.2 pct-fn.tsv perf-fn.tsv |
	awk -F'\t' -v a="$m_pct" -v b="$m_perf" '($2 + $3) / (a + b) >= 0.01 { print $2, $3, $1 }' >fn.cmp
[ "$(wc -l <fn.cmp)" -ge 2 ] || fail "fewer than 2 functions to compare: $(cat fn.cmp)"
# xz's own split between its functions moves from run to run beyond
# sampling noise (the same data, perf against perf: the top function at
# 57.1% and 66.2%, its CPU time 0.8 s to 2.5 s; pct and perf are two runs):
# a function's share passes within 20 points when its z is past 5
SLACK=0.20 compare function "$m_pct" "$m_perf" fn.cmp || fail "the functions' shares differ from perf's"
pass "xz -T2: pct agrees with perf by samples, thread and function"
