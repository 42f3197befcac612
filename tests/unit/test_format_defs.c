/*
 * test_format_defs.c - the definitions that pct_format.h holds once for the
 * runtime and the tools: the file layout (pct_layout) and the event table
 * (PCT_EVENTS).
 *
 * Layout: known inputs give the offsets the runtime and `pct merge` wrote
 * before the layout was defined once; for a grid of inputs every region is
 * aligned as documented, starts after the one before it ends (no overlap,
 * and no more padding than the alignment needs), and file_size is the end
 * of the last region; a file past 2^64 bytes is refused.
 * Events: every event of enum pct_event is in the table once, its name
 * and number round-trip, its dimension fits the header, its perf type
 * agrees with its kind, and PCT_EVENT_NAMES lists the names in order.
 */
#define _GNU_SOURCE
#include <linux/perf_event.h>
#include <stdlib.h>
#include <string.h>

#include "pct_format.h"
#include "profile.h"
#include "unit.h"

static void check_known(void)
{
	struct pct_layout l;

	/* the runtime's default file: 1024 modules, 256 KiB of strings, 4096
	 * threads, 2^18 slots, no stacks (offsets of a file it wrote) */
	CHECK(pct_layout(&l, 1024, 256 * 1024, 4096, 1u << 18, 0, 0, 0) == 0);
	CHECK(l.modules_offset == 4096);
	CHECK(l.strings_offset == 94208);
	CHECK(l.threads_offset == 356352);
	CHECK(l.table_offset == 487424);
	CHECK(l.stacks_offset == 0);
	CHECK(l.file_size == 6778880);

	/* the same with -g's default 64 MiB stack region */
	CHECK(pct_layout(&l, 1024, 256 * 1024, 4096, 1u << 18, UINT64_C(64) << 20, 0, 0) == 0);
	CHECK(l.table_offset == 487424);
	CHECK(l.stacks_offset == 6778880);
	CHECK(l.file_size == 73887744);

	/* `pct merge` of 7 modules, a 240-byte pool, 16 threads, 1024 slots */
	CHECK(pct_layout(&l, 7, 240, 16, 1024, 0, 0, 0) == 0);
	CHECK(l.strings_offset == 4712);
	CHECK(l.threads_offset == 4952);
	CHECK(l.table_offset == 8192);
	CHECK(l.file_size == 32768);

	/* a pool whose end is not 8-aligned: the threads start at the next 8 */
	CHECK(pct_layout(&l, 7, 241, 16, 1024, 0, 0, 0) == 0);
	CHECK(l.threads_offset == 4960);

	/* a table that ends mid-page: the stacks start on the next page */
	CHECK(pct_layout(&l, 1, 1, 1, 1, 1, 0, 0) == 0);
	CHECK(l.table_offset == 8192);
	CHECK(l.stacks_offset == 12288);
	CHECK(l.file_size == 12289);

	/* version 3's default: a 32 MiB tick log (2^21 ticks) and 65536
	 * buckets after the table, then -g's stacks, last (a file it wrote
	 * is 41381888 bytes) */
	CHECK(pct_layout(&l, 1024, 256 * 1024, 4096, 1u << 18, 0, 1u << 21, 65536) == 0);
	CHECK(l.ticks_offset == 6778880);
	CHECK(l.buckets_offset == 40333312);
	CHECK(l.stacks_offset == 0);
	CHECK(l.file_size == 41381888);
	CHECK(pct_layout(&l, 1024, 256 * 1024, 4096, 1u << 18, UINT64_C(64) << 20, 1u << 21, 65536) == 0);
	CHECK(l.stacks_offset == 41381888);
	CHECK(l.file_size == 108490752);
	/* each region starts on a page */
	CHECK(pct_layout(&l, 1, 1, 1, 1, 1, 1, 1) == 0);
	CHECK(l.ticks_offset == 12288 && l.buckets_offset == 16384 && l.stacks_offset == 20480);
	CHECK(l.file_size == 20481);
	/* the tick log wraps */
	CHECK(pct_layout(&l, 0, 0, 0, 1, 0, UINT64_MAX / 8, 0) == -1);
}

static int aligned(uint64_t x, uint64_t a)
{
	return x % a == 0;
}

/* The regions as pct(5) lists them, in file order: each is aligned, starts
 * where the one before ends (plus the padding of its alignment only), and
 * file_size is where the last one ends. */
static void check_grid(void)
{
	static const uint64_t mods[] = { 0, 1, 7, 1024, PCT_MODULES_LIMIT };
	static const uint64_t strs[] = { 0, 1, 7, 8, 9, 4095, 4096, 262144, 1000003 };
	static const uint64_t thr[] = { 0, 1, 16, 4096, 65536 };
	static const uint64_t slots[] = { 0, 1, 1024, 1u << 18, UINT64_C(1) << 26 };
	static const uint64_t stacks[] = { 0, 1, 8, 4096, 65537, UINT64_C(64) << 20 };
	int bad = 0, cases = 0;

	for (size_t a = 0; a < sizeof mods / sizeof *mods; a++)
	for (size_t b = 0; b < sizeof strs / sizeof *strs; b++)
	for (size_t c = 0; c < sizeof thr / sizeof *thr; c++)
	for (size_t d = 0; d < sizeof slots / sizeof *slots; d++)
	for (size_t e = 0; e < sizeof stacks / sizeof *stacks; e++) {
		struct pct_layout l;
		cases++;
		if (pct_layout(&l, mods[a], strs[b], thr[c], slots[d], stacks[e], 0, 0) != 0) {
			bad++;
			continue;
		}
		uint64_t mods_end = l.modules_offset + mods[a] * sizeof(struct pct_module);
		uint64_t strs_end = l.strings_offset + strs[b];
		uint64_t thr_end = l.threads_offset + thr[c] * sizeof(struct pct_thread);
		uint64_t table_end = l.table_offset + slots[d] * sizeof(struct pct_entry);
		uint64_t stacks_end = l.stacks_offset + stacks[e];
		int ok = l.modules_offset == PCT_PAGE && l.modules_offset >= sizeof(struct pct_header) &&
			 l.strings_offset == mods_end &&
			 aligned(l.threads_offset, 8) && l.threads_offset >= strs_end && l.threads_offset < strs_end + 8 &&
			 aligned(l.table_offset, PCT_PAGE) && l.table_offset >= thr_end &&
			 l.table_offset < thr_end + PCT_PAGE;
		if (stacks[e] == 0)
			ok = ok && l.stacks_offset == 0 && l.file_size == table_end;
		else
			ok = ok && aligned(l.stacks_offset, PCT_PAGE) && l.stacks_offset >= table_end &&
			     l.stacks_offset < table_end + PCT_PAGE && l.file_size == stacks_end;
		if (!ok) {
			fprintf(stderr, "layout %llu modules, %llu string bytes, %llu threads, %llu slots, "
				"%llu stack bytes: wrong\n", (unsigned long long)mods[a], (unsigned long long)strs[b],
				(unsigned long long)thr[c], (unsigned long long)slots[d], (unsigned long long)stacks[e]);
			bad++;
		}
	}
	CHECK(cases == 5 * 9 * 5 * 5 * 6);
	CHECK(bad == 0);
}

static void check_overflow(void)
{
	struct pct_layout l = { 1, 1, 1, 1, 1, 1, 1, 1 };
	CHECK(pct_layout(&l, 1024, 0, 16, UINT64_C(1) << 60, 0, 0, 0) == -1);   /* 2^60 x 24 bytes */
	CHECK(l.modules_offset == 0 && l.table_offset == 0 && l.file_size == 0);
	CHECK(pct_layout(&l, 0, UINT64_MAX - 100, 0, 0, 0, 0, 0) == -1);      /* the pool wraps */
	CHECK(pct_layout(&l, 0, 0, 0, 1, UINT64_MAX - 4096, 0, 0) == -1);     /* the stacks wrap */
	CHECK(pct_layout(&l, UINT64_MAX / 88 + 1, 0, 0, 0, 0, 0, 0) == -1);   /* the modules wrap */
	/* the largest table that fits still does */
	CHECK(pct_layout(&l, 0, 0, 0, (UINT64_MAX - 8192) / sizeof(struct pct_entry), 0, 0, 0) == 0);
}

static void check_events(void)
{
	static const struct pct_event_perf perf[PCT_EVENT_MAX + 1] = { PCT_EVENTS(PCT_EVENT_PERF) };
	unsigned n;
	const struct pct_event_def *defs = pct_event_table(&n);
	char names[256] = "";

	CHECK(n == PCT_EVENT_MAX);
	for (uint32_t e = 1; e <= PCT_EVENT_MAX; e++) {
		const struct pct_event_def *d = pct_event_by_id(e);
		CHECK(d != NULL);
		if (d == NULL)
			continue;
		CHECK(d == &defs[e - 1]);                  /* in enum order */
		CHECK(d->event == e);
		CHECK(pct_event_by_name(d->name) == d);    /* name -> event -> name */
		CHECK(strcmp(event_name(e), d->name) == 0);
		CHECK(d->dimension[0] != '\0');
		CHECK(strlen(d->dimension) < sizeof ((struct pct_header *)0)->dimension);
		CHECK(d->dimension_abbrev != '\0');
		/* time events are in seconds with no default period and counted
		 * by the task clock; the hardware events count themselves */
		int time = e == PCT_EVENT_CPU || e == PCT_EVENT_USER || e == PCT_EVENT_WALL;
		CHECK(time ? d->default_period == 0 : d->default_period > 0);
		CHECK(time == (strcmp(d->dimension, "seconds") == 0));
		CHECK(perf[e].type == (time ? PERF_TYPE_SOFTWARE : PERF_TYPE_HARDWARE));
		CHECK(!time || perf[e].config == PERF_COUNT_SW_TASK_CLOCK);
		if (e > 1)
			strcat(names, ", ");
		strcat(names, d->name);
	}
	CHECK(strcmp(names, PCT_EVENT_NAMES) == 0);
	CHECK(perf[PCT_EVENT_CYCLES].config == PERF_COUNT_HW_CPU_CYCLES);
	CHECK(perf[PCT_EVENT_BRANCH_MISSES].config == PERF_COUNT_HW_BRANCH_MISSES);
	CHECK(pct_event_by_id(0) == NULL);
	CHECK(pct_event_by_id(PCT_EVENT_MAX + 1) == NULL);
	CHECK(pct_event_by_name("") == NULL);
	CHECK(pct_event_by_name("CPU") == NULL);
	CHECK(pct_event_by_name("cpu ") == NULL);
	CHECK(pct_event_by_name("cycle") == NULL);
	CHECK(strcmp(event_name(0), "?") == 0);
	CHECK(strcmp(event_name(PCT_EVENT_MAX + 1), "?") == 0);
	CHECK(strcmp(event_name(UINT32_MAX), "?") == 0);
}

int main(void)
{
	check_known();
	check_grid();
	check_overflow();
	check_events();
	return unit_done("test_format_defs");
}
