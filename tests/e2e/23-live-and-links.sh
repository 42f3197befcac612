# Reading a profile while its program runs gives a consistent snapshot,
# and a symlink planted under the output name is never followed.
# pct-test: plain (gcov: its sanitized run executes no line of src/ that the rest of the sanitized subset leaves out, in two runs of each; make check-full runs it sanitized)
. "$(dirname "$0")/lib.sh"
# live reads: report the growing file again and again
PCT=live.pct LD_PRELOAD=$LIBPCT "$PROGS/selftime" 3 >/dev/null &
pid=$!
sleep 0.3
reads=0 last=0
while kill -0 $pid 2>/dev/null; do
	n=$("$PCTBIN" report --format=tsv live.pct 2>err | awk -F'\t' 'NR > 1 { n += $1 } END { print n + 0 }')
	[ -s err ] && fail "live read failed: $(cat err)"
	[ "$n" -ge "$last" ] || fail "samples went down from $last to $n"
	last=$n reads=$((reads + 1))
done
wait $pid
[ $reads -ge 10 ] || fail "only $reads live reads"
echo "$reads live reads, samples rising to $last"

# a symlink planted under the name: the runtime writes elsewhere
echo precious >target
ln -s target trap.pct
PCT=trap.pct LD_PRELOAD=$LIBPCT "$PROGS/selftime" 0.2 >/dev/null
[ "$(cat target)" = precious ] || fail "the symlink's target was written"
[ -L trap.pct ] || fail "the planted symlink was replaced"
ls trap.[0-9]*.pct >/dev/null 2>&1 || fail "no profile under another name: $(ls)"

# a profile naming a FIFO and a device as modules: read as data, never
# opened as anything but a regular file, no hang
mkfifo fifo
printf 'module\tbuild_id\toffset\tsamples\n%s\t\t0x10\t3\n/dev/zero\t\t0x10\t2\n' "$SCRATCH/fifo" | "$PROGS/mkprofile" hostile.pct
timeout 20 "$PCTBIN" report hostile.pct >/dev/null 2>err; rc=$?
[ $rc -eq 0 ] || fail "report of a profile naming a FIFO: status $rc"
grep -q "'/dev/zero': a character device, not a regular file" err && grep -q "fifo': a FIFO, not a regular file" err || fail "warnings: $(cat err)"
pass "live reads, a planted symlink, hostile module paths"
