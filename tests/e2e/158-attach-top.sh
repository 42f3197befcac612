# pct top -p: the live view of a running process, attached from outside
# with each mechanism.  Without a terminal it prints a snapshot per
# interval naming the process, the mechanism and its hottest functions
# (attach-truth's work_a, work_b, work_c), and exits 0 once the process
# has ended; q on a terminal detaches at once and top exits 0, a SIGINT
# detaches and top dies of it, and the process runs on untraced.  make
# check runs the snapshots with perf, q and SIGINT with ptrace; make
# check-full all three with each.
# pct-test: plain (the kernel's side of attaching is its subject; 150 and 157 run the attach layer sanitized)
. "$(dirname "$0")/lib.sh"
. "$ROOT/tests/hosts/attach-lib.sh"
ran=0
for m in perf ptrace; do
	if [ -n "${PCT_TEST_FULL:-}" ] || [ $m = perf ]; then
		"$HOSTS/attach-truth" 2 1.5 >/dev/null 2>ready-$m &
		t=$!
		wait_line ready-$m ready || fail "attach-truth did not start"
		timeout 20 "$PCTBIN" top -d 0.3 -n 8 --mechanism=$m -p $t >top-$m.out 2>top-$m.err
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
	fi
	[ -n "${PCT_TEST_FULL:-}" ] || [ $m = ptrace ] || { ran=$((ran + 1)); continue; }
	# q on a terminal (a pty), then SIGINT, each once the first view is
	# out, detach and leave the process running
	"$HOSTS/attach-truth" 2 2.5 >/dev/null 2>ready2-$m &
	t=$!
	wait_line ready2-$m ready || fail "attach-truth did not start"
	if command -v python3 >/dev/null; then
		q=$(python3 "$ROOT/tests/hosts/attach-top-q.py" "$PCTBIN" $t $m) || fail "$m: top -p on a terminal: $q"
		[ "$q" = "q sent 0" ] || fail "$m: top -p on a terminal, q: $q (want: q sent, exit 0)"
		why=$(untraced $t) || fail "$m: after q: $why"
		a=$(cpu_ticks $t)
		sleep 0.2
		[ "$(cpu_ticks $t)" -gt "$a" ] || fail "$m: the process does not run after q"
		echo "$m: q detached, exit 0; the process runs on untraced"
	fi
	"$PCTBIN" top -d 0.3 --mechanism=$m -p $t >top2-$m.out 2>&1 &
	tp=$!
	if ! wait_attached top2-$m.out; then
		refused top2-$m.out || fail "$m: top -p shows nothing: $(cat top2-$m.out)"
		echo "$m: $(cat top2-$m.out)"
		wait $tp $t
		continue
	fi
	kill -INT $tp
	wait $tp
	rc=$?
	[ $rc = 130 ] || fail "$m: top -p on SIGINT exits $rc, not 130 (killed by it)"
	why=$(untraced $t) || fail "$m: after top's SIGINT: $why"
	a=$(cpu_ticks $t)
	sleep 0.2
	[ "$(cpu_ticks $t)" -gt "$a" ] || fail "$m: the process does not run after top detached"
	wait $t || fail "$m: the process exits $? after top detached"
	ran=$((ran + 1))
done
[ $ran -gt 0 ] || skip "neither mechanism can attach here"
pass "$ran mechanisms: top -p shows the running process's functions and detaches on q and SIGINT"
