/*
 * test_format_defs.c - the definitions that pct_format.h holds once for the
 * runtime and the tools: the event table (PCT_EVENTS).
 *
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
	check_events();
	return unit_done("test_format_defs");
}
