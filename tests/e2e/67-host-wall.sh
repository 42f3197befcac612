# The wall event's sampler thread must not show.  Before: a main thread
# that ends with a raw exit(2) left the process running for ever (the
# sampler was its last thread); unshare -U failed with "Invalid argument"
# (a user namespace needs a process of one thread); setpriv aborted (glibc's
# setuid broadcast failed in the sampler, which kept the capabilities
# setpriv had dropped in its own thread).  Each runs plain and in every
# mode with identical output and status (in a container that refuses user
# namespaces, unshare fails alike in every mode).
# pct-test: plain (its subject is the runtime, which build-san leaves uninstrumented: the sanitized run adds nothing)
. "$(dirname "$0")/lib.sh"
. "$ROOT/tests/hosts/lib.sh"
same_in_every_mode 1 "$HOSTS/rawexit"
[ "$(cat plain.out)" = "main ends" ] || fail "rawexit itself: $(cat plain.out)"
"$HOSTS/rawexit" >/dev/null; [ $? = 3 ] || fail "rawexit alone does not exit 3"
same_in_every_mode 1 "$HOSTS/rawexit" thread
"$HOSTS/rawexit" thread >/dev/null; [ $? = 5 ] || fail "rawexit with a thread does not exit 5"
echo "a main thread's raw exit ends the process as without pct"
# main's pthread_exit: glibc's exit(0) when the last thread ends runs the
# atexit handler and flushes stdout (a file here); the sampler must not
# be that last thread (the review of this change found nothing printed)
same_in_every_mode 1 "$HOSTS/pthexit"
[ "$(cat plain.out)" = "$(printf 'main exits\nworker done\natexit ran')" ] || fail "pthexit itself: $(cat plain.out)"
# main the last of the program's threads at its pthread_exit: the sampler
# must stop then (before: nothing printed, for the sampler was the last
# thread, and when it ended the process died without exit(0))
same_in_every_mode 1 "$HOSTS/pthexit" joined
[ "$(cat plain.out)" = "$(printf 'worker done\nmain exits\natexit ran')" ] || fail "pthexit joined itself: $(cat plain.out)"
same_in_every_mode 0 unshare -U id -u
echo "unshare -U: $(cat plain.out plain.err)"
same_in_every_mode 0 setpriv --reuid=nobody --regid=nogroup --clear-groups id -u
echo "setpriv: $(cat plain.out plain.err)"
# the sampler, stopped for unshare and for setpriv's capability changes,
# comes back: a program that sleeps after unshare is still sampled off-CPU
"$PCTBIN" record -e wall -o late.pct -- unshare -U sleep 0.5 2>late.err || fail "unshare sleep: $(cat late.err)"
# (unshare itself takes a sample with a chance of its CPU time over the
# period; then sleep, in a user namespace that cannot own late.pct, writes
# its own late.PID.pct, which record names)
n=$("$PCTBIN" report --format=tsv late*.pct 2>/dev/null | awk -F'\t' 'NR > 1 && $NF ~ /nanosleep/ { n += $1 } END { print n + 0 }')
echo "unshare -U sleep 0.5 under -e wall: $n samples in nanosleep"
if unshare -U true 2>/dev/null; then
	[ "$n" -ge 60 ] || fail "the wall sampler did not come back after unshare: $n samples in nanosleep"
fi
pass "the wall sampler thread stays out of the program's way"
