# io_uring_enter(2) waiting with a timeout is never restarted: a signal
# handled during the call makes it fail with EINTR, and a CPU-time sample
# can be due there (the timer counts system time).  This measures how
# often, in 3000 waits per mode, each after 0.3 ms of CPU; the program
# retries, so its output is the same.  Measured here (10,000 waits): 0 at
# 250 Hz and with -e wall, 5 at 5 kHz (15,235 samples), 0 without pct;
# libpct(3) LIMITS states it.  A sampler that signalled sleeping threads
# would show here at once: the bound is 1% of the waits.
# pct-test: plain (its subject is the runtime, which build-san leaves uninstrumented: the sanitized run adds nothing)
. "$(dirname "$0")/lib.sh"
. "$ROOT/tests/hosts/lib.sh"
"$HOSTS/host-uring" 10 >/dev/null 2>probe.err
[ $? = 77 ] && skip "the kernel refuses io_uring here: $(cat probe.err)"
host_modes "io_uring waits" "$HOSTS/host-uring" 3000 || exit 1
grep -q '^eintr 0$' plain.err || fail "EINTR without pct: $(cat plain.err)"
line="plain $(cat plain.err)"
for m in "${MODE_NAMES[@]}"; do
	k=$(sed -n 's/^eintr \([0-9]*\)$/\1/p' "err.$m")
	[ -n "$k" ] || fail "$m: no count: $(cat "err.$m")"
	line="$line; $m eintr $k"
	[ "$k" -le 30 ] || fail "$m: $k EINTR in 3000 waits"
done
echo "EINTR in 3000 io_uring waits: $line; samples:$SAMPLES"
pass "io_uring waits fail with EINTR rarely, as documented"
