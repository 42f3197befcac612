# A program that locks all its memory with mlockall(MCL_CURRENT |
# MCL_FUTURE): pct's mappings counted against the program's RLIMIT_MEMLOCK
# (an unprivileged program got ENOMEM under -F 5000, and pct then could
# not map its profile at all), and as root mlockall pinned them (VmLck
# 48 MB, 114 MB with -g, against 6.5 MB without pct).  Now the program's
# call succeeds as without pct, and pct's mappings are never locked: as
# root pct samples on with VmLck as without it (but 64 KiB of the wall
# sampler's stack); unprivileged, where the limit has no room for pct, pct
# steps aside with one warning (libpct(3), RESOURCES).
# pct-test: alone (locked memory of the user nobody, shared with the other tests that run as nobody)
. "$(dirname "$0")/lib.sh"
. "$ROOT/tests/hosts/lib.sh"
vmlck() { sed -n 's/^VmLck \([0-9]*\)$/\1/p' "$1"; }
host_modes "mlockall as root" "$HOSTS/host-mlock" 0.3
[ "$(cat plain.out)" = "mlockall: ok" ] || fail "plain: $(cat plain.out)"
base=$(vmlck plain.err)
for m in "${MODE_NAMES[@]}"; do
	v=$(vmlck "err.$m")
	slack=0; [ "$m" = wall ] && slack=80
	[ "$v" -le $((base + slack)) ] || fail "root, $m: VmLck $v KB, $base without pct: pct's memory is locked"
	grep -q '^pct: ' "err.$m" && fail "root, $m: pct said: $(cat "err.$m")"
done
# profiling went on after mlockall: 0.3 s of CPU, 75 samples at 250 Hz
# (1500 at 5 kHz) expected; a floor of a fifth (timer ticks lost under load)
for w in $SAMPLES; do
	[ "${w#*=}" -ge 15 ] || fail "root, ${w%%=*}: ${w#*=} samples after mlockall"
done
echo "root: VmLck $base KB plain, in every mode the same (wall: the sampler's stack); samples:$SAMPLES"
chmod o+x "$SCRATCH"
WRAP=(setpriv --reuid=nobody --regid=nogroup --clear-groups)
setpriv --reuid=nobody --regid=nogroup --clear-groups true 2>/dev/null || skip "no setpriv to run as nobody"
PRE="ulimit -l 8192"
host_modes "mlockall as nobody, ulimit -l 8192" "$HOSTS/host-mlock" 0.3
[ "$(cat plain.out)" = "mlockall: ok" ] || fail "nobody, plain: $(cat plain.out) (VmSize over 8 MiB?)"
base=$(vmlck plain.err)
for m in "${MODE_NAMES[@]}"; do
	v=$(vmlck "err.$m")
	[ "$v" -le $((base + 80)) ] || fail "nobody, $m: VmLck $v KB, $base without pct"
	[ "$(grep -c 'locks its memory (mlockall)' "err.$m")" = 1 ] || fail "nobody, $m: not one warning: $(cat "err.$m")"
done
pass "mlockall: the program's call and memory as without pct"
