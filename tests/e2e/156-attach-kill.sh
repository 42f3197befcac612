# pct record -p killed by SIGKILL at any moment leaves every thread of
# the target running, not stopped, and not traced: the kernel detaches
# the tracees of a tracer that dies (a thread stopped by PTRACE_INTERRUPT
# is woken, a group-stop kept), and perf events die with their
# descriptors.  Six kills (twelve under make check-full) at random
# moments of each mechanism, in its first 0.6 s, attaching included (-g,
# so that stops last longer), on attach-jobctl's child (two computing
# threads, one sleeping), which must still be running afterwards; and a
# kill while the target is group-stopped leaves it stopped, untraced,
# until SIGCONT.
# pct-test: plain (the kernel's side of attaching is its subject; 150 and 157 run the attach layer sanitized)
. "$(dirname "$0")/lib.sh"
. "$ROOT/tests/hosts/attach-lib.sh"
"$HOSTS/attach-jobctl" >log &
pp=$!
for _ in $(seq 1 100); do grep -q '^child' log && break; sleep 0.05; done
c=$(awk '/^child [0-9]/ { print $2 }' log)
[ -n "$c" ] || fail "attach-jobctl did not start"
stops=0
kills_of=6
[ -n "${PCT_TEST_FULL:-}" ] && kills_of=12
# states PID: the states of its threads, sorted and merged ("R", "S", "T"...)
states() { awk '{ print $3 }' /proc/"$1"/task/*/stat | sort -u | tr -d '\n'; }
ran=0
for m in perf ptrace; do
	kills=0
	for i in $(seq 1 $kills_of); do
		"$PCTBIN" record -g -p "$c" --mechanism=$m -o $m-$i.pct 2>$m.err &
		r=$!
		sleep "0.$((RANDOM % 6))$((RANDOM % 10))"
		kill -KILL $r 2>/dev/null && kills=$((kills + 1))
		wait $r 2>/dev/null
		if refused $m.err; then
			echo "$m: $(cat $m.err)"
			continue 2
		fi
		# (the kernel detached the tracees as the tracer exited, before
		# its parent could reap it; a woken thread may take a moment to
		# leave its stop: up to 1 s)
		for _ in $(seq 1 20); do untraced "$c" >/dev/null && break; sleep 0.05; done
		why=$(untraced "$c") || fail "$m: after a SIGKILL of record -p ($i): $why"
	done
	a=$(cpu_ticks "$c")
	sleep 0.3
	[ "$(cpu_ticks "$c")" -gt "$a" ] || fail "$m: the target does not run after $kills kills"
	# killed while the target is stopped: it stays stopped, untraced
	"$PCTBIN" record -p "$c" --mechanism=$m -o $m-s.pct 2>$m-s.err &
	r=$!
	wait_attached $m-s.err || fail "$m: record -p did not attach: $(cat $m-s.err)"
	kill -STOP "$c"
	# the group-stop complete: the parent's waitpid reported it
	stops=$((stops + 1))
	wait_lines log "stopped 19" $stops || fail "$m: the parent did not see the SIGSTOP: $(cat log)"
	kill -KILL $r
	wait $r 2>/dev/null
	# a thread that the dead tracer's detach woke from an interrupt's stop
	# runs an instant on its way into the group-stop: the states settle
	# (1 s at most), then no thread runs for 0.2 s
	for _ in $(seq 1 20); do [ "$(states "$c")" = T ] && break; sleep 0.05; done
	st=$(states "$c")
	tr=$(awk '/^TracerPid:/ { print $2 }' /proc/"$c"/task/*/status | sort -u | tr -d '\n')
	[ "$st" = T ] && [ "$tr" = 0 ] || fail "$m: killed during a stop: states $st, tracer $tr (want T, 0)"
	a=$(cpu_ticks "$c")
	sleep 0.2
	[ "$(cpu_ticks "$c")" = "$a" ] || fail "$m: the target ran after a kill of record -p during its stop"
	kill -CONT "$c"
	for _ in $(seq 1 20); do untraced "$c" >/dev/null && break; sleep 0.05; done
	why=$(untraced "$c") || fail "$m: after SIGCONT: $why"
	echo "$m: $kills kills of record -p, the target runs untraced; killed during a stop, it stayed stopped"
	ran=$((ran + 1))
done
kill -TERM "$c"
wait $pp
grep -q '^exited 7$' log || fail "the target's status did not reach its parent: $(cat log)"
[ $ran -gt 0 ] || skip "neither mechanism can attach here"
pass "$ran mechanisms: record -p killed at any moment leaves its target running and untraced"
