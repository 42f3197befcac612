# What a program hands on through the signals pct also uses (its timer
# signal, and SIGBUS, which pct handles for its own mapping): a signal the
# program ignores stays ignored in the program it execs, by every exec
# function (execl, execle, execlp, execv, execvp, execve; glibc's own
# call its internal execve, which pct's execve never saw: before, SIGBUS,
# ignored through pct's virtual disposition, was SIG_DFL in the new
# program); and a SIGBUS the program sends itself while it blocks every
# signal is pending and taken by sigwait(3), as without pct.  Each runs
# plain and preloaded in every mode, with identical output and status
# (libpct(3), SIGNALS).
. "$(dirname "$0")/lib.sh"
. "$ROOT/tests/hosts/lib.sh"
for how in execl execle execlp execv execvp execve; do
	host_modes "ignored signals through $how" "$HOSTS/host-inherit" $how
	[ "$(cat plain.out)" = "$(printf 'SigIgn:\t0000000004008040')" ] || fail "$how itself: $(cat plain.out)"
done
host_modes "SIGBUS sent while blocked" "$HOSTS/host-inherit" pending
[ "$(cat plain.out)" = "$(printf 'pending 1\nsigwait 7')" ] || fail "pending itself: $(cat plain.out)"
same_in_every_mode 1 "$HOSTS/host-inherit" execvp
pass "ignored signals are inherited through every exec function; a blocked SIGBUS waits for the program"
