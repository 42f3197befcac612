# Names perf finds (issue 34, item 6): code that assemblers export as
# untyped, zero-size .dynsym symbols (nasm's, as libx264's and
# libopenh264's SIMD kernels are) is named, each symbol claiming the
# addresses up to the next one, within its section: (1) a stripped library
# of tests/progs/asmkern.S, whose kernels' shares are known, and a label
# of code in a section of its own after them that no symbol names (perf
# charges it to the symbol before; pct leaves it unnamed), and a label
# inside a sized function, which stays that function's; (2) Debian's
# libopenh264, two of its SAD kernels called 1:2, against perf.  Before:
# every such sample was one [unknown] row (libopenh264: 81%).
. "$(dirname "$0")/lib.sh"
[ "$(uname -m)" = x86_64 ] || skip "the kernels of tests/progs/asmkern.S are x86_64 code"
command -v perf >/dev/null || fail "perf is missing (linux-perf; scripts/deps.sh)"
cc -shared -nostartfiles -Wl,--build-id -o libasmkern.so "$ROOT/tests/progs/asmkern.S" && strip libasmkern.so ||
	fail "build libasmkern.so"
cc -O2 -o asmkern "$ROOT/tests/progs/asmkern-main.c" -L. -lasmkern -Wl,-rpath,"$SCRATCH" || fail "cc asmkern"
# the premise: untyped, sizeless, only in .dynsym; kernx right after .text
readelf -W --dyn-syms libasmkern.so | awk '$8 == "kern_a" || $8 == "kern_b" { if ($3 == 0 && $4 == "NOTYPE") n++ } END { exit n != 2 }' ||
	fail "kern_a and kern_b are not untyped sizeless symbols: $(readelf -W --dyn-syms libasmkern.so)"
! readelf -W -s libasmkern.so | grep -q '\.symtab' || fail "libasmkern.so has a .symtab"
"$PCTBIN" record -F 1000 -o k.pct ./asmkern 0.6 >/dev/null 2>rec.err || fail "record asmkern: $(cat rec.err)"
"$PCTBIN" report --format=tsv k.pct >k.tsv || fail "report"
awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$c["module"] ~ /libasmkern\.so$/ { f = $c["function"]; if (f == "[unknown]" || f ~ /^libasmkern\.so\+0x/) f = "(unnamed)"
		n[f] += $c["samples"]; all += $c["samples"] }
	END {
		want["kern_a"] = 0.2; want["kern_b"] = 0.4; want["sized_fn"] = 0.2; want["(unnamed)"] = 0.2
		if (all < 300) { print "only " all " samples in libasmkern.so"; exit 1 }
		for (f in n) if (!(f in want)) { printf "a row %s (%d samples)\n", f, n[f]; bad = 1 }
		for (f in want) { q = n[f] / all; p = want[f]; se = sqrt(p * (1 - p) / all)
			ok = q - p < 4 * se + 0.03 && p - q < 4 * se + 0.03
			printf "libasmkern.so %-10s %5.1f%% (%d of %d), true %.0f%%  %s\n", f, 100 * q, n[f], all, 100 * p, ok ? "ok" : "MISMATCH"
			if (!ok) bad = 1 }
		exit bad }' k.tsv || fail "libasmkern.so's functions: $(cat k.tsv)"

# (2) libopenh264 against perf
lib=/usr/lib/x86_64-linux-gnu/libopenh264.so.7
[ -e $lib ] || fail "$lib is missing (libopenh264-7; scripts/deps.sh)"
cat >sad.c <<'C'
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
int32_t WelsSampleSad16x8_sse2(uint8_t *, int32_t, uint8_t *, int32_t);
int32_t WelsSampleSad8x16_sse2(uint8_t *, int32_t, uint8_t *, int32_t);
int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 0.5;
	uint8_t *p = aligned_alloc(64, 4096), *q = aligned_alloc(64, 4096);
	for (int i = 0; i < 4096; i++) { p[i] = (uint8_t)(i * 7); q[i] = (uint8_t)(i * 13); }
	long s = 0;
	while ((double)clock() / CLOCKS_PER_SEC < secs)
		for (int i = 0; i < 100000; i++) {
			s += WelsSampleSad16x8_sse2(p, 16, q, 16);
			s += WelsSampleSad8x16_sse2(p, 16, q, 16);
			s += WelsSampleSad8x16_sse2(p + 64, 16, q, 16);
		}
	printf("%ld\n", s);
	return 0;
}
C
cc -O2 -o sad sad.c $lib || fail "cc sad.c"
"$PCTBIN" record -F 1000 -o sad.pct ./sad 0.6 >/dev/null 2>rec.err || fail "record sad: $(cat rec.err)"
perf record -q -o sad.data ./sad 0.6 >/dev/null 2>perf.err || fail "perf record: $(cat perf.err)"
base=$(readlink -f $lib); base=${base##*/}
"$PCTBIN" report --format=tsv sad.pct | awk -F'\t' -v b="$base" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$c["module"] ~ "/" b "$" { print $c["function"] "\t" $c["samples"] }' | sort >pct-fn.tsv
perf report -i sad.data --stdio -n -q --sort dso,sym 2>/dev/null | awk -v b="$base" '$3 == b && $4 == "[.]" { print $5 "\t" $2 }' |
	sort >perf-fn.tsv
join -t "$(printf '\t')" -a 1 -a 2 -e 0 -o 0,1.2,2.2 pct-fn.tsv perf-fn.tsv | awk -F'\t' '
	{ name[NR] = $1; a[NR] = $2; b[NR] = $3; A += $2; B += $3 }
	END {
		if (A < 300 || B < 200) { printf "too few samples in libopenh264: pct %d, perf %d\n", A, B; exit 1 }
		for (i = 1; i <= NR; i++) { p1 = a[i] / A; p2 = b[i] / B; pp = (a[i] + b[i]) / (A + B)
			se = sqrt(pp * (1 - pp) * (1 / A + 1 / B)); z = se > 0 ? (p1 - p2) / se : 0
			ok = (z < 4 && z > -4) || (p1 - p2 < 0.03 && p2 - p1 < 0.03)
			if (p1 < 0.01 && p2 < 0.01) continue
			printf "libopenh264 %-24s pct %5.1f%%  perf %5.1f%%  z %5.2f  %s\n", name[i], 100 * p1, 100 * p2, z, ok ? "ok" : "MISMATCH"
			if (!ok || name[i] == "[unknown]") bad = 1 }
		exit bad }' || fail "libopenh264's functions differ from perf's: pct $(cat pct-fn.tsv); perf $(cat perf-fn.tsv)"
pass "untyped sizeless symbols named as perf names them, each within its section"
