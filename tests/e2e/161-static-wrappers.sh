# A static program linked with libpct.a: its pthread_create, dlopen and
# dlclose are the C library's (libpct.a has no wrapper of them, which a
# static program could not forward: pthread_create returned EAGAIN in every
# such program, and dlopen failed with "RTLD_NEXT used in code not
# dynamically loaded"), and it is still profiled (found by review).
# pct-test: plain (gcov: its sanitized run executes no line of src/ that the rest of the sanitized subset leaves out, in two runs of each; make check-full runs it sanitized)
. "$(dirname "$0")/lib.sh"
cat >st.c <<'C'
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdint.h>
#include <time.h>
volatile uint64_t sink;
static void *burn(void *arg)
{
	struct timespec a, b;
	uint64_t x = 1;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &a);
	do {
		for (int i = 0; i < 10000; i++)
			x = x * 6364136223846793005u + 1442695040888963407u;
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &b);
	} while ((b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) / 1e9 < 0.3);
	sink = x;
	return arg;
}
int main(void)
{
	pthread_t t;
	int rc = pthread_create(&t, NULL, burn, NULL);
	printf("pthread_create: %d\n", rc);
	if (rc == 0)
		pthread_join(t, NULL);
	burn(NULL);
	void *h = dlopen("libm.so.6", RTLD_NOW);
	printf("dlopen: %s, dlclose: %d\n", h ? "ok" : "failed", h ? dlclose(h) : -1);
	return 0;
}
C
cc -O2 -g -static -pthread -o st st.c -Wl,-u,pct_on "$ROOT/$B/lib/libpct.a" 2>cc.err || fail "cannot link: $(cat cc.err)"
./st >plain.out || fail "plain: $(cat plain.out)"
[ "$(cat plain.out)" = "$(printf 'pthread_create: 0\ndlopen: ok, dlclose: 0')" ] || fail "plain: $(cat plain.out)"
PCT=$SCRATCH/st.pct ./st >pct.out 2>pct.err || fail "under PCT: $(cat pct.out pct.err)"
cmp -s plain.out pct.out || fail "under PCT the output differs: $(cat pct.out)"
"$PCTBIN" report --format=tsv st.pct >st.tsv || fail "no profile"
n=$(awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } $c["function"] == "burn" { n += $c["samples"] } END { print n + 0 }' st.tsv)
# the main thread's 0.3 s in burn: 75 samples expected at 250 Hz (the
# thread pct did not arm, made after it started, is not sampled); a floor
# of a fifth
[ "$n" -ge 15 ] || fail "$n samples in burn: $(cat st.tsv)"
pass "static with libpct.a: pthread_create, dlopen and dlclose work; $n samples in burn"
