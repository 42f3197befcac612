/*
 * test_top.c - pct top's model (top.h): the samples of the last interval
 * are the differences between two readings, per function and thread; the
 * rows are ordered by them; a rate is samples x the effective period over
 * the wall-clock span, with the Poisson score interval of stats.h.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pset.h"
#include "stats.h"
#include "top.h"
#include "unit.h"

#define START_NS 1700000000000000000LL   /* CLOCK_REALTIME of the start */

/* A complete profile of 2 s: module a.so (thread w1: a1, w2: a2 samples)
 * and b.so (w2: b2), none of whose files exist (so each is one function,
 * "[unknown]"), at an effective period of 4 ms. */
static void add_profile(struct pset *s, uint64_t a1, uint64_t a2, uint64_t b2)
{
	struct profile p;
	memset(&p, 0, sizeof p);
	p.file = strdup("test.pct");
	p.hdr.state = PCT_STATE_COMPLETE;
	p.hdr.event = PCT_EVENT_CPU;
	p.hdr.mechanism = 1;
	strcpy(p.hdr.dimension, "seconds");
	p.hdr.pid = 100;
	p.hdr.start_time_ns = START_NS;
	p.hdr.end_time_ns = START_NS + 2000000000LL;
	p.nmodules = 2;
	p.modules = calloc(2, sizeof *p.modules);
	p.modules[0] = (struct profile_module){ .path = strdup("/nonexistent/pct-test/a.so"), .kind = PCT_MOD_FILE };
	p.modules[1] = (struct profile_module){ .path = strdup("/nonexistent/pct-test/b.so"), .kind = PCT_MOD_FILE };
	p.nthreads = 2;
	p.threads = calloc(2, sizeof *p.threads);
	p.threads[0] = (struct profile_thread){ .tid = 101, .name = "w1", .samples = a1 };
	p.threads[1] = (struct profile_thread){ .tid = 102, .name = "w2", .samples = a2 + b2 };
	p.nsamples = 3;
	p.samples = calloc(3, sizeof *p.samples);
	p.samples[0] = (struct profile_sample){ .module = 0, .thread = 1, .offset = 0x10, .count = a1 };
	p.samples[1] = (struct profile_sample){ .module = 0, .thread = 2, .offset = 0x10, .count = a2 };
	p.samples[2] = (struct profile_sample){ .module = 1, .thread = 2, .offset = 0x20, .count = b2 };
	p.total = a1 + a2 + b2;
	p.cpu_ns = p.total * 4000000;
	char err[256];
	memset(s, 0, sizeof *s);
	CHECK(pset_add(s, &p, err, sizeof err) == 0);
}

int main(void)
{
	struct top t = { .full_names = 1 };
	struct pset s;
	struct error e = { 0 };

	/* the first reading: the interval is the run so far */
	add_profile(&s, 160, 50, 190);
	CHECK(top_update(&t, &s, 10000000000u, START_NS + 2000000000LL, &e) == 0);
	pset_free(&s);
	CHECK(t.nrows == 2 && t.total_run == 400 && t.total_now == 400);
	CHECK(t.run_ns == 2000000000u && t.interval_ns == t.run_ns);
	CHECK(fabs(t.per_sample - 4e6) < 1e-6);
	CHECK(t.processes == 1 && t.threads == 2 && t.running == 0);
	CHECK(strcmp(t.rows[0].module, "a.so") == 0 && t.rows[0].now == 210 && t.rows[0].run == 210);
	CHECK(t.rows[0].nthreads == 2 && strcmp(t.rows[0].threads[0].label, "w1/101") == 0 &&
	      t.rows[0].threads[0].samples == 160 && t.rows[0].threads[1].samples == 50);
	CHECK(strcmp(t.rows[1].module, "b.so") == 0 && t.rows[1].now == 190 && t.rows[1].nthreads == 1);

	/* a second reading 1 s later: only a.so's w1 took 100 more */
	add_profile(&s, 260, 50, 190);
	CHECK(top_update(&t, &s, 11000000000u, START_NS + 2000000000LL, &e) == 0);
	pset_free(&s);
	CHECK(t.interval_ns == 1000000000u && t.total_now == 100 && t.total_run == 500);
	CHECK(strcmp(t.rows[0].module, "a.so") == 0 && t.rows[0].now == 100 && t.rows[0].run == 310);
	CHECK(strcmp(t.rows[1].module, "b.so") == 0 && t.rows[1].now == 0 && t.rows[1].run == 190);

	/* its rate: 100 samples x 4 ms over 1 s = 40% of a CPU, and the
	 * score interval of 100 (82.23 .. 121.61) x 0.4 */
	char *buf = NULL;
	size_t len = 0;
	FILE *w = open_memstream(&buf, &len);
	top_print(&t, "test", 10, 0, w);
	fclose(w);
	char *row = strstr(buf, "\n   40.0 [32.9-48.6]");
	CHECK(row != NULL);
	/* over the run: 310 x 4 ms over 2 s = 62.0% */
	CHECK(row && strstr(row, " 62.0 [") != NULL);
	CHECK(strstr(buf, "w1/101 84%, w2/102 16%") != NULL);   /* 260 and 50 of 310 */
	CHECK(strstr(buf, "% of one CPU: samples x 4.000 ms") != NULL);
	if (unit_fail)
		fputs(buf, stderr);
	free(buf);

	/* no profile yet: every count 0, nothing to show */
	struct top t0 = { 0 };
	CHECK(top_update(&t0, NULL, 1, 1, &e) == 0 && t0.nrows == 0 && t0.per_sample == 0);
	top_free(&t0);
	top_free(&t);
	return unit_done("test_top");
}
