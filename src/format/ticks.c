/*
 * ticks.c - the time of samples: reading the tick log and the bucket
 * table (pct_format.h), time ranges, and slicing a profile by time.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "escape.h"
#include "stats.h"
#include "ticks.h"
#include "util.h"

#define TIME_MAX_NS (UINT64_C(1) << 62)  /* later than any sample: damage */
#define RANGE_MAX_S 4.0e9                 /* seconds a range end may name (beyond 2^62 ns) */

static int fail(char *err, size_t errlen, const char *file, const char *fmt, ...)
{
	va_list ap;
	int n = snprintf(err, errlen, "%s: ", file);
	va_start(ap, fmt);
	if (n >= 0 && (size_t)n < errlen)
		vsnprintf(err + n, errlen - (size_t)n, fmt, ap);
	va_end(ap);
	return -1;
}

/* The index in slot_of[0..n) of slot, or -1. */
static ptrdiff_t find_slot(const uint64_t *slot_of, size_t n, uint64_t slot)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (slot_of[mid] < slot)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && slot_of[lo] == slot ? (ptrdiff_t)lo : -1;
}

struct ordered {
	struct profile_tick t;
	uint64_t raw;                  /* its record's index in the log: the tie-break */
};

static int by_time(const void *a, const void *b)
{
	const struct ordered *x = a, *y = b;
	if (x->t.time_ns != y->t.time_ns)
		return x->t.time_ns < y->t.time_ns ? -1 : 1;
	return x->raw < y->raw ? -1 : x->raw > y->raw;
}

static int by_bucket(const void *a, const void *b)
{
	const struct profile_bucket *x = a, *y = b;
	if (x->start_ns != y->start_ns)
		return x->start_ns < y->start_ns ? -1 : 1;
	return x->thread < y->thread ? -1 : x->thread > y->thread;
}

static int read_buckets(struct profile *p, const struct bucket_rec *b, size_t nb, const char *file, char *err,
			size_t errlen)
{
	size_t cap = 0;
	for (size_t j = 0; j < nb; j++) {
		uint64_t key = b[j].b.key, n = key >> PCT_BUCKET_SHIFT, count = b[j].b.count, i = b[j].index;
		uint32_t thread = (uint32_t)(key & PCT_BUCKET_THREAD_MASK);
		/* a key without a count yet: claimed by a handler that had not
		 * added to it (one still running when the file was finished) */
		if (key == 0 || count == 0)
			continue;
		if (n == 0 || n > TIME_MAX_NS / p->bucket_ns || count > (UINT64_C(1) << 48) ||
		    thread > p->nthreads || (thread && p->threads[thread - 1].tid == 0))
			return fail(err, errlen, file, "bucket slot %llu (key 0x%llx, %llu samples) is malformed",
				    (unsigned long long)i,
				    (unsigned long long)key, (unsigned long long)count);
		grow(&p->buckets, &cap, p->nbuckets + 1, sizeof *p->buckets);
		p->buckets[p->nbuckets++] = (struct profile_bucket){ (n - 1) * p->bucket_ns, thread, count };
	}
	if (p->nbuckets)
		qsort(p->buckets, p->nbuckets, sizeof *p->buckets, by_bucket);
	return 0;
}

ptrdiff_t tick_rec_find(const struct tick_rec *raw, size_t n, uint64_t i)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (raw[mid].index < i)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && raw[lo].index == i ? (ptrdiff_t)lo : -1;
}

int ticks_build(struct profile *p, const struct tick_rec *raw, size_t nraw, const struct bucket_rec *buckets,
		size_t nbuckets, const uint64_t *slot_of, const char *file, char *err, size_t errlen)
{
	const struct pct_header *h = &p->hdr;
	int live = h->state == PCT_STATE_RUNNING, rc = -1;
	p->timed = h->ticks_offset != 0;
	if (!p->timed)
		return 0;
	p->bucket_ns = h->buckets_offset ? (uint64_t)h->bucket_ms * 1000000u : 0;
	uint64_t *left = xmalloc((p->nsamples ? p->nsamples : 1) * sizeof *left);  /* counts not yet ticked */
	size_t *at = xmalloc((nraw ? nraw : 1) * sizeof *at);  /* raw[i] -> ordered index + 1 */
	struct ordered *o = xmalloc((nraw ? nraw : 1) * sizeof *o);
	size_t n = 0;
	for (size_t k = 0; k < p->nsamples; k++)
		left[k] = p->samples[k].count;
	for (size_t i = 0; i < nraw; i++) {
		struct pct_tick r = raw[i].t;
		at[i] = 0;
		if (r.entry == 0)
			continue;      /* being written, or its writer died */
		ptrdiff_t k = r.entry <= h->table_slots ? find_slot(slot_of, p->nsamples, r.entry - 1) : -1;
		if (k < 0 || r.weight == 0 || r.weight > left[k] || r.time_ns > TIME_MAX_NS) {
			if (live && r.entry <= h->table_slots && r.time_ns <= TIME_MAX_NS)
				continue;  /* counted after the table was read */
			fail(err, errlen, file, "tick %llu (table slot %u, %u samples at %llu ns) does not match the "
			     "sample table", (unsigned long long)raw[i].index, r.entry - 1, r.weight,
			     (unsigned long long)r.time_ns);
			goto out;
		}
		left[k] -= r.weight;
		o[n] = (struct ordered){ { r.time_ns, (uint32_t)k, 0, r.weight }, raw[i].index };
		at[i] = ++n;
	}
	for (size_t j = 0; j < p->nstacks; j++) {
		uint32_t t = p->stacks[j].tick;
		ptrdiff_t r = t ? tick_rec_find(raw, nraw, t - 1) : -1;
		if (r >= 0 && at[r] && j < UINT32_MAX)
			o[at[r] - 1].t.stack = (uint32_t)j + 1;
	}
	qsort(o, n, sizeof *o, by_time);
	p->ticks = xmalloc((n ? n : 1) * sizeof *p->ticks);
	for (size_t i = 0; i < n; i++) {
		p->ticks[i] = o[i].t;
		p->ticks_total += o[i].t.weight;
	}
	p->nticks = n;
	if (read_buckets(p, buckets, nbuckets, file, err, errlen) != 0)
		goto out;
	if (h->clock_end_ns)
		p->duration_ns = h->clock_end_ns - h->clock_start_ns;
	else {
		if (n)
			p->duration_ns = p->ticks[n - 1].time_ns;
		if (p->nbuckets && p->buckets[p->nbuckets - 1].start_ns + p->bucket_ns > p->duration_ns)
			p->duration_ns = p->buckets[p->nbuckets - 1].start_ns + p->bucket_ns;
	}
	rc = 0;
out:
	free(left);
	free(at);
	free(o);
	return rc;
}

/* One end of a range: a decimal number of seconds, or "" (open). */
static int range_end(const char *s, size_t len, uint64_t open, uint64_t *ns)
{
	char buf[64], *end;
	if (len == 0) {
		*ns = open;
		return 0;
	}
	if (len >= sizeof buf || strspn(s, "0123456789.") < len)
		return -1;
	memcpy(buf, s, len);
	buf[len] = '\0';
	errno = 0;
	double v = strtod(buf, &end);
	if (errno || *end || !isfinite(v) || v < 0 || v > RANGE_MAX_S)
		return -1;
	*ns = (uint64_t)llround(v * 1e9);
	return 0;
}

int time_range_parse(const char *arg, struct time_range *r, char *err, size_t errlen)
{
	const char *dots = strstr(arg, "..");
	const char *why = NULL;
	if (dots == NULL)
		why = "expected START..END (seconds; either may be left out)";
	else if (range_end(arg, (size_t)(dots - arg), 0, &r->from_ns) != 0 ||
		 range_end(dots + 2, strlen(dots + 2), UINT64_MAX, &r->to_ns) != 0)
		why = "START and END are seconds since the start, e.g. 1.5..3";
	else if (r->to_ns <= r->from_ns)
		why = "END must be after START";
	if (why == NULL)
		return 0;
	/* the argument as given, escaped (it may hold any byte), up to 80
	 * bytes of it */
	char *shown = esc_dup(arg);
	snprintf(err, errlen, "--time=%.80s%s: bad time range: %s", shown, strlen(shown) > 80 ? "..." : "", why);
	free(shown);
	return -1;
}

const char *profile_untimed_why(const struct profile *p)
{
	if (p->timed)
		return NULL;
	return p->hdr.version < 3 ? "format version 2; record it again"
	       : p->hdr.runs > 1  ? "pct merge --sum keeps none; merge without --sum, or give the runs' own files"
				  : "recorded with PCT_TIME_AREA=0; record it again";
}

int profile_slice(struct profile *p, const struct time_range *r, uint64_t origin_ns, uint64_t *coarse, char *err,
		  size_t errlen)
{
	if (!p->timed)
		return fail(err, errlen, p->file, "no sample times for --time (%s)", profile_untimed_why(p));
	/* the profile's start on the range's clock: origin_ns is no later */
	uint64_t shift = p->hdr.clock_start_ns > origin_ns ? p->hdr.clock_start_ns - origin_ns : 0;
	uint64_t before = p->total + p->hdr.dropped;
	for (size_t k = 0; k < p->nsamples; k++)
		p->samples[k].count = 0;
	for (size_t t = 0; t < p->nthreads; t++)
		p->threads[t].samples = 0;
	struct profile_stack *kept = xmalloc((p->nstacks ? p->nstacks : 1) * sizeof *kept);
	size_t n = 0, ns = 0;
	p->total = 0;
	for (size_t i = 0; i < p->nticks; i++) {
		struct profile_tick t = p->ticks[i];
		uint64_t at = t.time_ns + shift;
		if (at < r->from_ns || at >= r->to_ns)
			continue;
		struct profile_sample *s = &p->samples[t.sample];
		s->count += t.weight;
		if (s->thread)
			p->threads[s->thread - 1].samples += t.weight;
		p->total += t.weight;
		if (t.stack) {
			kept[ns] = p->stacks[t.stack - 1];
			t.stack = (uint32_t)++ns;
		}
		p->ticks[n++] = t;
	}
	free(p->stacks);
	p->stacks = kept;
	p->nticks = n;
	p->nstacks = ns;
	p->ticks_total = p->total;
	size_t nb = 0;
	for (size_t i = 0; i < p->nbuckets; i++) {
		struct profile_bucket b = p->buckets[i];
		uint64_t from = b.start_ns + shift, to = from + p->bucket_ns;
		if (to <= r->from_ns || from >= r->to_ns)
			continue;
		*coarse += b.count;
		if (from >= r->from_ns && to <= r->to_ns)
			p->buckets[nb++] = b;
	}
	p->nbuckets = nb;
	/* samples without a tick in range are gone, so that no report shows
	 * a row of none */
	uint32_t *renum = xmalloc((p->nsamples ? p->nsamples : 1) * sizeof *renum);
	size_t kept_samples = 0;
	for (size_t k = 0; k < p->nsamples; k++)
		if (p->samples[k].count) {
			renum[k] = (uint32_t)kept_samples;
			p->samples[kept_samples++] = p->samples[k];
		}
	for (size_t i = 0; i < p->nticks; i++)
		p->ticks[i].sample = renum[p->ticks[i].sample];
	p->nsamples = kept_samples;
	free(renum);
	/* what the slice's samples cover, at the profile's own rate, so that
	 * rates and the shortfall check read as for a whole profile */
	profile_cover_kept(p, before);
	return 0;
}

void profile_cover_kept(struct profile *p, uint64_t before)
{
	double part = before ? (double)p->total / (double)before : 0;
	p->cpu_ns = (uint64_t)((double)p->cpu_ns * part);
	p->hdr.cpu_last_ns = p->hdr.cpu_start_ns + p->cpu_ns;
	p->hdr.dropped = 0;
	p->hdr.untimed = 0;
	p->hdr.stacks_dropped = 0;
}

static uint64_t sat_add(uint64_t a, uint64_t b)
{
	return a + b < a ? UINT64_MAX : a + b;
}

void profile_overruns_add(const struct profile *p, struct profile_overruns *o)
{
	for (size_t i = 0; i < p->nticks; i++) {
		uint64_t w = p->ticks[i].weight;
		o->signals = sat_add(o->signals, 1);
		o->samples = sat_add(o->samples, w);
		o->squares = sat_add(o->squares, w > UINT32_MAX ? UINT64_MAX : w * w);
		if (w > o->max)
			o->max = w;
	}
}

int profile_overruns_note(const struct profile_overruns *o, char *buf, size_t cap)
{
	double f = stats_overrun_factor(o->samples, o->squares);
	if (cap)
		buf[0] = 0;
	if (!(f >= STATS_OVERRUN_NOTE))
		return 0;
	snprintf(buf, cap,
		 "timer overruns: %llu samples came in %llu signals, one of them for %llu periods (a signal "
		 "waits out a long system call, and a loaded machine's kernel checks the timers late); the "
		 "errors count each sample as one and are about %.1fx too narrow (sqrt of the squared "
		 "weights over the samples)",
		 (unsigned long long)o->samples, (unsigned long long)o->signals, (unsigned long long)o->max, f);
	return 1;
}
