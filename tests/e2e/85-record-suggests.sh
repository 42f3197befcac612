# Every command `pct record` suggests works as printed (issue 15: `pct
# record gcc -c x.c` suggested `pct report gcc.pct gcc.*.pct`, and gcc.pct,
# the root's, did not exist).  For each tree the command between backquotes
# on record's stderr is run as a shell would run it; it must succeed and
# report exactly the samples of the files record listed.
. "$(dirname "$0")/lib.sh"

# suggested ERR: the command record printed between backquotes, or nothing
suggested() { sed -n 's/^pct: .*`\(pct report [^`]*\)`.*$/\1/p' "$1"; }
# listed ERR: the samples record said its files hold, summed
listed() {
	{ sed -n "s/^pct: \([0-9]*\) samples .*, written to '.*'$/\1/p" "$1"
	  sed -n "s/^pct: [0-9]* process\(es\)\?, \([0-9]*\) samples, written to '.*' as one process tree$/\2/p" "$1"
	  sed -n 's/^pct:   .*: pid [0-9]* (.*), \([0-9]*\) samples$/\1/p' "$1"; } | awk '{ n += $1 } END { print n + 0 }'
}
# run_suggested NAME ERR: run it from this directory, with this build's pct
run_suggested() {
	local cmd
	cmd=$(suggested "$2")
	[ "$(echo "$cmd" | grep -c .)" = 1 ] || fail "$1: expected one suggested command: $(cat "$2")"
	case $cmd in "pct report "*) ;; *) fail "$1: odd suggestion '$cmd'" ;; esac
	eval "\"\$PCTBIN\" ${cmd#pct }" >"$1.report" 2>"$1.rerr" || fail "$1: \`$cmd\` failed: $(cat "$1.rerr")"
	local n; n=$(sed -n 's/^# \([0-9]*\) samples.*/\1/p' "$1.report")
	[ "$n" = "$(listed "$2")" ] ||
		fail "$1: \`$cmd\` reports $n samples, record listed $(listed "$2"): $(cat "$2")"
	echo "$1: \`$cmd\`: $n samples, as listed"
}

# (a) a single process; and one whose file name starts with '-', which the
# suggestion must not pass as an option
"$PCTBIN" record -o one.pct "$PROGS/selftime" 0.2 >/dev/null 2>a.err || fail "record (a): $(cat a.err)"
run_suggested a a.err
"$PCTBIN" record -o -dash.pct "$PROGS/selftime" 0.2 >/dev/null 2>a2.err || fail "record (a2): $(cat a2.err)"
[ -f ./-dash.pct ] || fail "(a2): no -dash.pct: $(ls)"
run_suggested a2 a2.err

# (b) a tree whose root takes no sample: a shell that only waits for a busy
# child (the shell must not exec it: "; true" keeps it)
# (a shell of a millisecond or two takes a sample with a probability of its
# CPU time over the period, each thread's first period being a random
# phase: rerun until it took none)
for try in 1 2 3 4 5 6 7 8 9 10 11 12; do
	rm -f tree.pct tree.*.pct
	"$PCTBIN" record -o tree.pct sh -c "$PROGS/selftime 0.3 >/dev/null; true" 2>b.err || fail "record (b): $(cat b.err)"
	"$PCTBIN" report --by=process --format=tsv tree.pct >b.tsv || fail "report (b)"
	# the root, listed first, took no sample
	awk -F'\t' 'NR == 2 { exit !($1 == 0 && $NF ~ /^sh /) }' b.tsv && break
done
awk -F'\t' 'NR == 2 { exit !($1 == 0 && $NF ~ /^sh /) }' b.tsv ||
	fail "(b): the shell took a sample in 12 runs; the test needs a root without one: $(cat b.tsv)"
run_suggested b b.err
# the tree is folded into tree.pct, which the suggestion names alone
[ "$(suggested b.err)" = "pct report tree.pct" ] && [ -f tree.pct ] && ! ls tree.*.pct >/dev/null 2>&1 ||
	fail "(b): expected \`pct report tree.pct\` and tree.pct alone: $(cat b.err); $(ls)"
# and gcc, the case reported: its driver takes no sample, cc1 does
if command -v gcc >/dev/null; then
	mkdir g && cd g || fail "mkdir"
	awk 'BEGIN { for (i = 0; i < 3000; i++) printf "int f%d(int x) { return x * %d + %d; }\n", i, i, i % 7 }' >x.c
	"$PCTBIN" record gcc -O2 -c x.c 2>g.err || fail "record gcc: $(cat g.err)"
	cat g.err
	if [ -e gcc.pct ]; then
		echo "(the gcc driver took a sample this time)"
	fi
	run_suggested g g.err
	cd .. || fail "cd"
else
	echo "no gcc: the shell case (b) stands for it"
fi

# (c) a tree where no process takes a sample: nothing to report, so no
# command is suggested, and record says why.  At 1 Hz: at 250 Hz a CI
# host's loaded `sh -c 'true; true'` used 4 ms of CPU, a period, and took
# a sample in each of 12 tries; at 1 Hz one try samples with probability
# about CPU/1 s (below 1%)
for try in 1 2 3 4 5 6; do
	rm -f none.pct none.*.pct
	"$PCTBIN" record -F 1 -o none.pct sh -c 'true; true' 2>c.err || fail "record (c): $(cat c.err)"
	ls none.pct none.*.pct >/dev/null 2>&1 || break
done
[ -z "$(suggested c.err)" ] || fail "(c): suggests '$(suggested c.err)' with no profile written: $(cat c.err)"
grep -q "^pct: 'sh' wrote no profile: no sample" c.err || fail "(c): no reason given: $(cat c.err)"
grep -q "^pct: the samples cover 0% " c.err || fail "(c): the coverage line is missing: $(cat c.err)"

# (d) 45 processes: one summary, one name
"$PCTBIN" record -o many.pct sh -c "for i in \$(seq 45); do $PROGS/selftime 0.04 >/dev/null; done; true" \
	2>d.err || fail "record (d): $(cat d.err)"
grep -q '`pct report many\.pct`' d.err || fail "(d): expected \`pct report many.pct\`: $(cat d.err)"
[ "$(grep -c '^pct: ' d.err)" -le 5 ] || fail "(d): record printed more than a summary: $(cat d.err)"
ls many.*.pct >/dev/null 2>&1 && fail "(d): per-process files left: $(ls)"
run_suggested d d.err
pass "every suggested command runs as printed and reports the listed samples"
