# A process that forks, execs and ends children and threads while pct is
# attached gives a complete profile with either mechanism: each round of
# attach-forkexec forks a child (40 ms in child_work), which execs itself
# (40 ms in exec_work, exit 5), and starts a thread (30 ms in
# thread_work) beside the parent's 50 ms of parent_work.  The profile is
# a tree holding the exec'd programs as members of their own, and each
# function has its share of the rounds: the exec'd programs are sampled
# as fully as the children that exec'd them (exec_work / child_work near
# 1).  Every child's status (5) still reaches the parent.
. "$(dirname "$0")/lib.sh"
. "$ROOT/tests/hosts/attach-lib.sh"
ran=0
for m in perf ptrace; do
	"$HOSTS/attach-forkexec" 3 >out-$m 2>ready-$m &
	t=$!
	wait_line ready-$m ready || fail "attach-forkexec did not start"
	sleep 0.2
	"$PCTBIN" record -p $t --duration=2 --mechanism=$m -o $m.pct 2>$m.err
	rc=$?
	wait $t
	st=$?
	if [ $rc != 0 ] && refused $m.err; then
		echo "$m: $(cat $m.err)"
		continue
	fi
	[ $rc = 0 ] || fail "$m: record -p exits $rc: $(cat $m.err)"
	[ $st = 0 ] || fail "$m: a child's status did not reach the parent: $(cat out-$m)"
	grep -q "as one process tree" $m.err || fail "$m: no process tree: $(cat $m.err)"
	"$PCTBIN" report --by=process --format=tsv $m.pct >proc-$m.tsv || fail "$m: report --by=process"
	execs=$(awk -F'\t' '$NF ~ /exec$/ { n++ } END { print n + 0 }' proc-$m.tsv)
	"$PCTBIN" report --format=tsv $m.pct >$m.tsv || fail "$m: report"
	get() { awk -F'\t' -v f="$1" 'NR > 1 && $NF == f { n += $1 } END { print n + 0 }' $m.tsv; }
	p=$(get parent_work) c=$(get child_work) e=$(get exec_work) th=$(get thread_work)
	echo "$m: $(cat out-$m); $execs exec'd programs in the tree; samples: parent_work $p, child_work $c, exec_work $e, thread_work $th"
	[ "$execs" -ge 5 ] || fail "$m: only $execs exec'd programs in the profile"
	for n in "$p" "$c" "$e" "$th"; do [ "$n" -ge 10 ] || fail "$m: a function has $n samples"; done
	# exec_work and child_work: 40 ms each per round; their ratio within
	# 4 standard errors of 1 (binomial, e of e + c)
	awk -v e="$e" -v c="$c" 'BEGIN { n = e + c; q = e / n; se = sqrt(0.25 / n); exit !(q - 0.5 < 4 * se + 0.05 && 0.5 - q < 4 * se + 0.05) }' ||
		fail "$m: exec'd programs are not sampled as their parents are ($e against $c)"
	ran=$((ran + 1))
done
[ $ran -gt 0 ] || skip "neither mechanism can attach here"
pass "$ran mechanisms: forks, execs and threads while attached, all profiled, statuses kept"
