# A tree file (pct(5), "TREE FILES") costs in proportion to its size:
#  (a) 300 members that all point to one 220 KB zlib stream (each inflated
#      to 48 MiB: 0.08 s a member, so a 4 MB file was hours of work) are
#      refused at once as overlapping, exit 1, naming the file and two of
#      the members; so is a member over the tree's index;
#  (b) a 2.3 MB member that inflates to 512 MiB (a profile padded with
#      zeros) is read in bounded memory (it cost 540 MB of RSS): only the
#      regions its header bounds are kept, and only their pages that are
#      not zeros; report, merge and the merged file agree.
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || skip "no python3"
"$PCTBIN" record -o t.pct sh -c "$PROGS/selftime 0.1 >/dev/null; $PROGS/selftime 0.1 >/dev/null" 2>rec.err ||
	fail "record: $(cat rec.err)"
head -c 8 t.pct | grep -q PCTTREE || fail "t.pct is not a tree file: $(cat rec.err)"

# tree.py IN OUT MIB K: OUT, a tree of K members that all point to one
# stream: IN's last member with MIB MiB of zeros after it (its header's
# file_size grown to match), its pid made unique in each record
cat >tree.py <<'EOF'
import struct, sys, zlib
src, dst, mib, k = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
b = open(src, 'rb').read()
n, index_offset = struct.unpack_from('<IQ', b, 20)
off, size, raw, pid = struct.unpack_from('<QQQI', b, index_offset + 40 * (n - 1))
prof = bytearray(zlib.decompress(b[off:off + size]))
struct.pack_into('<Q', prof, 24, raw + (mib << 20))
c = zlib.compressobj(1)
zero = bytes(1 << 20)
z = c.compress(bytes(prof)) + b''.join(c.compress(zero) for _ in range(mib)) + c.flush()
at = 64 + 40 * k
out = bytearray(b[:64])
struct.pack_into('<IQQ', out, 20, k, 64, at + len(z))
for i in range(k):
    out += struct.pack('<QQQIIII', at, len(z), raw + (mib << 20), pid + i, 1, 0, 0)
out += z
open(dst, 'wb').write(out)
EOF

# pct ARGS... within 20 s: out, err, $st; $ms its wall time, $kb its
# largest RSS (KiB) when /usr/bin/time is there
kb=0
run() {
	local t0; t0=$(date +%s%N)
	if [ -x /usr/bin/time ]; then
		/usr/bin/time -f %M -o rss timeout -k 2 20 "$PCTBIN" "$@" >out 2>err </dev/null
		st=$?
		kb=$(tail -1 rss)
	else
		timeout -k 2 20 "$PCTBIN" "$@" >out 2>err </dev/null
		st=$?
	fi
	ms=$(( ($(date +%s%N) - t0) / 1000000 ))
	[ $st = 124 ] || [ $st = 137 ] && fail "pct $* hung (killed after 20 s)"
	return 0
}

# (a) overlapping members
python3 tree.py t.pct same.pct 48 300 || fail "make same.pct"
for c in report "merge -o m.pct" "diff same.pct"; do
	run $c same.pct
	[ $st = 1 ] || fail "(a) pct $c same.pct: status $st, wanted 1: $(head -c 300 err)"
	grep -q "^pct: \(merge: \)\?'same.pct': tree members 0 and 1 overlap (" err || fail "(a) pct $c: $(cat err)"
	[ "$ms" -lt 2000 ] || fail "(a) pct $c took $ms ms to refuse it"
done
echo "(a) 300 members over one stream: $ms ms: $(cat err)"
# the first member's stream moved over the index
idx=$(od -An -tu8 -j24 -N8 t.pct | tr -d ' ')
cp t.pct onindex.pct
perl -e 'open F, "+<", $ARGV[0] or die; seek F, $ARGV[1], 0; print F pack("Q", $ARGV[2])' onindex.pct "$idx" "$((idx + 8))"
run report onindex.pct
[ $st = 1 ] && grep -q "'onindex.pct': tree member 0 .* overlaps the tree's index" err ||
	fail "(a) a member over the index: status $st: $(cat err)"
echo "(a) $(cat err)"

# (b) one member that inflates to 512 MiB
python3 tree.py t.pct big.pct 512 1 || fail "make big.pct"
run report big.pct
[ $st = 0 ] || fail "(b) report big.pct: status $st: $(head -c 300 err)"
grep -q 'work_a' out || fail "(b) report big.pct: $(cat out)"
echo "(b) $(stat -c %s big.pct)-byte tree, one member of 512 MiB inflated: report in $ms ms, $kb KiB of RSS"
[ "$kb" -lt 131072 ] || fail "(b) report big.pct took $kb KiB of RSS"
run merge -o m.pct big.pct
[ $st = 0 ] || fail "(b) merge big.pct: status $st: $(cat err)"
[ "$kb" -lt 131072 ] || fail "(b) merge big.pct took $kb KiB of RSS"
"$PCTBIN" dump big.pct 2>err | grep -v '^#' >a.tsv || fail "(b) dump big.pct: $(cat err)"
"$PCTBIN" dump m.pct 2>err | grep -v '^#' >b.tsv || fail "(b) dump m.pct: $(cat err)"
[ -s a.tsv ] && cmp -s a.tsv b.tsv || fail "(b) the merged file's samples differ: $(diff a.tsv b.tsv | head)"
echo "(b) merge -o m.pct big.pct: $(stat -c %s m.pct) bytes, the same samples"
pass "tree members: overlaps refused at once, a member costs the memory its records take"
