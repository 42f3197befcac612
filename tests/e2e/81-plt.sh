# PLT stubs are named "func@plt", as objdump and perf name them, not
# "MODULE+0x26020": lazy (.plt), IBT (.plt.sec) and -z now (.plt.got)
# binaries, and libc's own PLT (IRELATIVE slots named by their IFUNC).
# pct-test: plain (gcov: its sanitized run executes no line of src/ that the rest of the sanitized subset leaves out, in two runs of each; make check-full runs it sanitized)
. "$(dirname "$0")/lib.sh"
command -v objdump >/dev/null || skip "no objdump"
cat >plt.c <<'C'
#include <stdlib.h>
#include <string.h>
volatile unsigned long sink;
int main(int argc, char **argv)
{
	const char *volatile s = "x";
	unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 10) : 1;
	sink = strlen(s);
	for (unsigned long i = 0; i < n; i++)
		sink += (unsigned long)labs((long)i);
	return 0;
}
C
cc -O1 -fno-builtin -fcf-protection=none -Wl,-z,lazy -o lazy plt.c || fail "cc lazy"
cc -O1 -fno-builtin -fcf-protection=full -Wl,-z,lazy -o ibt plt.c || fail "cc ibt"
cc -O1 -fno-builtin -fcf-protection=none -Wl,-z,now -o now plt.c || fail "cc now"
libc=$(ldd ./lazy | awk '/libc\.so/ { print $3 }')
# every stub objdump names must get the same name from pct sym
checked=0
for m in "$SCRATCH/lazy" "$SCRATCH/ibt" "$SCRATCH/now" "$libc"; do
	objdump -d --section=.plt --section=.plt.sec --section=.plt.got "$m" 2>/dev/null |
		sed -n 's/^\([0-9a-f]*\) <\([^>]*@plt\)>:$/\1 \2/p' >want
	[ -s want ] || fail "objdump found no PLT stubs in $m"
	# the offset of an address: these sections are in the first PT_LOAD
	# segments, where file offset and address differ by a constant
	read -r off va < <(readelf -lW "$m" | awk '$1 == "LOAD" && / R?W?E / { print $2, $3; exit }')
	delta=$((off - va))
	{
		printf 'module\tbuild_id\toffset\tsamples\n'
		while read -r a name; do printf '%s\t\t0x%x\t1\n' "$m" $((0x$a + delta)); done <want
	} >in.tsv
	"$PCTBIN" sym in.tsv 2>/dev/null | awk -F'\t' 'NR > 1 { print $5 }' >got
	paste -d' ' <(awk '{ print $2 }' want) got >pairs
	awk '$1 != $2 && $1 !~ /^\*ABS\*/ { bad = 1; print "objdump " $1 ", pct " $2 } END { exit bad }' pairs ||
		fail "pct sym names PLT stubs of $m otherwise than objdump"
	checked=$((checked + $(wc -l <pairs)))
done
# libc's IRELATIVE stubs (objdump's *ABS*+0x...) get their function's name
grep -q '^\*ABS\*' <(awk '{ print $1 }' pairs) && ! grep -Eq '\+0x[0-9a-f]+$' got ||
	fail "libc's IRELATIVE stubs unnamed: $(grep -E '\+0x' got | head -3)"
pass "$checked PLT stubs named as objdump names them"

# a profile of a program that calls labs through the PLT in a tight loop:
# samples land on the stub (15% here: 20 of 128 seen, so fewer than 5 is
# all but impossible), and the report names it
"$PCTBIN" record -o p.pct ./lazy 300000000 >/dev/null 2>rec.err || fail "record: $(cat rec.err)"
"$PCTBIN" report --format=tsv p.pct >p.tsv 2>/dev/null
cat p.tsv
awk -F'\t' '$NF ~ /@plt$/ && $(NF-1) ~ /lazy$/ { n += $1 } END { exit !(n >= 5) }' p.tsv ||
	fail "no samples on lazy's PLT stubs named @plt"
awk -F'\t' '$NF ~ /^lazy\+0x/ || $NF ~ /^libc\.so\.6\+0x/ { bad = 1; print } END { exit bad }' p.tsv ||
	fail "PLT stubs reported as MODULE+0xOFFSET"
pass "samples on PLT stubs reported as func@plt"

# with -g, a sample on a stub unwinds through it to _start: the CFA of a
# .plt entry is a DWARF expression of the PC (register 16), which the
# unwinder must be given (until it was, every such stack ended at the stub
# and was counted as unwound to its root); and the report's count of stacks
# not unwound agrees with the folded stacks
for b in lazy ibt now; do
	"$PCTBIN" record -g -o g$b.pct ./$b 300000000 >/dev/null 2>rec.err || fail "record -g $b: $(cat rec.err)"
	"$PCTBIN" export --format=folded -o g$b.folded g$b.pct 2>/dev/null || fail "folded $b"
	read -r onplt off < <(awk '{ n = $NF } /@plt [0-9]+$/ { p += n; if (!/^_start;/) o += n } END { print p + 0, o + 0 }' g$b.folded)
	unrooted=$("$PCTBIN" report g$b.pct | sed -n 's/^# \([0-9]*\) of [0-9]* samples with stacks.*not unwound.*/\1/p')
	all_off=$(awk '{ n = $NF } !/^_start;/ { t += n } END { print t + 0 }' g$b.folded)
	echo "$b -g: $onplt samples on a stub, $off of them off _start; report: $unrooted not unwound, folded: $all_off off _start"
	[ "$onplt" -ge 5 ] || fail "$b: only $onplt samples on PLT stubs with -g"
	[ "$off" = 0 ] || fail "$b: $off of $onplt samples on a PLT stub not unwound to _start"
	[ "$unrooted" = "$all_off" ] || fail "$b: the report says $unrooted not unwound, the folded stacks $all_off"
done
pass "-g stacks through PLT stubs (lazy, IBT, -z now) unwind to _start"
