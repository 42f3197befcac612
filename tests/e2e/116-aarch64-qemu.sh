# aarch64 under qemu-user (issue 21): the runtime and test programs built
# with Debian's gcc-aarch64-linux-gnu (make cross-aarch64) run under
# qemu-aarch64 -L /usr/aarch64-linux-gnu with $PCT set, and the x86_64
# build/bin/pct reports their profiles: functions against the measured
# truth, lines, annotate with capstone's ARM64 decoder, and -g stacks
# unwound with the aarch64 CFI.  What qemu-user cannot do: perf_event_open
# (ENOSYS; the default CPU-time timer needs none, and a hardware event is
# refused as on a refusing kernel) and process_vm_readv (ENOSYS; the
# runtime then copies the stack directly between sp and the thread's known
# stack top).  qemu-user delivers signals between translated blocks, so a
# loop's samples land on its block's first instruction.
. "$(dirname "$0")/lib.sh"
pkgs="gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user"
have() { command -v aarch64-linux-gnu-gcc >/dev/null && command -v qemu-aarch64 >/dev/null &&
	[ -e /usr/aarch64-linux-gnu/lib/ld-linux-aarch64.so.1 ]; }
if ! have; then
	if [ "$(id -u)" -eq 0 ]; then
		apt_get install -y -qq --no-install-recommends $pkgs >/dev/null 2>&1 ||
			{ apt_get update -qq >/dev/null 2>&1 &&
			  apt_get install -y -qq --no-install-recommends $pkgs >/dev/null 2>&1; }
	fi
	have || skip "$pkgs are not installed and cannot be installed here (not root, or no package archive)"
fi
locked cross-aarch64 make -C "$ROOT" --no-print-directory cross-aarch64 >make.out 2>&1 || fail "make cross-aarch64: $(tail -5 make.out)"
X=$ROOT/build-aarch64
file "$X/tests/progs/selftime" | grep -q 'ARM aarch64' || fail "selftime is not aarch64: $(file "$X/tests/progs/selftime")"
file -L "$X/lib/libpct.so" | grep -q 'ARM aarch64' || fail "libpct.so is not aarch64"
[ -s "$X/lib/libpct.a" ] || fail "no build-aarch64/lib/libpct.a"
qemu() { timeout 300 qemu-aarch64 -L /usr/aarch64-linux-gnu -E LD_PRELOAD="$X/lib/libpct.so" "$@"; }

# truth: functions timing themselves with CLOCK_THREAD_CPUTIME_ID
t0=$(now_ns)
PCT=truth.pct qemu "$X/tests/progs/selftime" 2 >truth.tsv 2>run.err || fail "selftime under qemu: $(cat run.err)"
overload_bias truth.pct "$(since "$t0")"   # CPU-time timers
[ -f truth.pct ] || fail "no truth.pct: $(cat run.err)"
"$PCTBIN" report --format=tsv truth.pct >report.tsv || fail "report of the aarch64 profile"
check_truth truth.tsv report.tsv "$(period_of truth.pct)" || fail "the aarch64 profile disagrees with the measured truth"
pass "aarch64 truth under qemu-user (CPU-time timer)"

# lines: the hot loop's lines in selftime.c
"$PCTBIN" report --by=line --format=tsv truth.pct >line.tsv || fail "report --by=line"
for f in work_a work_b work_c; do
	awk -F'\t' -v f="$f" 'NR == 1 { for (i = 1; i <= NF; i++) k[$i] = i; next }
		$k["function"] == f && $k["file"] ~ /selftime\.c$/ && $k["line"] > 0 && $k["samples"] >= 20 { ok = 1 }
		END { exit !ok }' line.tsv || fail "no selftime.c line of $f: $(head -5 line.tsv)"
done
pass "report --by=line names selftime.c's lines"

# annotate: capstone opened for the module's machine (aarch64), said so,
# and the hottest instruction of work_a an ARM64 one (x0-x30/w0-w30 operands
# or a conditional branch b.cond; x86 would name rax, eax, ...)
"$PCTBIN" annotate work_a truth.pct >ann.txt 2>ann.err || fail "annotate: $(cat ann.err)"
grep -qx '# instructions: aarch64 (ELF e_machine 183)' ann.txt || fail "annotate does not say aarch64: $(head -3 ann.txt)"
hot=$(grep '^=>' ann.txt) || fail "no hottest instruction: $(cat ann.txt)"
echo "hottest: $hot"
echo "$hot" | grep -Eq '^=> +[0-9]+ +[0-9.]+% +[0-9a-f]+  ([a-z]+ [xw]([0-9]|[12][0-9]|30)(,|$)|b\.[a-z]+ |cbn?z |ret)' ||
	fail "the hottest instruction is not ARM64: $hot"
grep -Eq 'r[abcd]x|e[abcd]x|%r' ann.txt && fail "x86 registers in the aarch64 annotation"
pass "annotate decodes ARM64"

# -g: every stack through inner (callchain, no frame pointers) reaches main
PCT=cc.pct PCT_STACK_BYTES=16384 qemu "$X/tests/progs/callchain" 0.3 >cc.tsv 2>cc.err || fail "callchain: $(cat cc.err)"
"$PCTBIN" export --format=folded -o cc.folded cc.pct || fail "export folded"
awk '{ n = $NF; $NF = ""; split($0, f, ";") }
	/(^|;)inner(;| |$)/ { all += n; for (i = 1; i in f; i++) if (f[i] == "main") { ok += n; break } }
	END { printf "stacks through inner: %d samples, %d reach main\n", all, ok; exit !(all >= 200 && ok == all) }' \
	cc.folded || fail "aarch64 stacks of inner do not all reach main: $(grep inner cc.folded | head -5)"
grep -Eq '(^|;)main;via_a;inner ' cc.folded && grep -Eq '(^|;)main;via_b;inner ' cc.folded ||
	fail "inner's callers via_a and via_b missing: $(cat cc.folded)"
pass "-g stacks unwound with the aarch64 CFI"

# -g through a PLT stub, which GNU ld gives no CFI on aarch64: the stub
# keeps sp, x29 and x30, so its caller is at x30 (until pct said so,
# libdwfl's frame-pointer fallback made '[unknown];[unknown];main;labs@plt'
# of every such sample: 7 of 818 here with 1e8 calls)
cat >plt.c <<'C'
#include <stdlib.h>
volatile unsigned long sink;
int main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 10) : 1;
	for (unsigned long i = 0; i < n; i++)
		sink += (unsigned long)labs((long)i);
	return 0;
}
C
aarch64-linux-gnu-gcc -O1 -fno-builtin -o plt plt.c || fail "aarch64-linux-gnu-gcc plt.c"
PCT=plt.pct PCT_STACK_BYTES=16384 qemu ./plt 100000000 >/dev/null 2>plt.err || fail "plt: $(cat plt.err)"
"$PCTBIN" export --format=folded -o plt.folded plt.pct 2>/dev/null || fail "export folded plt.pct"
awk '{ n = $NF } /(^|;)labs@plt [0-9]+$/ { all += n; if (/^_start;.*;main;labs@plt [0-9]+$/) ok += n }
	END { printf "samples on labs@plt: %d, %d of them _start...main;labs@plt\n", all, ok; exit !(all >= 1 && ok == all) }' \
	plt.folded || fail "aarch64 stacks through a PLT stub: $(grep '@plt' plt.folded)"
pass "-g stacks through an aarch64 PLT stub reach main and _start"

# a hardware event needs perf_event_open, which qemu-user lacks: refused as
# on a refusing kernel, the program runs on unprofiled
PCT=hw.pct PCT_EVENT=cycles qemu "$X/tests/progs/selftime" 1 >hw.tsv 2>hw.err || fail "selftime with PCT_EVENT=cycles failed"
grep -q 'perf_event_open' hw.err && grep -q 'runs on without profiling' hw.err || fail "no refusal message: $(cat hw.err)"
[ "$(wc -l <hw.tsv)" -eq 3 ] || fail "the program did not run on: $(cat hw.tsv)"
pass "PCT_EVENT=cycles under qemu-user: perf_event_open ENOSYS, refused, program ran"
echo "covered: truth (timer), lines, ARM64 annotate, -g with aarch64 CFI, hw-event refusal; not covered: hardware events (no perf_event_open in qemu-user)"
