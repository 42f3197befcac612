# A full disk never harms the profiled program.  Every page of the profile
# is reserved before the runtime first touches it (MADV_POPULATE_WRITE, or
# fallocate of the whole file on older kernels), so instead of a SIGBUS the
# program gets one warning and runs on, with its own output and exit
# status unchanged:
#   - no room even for the header: no file, one warning;
#   - room for the header and a few pages: the file is valid, the samples
#     that needed more pages are counted as dropped, one warning;
#   - room: a complete profile, no warning.
# Needs a small tmpfs (root); without one it skips.
# pct-test: plain (its subject is the runtime, which build-san leaves uninstrumented: the sanitized run adds nothing)
. "$(dirname "$0")/lib.sh"
mkdir tiny
mount -t tmpfs -o size=512k tmpfs tiny 2>/dev/null || skip "cannot mount a small tmpfs here (not root, or no mount permission)"
trap 'umount "$SCRATCH/tiny" 2>/dev/null; rm -rf "$SCRATCH"' EXIT
awk 'BEGIN { srand(9); for (i = 0; i < 200000; i++) print rand() }' >in
gzip -9 -c in >plain.gz; plain_rc=$?
run() {  # profile gzip into the tiny file system; $2: the warning expected
	PCT=$SCRATCH/tiny/x.pct LD_PRELOAD=$LIBPCT gzip -9 -c in >pct.gz 2>err; rc=$?
	cmp -s plain.gz pct.gz || fail "$1: gzip's output differs"
	[ $rc -eq $plain_rc ] || fail "$1: exit status $rc, plain $plain_rc"
	[ "$(wc -l <err)" -eq 1 ] && grep -q "^pct: $2" err || fail "$1: expected one warning '$2': $(cat err)"
}
dd if=/dev/zero of=tiny/fill bs=4k 2>/dev/null   # until full
run "full disk" "no room for the profile .*No space left on device"
[ "$(ls tiny)" = fill ] || fail "full disk: files left behind: $(ls tiny)"
# four pages free: the header, the command line and the module table fit,
# and the sample table does not
truncate -s $(( $(stat -c %s tiny/fill) - 16384 )) tiny/fill
run "nearly full disk" "no room to extend the profile; later samples that need more of it are dropped: .*x.pct"
[ -f tiny/x.pct ] || fail "nearly full disk: no profile: $(ls tiny)"
"$PCTBIN" report tiny/x.pct >rep 2>rep.err || fail "nearly full disk: the profile does not read: $(cat rep.err)"
dropped=$(sed -n 's/^# \([0-9]*\) more samples were dropped: .*no room.*/\1/p' rep)
[ -n "$dropped" ] && [ "$dropped" -gt 10 ] || fail "nearly full disk: dropped samples not reported: $(head -5 rep)"
# and with room, the same program is profiled
umount tiny && mount -t tmpfs -o size=16m tmpfs tiny
PCT=$SCRATCH/tiny/x.pct LD_PRELOAD=$LIBPCT gzip -9 -c in >pct.gz 2>err || fail "gzip with room"
cmp -s plain.gz pct.gz && [ -f tiny/x.pct ] && [ ! -s err ] || fail "with room: $(cat err; ls tiny)"
"$PCTBIN" report tiny/x.pct >rep || fail "with room: the profile does not read"
grep -q "dropped" rep && fail "with room: samples dropped: $(head -5 rep)"
# only the pages in use take space: a few dozen KiB, not the 6.5 MB table
used=$(du -k tiny/x.pct | cut -f1)
[ "$used" -lt 1024 ] || fail "with room: the profile takes $used KiB"
pass "full, nearly full and roomy disks: one warning, output and status unchanged; $dropped samples dropped; $used KiB used"
