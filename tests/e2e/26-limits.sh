# The documented limits (libpct(3), pct(5)), each at the limit and one
# beyond: the sample table (PCT_SLOTS, 2^10 to 2^26 entries), samples
# dropped past it, module path length (4096 bytes), the length of $PCT;
# and the file's mode follows the umask.  (The module table's 1024 and the
# 256 rereads of /proc/self/maps are tests/unit/test_format.c.)
. "$(dirname "$0")/lib.sh"
# table: 2^26 entries (a 1 GiB file) works; 2^27 is refused with a warning
PCT=big.pct PCT_SLOTS=67108864 LD_PRELOAD=$LIBPCT "$PROGS/hotline" 20000000 >/dev/null 2>err || fail "2^26 slots"
[ ! -s err ] || fail "2^26 slots warned: $(cat err)"
[ "$(stat -c %s big.pct)" -gt 1073741824 ] || fail "2^26 slots: file of $(stat -c %s big.pct) bytes"
"$PCTBIN" report big.pct | grep -q hot || fail "2^26 slots: report"
rm big.pct
PCT=over.pct PCT_SLOTS=134217728 LD_PRELOAD=$LIBPCT "$PROGS/hotline" 20000000 >/dev/null 2>err || fail "2^27 slots"
grep -q "ignoring a bad value of 'PCT_SLOTS'" err || fail "2^27 slots: no warning: $(cat err)"
# header.table_slots (offset 176, pct(5)): the default, 2^18
[ "$(od -An -t u8 -j 176 -N 8 over.pct | tr -d ' ')" = 262144 ] || fail "2^27 slots: the default table was not used"
# samples dropped past the table's bound (counted by the runtime: see
# test_table_bound in tests/unit/test_format.c) are reported: set the
# header's dropped field (offset 200, pct(5)) to 5
printf 'module\tbuild_id\toffset\tsamples\n/x/a\t\t0x10\t40\n' | "$PROGS/mkprofile" small.pct
printf '\005\0\0\0\0\0\0\0' | dd of=small.pct bs=1 seek=200 conv=notrunc 2>/dev/null
"$PCTBIN" report small.pct 2>/dev/null | grep -q '^# 5 more samples were dropped: the sample table was full (raise $PCT_SLOTS), or the file system had no room for more of the profile$' ||
	fail "dropped samples not reported: $("$PCTBIN" report small.pct 2>&1 | head -4)"
"$PCTBIN" report small.pct 2>/dev/null | grep -q 'effective rate 281.2 Hz' ||
	fail "the rate must count dropped samples (45 in 0.16 s): $("$PCTBIN" report small.pct 2>&1 | sed -n 2p)"

# a module path of 4096 bytes is read; 4097 is refused, naming the limit
p4096=/$(printf 'a%.0s' $(seq 4095))
{ printf 'module\tbuild_id\toffset\tsamples\n'; printf '%s\t\t0x10\t3\n' "$p4096"; } | "$PROGS/mkprofile" p4096.pct
"$PCTBIN" dump p4096.pct | grep -q "^$p4096"$'\t' || fail "4096-byte path"
{ printf 'module\tbuild_id\toffset\tsamples\n'; printf '%s\t\t0x10\t3\n' "${p4096}b"; } | "$PROGS/mkprofile" p4097.pct
"$PCTBIN" dump p4097.pct 2>err; [ $? -eq 1 ] && grep -q "path of 4097 bytes, longer than the limit of 4096" err ||
	fail "4097-byte path: $(cat err)"

# $PCT longer than the runtime takes: one warning, the program runs on
long=$(printf 'x%.0s' $(seq 4070)).pct
PCT=$long LD_PRELOAD=$LIBPCT "$PROGS/selftime" 0.1 >/dev/null 2>err || fail "long PCT: program failed"
grep -q "output name too long" err || fail "long PCT: $(cat err)"

# mode: 0666 less the umask
(umask 077; PCT=m600.pct LD_PRELOAD=$LIBPCT "$PROGS/selftime" 0.1 >/dev/null)
(umask 022; PCT=m644.pct LD_PRELOAD=$LIBPCT "$PROGS/selftime" 0.1 >/dev/null)
[ "$(stat -c %a m600.pct)" = 600 ] && [ "$(stat -c %a m644.pct)" = 644 ] ||
	fail "modes: $(stat -c '%n %a' m600.pct m644.pct)"
pass "limits"
