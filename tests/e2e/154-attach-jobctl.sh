# Attached with either mechanism, job control and signals work as
# without pct: attach-jobctl's parent watches its child with
# waitpid(WUNTRACED | WCONTINUED) and sees exactly one stop (SIGSTOP) and
# one continue for the one SIGSTOP and SIGCONT sent, then the child's exit
# status 7; the child really stops (no CPU time while stopped) and goes on
# after SIGCONT; it gets all 200 real-time signals its parent queues,
# each with its siginfo (SI_QUEUE, value 42, the parent's pid).  A detach
# while the child is stopped leaves it stopped, untraced, until SIGCONT.
# pct-test: plain (the kernel's side of attaching is its subject; 150 and 157 run the attach layer sanitized)
. "$(dirname "$0")/lib.sh"
. "$ROOT/tests/hosts/attach-lib.sh"
ran=0
for m in perf ptrace; do
	"$HOSTS/attach-jobctl" >log-$m &
	pp=$!
	for _ in $(seq 1 100); do grep -q '^child' log-$m && break; sleep 0.05; done
	c=$(awk '/^child [0-9]/ { print $2 }' log-$m)
	[ -n "$c" ] || fail "attach-jobctl did not start"
	"$PCTBIN" record -p "$c" --duration=1.5 --mechanism=$m -o $m.pct 2>$m.err &
	r=$!
	if ! wait_attached $m.err; then
		refused $m.err || fail "$m: record -p did not attach: $(cat $m.err)"
		echo "$m: $(cat $m.err)"
		wait $r
		kill -TERM "$c"
		wait $pp
		continue
	fi
	kill -USR2 $pp        # the parent queues 200 signals to the child
	wait_line log-$m "sent 200" || fail "$m: the parent did not send its signals: $(cat log-$m)"
	kill -STOP "$c"
	# the parent's waitpid saw the stop: the child is stopped; no CPU
	# time for 0.2 s (USER_HZ ticks, 10 ms: two computing threads would
	# take about 40)
	wait_lines log-$m "stopped 19" 1 || fail "$m: the parent did not see the SIGSTOP: $(cat log-$m)"
	a=$(cpu_ticks "$c")
	sleep 0.2
	b=$(cpu_ticks "$c")
	[ "$a" = "$b" ] || fail "$m: the child ran while stopped ($a -> $b ticks)"
	kill -CONT "$c"
	wait_lines log-$m continued 1 || fail "$m: the parent did not see the SIGCONT: $(cat log-$m)"
	a=$(cpu_ticks "$c")
	sleep 0.2
	b=$(cpu_ticks "$c")
	[ "$b" -gt "$a" ] || fail "$m: the child did not go on after SIGCONT"
	wait $r || fail "$m: record -p exits $?: $(cat $m.err)"
	why=$(untraced "$c") || fail "$m: after the detach: $why"
	# a detach during a stop: the stop stays, the tracer goes
	"$PCTBIN" record -p "$c" --duration=0.6 --mechanism=$m -o $m-2.pct 2>$m-2.err &
	r=$!
	wait_attached $m-2.err || fail "$m: the second record -p did not attach: $(cat $m-2.err)"
	kill -STOP "$c"
	wait_lines log-$m "stopped 19" 2 || fail "$m: the parent did not see the second SIGSTOP: $(cat log-$m)"
	wait $r || fail "$m: the second record -p exits $?: $(cat $m-2.err)"
	# (a thread the detach woke from an interrupt's stop runs an instant
	# on its way into the group-stop: the states settle, 1 s at most)
	for _ in $(seq 1 20); do [ "$(awk '{ print $3 }' /proc/"$c"/task/*/stat | sort -u | tr -d '\n')" = T ] && break; sleep 0.05; done
	st=$(awk '{ print $3 }' /proc/"$c"/task/*/stat | sort -u | tr -d '\n')
	tr=$(awk '/^TracerPid:/ { print $2 }' /proc/"$c"/task/*/status | sort -u | tr -d '\n')
	[ "$st" = T ] && [ "$tr" = 0 ] || fail "$m: detached during a stop: states $st, tracer $tr (want T, 0)"
	a=$(cpu_ticks "$c")
	sleep 0.2
	[ "$(cpu_ticks "$c")" = "$a" ] || fail "$m: the child ran after a detach while stopped"
	kill -CONT "$c"
	wait_lines log-$m continued 2 || fail "$m: the parent did not see the second SIGCONT: $(cat log-$m)"
	kill -TERM "$c"
	wait $pp
	echo "$m: $(tr '\n' ' ' <log-$m)"
	want="child $c|sent 200|stopped 19|continued|stopped 19|continued|child rt 200 bad 0|exited 7"
	[ "$(tr '\n' '|' <log-$m)" = "$want|" ] || fail "$m: the parent saw: $(tr '\n' '|' <log-$m), want $want"
	ran=$((ran + 1))
done
[ $ran -gt 0 ] || skip "neither mechanism can attach here"
pass "$ran mechanisms: stops, continues, signals and the exit status as without pct"
