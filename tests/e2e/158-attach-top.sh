# pct top -p: the live view of a running process, attached from outside
# with each mechanism.  Without a terminal it prints a snapshot per
# interval naming the process, the mechanism and its hottest functions
# (attach-truth's work_a, work_b, work_c), and exits 0 once the process
# has ended; a SIGINT (q on a terminal) detaches at once, top dies of it,
# and the process runs on untraced.
. "$(dirname "$0")/lib.sh"
. "$ROOT/tests/hosts/attach-lib.sh"
ran=0
for m in perf ptrace; do
	"$HOSTS/attach-truth" 2 2.2 >/dev/null 2>ready-$m &
	t=$!
	wait_line ready-$m ready || fail "attach-truth did not start"
	timeout 20 "$PCTBIN" top -d 0.5 -n 5 --mechanism=$m -p $t >top-$m.out 2>top-$m.err
	rc=$?
	wait $t
	if [ $rc != 0 ] && refused top-$m.err; then
		echo "$m: $(cat top-$m.err)"
		continue
	fi
	[ $rc = 0 ] || fail "$m: top -p exits $rc once the process ended: $(cat top-$m.err)"
	n=$(grep -c "^pct top - attach-truth (pid $t, attached with $m)" top-$m.out)
	[ "$n" -ge 3 ] || fail "$m: $n snapshots: $(head -5 top-$m.out)"
	for f in work_a work_b work_c; do grep -q " $f " top-$m.out || fail "$m: no $f in the view: $(tail -8 top-$m.out)"; done
	echo "$m: $n snapshots; the last: $(grep -A 6 '^pct top' top-$m.out | tail -7 | cut -c1-100 | tr '\n' '|')"
	# SIGINT detaches and leaves the process running
	"$HOSTS/attach-truth" 2 4 >/dev/null 2>ready2-$m &
	t=$!
	wait_line ready2-$m ready || fail "attach-truth did not start"
	"$PCTBIN" top -d 0.5 --mechanism=$m -p $t >/dev/null 2>&1 &
	tp=$!
	sleep 1
	kill -INT $tp
	wait $tp
	rc=$?
	[ $rc = 130 ] || fail "$m: top -p on SIGINT exits $rc, not 130 (killed by it)"
	sleep 0.1
	why=$(untraced $t) || fail "$m: after top's SIGINT: $why"
	a=$(cpu_ticks $t)
	sleep 0.3
	[ "$(cpu_ticks $t)" -gt "$a" ] || fail "$m: the process does not run after top detached"
	wait $t || fail "$m: the process exits $? after top detached"
	ran=$((ran + 1))
done
[ $ran -gt 0 ] || skip "neither mechanism can attach here"
pass "$ran mechanisms: top -p shows the running process's functions and detaches on SIGINT"
