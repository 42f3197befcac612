# A program that plans its address space (JITs, GCs, emulators): it finds a
# free hole with a probing mmap, gives it back, and maps it with MAP_FIXED
# later.  pct mapped its profile at the first sample, into that hole, so
# the program's MAP_FIXED replaced pct's mapping and pct then wrote into
# the program's memory (17 to 54,766 bytes here) and lost its profile.
# The runtime now reserves its range when sampling starts (libpct(3),
# RESOURCES): the memory stays the program's and the profile is whole.
. "$(dirname "$0")/lib.sh"
. "$ROOT/tests/hosts/lib.sh"
host_modes "probe, then MAP_FIXED" "$HOSTS/host-mapfixed" 0.3
[ "$(cat plain.out)" = intact ] || fail "plain: $(cat plain.out)"
for m in "${MODE_NAMES[@]}"; do
	grep -q '^pct: ' "err.$m" && fail "$m: pct said: $(cat "err.$m")"
done
# every mode's profile is readable and holds the burns (0.6 s: 150 samples
# at 250 Hz expected; 50 is 8 standard deviations below)
for w in $SAMPLES; do
	[ "${w#*=}" -ge 50 ] || fail "profile of ${w%%=*}: ${w#*=} samples, want 50 or more"
done
same_in_every_mode 50 "$HOSTS/host-mapfixed" 0.3
pass "the program's planned mapping is its own in every mode"
