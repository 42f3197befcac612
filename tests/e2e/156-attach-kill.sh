# pct record -p killed by SIGKILL at any moment leaves every thread of
# the target running, not stopped, and not traced: the kernel detaches
# the tracees of a tracer that dies (a thread stopped by PTRACE_INTERRUPT
# is woken, a group-stop kept), and perf events die with their
# descriptors.  Twelve kills at random moments of each mechanism (-g, so
# that stops last longer), on attach-jobctl's child (two computing
# threads, one sleeping), which must still be running afterwards; and a
# kill while the target is group-stopped leaves it stopped, untraced,
# until SIGCONT.
. "$(dirname "$0")/lib.sh"
. "$ROOT/tests/hosts/attach-lib.sh"
"$HOSTS/attach-jobctl" >log &
pp=$!
for _ in $(seq 1 100); do grep -q '^child' log && break; sleep 0.05; done
c=$(awk '/^child [0-9]/ { print $2 }' log)
[ -n "$c" ] || fail "attach-jobctl did not start"
ran=0
for m in perf ptrace; do
	kills=0
	for i in $(seq 1 12); do
		"$PCTBIN" record -g -p "$c" --mechanism=$m -o $m-$i.pct 2>$m.err &
		r=$!
		sleep "0.$((RANDOM % 6))$((RANDOM % 10))"
		kill -KILL $r 2>/dev/null && kills=$((kills + 1))
		wait $r 2>/dev/null
		if refused $m.err; then
			echo "$m: $(cat $m.err)"
			continue 2
		fi
		sleep 0.05
		why=$(untraced "$c") || fail "$m: after a SIGKILL of record -p ($i): $why"
	done
	a=$(cpu_ticks "$c")
	sleep 0.3
	[ "$(cpu_ticks "$c")" -gt "$a" ] || fail "$m: the target does not run after $kills kills"
	# killed while the target is stopped: it stays stopped, untraced
	"$PCTBIN" record -p "$c" --mechanism=$m -o $m-s.pct 2>/dev/null &
	r=$!
	sleep 0.3
	kill -STOP "$c"
	sleep 0.2
	kill -KILL $r
	wait $r 2>/dev/null
	sleep 0.05
	st=$(awk '{ print $3 }' /proc/"$c"/task/*/stat | sort -u | tr -d '\n')
	tr=$(awk '/^TracerPid:/ { print $2 }' /proc/"$c"/task/*/status | sort -u | tr -d '\n')
	[ "$st" = T ] && [ "$tr" = 0 ] || fail "$m: killed during a stop: states $st, tracer $tr (want T, 0)"
	kill -CONT "$c"
	sleep 0.1
	why=$(untraced "$c") || fail "$m: after SIGCONT: $why"
	echo "$m: $kills kills of record -p, the target runs untraced; killed during a stop, it stayed stopped"
	ran=$((ran + 1))
done
kill -TERM "$c"
wait $pp
grep -q '^exited 7$' log || fail "the target's status did not reach its parent: $(cat log)"
[ $ran -gt 0 ] || skip "neither mechanism can attach here"
pass "$ran mechanisms: record -p killed at any moment leaves its target running and untraced"
