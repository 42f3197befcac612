# Attached with either mechanism, a program's system calls never fail
# with EINTR because of pct: attach-eintr's threads block again and again
# in nanosleep, read, futex, epoll_wait, poll, select, sigtimedwait and
# recv (SO_RCVTIMEO), and three compute between short epoll_waits,
# sigtimedwaits and recvs, which return EINTR when a stop ends them (the
# ptrace mechanism restarts those its interrupt ended); with a SIGUSR1
# handler installed with SA_RESTART, without it, and with none.  It
# counts every EINTR and exits 1 on any.  make check runs the three with
# ptrace, whose stops could end a call, and the one without SA_RESTART
# with perf, which stops nothing; make check-full all six.
# pct-test: plain (the kernel's side of attaching is its subject; 150 and 157 run the attach layer sanitized)
. "$(dirname "$0")/lib.sh"
. "$ROOT/tests/hosts/attach-lib.sh"
ran=0
for m in perf ptrace; do
	modes="restart norestart none"
	[ $m = perf ] && [ -z "${PCT_TEST_FULL:-}" ] && modes=norestart
	for mode in $modes; do
		"$HOSTS/attach-eintr" 1.1 $mode >out-$m-$mode &
		t=$!
		wait_line out-$m-$mode ready || fail "attach-eintr did not start"
		"$PCTBIN" record -p $t --duration=0.8 --mechanism=$m -o $m-$mode.pct 2>$m-$mode.err
		rc=$?
		wait $t
		st=$?
		if [ $rc != 0 ] && refused $m-$mode.err; then
			echo "$m: $(cat $m-$mode.err)"
			continue 2
		fi
		[ $rc = 0 ] || fail "$m $mode: record -p exits $rc: $(cat $m-$mode.err)"
		echo "$m $mode: $(grep -v ready out-$m-$mode | tr '\n' ' ')"
		grep 'restarted' $m-$mode.err || true
		[ $st = 0 ] || fail "$m $mode: the program saw EINTR: $(grep -v ' 0$' out-$m-$mode | tr '\n' ' ')"
		# every call ran: no thread was left stopped
		awk '$1 != "ready" && $2 < 50 { bad = 1 } END { exit bad }' out-$m-$mode ||
			fail "$m $mode: a thread made few calls: $(cat out-$m-$mode)"
	done
	ran=$((ran + 1))
done
[ $ran -gt 0 ] || skip "neither mechanism can attach here"
pass "$ran mechanisms: no EINTR in any of 11 kinds of blocking call, with and without SA_RESTART"
