# One process tree, one name (issue 17, item 6): `pct record -o run.pct
# CMD` folds every process's profile into run.pct (pct(5), "Tree files"),
# which every reading command accepts; record prints a summary, not one
# line per process, and leaves no per-process file; --by=process tells
# processes apart by pid and arguments; the tree is compact.  It holds
# when the root took no sample and when the root died by SIGKILL.
. "$(dirname "$0")/lib.sh"
command -v gcc >/dev/null && command -v as >/dev/null || skip "needs gcc and as"
export XDG_CACHE_HOME=$SCRATCH/cache
# a C file that takes cc1 about a second at -O2
awk 'BEGIN { for (i = 0; i < 300; i++) printf "int f%d(int *a, int n) { int s = %d; for (int i = 0; i < n; i++) s += a[i] * %d ^ (s >> 3); return s; }\n", i, i, i + 1 }' >big.c

# (a) sh -c 'gcc -c big.c': sh, gcc, cc1 and as under one name
"$PCTBIN" record -o run.pct sh -c 'gcc -O2 -c big.c' 2>rec.err || fail "record gcc: $(cat rec.err)"
cat rec.err
[ -f big.o ] || fail "gcc made no big.o"
ls run.*.pct >/dev/null 2>&1 && fail "per-process files left beside run.pct: $(ls)"
[ "$(ls | grep -c '\.pct')" = 1 ] || fail "expected run.pct alone: $(ls)"
grep -q "^pct: [0-9]* processes, [0-9]* samples, written to 'run.pct' as one process tree$" rec.err ||
	fail "no tree summary: $(cat rec.err)"
[ "$(grep -c "^pct: " rec.err)" -le 5 ] || fail "record printed more than a summary: $(cat rec.err)"
grep -q 'pid [0-9]* (' rec.err && fail "record lists processes one by one: $(cat rec.err)"
grep -q "^pct: the samples cover [0-9]*% " rec.err || fail "no CPU share in the summary: $(cat rec.err)"
"$PCTBIN" report --by=module --format=tsv run.pct >mod.tsv || fail "report run.pct"
grep -q '/cc1$' mod.tsv || fail "cc1 is not in the report of run.pct: $(cat mod.tsv)"
"$PCTBIN" report --by=process --format=tsv run.pct >proc.tsv || fail "report --by=process"
cat proc.tsv
# cc1 is named with its pid and its arguments, which include big.c
grep -qE $'\t[0-9]+\tcc1 .*big\\.c' proc.tsv || fail "--by=process does not show cc1 with its arguments: $(cat proc.tsv)"
cc1=$(awk -F'\t' '$NF ~ /^cc1 / { n += $1 } END { print n + 0 }' proc.tsv)
[ "$cc1" -ge 50 ] || fail "cc1 took only $cc1 samples: $(cat proc.tsv)"
# --by=process lists every process, in the tree's order, whether or not
# it took a sample: sh (the root), gcc, cc1, as
order=$(awk -F'\t' 'NR > 1 { split($NF, w, " "); printf "%s ", w[1] }' proc.tsv)
echo "--by=process, in order: $order"
[ "$order" = "sh gcc cc1 as " ] || fail "--by=process lists '$order', not 'sh gcc cc1 as ': $(cat proc.tsv)"
# the members' pids in the file's index (pct(5): the header's members at
# offset 20, index at 64, 40 bytes a member, pid at 24) are those rows'
members=$(od -An -tu4 -j20 -N4 run.pct | tr -d ' ')
pids=$(for i in $(seq 0 $((members - 1))); do od -An -tu4 -j$((64 + 40 * i + 24)) -N4 run.pct; done | tr -d ' ' | tr '\n' ' ')
echo "members: $members, pids in the tree's order: $pids"
[ "$pids" = "$(awk -F'\t' 'NR > 1 { printf "%s ", $(NF - 1) }' proc.tsv)" ] ||
	fail "the index's pids $pids are not the rows' $(cat proc.tsv)"
"$PCTBIN" merge -o merged.pct run.pct || fail "merge run.pct"
# du: the tree file is small in apparent size (118 sparse profiles were
# 765 MB, 6.5 MB each; this tree holds 4, their data a few KiB)
size=$(du --apparent-size -k run.pct | cut -f1)
[ "$size" -le 64 ] || fail "run.pct is $size KiB in apparent size"
echo "run.pct: $size KiB"
# every reading command accepts the one name
"$PCTBIN" diff run.pct run.pct >diff.out || fail "diff run.pct run.pct: $(cat diff.out)"
"$PCTBIN" export --format=pprof -o run.pb.gz run.pct || fail "export run.pct"
"$PCTBIN" report merged.pct --by=module --format=tsv | grep -q '/cc1$' || fail "merge of run.pct lacks cc1"
"$PCTBIN" dump run.pct | grep -q $'\tcc1 ' || fail "dump of run.pct lacks cc1"
pass "sh -c 'gcc -c big.c': one run.pct of $size KiB with cc1 ($cc1 samples), read by report, diff, export, merge, dump"

# (b) a root that takes no sample: a shell that only waits for its child
# (rerun until it took none: it takes one with a probability of about its
# CPU time over the period); it is listed with 0 samples
for try in 1 2 3 4 5 6 7 8 9 10 11 12; do
	rm -f b.pct b.*.pct root.pid
	"$PCTBIN" record -o b.pct sh -c "echo \$\$ >root.pid; $PROGS/selftime 0.3 >/dev/null; true" 2>b.err ||
		fail "record (b): $(cat b.err)"
	"$PCTBIN" report --by=process --format=tsv b.pct >b.tsv || fail "report (b): $(cat b.tsv)"
	root=$(awk -F'\t' -v p="$(cat root.pid)" 'NR > 1 && $(NF - 1) == p { print $1 }' b.tsv)
	[ "$root" = 0 ] && break
done
[ "$root" = 0 ] || fail "the root shell took a sample in 12 runs (or is not listed): $(cat b.tsv)"
awk -F'\t' 'NR == 2 { exit !($NF ~ /^sh -c /) }' b.tsv || fail "(b): the root is not the first row: $(cat b.tsv)"
"$PCTBIN" report --format=tsv b.pct >b.fn || fail "report (b)"
grep -q $'\twork_a$' b.fn || fail "(b): the child's samples are missing: $(cat b.fn)"
ls b.*.pct >/dev/null 2>&1 && fail "(b): per-process files left: $(ls)"
pass "a root without a sample: b.pct reports the tree, the root listed with 0 samples"

# (c) a root killed by SIGKILL after its children ran
"$PCTBIN" record -o c.pct sh -c "$PROGS/selftime 0.3 >/dev/null; $PROGS/selftime 0.2 >/dev/null; kill -9 \$\$" 2>c.err
rc=$?
[ $rc = 137 ] || fail "(c): record should die as the command did (SIGKILL, 137): $rc: $(cat c.err)"
"$PCTBIN" report --by=process --format=tsv c.pct >c.tsv || fail "report (c): $(cat c.err)"
[ "$(awk -F'\t' 'NR > 1 && $NF ~ /^selftime/' c.tsv | wc -l)" = 2 ] || fail "(c): both children expected: $(cat c.tsv)"
ls c.*.pct >/dev/null 2>&1 && fail "(c): per-process files left: $(ls)"
pass "a root killed by SIGKILL: c.pct reports both children"

# (d) call stacks (-g) in a tree: flame reads the one name
# under umask 000 (the tree file holds raw stack copies: 0600, as the
# runtime's profiles, even when the root wrote none to replace)
(umask 000 && "$PCTBIN" record -g -o g.pct sh -c "$PROGS/selftime 0.3 >/dev/null; $PROGS/selftime 0.1 >/dev/null" 2>g.err) ||
	fail "record -g (d): $(cat g.err)"
[ "$(stat -c %a g.pct)" = 600 ] || fail "(d): g.pct has mode $(stat -c %a g.pct), not 600"
"$PCTBIN" flame -o g.svg g.pct || fail "flame of a tree file"
grep -q 'work_a' g.svg || fail "flame of g.pct lacks work_a"
ls g.*.pct >/dev/null 2>&1 && fail "(d): per-process files left: $(ls)"
echo "g.pct: $(du --apparent-size -k g.pct | cut -f1) KiB"
pass "a tree recorded with -g: flame reads g.pct"
