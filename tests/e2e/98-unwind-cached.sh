# The cached unwinder (callstack.c: each PC's CFI rules found once, then
# applied to every stack) gives libdwfl's frames exactly: every report and
# export of -g profiles of different programs is byte for byte what
# PCT_UNWIND=libdwfl (libdwfl's dwfl_getthread_frames for every stack)
# gives.  The programs cover frames without frame pointers (callchain),
# two threads and deep, drawn call paths (bench/deepstacks.c), a shared
# library interpreter (python3), samples inside a signal handler (its
# caller is the kernel's signal frame, __restore_rt: not cached, so
# libdwfl unwinds those stacks), a static program (selftime-static), and
# a program whose .eh_frame was damaged after recording (no CFI for
# inner: libdwfl's fallbacks).  The gperftools export carries each
# stack's PCs, the folded export its functions, the report its totals.
. "$(dirname "$0")/lib.sh"
cat >sig.c <<'EOF'
#include <signal.h>
#include <stddef.h>
#include <sys/time.h>
static volatile unsigned long sink;
static volatile sig_atomic_t hits;
__attribute__((noinline)) static void burn(unsigned long n) { for (unsigned long i = 0; i < n; i++) sink += i * i; }
static void on_alarm(int sig) { (void)sig; hits++; burn(4000000); }
int main(void)
{
	struct sigaction sa = { .sa_handler = on_alarm };
	sigaction(SIGALRM, &sa, NULL);
	struct itimerval it = { { 0, 5000 }, { 0, 5000 } };
	setitimer(ITIMER_REAL, &it, NULL);
	while (hits < 120)
		burn(1000);
	return 0;
}
EOF
cc -O2 -g -o sig sig.c || fail "cannot build sig.c"
cc -O2 -g -pthread -o deepstacks "$ROOT/bench/deepstacks.c" || fail "cannot build deepstacks"
cp "$PROGS/callchain" ./cc || fail "$PROGS/callchain is not built (make progs)"

rec() { local out=$1; shift; "$PCTBIN" record -g -o "$out" "$@" >/dev/null 2>rec.err || fail "record -g $*: $(cat rec.err)"; }
rec cc.pct ./cc 0.3
rec deep.pct ./deepstacks 0.5 2
rec sig.pct ./sig
rec py.pct python3 -c 'import json, re
s = json.dumps([{"k": i, "v": str(i) * 3} for i in range(60000)])
print(len(re.findall(r"\d+", s)))'
profiles="cc deep sig py"
if [ -x "$PROGS/selftime-static" ]; then
	PCT=static.pct PCT_STACK_BYTES=8192 "$PROGS/selftime-static" 1 >/dev/null 2>&1
	[ -s static.pct ] && "$PCTBIN" report static.pct >/dev/null 2>&1 && profiles="$profiles static"
fi
# the damaged copy (its build-id still matches), as e2e 72 damages it:
# inner's FDE moved away, so libdwfl's fallbacks unwind its samples
eh=$(readelf -SW cc | awk '{ sub(/^ *\[ *[0-9]+\] */, "") } $1 == ".eh_frame" { print $4 }')
inner=$(nm cc | awk '$3 == "inner" { print $1 }')
fde=$(readelf --debug-dump=frames cc 2>/dev/null | awk -v pc="pc=$inner.." '$4 == "FDE" && index($6, pc) == 1 { print $1 }')
[ -n "$eh" ] && [ -n "$inner" ] && [ -n "$fde" ] || fail "no FDE of inner in cc"
printf '\xff\xff\xff\x7f' | dd of=cc bs=1 seek=$((0x$eh + 0x$fde + 8)) conv=notrunc 2>/dev/null || fail "dd"
cp cc.pct damaged.pct
profiles="$profiles damaged"

# samples in the handler (120 calls of ~2-4 ms each, against ~2 ms of
# main's work between them: ~40%) must exist, so that the signal frame
# is met
"$PCTBIN" export --format=folded -o sig.folded sig.pct 2>/dev/null || fail "export sig"
hand=$(awk '/__restore_rt/ { t += $NF } END { print t + 0 }' sig.folded)
[ "$hand" -ge 5 ] || fail "only $hand samples in the signal handler: $(head -3 sig.folded)"

n=0
for p in $profiles; do
	for how in report folded gperftools callers; do
		case $how in
		report) args=(report --format=tsv "$p.pct") ;;
		callers) args=(report --callers=main "$p.pct") ;;
		*) args=(export --format=$how -o /dev/stdout "$p.pct") ;;
		esac
		"$PCTBIN" "${args[@]}" >a.out 2>a.err
		ra=$?
		PCT_UNWIND=libdwfl "$PCTBIN" "${args[@]}" >b.out 2>b.err
		rb=$?
		[ "$ra" = "$rb" ] || fail "$p $how: exit $ra cached, $rb libdwfl"
		cmp -s a.out b.out || fail "$p $how: output differs from libdwfl's: $(diff a.out b.out | head -5)"
		cmp -s a.err b.err || fail "$p $how: messages differ from libdwfl's: $(diff a.err b.err | head -5)"
		[ "$ra" != 0 ] || [ -s a.out ] || fail "$p $how: empty output"
		n=$((n + 1))
	done
done
# the damaged profile did lose stacks (the fallbacks were exercised)
"$PCTBIN" report damaged.pct 2>&1 | grep -q 'were not unwound to their root' ||
	fail "the damaged .eh_frame did not stop any unwinding"
pass "$n reports and exports of $(echo $profiles | wc -w) -g profiles ($profiles; $hand samples in the signal handler) equal libdwfl's, byte for byte"
