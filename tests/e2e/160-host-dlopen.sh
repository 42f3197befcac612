# dlopen(3) under pct: pct's dlopen counts the call and jumps to the C
# library's, so that glibc still sees the program as the caller (its
# RUNPATH, $ORIGIN, its namespace): a wrapper that called dlopen and did
# work after it made libpct the caller, and the program's own plugins
# stopped loading (found by review).  The plugin's module is then recorded
# at the next sample, and a plugin that calls into another library, with
# no sample of its own, still names the frames of stacks through it
# (issue 34, item 1).  Every mode, plain and under pct.
. "$(dirname "$0")/lib.sh"
. "$ROOT/tests/hosts/lib.sh"
mkdir -p app/plug
cat >plug.c <<'C'
#include <stdint.h>
/* calls back into the program's burn: a plugin frame between two of the
 * program's, which never takes a sample of its own */
extern void host_burn(double s);
volatile int plug_calls;
void plug_run(double s) { host_burn(s); plug_calls++; }
C
cat >main.c <<'C'
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <stdint.h>
volatile uint64_t sink;
__attribute__((noinline)) void host_burn(double s)
{
	struct timespec a, b;
	uint64_t x = 1;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &a);
	do {
		for (int i = 0; i < 10000; i++)
			x = x * 6364136223846793005u + 1442695040888963407u;
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &b);
	} while ((b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) / 1e9 < s);
	sink = x;
}
int main(void)
{
	host_burn(0.05);
	/* found by the program's RUNPATH ($ORIGIN/plug), and by $ORIGIN itself */
	void *a = dlopen("libplug.so", RTLD_NOW), *b = dlopen("$ORIGIN/plug/libplug.so", RTLD_NOW);
	printf("RUNPATH: %s\n$ORIGIN: %s\n", a ? "ok" : dlerror(), b ? "ok" : "failed");
	if (a) {
		void (*run)(double) = (void (*)(double))dlsym(a, "plug_run");
		run(0.4);
	}
	return a && b ? 0 : 1;
}
C
cc -O2 -g -fPIC -shared -o app/plug/libplug.so plug.c || fail "cannot build the plugin"
cc -O2 -g -rdynamic -fno-omit-frame-pointer -o app/main main.c -ldl -Wl,--enable-new-dtags,-rpath,'$ORIGIN/plug' ||
	fail "cannot build the host"
host_modes "dlopen by RUNPATH and \$ORIGIN" ./app/main
[ "$(cat plain.out)" = "$(printf 'RUNPATH: ok\n$ORIGIN: ok')" ] || fail "plain: $(cat plain.out)"
# with -g, the samples in host_burn under plug_run unwind through the
# plugin's frame to main: the plugin's module was recorded though it took
# no sample itself
rm -f g.pct g.*.pct
"$PCTBIN" record -g -o g.pct -- ./app/main >/dev/null 2>g.err || fail "record -g: $(cat g.err)"
"$PCTBIN" export --format=folded g.pct >g.folded 2>/dev/null || fail "export: $(cat g.err)"
through=$(awk '/plug_run;host_burn/ { n += $NF } END { print n + 0 }' g.folded)
rooted=$(awk '/main;plug_run;host_burn/ { n += $NF } END { print n + 0 }' g.folded)
echo "-g: $through samples in host_burn under plug_run, $rooted of them rooted in main"
# 0.4 s at 250 Hz: 100 expected; a floor of a fifth (timer ticks a loaded
# machine loses), and at least 95% of them through the plugin to main
[ "$through" -ge 20 ] || fail "only $through samples under plug_run: $(head -5 g.folded)"
[ $((rooted * 100)) -ge $((through * 95)) ] || fail "$rooted of $through rooted in main: $(grep plug_run g.folded | head -3)"
pass "dlopen finds the program's plugins, and stacks go through them"
