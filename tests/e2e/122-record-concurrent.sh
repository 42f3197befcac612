# Two `pct record -o same.pct` at once (issue, item 11): before, the second
# to start moved the first one's live same.pct to same.pct.old (losing
# the profile that was there), and the one to end last renamed its result
# over the other's.  Now a run moves FILE aside only when no other run of
# it holds FILE.lock, a run replaces FILE only when FILE is its own
# profile, and otherwise writes a new name (same-2.pct) that it prints.
# Both orders of ending are run, synchronised through FIFOs and files the
# commands write, never by sleeping: A starts, its root takes same.pct;
# then B starts, and its root gets its own derived name.  Each run also
# has a child (selftime 0.11 in A, 0.12 in B) whose per-process file lies
# beside the other run's until each folds its own.
. "$(dirname "$0")/lib.sh"
# on a failure, the records and their commands' roots are killed by pid
pids=()
cleanup() {
	for p in "${pids[@]}" $(cat "$SCRATCH"/*/*.pid 2>/dev/null); do kill -KILL "$p" 2>/dev/null; done
	rm -rf "$SCRATCH"
}
trap cleanup EXIT
wait_for() {
	local i
	for i in $(seq 200); do
		[ -e "$1" ] && return 0
		sleep 0.05
	done
	fail "waited 10 s for $1: $(ls -A)"
}
# procs FILE: its processes' command lines, one a line
procs() { "$PCTBIN" report --by=process --format=tsv "$1" | awk -F'\t' 'NR > 1 { print $NF }'; }

run_pair() {   # run_pair FIRST_TO_END (a or b)
	rm -rf "$1" && mkdir "$1" && cd "$1" || exit 1
	# an earlier run's profile, which must end as same.pct.old, unchanged
	"$PCTBIN" record -o same.pct -- "$PROGS/selftime" 0.1 >/dev/null 2>/dev/null || fail "record the first same.pct"
	old=$(cksum <same.pct)
	mkfifo a.go b.go
	"$PCTBIN" record -o same.pct -- sh -c "echo \$\$ >a.pid; $PROGS/selftime 0.11 >/dev/null
		while [ ! -e same.pct ]; do :; done; : >a.ready; read x <a.go" 2>a.err &
	pids+=($!) a=$!
	wait_for a.ready
	live=$(stat -c %i same.pct)
	"$PCTBIN" record -o same.pct -- sh -c "echo \$\$ >b.pid; $PROGS/selftime 0.12 >/dev/null
		while [ ! -e same.\$\$.pct ]; do :; done; : >b.ready; read x <b.go" 2>b.err &
	pids+=($!) b=$!
	wait_for b.pid
	# B's command runs: A's live same.pct is where it was
	[ "$(stat -c %i same.pct)" = "$live" ] && [ "$(cksum <same.pct.old)" = "$old" ] ||
		fail "($1 ends first) B's start moved A's live same.pct aside: $(ls -il)"
	wait_for b.ready
	local first=$1 second
	[ "$first" = a ] && second=b || second=a
	echo go >"$first.go"
	wait "${!first}" || fail "($first ends first) record $first: $(cat "$first.err")"
	echo go >"$second.go"
	wait "${!second}" || fail "($first ends first) record $second: $(cat "$second.err")"
	cat a.err b.err
	# A's root took same.pct: A's profile is same.pct, B's the new name
	grep -q "written to 'same.pct' as one process tree" a.err || fail "($first first) A: $(cat a.err)"
	grep -q "written to 'same-2.pct' as one process tree" b.err || fail "($first first) B: $(cat b.err)"
	grep -q "^pct: 'same.pct' is another run's profile" b.err || fail "($first first) B does not say why: $(cat b.err)"
	grep -q '^pct: report it with `pct report same-2.pct`' b.err || fail "($first first) B's suggestion: $(cat b.err)"
	procs same.pct >a.procs || fail "report same.pct"
	procs same-2.pct >b.procs || fail "report same-2.pct"
	grep -qx 'selftime 0.11' a.procs && ! grep -q 'selftime 0.12' a.procs ||
		fail "($first first) same.pct should hold A's tree alone: $(cat a.procs)"
	grep -qx 'selftime 0.12' b.procs && ! grep -q 'selftime 0.11' b.procs ||
		fail "($first first) same-2.pct should hold B's tree alone: $(cat b.procs)"
	[ "$(cksum <same.pct.old)" = "$old" ] || fail "($first first) the earlier profile same.pct.old was replaced"
	# nothing else is left: no per-process file, no lock
	for f in $(ls -A); do
		case $f in same.pct | same-2.pct | same.pct.old | a.* | b.*) ;; *) fail "($first first) left: $f" ;; esac
	done
	ls same.[0-9]*.pct 2>/dev/null && fail "($first first) per-process files left"
	cd ..
	pass "B ends $([ "$first" = b ] && echo first || echo last): same.pct (A's), same-2.pct (B's) and same.pct.old (the earlier one) all kept"
}
run_pair b
run_pair a
