# --comm, --tid and --dso (issue 36, item 1), as perf report's, on every
# command that reads samples:
# - threads4 (four threads named worker-1..4, -g): --comm=worker-2,worker-4
#   keeps exactly those two threads, each with all its samples; --tid=TID
#   keeps one; -g totals then count only the selected threads' stacks;
# - libcwork (qsort in libc, its comparison in the program, -g):
#   --dso=libc.so.6 (a base name) and --dso=PATH keep exactly the libc
#   module's samples, and its stacks (by the module of their sampled PC);
# - dump, timeline, merge, top, annotate, source, diff, export, flame and
#   html take them; a merge with --comm reports what report --comm does;
# - a bad list (empty, a non-number tid) is a usage error (exit 2).
. "$(dirname "$0")/lib.sh"
col() { awk -F'\t' -v k="$2" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } { print $c[k] }' "$1"; }
rec_t() { "$PCTBIN" record -g -o t.pct "$PROGS/threads4" "$1" >/dev/null 2>rec.err; }
# worker-1 burns a tenth of the CPU: at least 200 samples give it about
# 20 (a Poisson mean of 20 has P(0) = 2e-9), so every thread has samples
until_samples 200 t.pct 0.2 3.2 rec_t
"$PCTBIN" report --format=tsv --by=thread t.pct >th.tsv || fail "report --by=thread"
[ "$(col th.tsv thread | sort | tr '\n' ' ')" = "worker-1 worker-2 worker-3 worker-4 " ] || fail "threads: $(cat th.tsv)"
"$PCTBIN" report --format=tsv --by=thread --comm=worker-2,worker-4 t.pct >c.tsv || fail "report --comm"
[ "$(col c.tsv thread | sort | tr '\n' ' ')" = "worker-2 worker-4 " ] || fail "--comm=worker-2,worker-4 kept: $(cat c.tsv)"
for w in worker-2 worker-4; do
	[ "$(awk -F'\t' -v w=$w '$NF == w { print $1 }' c.tsv)" = "$(awk -F'\t' -v w=$w '$NF == w { print $1 }' th.tsv)" ] ||
		fail "--comm: $w's samples differ: $(cat c.tsv th.tsv)"
done
tid3=$(awk -F'\t' '$NF == "worker-3" { print $(NF - 1) }' th.tsv) n3=$(awk -F'\t' '$NF == "worker-3" { print $1 }' th.tsv)
"$PCTBIN" report --format=tsv --by=thread --tid="$tid3" t.pct >tid.tsv || fail "report --tid"
[ "$(col tid.tsv tid)" = "$tid3" ] && [ "$(col tid.tsv samples)" = "$n3" ] || fail "--tid=$tid3 (worker-3, $n3 samples): $(cat tid.tsv)"
# -g: the totals are of the selected thread's stacks
n1=$(awk -F'\t' '$NF == "worker-1" { print $1 }' th.tsv)
"$PCTBIN" report --comm=worker-1 t.pct >c1.txt || fail "report --comm=worker-1"
grep -q "^# total: .* of $n1 samples with stacks" c1.txt || fail "--comm=worker-1 ($n1 samples): the totals are not of its stacks: $(grep '^# total' c1.txt)"
# every command takes them
"$PCTBIN" dump --comm=worker-1 t.pct | grep -v '^#' | awk -F'\t' 'NR > 1 { n += $NF } END { print n + 0 }' >d.n
[ "$(cat d.n)" = "$n1" ] || fail "dump --comm=worker-1: $(cat d.n) samples, want $n1"
"$PCTBIN" merge --comm=worker-1 -o m.pct t.pct || fail "merge --comm"
"$PCTBIN" report --format=tsv m.pct >m.tsv && "$PCTBIN" report --format=tsv --comm=worker-1 t.pct >c1.tsv || fail "report m.pct"
# (the merge sums, as --sum: its file has no stacks, so no total-only rows)
[ "$(col m.tsv samples | grep -vx 0 | sort)" = "$(col c1.tsv samples | grep -vx 0 | sort)" ] || fail "merge --comm: other rows than report --comm: $(cat m.tsv c1.tsv)"
"$PCTBIN" timeline --format=tsv --comm=worker-1 t.pct >tl.tsv || fail "timeline --comm"
[ "$(col tl.tsv thread | sort -u)" = worker-1 ] || fail "timeline --comm=worker-1: $(col tl.tsv thread | sort -u | tr '\n' ' ')"
"$PCTBIN" top --comm=worker-1 t.pct >top.txt || fail "top --comm"
grep -q "all functions: $n1 samples in the interval" top.txt || fail "top --comm=worker-1: $(head -4 top.txt)"
"$PCTBIN" flame --comm=worker-1 -o f.svg t.pct && grep -q '<svg' f.svg || fail "flame --comm"
"$PCTBIN" html --comm=worker-1 -o h.html t.pct && grep -q '<html' h.html || fail "html --comm"
"$PCTBIN" export --format=pprof --comm=worker-1 -o e.pb.gz t.pct && [ -s e.pb.gz ] || fail "export --comm"
"$PCTBIN" annotate --comm=worker-1 t.pct >/dev/null || fail "annotate --comm"
"$PCTBIN" source --tid="$tid3" t.pct >/dev/null || fail "source --tid"
"$PCTBIN" diff --comm=worker-1 t.pct t.pct >/dev/null || fail "diff --comm"

# --dso on libc
rec_l() { "$PCTBIN" record -g -o l.pct "$PROGS/libcwork" "$(awk -v s="$1" 'BEGIN { print int(s * 150) }')" >/dev/null 2>rec.err; }
until_samples 100 l.pct 1 8 rec_l
"$PCTBIN" report --format=tsv --by=module l.pct >lm.tsv || fail "report --by=module"
libc=$(col lm.tsv module | grep '/libc\.so\.6$') nlibc=$(awk -F'\t' '$NF ~ /\/libc\.so\.6$/ { print $1 }' lm.tsv)
[ -n "$libc" ] && [ "$nlibc" -gt 0 ] || fail "no libc samples: $(cat lm.tsv)"
for d in libc.so.6 "$libc"; do
	"$PCTBIN" report --format=tsv --by=module --dso="$d" l.pct >ld.tsv || fail "report --dso=$d"
	[ "$(col ld.tsv module)" = "$libc" ] && [ "$(col ld.tsv samples)" = "$nlibc" ] || fail "--dso=$d: $(cat ld.tsv)"
done
"$PCTBIN" report --dso=libc.so.6 l.pct >ld.txt || fail "report --dso -g"
grep -q "^# total: .* of $nlibc samples with stacks" ld.txt || fail "--dso=libc.so.6: the stacks are not those of libc's $nlibc samples: $(grep '^# total' ld.txt)"
"$PCTBIN" report --format=tsv --dso=no-such.so l.pct >none.tsv || fail "report --dso=no-such.so"
[ "$(wc -l <none.tsv)" = 1 ] || fail "--dso=no-such.so kept rows: $(cat none.tsv)"

for bad in "--tid=1x" "--tid=" "--comm=" "--dso=a,,b" "--comm=a,"; do
	"$PCTBIN" report $bad t.pct >/dev/null 2>bad.err; [ $? = 2 ] || fail "report $bad: not exit 2: $(cat bad.err)"
	"$PCTBIN" dump $bad t.pct >/dev/null 2>bad.err; [ $? = 2 ] || fail "dump $bad: not exit 2: $(cat bad.err)"
done
pass "--comm, --tid and --dso keep exactly their threads' and module's samples and stacks ($n1 of worker-1, $n3 of worker-3, $nlibc in libc), in every command"
