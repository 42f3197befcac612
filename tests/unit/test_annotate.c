/*
 * test_annotate.c - annotate.h on this test's own file: a set whose
 * samples fall on chosen instructions of ann_loop() (below) finds the
 * function, sums its samples, marks the hottest instruction and gives its
 * source lines; a range and a function without a known end; a module
 * whose file does not exist has no instructions and says why; and the
 * thresholds of annotate_mark().
 */
#include <elf.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "annotate.h"
#include "pset.h"
#include "symtab.h"
#include "unit.h"
#include "util.h"

/* Code to annotate: a loop of a few instructions, and a second function. */
__attribute__((noinline)) unsigned ann_loop(unsigned n)
{
	unsigned s = 0;
	for (unsigned i = 0; i < n; i++)
		s = s * 31 + i * i;
	return s;
}

__attribute__((noinline)) unsigned ann_other(unsigned n)
{
	return ann_loop(n) ^ 0x5a5a;
}

/* The file offset of this process's code at address p, from
 * /proc/self/maps (start-end perms offset ...); 0 if not found. */
static uint64_t file_offset_of(const void *p)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[4096];
	uint64_t off = 0;
	if (f == NULL)
		return 0;
	while (fgets(line, sizeof line, f)) {
		unsigned long long lo, hi, o;
		if (sscanf(line, "%llx-%llx %*s %llx", &lo, &hi, &o) == 3 && (uintptr_t)p >= lo && (uintptr_t)p < hi) {
			off = (uint64_t)((uintptr_t)p - lo + o);
			break;
		}
	}
	fclose(f);
	return off;
}

/* A set of one profile: module 0 this test's file, module 1 a file that
 * does not exist; n samples of module 0 at file offsets off[i], counts
 * k[i], and one of module 1. */
static void make_set(struct pset *s, const char *exe, const uint64_t *off, const uint64_t *k, size_t n)
{
	struct profile p;
	memset(&p, 0, sizeof p);
	p.file = xstrdup("test.pct");
	p.hdr.state = PCT_STATE_COMPLETE;
	p.hdr.event = PCT_EVENT_CPU;
	p.hdr.mechanism = 1;
	strcpy(p.hdr.dimension, "seconds");
	p.hdr.pid = 100;
	p.nmodules = 2;
	p.modules = xmalloc(2 * sizeof *p.modules);
	p.modules[0] = (struct profile_module){ .path = xstrdup(exe), .kind = PCT_MOD_FILE };
	p.modules[1] = (struct profile_module){ .path = xstrdup("/nonexistent/pct-test/gone.so"), .kind = PCT_MOD_FILE };
	p.nthreads = 1;
	p.threads = calloc(1, sizeof *p.threads);
	p.threads[0] = (struct profile_thread){ .tid = 101, .name = "t" };
	p.nsamples = n + 1;
	p.samples = calloc(n + 1, sizeof *p.samples);
	for (size_t i = 0; i < n; i++) {
		p.samples[i] = (struct profile_sample){ .module = 0, .thread = 1, .offset = off[i], .count = k[i] };
		p.total += k[i];
	}
	p.samples[n] = (struct profile_sample){ .module = 1, .thread = 1, .offset = 0x1000, .count = 7 };
	p.total += 7;
	p.threads[0].samples = p.total;
	p.cpu_ns = p.total * 4000000;
	char err[256];
	memset(s, 0, sizeof *s);
	CHECK(pset_add(s, &p, err, sizeof err) == 0);
}

static void test_mark(void)
{
	CHECK(strcmp(annotate_mark(0, 0, 0), "") == 0);
	CHECK(strcmp(annotate_mark(0, 10, 100), "") == 0);
	CHECK(strcmp(annotate_mark(10, 10, 100), "=>") == 0);      /* the hottest */
	CHECK(strcmp(annotate_mark(1, 1, 1000), "=>") == 0);       /* the hottest however small */
	CHECK(strcmp(annotate_mark(5, 10, 100), " *") == 0);       /* exactly ANN_HOT_PERCENT */
	CHECK(strcmp(annotate_mark(1, 10, 20), " *") == 0);
	CHECK(strcmp(annotate_mark(4, 10, 100), "") == 0);
	CHECK(strcmp(annotate_mark(499, 1000, 10000), "") == 0);   /* 4.99% */
	CHECK(strcmp(annotate_mark(9, 10, 0), "") == 0);           /* no total: no share */
	CHECK(ANN_HOT_PERCENT == 5.0);
}

int main(void)
{
	char exe[4096];
	ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
	CHECK(len > 0);
	if (len <= 0)
		return unit_done("test_annotate");
	exe[len] = '\0';
	CHECK(ann_other(10) != 0);     /* keep both called */
	test_mark();

	/* the first set: one sample at ann_loop's first byte, to find it */
	uint64_t off0 = file_offset_of((const void *)ann_loop);
	uint64_t k0 = 1;
	struct pset s;
	make_set(&s, exe, &off0, &k0, 1);
	struct ann_target t, other;
	CHECK(annotate_find_target(&s, "ann_loop", &t) == 0);
	CHECK(annotate_find_target(&s, "ann_other", &other) == 0);
	CHECK(annotate_find_target(&s, "ann_no_such_function", &other) == -1);
	CHECK(t.module == 0 && strcmp(t.name, "ann_loop") == 0 && t.end > t.start);
	/* link-time address minus file offset, the same for both functions (one segment) */
	uint64_t delta = t.start - off0;
	CHECK(other.start - file_offset_of((const void *)ann_other) == delta);

	struct annotation a;
	struct pset_addr *v;
	size_t n;
	CHECK(pset_addresses(&s, &v, &n) == 8);
	annotate_function(&s, v, n, &t, &a);
	CHECK(a.why == NULL && a.machine == EM_X86_64 && a.end == t.end);
	CHECK(a.ninsns >= 4 && a.insns[0].addr == t.start);
	CHECK(a.samples == 1 && a.hottest == 1 && a.insns[0].samples == 1);
	int with_line = 0;
	for (size_t i = 0; i < a.ninsns; i++) {
		CHECK(a.insns[i].addr >= t.start && a.insns[i].addr < t.end);
		CHECK(i == 0 || a.insns[i].addr > a.insns[i - 1].addr);
		CHECK(a.insns[i].text[0] != '\0' && a.insns[i].text[0] != ' ');
		if (a.insns[i].file && strcmp(path_base(a.insns[i].file), "test_annotate.c") == 0 &&
		    a.insns[i].line >= 23 && a.insns[i].line <= 29)
			with_line++;
	}
	CHECK(with_line > 0);          /* built with -g: ann_loop's own lines */
	/* the samples to place: 30 on the 3rd instruction, 5 on the 2nd, 2 on the last */
	uint64_t a1 = a.insns[1].addr, a2 = a.insns[2].addr, a3 = a.insns[3].addr, alast = a.insns[a.ninsns - 1].addr;
	size_t ninsns = a.ninsns;
	annotation_free(&a);
	CHECK(a.insns == NULL && a.ninsns == 0);
	free(v);
	pset_free(&s);

	/* the second set: those samples, and 11 in ann_other */
	uint64_t offs[] = { a1 - delta, a2 - delta, alast - delta, other.start - delta };
	uint64_t ks[] = { 5, 30, 2, 11 };
	make_set(&s, exe, offs, ks, 4);
	CHECK(pset_addresses(&s, &v, &n) == 55);
	annotate_function(&s, v, n, &t, &a);
	CHECK(a.why == NULL && a.ninsns == ninsns);
	CHECK(a.samples == 37 && a.hottest == 30);
	uint64_t sum = 0;
	size_t hot = 0;
	for (size_t i = 0; i < a.ninsns; i++) {
		sum += a.insns[i].samples;
		if (strcmp(annotate_mark(a.insns[i].samples, a.hottest, a.samples), "=>") == 0)
			hot++;
	}
	CHECK(sum == 37 && hot == 1);
	CHECK(a.insns[2].samples == 30 && a.insns[1].samples == 5 && a.insns[a.ninsns - 1].samples == 2);
	CHECK(strcmp(annotate_mark(a.insns[1].samples, a.hottest, a.samples), " *") == 0);  /* 5/37 */
	CHECK(strcmp(annotate_mark(a.insns[a.ninsns - 1].samples, a.hottest, a.samples), " *") == 0);  /* 2/37 */
	annotation_free(&a);

	/* the hot functions: ann_loop (37) before ann_other (11); the
	 * module without a file names no function */
	size_t nt;
	struct ann_target *ht = annotate_hot_functions(&s, v, n, &nt);
	CHECK(nt == 2);
	if (nt == 2) {
		CHECK(strcmp(ht[0].name, "ann_loop") == 0 && ht[0].samples == 37 && ht[0].start == t.start);
		CHECK(strcmp(ht[1].name, "ann_other") == 0 && ht[1].samples == 11);
	}
	free(ht);

	/* without a known end: up to the last sample + 16, ann_other's left out */
	struct ann_target open = t;
	open.end = 0;
	annotate_function(&s, v, n, &open, &a);
	CHECK(a.samples == 37 && a.end == alast + 16 && a.hottest == 30);
	annotation_free(&a);

	/* a range as typed: MODULE+0xSTART-0xEND, the module by its base name */
	char spec[256], bad[256];
	snprintf(spec, sizeof spec, "%s+0x%" PRIx64 "-0x%" PRIx64, path_base(exe), a1, a3);
	CHECK(annotate_find_target(&s, spec, &t) == 0);
	CHECK(t.module == 0 && t.start == a1 && t.end == a3 && t.name == spec);
	annotate_function(&s, v, n, &t, &a);
	CHECK(a.ninsns == 2 && a.samples == 35 && a.hottest == 30 && a.end == a3);
	annotation_free(&a);
	snprintf(bad, sizeof bad, "%s+0x%" PRIx64 "-0x%" PRIx64, path_base(exe), a2, a1);
	CHECK(annotate_find_target(&s, bad, &t) == -1);   /* end before start */
	snprintf(bad, sizeof bad, "%s+0x%" PRIx64 "-%" PRIx64, path_base(exe), a1, a2);
	CHECK(annotate_find_target(&s, bad, &t) == -1);   /* no 0x */

	/* a module whose file does not exist: no instructions, and why */
	struct ann_target gone = { 1, 0x1000, 0x1010, "gone", 0 };
	annotate_function(&s, v, n, &gone, &a);
	CHECK(a.ninsns == 0 && a.insns == NULL && a.why && strcmp(a.why, ANN_WHY_NO_BYTES) == 0);
	annotation_free(&a);

	free(v);
	pset_free(&s);
	return unit_done("test_annotate");
}
