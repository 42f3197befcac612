# Attached with either mechanism, job control and signals work as
# without pct: attach-jobctl's parent watches its child with
# waitpid(WUNTRACED | WCONTINUED) and sees exactly one stop (SIGSTOP) and
# one continue for the one SIGSTOP and SIGCONT sent, then the child's exit
# status 7; the child really stops (no CPU time while stopped) and goes on
# after SIGCONT; it gets all 200 real-time signals its parent queues,
# each with its siginfo (SI_QUEUE, value 42, the parent's pid).  A detach
# while the child is stopped leaves it stopped, untraced, until SIGCONT.
. "$(dirname "$0")/lib.sh"
. "$ROOT/tests/hosts/attach-lib.sh"
ran=0
for m in perf ptrace; do
	"$HOSTS/attach-jobctl" >log-$m &
	pp=$!
	for _ in $(seq 1 100); do grep -q '^child' log-$m && break; sleep 0.05; done
	c=$(awk '/^child [0-9]/ { print $2 }' log-$m)
	[ -n "$c" ] || fail "attach-jobctl did not start"
	"$PCTBIN" record -p "$c" --duration=2 --mechanism=$m -o $m.pct 2>$m.err &
	r=$!
	sleep 0.4
	if ! kill -0 $r 2>/dev/null && refused $m.err; then
		echo "$m: $(cat $m.err)"
		kill -TERM "$c"
		wait $pp
		continue
	fi
	kill -USR2 $pp        # the parent queues 200 signals to the child
	sleep 0.7
	kill -STOP "$c"
	sleep 0.2
	a=$(cpu_ticks "$c")
	sleep 0.3
	b=$(cpu_ticks "$c")
	[ "$a" = "$b" ] || fail "$m: the child ran while stopped ($a -> $b ticks)"
	kill -CONT "$c"
	sleep 0.3
	a=$(cpu_ticks "$c")
	wait $r || fail "$m: record -p exits $?: $(cat $m.err)"
	b=$(cpu_ticks "$c")
	[ "$b" -gt "$a" ] || fail "$m: the child did not go on after SIGCONT"
	why=$(untraced "$c") || fail "$m: after the detach: $why"
	# a detach during a stop: the stop stays, the tracer goes
	"$PCTBIN" record -p "$c" --duration=0.8 --mechanism=$m -o $m-2.pct 2>$m-2.err &
	r=$!
	sleep 0.3
	kill -STOP "$c"
	wait $r || fail "$m: the second record -p exits $?: $(cat $m-2.err)"
	sleep 0.1
	st=$(awk '{ print $3 }' /proc/"$c"/task/*/stat | sort -u | tr -d '\n')
	tr=$(awk '/^TracerPid:/ { print $2 }' /proc/"$c"/task/*/status | sort -u | tr -d '\n')
	[ "$st" = T ] && [ "$tr" = 0 ] || fail "$m: detached during a stop: states $st, tracer $tr (want T, 0)"
	a=$(cpu_ticks "$c")
	sleep 0.3
	[ "$(cpu_ticks "$c")" = "$a" ] || fail "$m: the child ran after a detach while stopped"
	kill -CONT "$c"
	sleep 0.2
	kill -TERM "$c"
	wait $pp
	echo "$m: $(tr '\n' ' ' <log-$m)"
	want="child $c|sent 200|stopped 19|continued|stopped 19|continued|child rt 200 bad 0|exited 7"
	[ "$(tr '\n' '|' <log-$m)" = "$want|" ] || fail "$m: the parent saw: $(tr '\n' '|' <log-$m), want $want"
	ran=$((ran + 1))
done
[ $ran -gt 0 ] || skip "neither mechanism can attach here"
pass "$ran mechanisms: stops, continues, signals and the exit status as without pct"
