# A system program no one here wrote: xz -9 through pct record.  Its time
# is in Debian's stripped liblzma, whose static functions must get rows of
# their own (liblzma.so.5+0xSTART from .eh_frame), and xz must work as
# without pct.
# pct-test: plain (gcov: its sanitized run executes no line of src/ that the rest of the sanitized subset leaves out, in two runs of each; make check-full runs it sanitized)
. "$(dirname "$0")/lib.sh"
command -v xz >/dev/null || skip "xz is not installed"
awk 'BEGIN { srand(7); for (i = 0; i < 120000; i++) printf "%d %x %s\n", i, int(rand() * 2^31), (rand() < .5 ? "lorem ipsum" : "dolor") }' >data
cp data data.orig
"$PCTBIN" record -o xz.pct xz -9 -T1 -k data 2>err || fail "xz under pct failed: $(cat err)"
xz -dc data.xz | cmp - data.orig || fail "xz's output is damaged"
"$PCTBIN" report --by=module --format=tsv xz.pct >mod.tsv
awk -F'\t' 'NR > 1 && $8 ~ /\/liblzma[^/]*$/ { p += $3 } END { printf "liblzma: %.1f%%\n", p; exit !(p > 80) }' mod.tsv ||
	fail "liblzma should hold most of xz -9's time: $(cat mod.tsv)"
"$PCTBIN" report --format=tsv xz.pct >fn.tsv
top=$(awk -F'\t' 'NR == 2 { print $8 "\t" $9 }' fn.tsv)
case $top in
*/liblzma*$'\t'liblzma.so.5*+0x*) pass "top function: $top" ;;
*) fail "top function is '$top'; expected an unnamed liblzma function" ;;
esac
# no row may be an exported symbol that merely precedes static code:
# each liblzma row is either a named symbol or its own MODULE+0xSTART
awk -F'\t' 'NR > 1 && $8 ~ /liblzma/' fn.tsv | head -5
