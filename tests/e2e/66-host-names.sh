# Odd values of $PCT: "dir/" and an existing directory get the default
# name inside them (dir/PROG.PID.pct, not a hidden dir/.PID.pct); a
# device or other special file (/dev/full) is refused with one warning
# (not /dev/full.PID.pct in /dev).
# pct-test: plain (its subject is the runtime, which build-san leaves uninstrumented: the sanitized run adds nothing)
. "$(dirname "$0")/lib.sh"
. "$ROOT/tests/hosts/lib.sh"
mkdir out
# each mode must leave its profile (HOST_MIN: again if a run took none)
HOST_MIN=1 POUT=$SCRATCH/out/ host_modes "PCT=dir/" "$HOSTS/host-fsize" 0.2
ls out | grep -qx 'host-fsize\.[0-9]*\.pct' || fail "PCT=dir/: $(ls -a out)"
ls -a out | grep -q '^\.[0-9]' && fail "PCT=dir/: a hidden file: $(ls -a out)"
HOST_MIN=1 POUT=$SCRATCH/out host_modes "PCT=dir" "$HOSTS/host-fsize" 0.2
ls out | grep -qx 'host-fsize\.[0-9]*\.pct' || fail "PCT=dir: $(ls -a out)"
before=$(ls -a /dev | grep -c '\.pct$')
POUT=/dev/full host_modes "PCT=/dev/full" "$HOSTS/host-fsize" 0.2
after=$(ls -a /dev | grep -c '\.pct$')
[ "$after" = "$before" ] || { rm -f /dev/full.*.pct; fail "a profile was made in /dev"; }
for m in "${MODE_NAMES[@]}"; do
	[ "$(cat "err.$m")" = "pct: \$PCT names a special file, not a profile '/dev/full'; the program runs on without profiling" ] ||
		fail "/dev/full, $m: $(cat "err.$m")"
done
pass "directories get PROG.PID.pct inside, special files are refused"
