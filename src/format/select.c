/*
 * select.c - keeping the samples of some threads and modules (--comm,
 * --tid, --dso): profile_select (profile.h).
 */
#include <stdlib.h>
#include <string.h>

#include "profile.h"
#include "util.h"

/* Is name one of the comma-separated items of list? */
static int in_list(const char *list, const char *name, size_t namelen)
{
	for (const char *p = list; *p;) {
		const char *comma = strchr(p, ',');
		size_t n = comma ? (size_t)(comma - p) : strlen(p);
		if (n == namelen && memcmp(p, name, n) == 0)
			return 1;
		if (!comma)
			break;
		p = comma + 1;
	}
	return 0;
}

/* Is the decimal tid one of list's items? */
static int tid_in_list(const char *list, uint32_t tid)
{
	char buf[16];
	int n = snprintf(buf, sizeof buf, "%u", tid);
	return in_list(list, buf, (size_t)n);
}

int profile_filter_empty(const struct profile_filter *f)
{
	return !f->comm && !f->tid && !f->dso;
}

/* Does thread slot + 1 th of p pass the thread filters? */
static int thread_passes(const struct profile *p, uint32_t th, const struct profile_filter *f, const char *prog,
			 size_t proglen)
{
	if (!f->comm && !f->tid)
		return 1;
	if (th == 0 || th > p->nthreads)
		return 0;
	const struct profile_thread *t = &p->threads[th - 1];
	if (f->tid && !tid_in_list(f->tid, t->tid))
		return 0;
	if (f->comm && !in_list(f->comm, t->name, strlen(t->name)) && !in_list(f->comm, prog, proglen))
		return 0;
	return 1;
}

/* Does module m of p (an index, or PROFILE_NO_MODULE) pass --dso? */
static int module_passes(const struct profile *p, uint32_t m, const struct profile_filter *f)
{
	if (!f->dso)
		return 1;
	if (m >= p->nmodules || !p->modules[m].path)
		return 0;
	const char *path = p->modules[m].path, *base = path_base(path);
	return in_list(f->dso, path, strlen(path)) || in_list(f->dso, base, strlen(base));
}

/* The modules of p by start address (indexes), for module_at. */
static const struct profile *by_start_of;
static int by_start(const void *a, const void *b)
{
	uint64_t x = by_start_of->modules[*(const uint32_t *)a].start, y = by_start_of->modules[*(const uint32_t *)b].start;
	return (x > y) - (x < y);
}

/* The module of p holding absolute address pc, or PROFILE_NO_MODULE:
 * the one of the latest start at or below pc (order: the modules by
 * start), if pc is below its end.  A binary search, so that a profile of
 * many stacks and many modules costs their product's logarithm, not the
 * product. */
static uint32_t module_at(const struct profile *p, const uint32_t *order, uint64_t pc)
{
	size_t lo = 0, hi = p->nmodules;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (p->modules[order[mid]].start <= pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return PROFILE_NO_MODULE;
	uint32_t m = order[lo - 1];
	return pc < p->modules[m].end ? m : PROFILE_NO_MODULE;
}

void profile_select(struct profile *p, const struct profile_filter *f)
{
	if (profile_filter_empty(f))
		return;
	/* the program's name: the command's first word (profile.command) */
	const char *prog = p->command ? p->command : "";
	size_t proglen = strcspn(prog, " ");
	uint64_t before = p->total + p->hdr.dropped;
	unsigned char *keep = xmalloc(p->nsamples ? p->nsamples : 1);
	uint32_t *renum = xmalloc((p->nsamples ? p->nsamples : 1) * sizeof *renum);
	size_t kept = 0;
	p->total = 0;
	for (size_t t = 0; t < p->nthreads; t++)
		p->threads[t].samples = 0;
	for (size_t k = 0; k < p->nsamples; k++) {
		struct profile_sample s = p->samples[k];
		keep[k] = thread_passes(p, s.thread, f, prog, proglen) && module_passes(p, s.module, f);
		if (!keep[k])
			continue;
		renum[k] = (uint32_t)kept;
		p->samples[kept++] = s;
		p->total += s.count;
		if (s.thread && s.thread <= p->nthreads)
			p->threads[s.thread - 1].samples += s.count;
	}
	/* stacks: by their thread and the module of their sampled PC, the
	 * last register (pct_format.h) */
	uint32_t *srenum = xmalloc((p->nstacks ? p->nstacks : 1) * sizeof *srenum);
	uint32_t *order = xmalloc((p->nmodules ? p->nmodules : 1) * sizeof *order);
	for (size_t m = 0; m < p->nmodules; m++)
		order[m] = (uint32_t)m;
	by_start_of = p;
	qsort(order, p->nmodules, sizeof *order, by_start);
	by_start_of = NULL;
	size_t ns = 0;
	for (size_t i = 0; i < p->nstacks; i++) {
		struct profile_stack st = p->stacks[i];
		uint32_t m = p->hdr.stack_regs ? module_at(p, order, st.regs[p->hdr.stack_regs - 1]) : PROFILE_NO_MODULE;
		srenum[i] = 0;
		if (!thread_passes(p, st.thread, f, prog, proglen) || !module_passes(p, m, f))
			continue;
		p->stacks[ns++] = st;
		srenum[i] = (uint32_t)ns;
	}
	size_t nt = 0;
	uint64_t timed = 0;
	for (size_t i = 0; i < p->nticks; i++) {
		struct profile_tick t = p->ticks[i];
		if (!keep[t.sample])
			continue;
		t.sample = renum[t.sample];
		t.stack = t.stack && t.stack <= p->nstacks ? srenum[t.stack - 1] : 0;
		p->ticks[nt++] = t;
		timed += t.weight;
	}
	p->nticks = nt;
	p->ticks_total = timed;
	p->nsamples = kept;
	p->nstacks = ns;
	/* buckets: by thread; with --dso none (a bucket has no module) */
	size_t nb = 0;
	for (size_t i = 0; i < p->nbuckets; i++)
		if (!f->dso && thread_passes(p, p->buckets[i].thread, f, prog, proglen))
			p->buckets[nb++] = p->buckets[i];
	p->nbuckets = nb;
	free(keep);
	free(renum);
	free(srenum);
	free(order);
	/* what the kept samples cover, at the profile's own rate, as a --time
	 * slice does (profile_slice) */
	profile_cover_kept(p, before);
}
