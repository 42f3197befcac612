# A thread that names itself (pthread_setname_np) after its first sample
# keeps that name in the report.  The random first period can put a
# thread's first sample before its own code has run for long: before, the
# slot kept the name inherited from the creator until the thread's 256th
# signal, so at -F 2000 (one signal per 4 ms tick, the rest in the perf
# ring) a thread of 0.4 s was reported under the program's name, and a
# per-thread truth test lost it (e2e 31 failed so under load).
# pct-test: plain (its subject is the runtime, which build-san leaves uninstrumented: the sanitized run adds nothing)
. "$(dirname "$0")/lib.sh"
cat >late.c <<'C'
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>
static uint64_t cpu_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}
static volatile uint64_t sink;
static void spin(uint64_t ns)
{
	for (uint64_t s = cpu_ns(); cpu_ns() - s < ns;)
		sink++;
}
static void *worker(void *arg)
{
	char name[16];
	spin(300000);  /* 0.3 ms of CPU before the thread names itself */
	snprintf(name, sizeof name, "late-%d", (int)(intptr_t)arg);
	pthread_setname_np(pthread_self(), name);
	spin(400000000);
	return NULL;
}
int main(void)
{
	pthread_t t[8];
	for (int i = 0; i < 8; i++)
		pthread_create(&t[i], NULL, worker, (void *)(intptr_t)i);
	for (int i = 0; i < 8; i++)
		pthread_join(t[i], NULL);
	return 0;
}
C
cc -O2 -pthread -o late late.c || fail "compile late.c"
for mode in "-F 2000" ""; do
	# shellcheck disable=SC2086
	"$PCTBIN" record $mode -o l.pct ./late 2>err || fail "record $mode: $(cat err)"
	grep -q "perf_event_open was refused" err && [ -n "$mode" ] && continue
	"$PCTBIN" report --by=thread --format=tsv l.pct >l.tsv || fail "report $mode"
	names=$(awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } $c["samples"] >= 20 { print $c["thread"] }' l.tsv | sort | tr '\n' ' ')
	echo "record ${mode:-(default)}: threads with 20 samples or more: $names"
	[ "$names" = "late-0 late-1 late-2 late-3 late-4 late-5 late-6 late-7 " ] ||
		fail "${mode:-default}: a thread lost its name: $(cat l.tsv)"
done
pass "threads named after their first sample keep their names"
