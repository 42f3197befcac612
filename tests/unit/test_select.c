/*
 * test_select.c - profile_select (select.c): --comm, --tid and --dso on a
 * profile built in memory: two modules (prog at 0x1000-0x2000, libc.so.6
 * at 0x5000-0x6000), two threads (tid 11 "main", tid 12 "worker"), four
 * samples (one per thread and module), a stack per sample whose PC is in
 * the sample's module, a tick per sample and a bucket per thread.
 */
#include <stdlib.h>
#include <string.h>

#include "profile.h"
#include "unit.h"
#include "util.h"

static uint64_t regs[4][2];

static void build(struct profile *p)
{
	memset(p, 0, sizeof *p);
	p->command = xstrdup("prog --flag");
	p->nmodules = 2;
	p->modules = xcalloc(2, sizeof *p->modules);
	p->modules[0] = (struct profile_module){ .path = xstrdup("/usr/bin/prog"), .start = 0x1000, .end = 0x2000 };
	p->modules[1] = (struct profile_module){ .path = xstrdup("/lib/libc.so.6"), .start = 0x5000, .end = 0x6000 };
	p->nthreads = 2;
	p->threads = xcalloc(2, sizeof *p->threads);
	p->threads[0].tid = 11;
	strcpy(p->threads[0].name, "main");
	p->threads[1].tid = 12;
	strcpy(p->threads[1].name, "worker");
	/* sample k: thread k / 2 + 1, module k % 2, count k + 1 */
	p->nsamples = 4;
	p->samples = xcalloc(4, sizeof *p->samples);
	p->hdr.stack_regs = 2;
	p->nstacks = 4;
	p->stacks = xcalloc(4, sizeof *p->stacks);
	p->nticks = 4;
	p->ticks = xcalloc(4, sizeof *p->ticks);
	for (uint32_t k = 0; k < 4; k++) {
		p->samples[k] = (struct profile_sample){ .module = k % 2, .thread = k / 2 + 1, .offset = 0x10,
							 .count = k + 1 };
		p->total += k + 1;
		p->threads[k / 2].samples += k + 1;
		regs[k][1] = (k % 2 ? 0x5000 : 0x1000) + 0x10;  /* the PC: the last register */
		p->stacks[k] = (struct profile_stack){ .thread = k / 2 + 1, .weight = 1, .regs = regs[k] };
		p->ticks[k] = (struct profile_tick){ .time_ns = k, .sample = k, .stack = k + 1, .weight = k + 1 };
	}
	p->ticks_total = p->total;
	p->nbuckets = 2;
	p->buckets = xcalloc(2, sizeof *p->buckets);
	p->buckets[0] = (struct profile_bucket){ .thread = 1, .count = 5 };
	p->buckets[1] = (struct profile_bucket){ .thread = 2, .count = 7 };
	p->cpu_ns = 1000;
	p->timed = 1;
}

/* The sum of the kept samples' counts, and that every tick and stack
 * points at a kept one of the right thread. */
static int consistent(const struct profile *p)
{
	uint64_t n = 0;
	for (size_t k = 0; k < p->nsamples; k++)
		n += p->samples[k].count;
	int ok = n == p->total;
	for (size_t i = 0; i < p->nticks; i++) {
		ok &= p->ticks[i].sample < p->nsamples && p->ticks[i].stack <= p->nstacks;
		if (p->ticks[i].stack && ok)
			ok &= p->stacks[p->ticks[i].stack - 1].thread == p->samples[p->ticks[i].sample].thread;
	}
	return ok;
}

int main(void)
{
	struct profile p;
	struct profile_filter none = { 0 }, f;
	CHECK(profile_filter_empty(&none));

	build(&p);
	profile_select(&p, &none);
	CHECK(p.total == 10 && p.nsamples == 4 && p.nstacks == 4 && p.nbuckets == 2 && p.cpu_ns == 1000);
	profile_free(&p);

	/* --tid=12: samples 2 and 3 (3 + 4), their stacks, ticks and bucket */
	build(&p);
	f = (struct profile_filter){ .tid = "12" };
	profile_select(&p, &f);
	CHECK(p.total == 7 && p.nsamples == 2 && p.nstacks == 2 && p.nticks == 2 && p.ticks_total == 7);
	CHECK(p.nbuckets == 1 && p.buckets[0].thread == 2);
	CHECK(p.threads[0].samples == 0 && p.threads[1].samples == 7);
	CHECK(p.cpu_ns == 700 && consistent(&p));
	profile_free(&p);

	/* --comm: a thread's name, or the program's (the command's first word) */
	build(&p);
	f = (struct profile_filter){ .comm = "nope,main" };
	profile_select(&p, &f);
	CHECK(p.total == 3 && p.nsamples == 2 && consistent(&p));
	profile_free(&p);
	build(&p);
	f = (struct profile_filter){ .comm = "prog" };
	profile_select(&p, &f);
	CHECK(p.total == 10 && p.nsamples == 4);
	profile_free(&p);
	build(&p);
	f = (struct profile_filter){ .comm = "mai" };  /* a prefix is not a name */
	profile_select(&p, &f);
	CHECK(p.total == 0 && p.nsamples == 0 && p.nstacks == 0 && p.nticks == 0 && p.nbuckets == 0);
	profile_free(&p);

	/* --dso: by path or base name; stacks by their PC's module; no bucket */
	build(&p);
	f = (struct profile_filter){ .dso = "libc.so.6" };
	profile_select(&p, &f);
	CHECK(p.total == 2 + 4 && p.nsamples == 2 && p.nstacks == 2 && p.nbuckets == 0 && consistent(&p));
	for (size_t i = 0; i < p.nstacks; i++)
		CHECK(p.stacks[i].regs[1] >= 0x5000 && p.stacks[i].regs[1] < 0x6000);
	profile_free(&p);
	build(&p);
	f = (struct profile_filter){ .dso = "/usr/bin/prog", .tid = "11,12" };
	profile_select(&p, &f);
	CHECK(p.total == 1 + 3 && p.nsamples == 2 && p.nstacks == 2 && consistent(&p));
	profile_free(&p);
	return unit_done("test_select");
}
