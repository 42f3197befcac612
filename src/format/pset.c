/* pset.c - see pset.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "escape.h"
#include "perfmap.h"
#include "pset.h"
#include "symtab.h"
#include "tree.h"
#include "u64map.h"
#include "util.h"

/* The set's module with m's path (path, if not NULL, instead) and
 * build-id, added if new; found by a hash (a profile may hold 65,534
 * modules). */
static uint32_t intern_module(struct pset *s, const struct profile_module *m, const char *path)
{
	if (path == NULL)
		path = m->path;
	uint64_t key = module_hash(path, m->build_id, m->build_id_len);
	if (s->modindex == NULL)
		s->modindex = xcalloc(1, sizeof *s->modindex);
	uint64_t *slot;
	for (; (slot = u64map_get(s->modindex, key)) != NULL; key++) {
		const struct pset_module *g = &s->mods[*slot];
		if (g->build_id_len == m->build_id_len && strcmp(g->path, path) == 0 &&
		    memcmp(g->build_id, m->build_id, m->build_id_len) == 0)
			return (uint32_t)*slot;
	}
	*u64map_slot(s->modindex, key) = s->nmods;
	grow(&s->mods, &s->capmods, s->nmods + 1, sizeof *s->mods);
	struct pset_module *g = &s->mods[s->nmods];
	memset(g, 0, sizeof *g);
	g->path = xstrdup(path);
	g->display = xstrdup(path_base(path));
	g->kind = m->kind;
	g->build_id_len = m->build_id_len;
	memcpy(g->build_id, m->build_id, m->build_id_len);
	return (uint32_t)s->nmods++;
}

/*
 * The module path of the JIT code (anonymous executable memory) of
 * profile p, malloc'd: the perf map that names it (perfmap_path), or, if
 * none is found, "[JIT] tid PID" as perf calls such code, with one
 * warning if p has samples there.  Either way one process's JIT code is
 * one module, and two processes' are two.
 */
static char *jit_module(const struct profile *p)
{
	char *why = NULL;
	char *path = perfmap_path(p->file, p->hdr.pid, p->hdr.start_time_ns, &why);
	if (path)
		return path;
	uint64_t samples = 0;
	for (size_t i = 0; i < p->nsamples; i++)
		if (p->samples[i].module != PROFILE_NO_MODULE && p->modules[p->samples[i].module].kind == PCT_MOD_ANON)
			samples += p->samples[i].count;
	if (samples)
		warnx_("no names for the %llu samples in JIT code of pid %u in '%s': %s", (unsigned long long)samples,
		       p->hdr.pid, p->file, why);
	free(why);
	return xasprintf("[JIT] tid %u", p->hdr.pid);
}

int pset_add(struct pset *s, struct profile *p, char *err, size_t errlen)
{
	size_t f = s->nprofiles;
	grow(&s->profiles, &s->capprofiles, f + 1, sizeof *s->profiles);
	grow(&s->modmap, &s->capmodmap, f + 1, sizeof *s->modmap);
	s->profiles[f] = *p;
	s->modmap[f] = NULL;
	s->nprofiles++;
	const struct pct_header *h0 = &s->profiles[0].hdr;
	if (strcmp(p->hdr.dimension, h0->dimension) != 0 || p->hdr.mechanism != h0->mechanism ||
	    p->hdr.event != h0->event) {
		snprintf(err, errlen, "'%s' measures %s (event %s, mechanism %u) but '%s' measures %s (event %s, "
			 "mechanism %u); they cannot be summed", p->file, p->hdr.dimension, event_name(p->hdr.event),
			 p->hdr.mechanism, s->profiles[0].file, h0->dimension, event_name(h0->event),
			 h0->mechanism);
		return -1;
	}
	if (!s->ids)
		s->ids = xcalloc(1, sizeof *s->ids);
	uint64_t *seen = u64map_slot(s->ids, profile_identity(p));
	if (*seen) {
		profile_twice_error(err, errlen, s->profiles[*seen - 1].file, p->file, p->hdr.pid);
		return -1;
	}
	*seen = f + 1;
	s->modmap[f] = xcalloc(p->nmodules, sizeof **s->modmap);
	char *jit = NULL;
	for (size_t i = 0; i < p->nmodules; i++) {
		const struct profile_module *m = &p->modules[i];
		const char *path = NULL;
		/* a merged file's JIT module is named already */
		if (m->kind == PCT_MOD_ANON && strncmp(m->path, "[JIT] tid ", 10) != 0 &&
		    !(m->build_id_len == 0 && perfmap_is_name(m->path)))
			path = jit ? jit : (jit = jit_module(p));
		s->modmap[f][i] = intern_module(s, m, path);
	}
	free(jit);
	s->total += p->total;
	s->dropped += p->hdr.dropped;
	s->cpu_ns += p->cpu_ns;
	s->runs += p->hdr.runs ? p->hdr.runs : 1;
	double e = profile_expected_samples(p);
	if (f == 0)
		s->expected = e;
	else if (s->expected >= 0)
		s->expected = e >= 0 ? s->expected + e : -1;
	return 0;
}

uint64_t pset_cpu_before_ns(const struct pset *s)
{
	uint64_t sum = 0;
	for (size_t i = 0; i < s->nprofiles; i++) {
		const struct pct_header *h = &s->profiles[i].hdr;
		uint64_t earlier = 0;          /* the CPU clock at the end of this process's earlier program */
		for (size_t j = 0; j < s->nprofiles; j++) {
			const struct pct_header *e = &s->profiles[j].hdr;
			if (j != i && e->pid == h->pid && e->ppid == h->ppid && e->start_time_ns < h->start_time_ns &&
			    e->cpu_last_ns <= h->cpu_start_ns && e->cpu_last_ns > earlier)
				earlier = e->cpu_last_ns;
		}
		if (__builtin_add_overflow(sum, h->cpu_start_ns - earlier, &sum))
			return UINT64_MAX;
	}
	return sum;
}

int pset_time_origin(const struct pset *s, uint64_t *origin_ns, char *err, size_t errlen)
{
	*origin_ns = UINT64_MAX;
	for (size_t i = 0; i < s->nprofiles; i++) {
		const struct profile *p = &s->profiles[i];
		if (!p->timed) {
			snprintf(err, errlen, "%s: no sample times (%s)", p->file, profile_untimed_why(p));
			return -1;
		}
		if (p->hdr.clock_start_ns < *origin_ns)
			*origin_ns = p->hdr.clock_start_ns;
	}
	return 0;
}

/* --time, --comm, --tid, --dso, if given (pset_select_option) */
static struct time_range slice;
static int slicing;
static struct profile_filter selecting;

/* A comma-separated list option: no empty list or item, no control byte
 * (exit 2 otherwise); tid's items decimal. */
static const char *select_list(const char *opt, const char *arg, int decimal)
{
	int bad = arg[0] == '\0' || arg[0] == ',' || arg[strlen(arg) - 1] == ',' || strstr(arg, ",,") != NULL;
	for (const char *p = arg; *p && !bad; p++)
		bad = (unsigned char)*p < 0x20 || *p == 0x7f || (decimal && *p != ',' && (*p < '0' || *p > '9'));
	if (bad) {
		char *shown = esc_dup(arg);
		if (strlen(shown) > 80)
			strcpy(shown + 77, "...");
		die_usage("--%s=%s: want a comma-separated list%s", opt, shown, decimal ? " of thread ids" : "");
	}
	return arg;
}

int pset_select_option(int c, const char *arg)
{
	char err[200];
	switch (c) {
	case PSET_OPT_TIME:
		if (time_range_parse(arg, &slice, err, sizeof err) != 0)
			die_usage("%s", err);
		slicing = 1;
		return 1;
	case PSET_OPT_COMM:
		selecting.comm = select_list("comm", arg, 0);
		return 1;
	case PSET_OPT_TID:
		selecting.tid = select_list("tid", arg, 1);
		return 1;
	case PSET_OPT_DSO:
		selecting.dso = select_list("dso", arg, 0);
		return 1;
	}
	return 0;
}

/* The selection of the n profiles of a file: --time's slice (0, or -1
 * with err set if one has no sample times), then --comm, --tid, --dso. */
static int slice_file(struct profile *v, size_t n, uint64_t *coarse, char *err, size_t errlen);
static int select_file(struct profile *v, size_t n, uint64_t *coarse, char *err, size_t errlen)
{
	if (slicing && slice_file(v, n, coarse, err, errlen) != 0)
		return -1;
	for (size_t i = 0; i < n; i++)
		profile_select(&v[i], &selecting);
	return 0;
}

/* The n profiles of one file cut to the --time range, from the start of
 * the first: 0, or -1 with err set if one has no sample times. */
static int slice_file(struct profile *v, size_t n, uint64_t *coarse, char *err, size_t errlen)
{
	/* each run's origin: its first process's start (a merged file's runs
	 * each start at 0; tree.c checks run < n) */
	uint64_t *origin = xcalloc(n ? n : 1, sizeof *origin);
	for (size_t r = 0; r < n; r++)
		origin[r] = UINT64_MAX;
	for (size_t i = 0; i < n; i++)
		if (v[i].timed && v[i].run < n && v[i].hdr.clock_start_ns < origin[v[i].run])
			origin[v[i].run] = v[i].hdr.clock_start_ns;
	for (size_t i = 0; i < n; i++)
		if (profile_slice(&v[i], &slice, origin[v[i].run < n ? v[i].run : 0], coarse, err, errlen) != 0) {
			free(origin);
			return -1;
		}
	free(origin);
	return 0;
}

/* Say once how many samples of the --time range were left out. */
static void warn_coarse(uint64_t coarse)
{
	if (coarse)
		warnx_("%llu samples in the time range are known only to the second (the tick log was full) "
		       "and are left out", (unsigned long long)coarse);
}

int pset_load_runs(struct pset *sets, uint32_t nruns, const char *file, char *err, size_t errlen)
{
	struct profile *v;
	size_t n;
	uint64_t coarse = 0;
	for (uint32_t r = 0; r < nruns; r++)
		memset(&sets[r], 0, sizeof sets[r]);
	if (strcmp(file, "-") == 0) {
		snprintf(err, errlen, "standard input cannot be split into runs: name a file");
		return -1;
	}
	if (profiles_read(file, &v, &n, err, errlen) != 0)
		return -1;
	int rc = select_file(v, n, &coarse, err, errlen);
	for (size_t i = 0; i < n; i++) {
		if (rc == 0 && v[i].run >= nruns) {
			snprintf(err, errlen, "'%s': run %u of %u runs", file, v[i].run + 1, nruns);
			rc = -1;
		}
		if (rc == 0)
			rc = pset_add(&sets[v[i].run], &v[i], err, errlen);
		else
			profile_free(&v[i]);
	}
	free(v);
	for (uint32_t r = 0; r < nruns && rc == 0; r++) {
		if (sets[r].nprofiles == 0) {
			snprintf(err, errlen, "'%s': run %u has no profile", file, r + 1);
			rc = -1;
		}
		sets[r].sliced = slicing;
		sets[r].slice = slice;
	}
	warn_coarse(coarse);
	if (rc != 0)
		for (uint32_t r = 0; r < nruns; r++)
			pset_free(&sets[r]);
	return rc;
}

int pset_load(struct pset *s, char *const *files, size_t nfiles, char *err, size_t errlen)
{
	uint64_t coarse = 0;
	memset(s, 0, sizeof *s);
	size_t stdin_named = 0;
	for (size_t f = 0; f < nfiles; f++)
		if (strcmp(files[f], "-") == 0 && stdin_named++) {
			snprintf(err, errlen, "standard input ('-') is named more than once");
			return -1;
		}
	for (size_t f = 0; f < nfiles; f++) {
		struct profile *v;
		size_t n;
		if (profiles_read(files[f], &v, &n, err, errlen) != 0)
			return -1;
		if (select_file(v, n, &coarse, err, errlen) != 0) {
			for (size_t i = 0; i < n; i++)
				profile_free(&v[i]);
			free(v);
			return -1;
		}
		/* a tree file (tree.h) adds each of its processes' profiles */
		for (size_t i = 0; i < n; i++)
			if (pset_add(s, &v[i], err, errlen) != 0) {
				while (++i < n)
					profile_free(&v[i]);
				free(v);
				return -1;
			}
		free(v);
	}
	s->sliced = slicing;
	s->slice = slice;
	warn_coarse(coarse);
	return 0;
}

struct symtab *pset_symtab(const struct pset_module *m)
{
	return symtab_get(m->path, m->build_id, m->build_id_len);
}

uint32_t pset_module_of(const struct pset *s, size_t p, const struct profile_sample *smp)
{
	return smp->module == PROFILE_NO_MODULE ? PSET_NO_MODULE : s->modmap[p][smp->module];
}

size_t pset_needed_modules(const struct pset *s, unsigned char *need)
{
	size_t n = 0;
	memset(need, 0, s->nmods);
	for (size_t p = 0; p < s->nprofiles; p++) {
		const struct profile *pr = &s->profiles[p];
		for (size_t i = 0; i < pr->nsamples; i++) {
			uint32_t m = pset_module_of(s, p, &pr->samples[i]);
			if (m != PSET_NO_MODULE)
				need[m] = 1;
		}
		for (size_t i = 0; pr->nstacks > 0 && i < pr->nmodules; i++)
			if (s->modmap[p][i] != PSET_NO_MODULE)
				need[s->modmap[p][i]] = 1;
	}
	for (size_t m = 0; m < s->nmods; m++) {
		if (s->mods[m].kind == PCT_MOD_VDSO || s->mods[m].kind == PCT_MOD_ANON)
			need[m] = 0;
		n += need[m];
	}
	return n;
}

static uint64_t addresses(const struct pset *s, int all, struct pset_addr **out, size_t *n)
{
	struct u64map index = { 0 };
	size_t cap = 0;
	uint64_t total = 0;
	*out = NULL;
	*n = 0;
	for (size_t p = 0; p < s->nprofiles; p++)
		for (size_t i = 0; i < s->profiles[p].nsamples; i++) {
			const struct profile_sample *smp = &s->profiles[p].samples[i];
			uint32_t m = pset_module_of(s, p, smp);
			uint64_t addr = smp->offset;
			int unplaced = 1;
			total += smp->count;
			if (m != PSET_NO_MODULE) {
				const struct pset_module *g = &s->mods[m];
				unplaced = symtab_addr(pset_symtab(g), smp->offset,
						       &addr) != 0;
				if (unplaced)
					addr = smp->offset;
			}
			if (unplaced && !all)
				continue;
			/* the key: module, address and whether it is one */
			uint64_t key = ((uint64_t)m << 48) ^ addr ^ ((uint64_t)unplaced << 47) ^
				       (m == PSET_NO_MODULE ? 0x5bd1e995u : 0);
			uint64_t *slot;
			for (;; key++) {
				slot = u64map_get(&index, key);
				if (slot == NULL || ((*out)[*slot].module == m && (*out)[*slot].addr == addr &&
						     (*out)[*slot].unplaced == unplaced))
					break;
			}
			if (slot == NULL) {
				grow(out, &cap, *n + 1, sizeof **out);
				(*out)[*n] = (struct pset_addr){ m, addr, 0, unplaced };
				*u64map_slot(&index, key) = (*n)++;
				slot = u64map_get(&index, key);
			}
			(*out)[*slot].samples += smp->count;
		}
	u64map_free(&index);
	return total;
}

uint64_t pset_addresses(const struct pset *s, struct pset_addr **out, size_t *n)
{
	return addresses(s, 0, out, n);
}

uint64_t pset_addresses_all(const struct pset *s, struct pset_addr **out, size_t *n)
{
	return addresses(s, 1, out, n);
}

uint32_t pset_module_at(const struct pset *s, size_t prof, uint64_t pc, uint64_t *offset)
{
	const struct profile *p = &s->profiles[prof];
	for (size_t i = p->nmodules; i-- > 0;) {
		const struct profile_module *m = &p->modules[i];
		if (pc < m->start || pc >= m->end)
			continue;
		*offset = pc - m->start + m->file_offset;
		return s->modmap[prof][i];
	}
	return PSET_NO_MODULE;
}

void pset_free(struct pset *s)
{
	for (size_t i = 0; i < s->nmods; i++) {
		free(s->mods[i].path);
		free(s->mods[i].display);
	}
	for (size_t f = 0; f < s->nprofiles; f++) {
		profile_free(&s->profiles[f]);
		free(s->modmap[f]);
	}
	free(s->mods);
	if (s->modindex)
		u64map_free(s->modindex);
	free(s->modindex);
	if (s->ids)
		u64map_free(s->ids);
	free(s->ids);
	free(s->modmap);
	free(s->profiles);
	memset(s, 0, sizeof *s);
}
