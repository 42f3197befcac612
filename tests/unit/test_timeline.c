/*
 * test_timeline.c - the arithmetic of `pct timeline` (timeline.h): bucket
 * lengths, grades, seconds, and the counting of two processes' samples
 * into buckets from their common origin, with a coarse bucket spread over
 * the buckets it overlaps.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pset.h"
#include "symtab.h"
#include "timeline.h"
#include "unit.h"

/* A profile of event cpu at 1 ms (1 kHz), started at clock_start_ns, with
 * nthreads threads (tids 100 + slot) and one sample (PC) per thread:
 * sample k is thread slot k + 1's. */
static struct profile make(const char *name, uint32_t pid, uint64_t clock_start_ns, size_t nthreads)
{
	struct profile p;
	memset(&p, 0, sizeof p);
	p.file = strdup(name);
	p.cmdline = strdup(name);
	p.command = strdup(name);
	p.hdr.version = 3;
	p.hdr.pid = pid;
	p.hdr.event = PCT_EVENT_CPU;
	strcpy(p.hdr.dimension, "seconds");
	p.hdr.period_requested_ns = 1000000;
	p.hdr.clock_start_ns = clock_start_ns;
	p.timed = 1;
	p.threads = calloc(nthreads, sizeof *p.threads);
	p.nthreads = nthreads;
	p.samples = calloc(nthreads, sizeof *p.samples);
	p.nsamples = nthreads;
	for (size_t k = 0; k < nthreads; k++) {
		p.threads[k].tid = 100 + (uint32_t)k;
		snprintf(p.threads[k].name, sizeof p.threads[k].name, "t%d", (int)(k % 100));
		p.samples[k] = (struct profile_sample){ PROFILE_NO_MODULE, (uint32_t)k + 1, 0x1000 + k, 0 };
	}
	return p;
}

/* Log weight samples of sample k at time t_ns. */
static void tick(struct profile *p, uint64_t t_ns, uint32_t k, uint64_t weight)
{
	p->ticks = realloc(p->ticks, (p->nticks + 1) * sizeof *p->ticks);
	p->ticks[p->nticks++] = (struct profile_tick){ t_ns, k, 0, weight };
	p->ticks_total += weight;
	p->samples[k].count += weight;
	p->threads[k].samples += weight;
	p->total += weight;
	if (t_ns + 1 > p->duration_ns)
		p->duration_ns = t_ns + 1;
}

static int tsv_is(const struct timeline *tl, const struct pset *s, const char *want)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	tl_print_tsv(tl, s, f);
	fclose(f);
	int ok = strcmp(buf, want) == 0;
	if (!ok)
		fprintf(stderr, "TSV:\n%s\nwant:\n%s\n", buf, want);
	free(buf);
	return ok;
}

static void text_of(const struct timeline *tl, const struct pset *s, size_t width, char **buf)
{
	size_t len = 0;
	FILE *f = open_memstream(buf, &len);
	tl_print_text(tl, s, width, 0, f);
	fclose(f);
}

/* Every line of text is at most width columns (UTF-8 characters). */
static int fits(const char *text, size_t width)
{
	size_t cols = 0;
	for (const char *c = text; *c; c++) {
		if (*c == '\n') {
			if (cols > width)
				return 0;
			cols = 0;
		} else if (((unsigned char)*c & 0xc0) != 0x80) {
			cols++;
		}
	}
	return cols <= width;
}

int main(void)
{
	/* bucket lengths: 1, 2, 5 x 10^k ns from 1 us, the shortest that fits */
	CHECK(tl_nice_bucket(2000000000, 40) == 50000000);     /* 2 s in 40: 50 ms */
	CHECK(tl_nice_bucket(2000000001, 40) == 100000000);    /* just over: 41 of 50 ms */
	CHECK(tl_nice_bucket(2000000000, 39) == 100000000);
	CHECK(tl_nice_bucket(2000000000, 100) == 20000000);
	CHECK(tl_nice_bucket(1, 80) == 1000);                  /* never below 1 us */
	CHECK(tl_nice_bucket(60000000000, 60) == 1000000000);  /* a minute in 60: 1 s */
	CHECK(tl_nice_bucket(UINT64_MAX, 10) == 2000000000000000000u);
	CHECK(tl_nice_bucket(UINT64_MAX, 3) == 5000000000000000000u); /* the longest there is */
	for (uint64_t span = 1; span < 100000000000u; span = span * 3 + 7) {
		uint64_t b = tl_nice_bucket(span, 70);
		CHECK((span + b - 1) / b <= 70);
	}

	/* grades: none, then fifths, full and more than full '#' */
	CHECK(tl_grade(0) == ' ');
	CHECK(tl_grade(-1) == ' ');
	CHECK(tl_grade(0.001) == '.');
	CHECK(tl_grade(0.199) == '.');
	CHECK(tl_grade(0.2) == ':');
	CHECK(tl_grade(0.45) == '-');
	CHECK(tl_grade(0.79) == '=');
	CHECK(tl_grade(0.8) == '#');
	CHECK(tl_grade(1.7) == '#');
	CHECK(tl_busy_samples(50000000, 1000000) == 50.0);
	CHECK(tl_busy_samples(50000000, 0) == 0.0);

	char buf[32];
	CHECK(strcmp(tl_seconds(0, buf), "0") == 0);
	CHECK(strcmp(tl_seconds(50000000, buf), "0.05") == 0);
	CHECK(strcmp(tl_seconds(1500000000, buf), "1.5") == 0);
	CHECK(strcmp(tl_seconds(12000000001, buf), "12.000000001") == 0);

	/* Two processes: A started at 10 s (monotonic), B 0.5 s later.  A's
	 * thread t0 takes 5 samples at 0.1 s and 1 at 0.95 s; B's t1 takes 2
	 * at 0.2 s (0.7 s from the origin), and then 100 samples known only
	 * to its coarse bucket [1 s, 2 s) of B (1.5 .. 2.5 s from the origin). */
	struct pset s = { 0 };
	char err[256];
	struct profile a = make("a.pct", 11, 10000000000u, 1), b = make("b.pct", 22, 10500000000u, 2);
	for (int i = 0; i < 5; i++)
		tick(&a, 100000000, 0, 1);
	tick(&a, 950000000, 0, 1);
	tick(&b, 200000000, 1, 2);
	b.buckets = calloc(1, sizeof *b.buckets);
	b.buckets[0] = (struct profile_bucket){ 1000000000, 2, 100 };
	b.nbuckets = 1;
	b.bucket_ns = 1000000000;
	b.samples[1].count += 100;
	b.total += 100;
	b.duration_ns = 2000000000;
	CHECK(pset_add(&s, &a, err, sizeof err) == 0);
	CHECK(pset_add(&s, &b, err, sizeof err) == 0);

	struct timeline tl;
	struct error e = { 0 };
	CHECK(tl_load(&s, TL_BY_THREAD, SIZE_MAX, &tl, &e) == 0);
	CHECK(tl.origin_ns == 10000000000u);
	CHECK(tl.span_ns == 2500000000u);          /* B's end, 0.5 + 2 s */
	CHECK(tl.nrows == 2);                      /* a's t0, b's t1 (b's t0 has no samples) */
	CHECK(tl.rows[0].profile == 0 && tl.rows[0].thread == 1 && tl.rows[0].samples == 6);
	CHECK(tl.rows[1].profile == 1 && tl.rows[1].thread == 2 && tl.rows[1].samples == 102);
	CHECK(tl.total == 108 && tl.logged == 8 && tl.coarse_samples == 100);
	CHECK(tl.coarse_from_ns == 1500000000u && tl.coarse_len_ns == 1000000000u);

	tl_bucket(&tl, &s, 500000000);             /* 0.5 s: 5 buckets */
	CHECK(tl.nbuckets == 5);
	CHECK(tl.counts[0] == 5 && tl.counts[1] == 1); /* A: 0.1 s in bucket 0, 0.95 s in 1 */
	CHECK(tl.counts[5 + 1] == 2);              /* B: 0.7 s from the origin, bucket 1 */
	CHECK(tl.bucket_total[0] == 5 && tl.bucket_total[1] == 3);
	CHECK(tl.ncoarse == 1 && tl.coarse[0].row == 1 && tl.coarse[0].start_ns == 1500000000u);
	CHECK(tl.rows[0].per_bucket == 500.0);     /* 0.5 s at 1 kHz */

	/* the coarse second [1.5, 2.5) spreads 50 and 50 over buckets 3, 4 */
	double cells[10];
	unsigned char coarse[5];
	tl_cells(&tl, cells, coarse);
	CHECK(cells[0] == 5.0 / 500 && cells[1] == 1.0 / 500);
	CHECK(cells[5 + 3] == 50.0 / 500 && cells[5 + 4] == 50.0 / 500 && cells[5 + 2] == 0);
	CHECK(!coarse[0] && !coarse[2] && coarse[3] && coarse[4]);
	/* with 0.4 s buckets, the coarse second covers [1.2, 2.8) in part:
	 * 0.1 of it in bucket 3 ([1.2, 1.6)), 0.4 in 4, 0.4 in 5, 0.1 in 6 */
	tl_bucket(&tl, &s, 400000000);
	CHECK(tl.nbuckets == 7);
	double c7[14];
	tl_cells(&tl, c7, NULL);
	CHECK(c7[7 + 3] > 10.0 / 400 - 1e-12 && c7[7 + 3] < 10.0 / 400 + 1e-12);
	CHECK(c7[7 + 4] > 40.0 / 400 - 1e-12 && c7[7 + 4] < 40.0 / 400 + 1e-12);
	CHECK(c7[7 + 6] > 10.0 / 400 - 1e-12 && c7[7 + 6] < 10.0 / 400 + 1e-12);

	/* TSV: bucket lines in time order, the coarse bucket at its own
	 * start and length */
	tl_bucket(&tl, &s, 500000000);
	CHECK(tsv_is(&tl, &s,
		     "start_s\tlength_s\tpid\ttid\tthread\tsamples\n"
		     "0\t0.5\t11\t100\tt0\t5\n"
		     "0.5\t0.5\t11\t100\tt0\t1\n"
		     "0.5\t0.5\t22\t101\tt1\t2\n"
		     "1.5\t1\t22\t101\tt1\t100\n"));

	/* text: one row per thread under a line per process, the coarse
	 * columns marked, the note, and every line within the width */
	char *text = NULL;
	size_t label, strip;
	tl_layout(&tl, &s, 60, 0, &label, &strip);
	CHECK(label == 10 && strip == 40);         /* "tid thread"; 60 - 10 - " |" - "| " - "100.0%" */
	tl_bucket(&tl, &s, tl_nice_bucket(tl.span_ns, strip));
	CHECK(tl.bucket_ns == 100000000 && tl.nbuckets == 25);
	text_of(&tl, &s, 60, &text);
	CHECK(fits(text, 60));
	CHECK(strstr(text, "pid 11 a.pct\n") != NULL && strstr(text, "pid 22 b.pct\n") != NULL);
	CHECK(strstr(text, "  100 t0 ") != NULL && strstr(text, "  101 t1 ") != NULL);
	CHECK(strstr(text, "~ coarse") != NULL && strstr(text, "100 samples (92.6%) from 1.500 s on") != NULL);
	CHECK(strstr(text, "  5.6%\n") != NULL && strstr(text, " 94.4%\n") != NULL);
	if (unit_fail)
		fputs(text, stderr);
	free(text);

	/* by function: the report's grouping; one function ([unknown]) */
	struct timeline tf;
	CHECK(tl_load(&s, TL_BY_FUNCTION, 10, &tf, &e) == 0);
	CHECK(tf.nrows == 1 && tf.functions == 1 && tf.rows[0].samples == 108);
	CHECK(strcmp(tf.rows[0].function, "[unknown]") == 0);
	tl_bucket(&tf, &s, 500000000);
	CHECK(tf.counts[0] == 5 && tf.counts[1] == 3 && tf.counts[3] == 0);
	CHECK(tsv_is(&tf, &s,
		     "start_s\tlength_s\tmodule\tfunction\tsamples\tbucket_samples\n"
		     "0\t0.5\t[unknown]\t[unknown]\t5\t5\n"
		     "0.5\t0.5\t[unknown]\t[unknown]\t3\t3\n"));
	tl_free(&tf);
	tl_free(&tl);

	/* a profile without a sample: no row, nothing in any bucket */
	struct pset s0 = { 0 };
	struct profile none = make("none.pct", 44, 5, 1);
	CHECK(pset_add(&s0, &none, err, sizeof err) == 0);
	CHECK(tl_load(&s0, TL_BY_THREAD, SIZE_MAX, &tl, &e) == 0);
	CHECK(tl.nrows == 0 && tl.span_ns == 1);
	tl_layout(&tl, &s0, 40, 0, &label, &strip);
	tl_bucket(&tl, &s0, tl_nice_bucket(tl.span_ns, strip));
	CHECK(tl.nbuckets == 1);
	text_of(&tl, &s0, 40, &text);
	CHECK(fits(text, 40) && strstr(text, "0 threads, 0") != NULL && strstr(text, "Hz") == NULL);
	free(text);
	CHECK(tsv_is(&tl, &s0, "start_s\tlength_s\tpid\ttid\tthread\tsamples\n"));
	tl_free(&tl);
	CHECK(tl_load(&s0, TL_BY_FUNCTION, 10, &tl, &e) == 0);
	CHECK(tl.nrows <= 1);                      /* the PC of no sample ([unknown]) */
	tl_bucket(&tl, &s0, 1000);
	text_of(&tl, &s0, 40, &text);
	CHECK(fits(text, 40));
	free(text);
	tl_free(&tl);

	/* a file without sample times (version 2) is refused, named */
	struct pset s2 = { 0 };
	struct profile old = make("old.pct", 33, 0, 1);
	old.timed = 0;
	old.hdr.version = 2;
	CHECK(pset_add(&s2, &old, err, sizeof err) == 0);
	CHECK(tl_load(&s2, TL_BY_THREAD, SIZE_MAX, &tl, &e) == -1);
	CHECK(e.status == 1 && e.msg && strcmp(e.msg, "old.pct: no sample times (format version 2; record it again)") == 0);
	free(e.msg);
	pset_free(&s);
	pset_free(&s0);
	pset_free(&s2);
	symtab_free_all();
	return unit_done("test_timeline");
}
