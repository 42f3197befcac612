# A full disk never harms the profiled program: the profile's blocks are
# reserved before the file is mapped, so instead of a SIGBUS the program
# gets one warning and runs on, with its own output and exit status
# unchanged.  Needs a small tmpfs (root); without one it skips.
. "$(dirname "$0")/lib.sh"
mkdir tiny
mount -t tmpfs -o size=512k tmpfs tiny 2>/dev/null || skip "cannot mount a small tmpfs here (not root, or no mount permission)"
trap 'umount "$SCRATCH/tiny" 2>/dev/null; rm -rf "$SCRATCH"' EXIT
awk 'BEGIN { srand(9); for (i = 0; i < 200000; i++) print rand() }' >in
gzip -9 -c in >plain.gz; plain_rc=$?
run() {  # profile gzip into the tiny file system
	PCT=$SCRATCH/tiny/x.pct LD_PRELOAD=$LIBPCT gzip -9 -c in >pct.gz 2>err; rc=$?
	cmp -s plain.gz pct.gz || fail "$1: gzip's output differs"
	[ $rc -eq $plain_rc ] || fail "$1: exit status $rc, plain $plain_rc"
	[ "$(wc -l <err)" -eq 1 ] && grep -q "^pct: cannot reserve disk space for the profile.*No space left on device" err ||
		fail "$1: expected one warning: $(cat err)"
}
dd if=/dev/zero of=tiny/fill bs=4k count=200 2>/dev/null   # full
run "full disk"
rm tiny/fill                                             # 512 KiB free: less than a profile
run "small disk"
[ -z "$(ls tiny)" ] || fail "files left behind: $(ls tiny)"
# and with room, the same program is profiled
umount tiny && mount -t tmpfs -o size=16m tmpfs tiny
PCT=$SCRATCH/tiny/x.pct LD_PRELOAD=$LIBPCT gzip -9 -c in >pct.gz 2>err || fail "gzip with room"
cmp -s plain.gz pct.gz && [ -f tiny/x.pct ] && [ ! -s err ] || fail "with room: $(cat err; ls tiny)"
pass "full and small disks: one warning, output and status unchanged"
