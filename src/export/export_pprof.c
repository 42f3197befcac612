/*
 * export_pprof.c - pprof's profile.proto, gzipped: what `pprof` (Go) and
 * the services that take its format read.
 *
 * The messages come from the profile.proto Debian ships
 * (golang-github-google-pprof-dev), compiled by protoc-c at build time and
 * encoded by libprotobuf-c.  Sample values are [samples/count,
 * EVENT/UNIT]: for time, nanoseconds (samples x the effective period); for
 * a hardware event, its count.  Mappings carry the module's path,
 * build-id and the addresses of the first profile that maps it; a
 * location is a link-time address moved by that mapping's load bias, with
 * one Line per function holding it, innermost inlined function first and
 * the symbol's function last (profile.proto's Location.line, as
 * perf_to_profile writes it; the inlined functions of the stack model,
 * callstack_inlines): functions and source lines from the module's
 * symbols and DWARF, so pprof needs no binaries to name them, and the
 * mapping says so (has_functions, has_filenames, has_line_numbers,
 * has_inline_frames).  A
 * sample in a module whose file cannot be read keeps its address in the
 * module's mapping, with no Line; one outside every module, its address
 * with no mapping.  With -g each stack record is a sample, leaf first;
 * without, each sampled address is.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "callstack.h"
#include "escape.h"
#include "export.h"
#include "profile.pb-c.h"
#include "stats.h"
#include "symtab.h"
#include "u64map.h"
#include "util.h"

struct pp {
	const struct pset *s;
	struct agg strings;            /* interned strings: row number = index */
	struct agg funcs;              /* (module path, name): row number = id - 1 */
	Perftools__Profiles__Function *fv;
	size_t fcap;
	Perftools__Profiles__Mapping *mv; /* by global module */
	uint64_t *bias;
	Perftools__Profiles__Location *lv;
	struct place_key {
		uint32_t module;
		uint64_t addr;
		int unplaced;
	} *keys;                       /* per location, its place */
	size_t nloc, lcap, kcap;
	struct u64map locs;            /* hash of the place -> location index (collisions: next key) */
	Perftools__Profiles__Sample *sv;
	size_t nsample, scap;
	uint64_t **ids;                /* per sample, its location ids */
	int64_t *values;               /* 2 per sample */
	size_t vcap, idcap;
	double period;                 /* the second value per sample */
	int too_big;                   /* a value does not fit pprof's int64 */
	uint64_t skipped;
};

/* The index of s in the string table, escaped (escape.h) as every name
 * pct prints: pprof shows them on terminals too. */
static int64_t str(struct pp *pp, const char *s)
{
	char *key[1] = { esc_dup(s) };
	long r = agg_find(&pp->strings, key);
	if (r < 0) {
		agg_add(&pp->strings, key, 0);
		r = (long)pp->strings.nrows - 1;
	}
	free(key[0]);
	return r;
}

static uint64_t function_id(struct pp *pp, uint32_t module, const char *name, const char *file, int line)
{
	char *key[2] = { pp->s->mods[module].path, (char *)name };
	long r = agg_find(&pp->funcs, key);
	if (r >= 0)
		return (uint64_t)r + 1;
	agg_add(&pp->funcs, key, 0);
	grow(&pp->fv, &pp->fcap, pp->funcs.nrows, sizeof *pp->fv);
	Perftools__Profiles__Function *f = &pp->fv[pp->funcs.nrows - 1];
	perftools__profiles__function__init(f);
	f->id = pp->funcs.nrows;
	f->name = f->system_name = str(pp, name);
	f->filename = str(pp, file);
	f->start_line = line;
	return f->id;
}

/* The absolute address of file offset off of module g, where a profile
 * of the set mapped it (the first profile first), else 0. */
static uint64_t offset_address(const struct pset *s, uint32_t g, uint64_t off)
{
	for (size_t p = 0; p < s->nprofiles; p++)
		for (size_t i = 0; i < s->profiles[p].nmodules; i++) {
			const struct profile_module *m = &s->profiles[p].modules[i];
			if (s->modmap[p][i] == g && off >= m->file_offset && off - m->file_offset < m->end - m->start)
				return m->start + (off - m->file_offset);
		}
	return 0;
}

/* One Line of a location: function name (in file) at line. */
static void add_line(struct pp *pp, Perftools__Profiles__Location *l, uint32_t module, const char *name,
		     const char *file, int start_line, int line)
{
	Perftools__Profiles__Line *ln = xmalloc(sizeof *ln);
	perftools__profiles__line__init(ln);
	ln->function_id = function_id(pp, module, name, file, start_line);
	ln->line = line;
	l->line = xrealloc(l->line, (l->n_line + 1) * sizeof *l->line);
	l->line[l->n_line++] = ln;
}

/*
 * The location of a place (pset_addresses_all's terms), made on first
 * use.  A placed address has one Line per function holding it: the
 * functions inlined there, innermost first, each at its line (the
 * instruction's line for the innermost, the call site of the one inside
 * for the others), then the function of the symbol table.  An unplaced
 * one is an address in its mapping with no Line, for pprof to symbolize
 * with the module's file (found by the mapping's build-id); with no
 * module, an address without a mapping.
 */
static uint64_t location_id(struct pp *pp, uint32_t module, uint64_t addr, int unplaced)
{
	uint64_t key = hash_mix(hash_mix(hash_start(), addr), (uint64_t)module << 1 | (unsigned)unplaced);
	uint64_t *slot;
	for (;; key++) {
		slot = u64map_get(&pp->locs, key);
		if (slot == NULL)
			break;
		const struct place_key *k = &pp->keys[*slot];
		if (k->module == module && k->addr == addr && k->unplaced == unplaced)
			return *slot + 1;
	}
	grow(&pp->lv, &pp->lcap, pp->nloc + 1, sizeof *pp->lv);
	grow(&pp->keys, &pp->kcap, pp->nloc + 1, sizeof *pp->keys);
	pp->keys[pp->nloc] = (struct place_key){ module, addr, unplaced };
	Perftools__Profiles__Location *l = &pp->lv[pp->nloc];
	perftools__profiles__location__init(l);
	l->id = pp->nloc + 1;
	*u64map_slot(&pp->locs, key) = pp->nloc++;
	if (module == PSET_NO_MODULE) {
		l->address = addr;
		return l->id;
	}
	l->mapping_id = module + 1;
	if (unplaced) {
		l->address = offset_address(pp->s, module, addr);
		return l->id;
	}
	l->address = addr + pp->bias[module];
	const struct pset_module *gm = &pp->s->mods[module];
	struct symtab *st = pset_symtab(gm);
	struct symbol sym;
	struct srcline sl;
	char *buf = NULL;
	const char *name, *file = "";
	int start_line = 0, line = symtab_srcline(st, addr, &sl) == 0 ? sl.line : 0;
	const char *line_file = line ? sl.file : "";
	if (symtab_function_at(st, addr, &sym) == 0) {
		name = sym.name;
		if (symtab_srcline(st, sym.start, &sl) == 0)
			start_line = sl.line;
		file = export_function_file(st, sym.start);
		if (strcmp(file, "???") == 0)
			file = "";
	} else {
		name = buf = xasprintf("%s+0x%llx", gm->display, (unsigned long long)addr);
	}
	struct inline_level lv[CALLSTACK_MAX_INLINES];
	struct cs_frame fr = { module, addr, 0 };
	size_t n = callstack_inlines(pp->s, &fr, lv);
	for (size_t k = 0; k < n; k++) {
		/* level k's code is in the file of level k - 1's call site */
		add_line(pp, l, module, lv[k].name, k ? lv[k - 1].call_file : line_file, 0,
			 k ? lv[k - 1].call_line : line);
	}
	add_line(pp, l, module, name, file, start_line, n ? lv[n - 1].call_line : line);
	free(buf);
	return l->id;
}

/* v rounded, as pprof's int64; sets *too_big if it does not fit. */
static int64_t int64_of(double v, int *too_big)
{
	if (!(v >= 0 && v < 9223372036854775807.0)) {
		*too_big = 1;
		return 0;
	}
	return (int64_t)(v + 0.5);
}

static void add_sample(struct pp *pp, const uint64_t *ids, size_t n, uint64_t weight)
{
	grow(&pp->sv, &pp->scap, pp->nsample + 1, sizeof *pp->sv);
	grow(&pp->ids, &pp->idcap, pp->nsample + 1, sizeof *pp->ids);
	grow(&pp->values, &pp->vcap, 2 * (pp->nsample + 1), sizeof *pp->values);
	Perftools__Profiles__Sample *smp = &pp->sv[pp->nsample];
	perftools__profiles__sample__init(smp);
	pp->ids[pp->nsample] = xmalloc((n ? n : 1) * sizeof **pp->ids);
	memcpy(pp->ids[pp->nsample], ids, n * sizeof *ids);
	smp->n_location_id = n;
	smp->location_id = pp->ids[pp->nsample];
	pp->values[2 * pp->nsample] = int64_of((double)weight, &pp->too_big);
	pp->values[2 * pp->nsample + 1] = int64_of((double)weight * pp->period, &pp->too_big);
	pp->nsample++;
}

static void stack_sample(const struct cs_stack *st, void *arg)
{
	struct pp *pp = arg;
	uint64_t ids[CALLSTACK_MAX_FRAMES];
	size_t n = 0;
	for (size_t k = 0; k < st->nframes; k++) {
		struct pset_addr f;
		export_frame(pp->s, st, k, &f);
		ids[n++] = location_id(pp, f.module, f.addr, f.unplaced);
	}
	if (n)
		add_sample(pp, ids, n, st->rec->weight);
	else
		pp->skipped += st->rec->weight;
}

/* Mappings: one per module of the set, placed as the first profile that
 * maps it placed it. */
static void make_mappings(struct pp *pp)
{
	const struct pset *s = pp->s;
	pp->mv = xcalloc(s->nmods ? s->nmods : 1, sizeof *pp->mv);
	pp->bias = xcalloc(s->nmods ? s->nmods : 1, sizeof *pp->bias);
	for (size_t g = 0; g < s->nmods; g++)
		perftools__profiles__mapping__init(&pp->mv[g]);
	for (size_t p = s->nprofiles; p-- > 0;)
		for (size_t i = s->profiles[p].nmodules; i-- > 0;) {
			const struct profile_module *m = &s->profiles[p].modules[i];
			uint32_t g = s->modmap[p][i];
			uint64_t link;
			if (g == PSET_NO_MODULE)
				continue;
			const struct pset_module *gm = &s->mods[g];
			Perftools__Profiles__Mapping *mp = &pp->mv[g];
			mp->id = g + 1;
			mp->memory_start = m->start;
			mp->memory_limit = m->end;
			mp->file_offset = m->file_offset;
			mp->filename = str(pp, gm->path);
			char hex[2 * PCT_BUILD_ID_MAX + 1];
			mp->build_id = str(pp, build_id_hex(gm->build_id, gm->build_id_len, hex));
			/* a module whose file cannot be read has addresses only */
			struct symtab *st = pset_symtab(gm);
			mp->has_functions = mp->has_filenames = mp->has_line_numbers = mp->has_inline_frames =
				*symtab_why(st) == '\0';
			if (symtab_addr(st, m->file_offset, &link) == 0)
				pp->bias[g] = m->start - link;
		}
}

int export_pprof(const struct pset *s, FILE *out, char *err, size_t errlen)
{
	struct pp pp = { .s = s };
	const struct profile *p0 = &s->profiles[0];
	pp.strings.nkeys = 1;
	pp.funcs.nkeys = 2;
	str(&pp, "");
	uint64_t all = s->total + s->dropped;
	int time = strcmp(p0->hdr.dimension, "seconds") == 0;
	pp.period = stats_period(s->cpu_ns, all);
	make_mappings(&pp);

	if (callstack_present(s)) {
		callstack_each(s, stack_sample, &pp);
	} else {
		struct pset_addr *addrs;
		size_t n;
		pset_addresses_all(s, &addrs, &n);
		for (size_t i = 0; i < n; i++) {
			uint64_t id = location_id(&pp, addrs[i].module, addrs[i].addr, addrs[i].unplaced);
			add_sample(&pp, &id, 1, addrs[i].samples);
		}
		free(addrs);
	}

	Perftools__Profiles__ValueType vt[3];
	Perftools__Profiles__ValueType *vtp[2] = { &vt[0], &vt[1] };
	for (int i = 0; i < 3; i++)
		perftools__profiles__value_type__init(&vt[i]);
	vt[0].type = str(&pp, "samples");
	vt[0].unit = str(&pp, "count");
	vt[1].type = vt[2].type = str(&pp, event_name(p0->hdr.event));
	vt[1].unit = vt[2].unit = str(&pp, time ? "nanoseconds" : "count");

	Perftools__Profiles__Profile prof;
	perftools__profiles__profile__init(&prof);
	prof.n_sample_type = 2;
	prof.sample_type = vtp;
	Perftools__Profiles__Sample **sp = xcalloc(pp.nsample + 1, sizeof *sp);
	for (size_t i = 0; i < pp.nsample; i++) {
		sp[i] = &pp.sv[i];
		sp[i]->n_value = 2;
		sp[i]->value = &pp.values[2 * i];
	}
	prof.n_sample = pp.nsample;
	prof.sample = sp;
	Perftools__Profiles__Mapping **mp = xcalloc(s->nmods + 1, sizeof *mp);
	size_t nm = 0;
	/* the main executable first, as profile.proto asks */
	uint32_t exe = p0->hdr.exe_module < p0->nmodules ? s->modmap[0][p0->hdr.exe_module] : PSET_NO_MODULE;
	if (exe != PSET_NO_MODULE && pp.mv[exe].id)
		mp[nm++] = &pp.mv[exe];
	for (size_t g = 0; g < s->nmods; g++)
		if (pp.mv[g].id && g != exe)
			mp[nm++] = &pp.mv[g];
	prof.n_mapping = nm;
	prof.mapping = mp;
	Perftools__Profiles__Location **lp = xcalloc(pp.nloc + 1, sizeof *lp);
	for (size_t i = 0; i < pp.nloc; i++)
		lp[i] = &pp.lv[i];
	prof.n_location = pp.nloc;
	prof.location = lp;
	Perftools__Profiles__Function **fp = xcalloc(pp.funcs.nrows + 1, sizeof *fp);
	for (size_t i = 0; i < pp.funcs.nrows; i++)
		fp[i] = &pp.fv[i];
	prof.n_function = pp.funcs.nrows;
	prof.function = fp;
	prof.time_nanos = p0->hdr.start_time_ns;
	/* in unsigned arithmetic: a corrupt header's times may be far apart */
	uint64_t duration = p0->hdr.end_time_ns > p0->hdr.start_time_ns ?
		(uint64_t)p0->hdr.end_time_ns - (uint64_t)p0->hdr.start_time_ns : 0;
	prof.duration_nanos = int64_of((double)duration, &pp.too_big);
	prof.period_type = &vt[2];
	prof.period = int64_of(pp.period, &pp.too_big);
	prof.default_sample_type = vt[1].type;
	/* the string table last: everything above interned its strings */
	char **strs = xcalloc(pp.strings.nrows + 1, sizeof *strs);
	for (size_t i = 0; i < pp.strings.nrows; i++)
		strs[i] = pp.strings.rows[i].key[0];
	prof.n_string_table = pp.strings.nrows;
	prof.string_table = strs;

	size_t len = perftools__profiles__profile__get_packed_size(&prof);
	uint8_t *buf = xmalloc(len ? len : 1);
	perftools__profiles__profile__pack(&prof, buf);
	int rc = 0;
	if (pp.too_big) {
		/* only a corrupt or forged profile has such counts or periods */
		snprintf(err, errlen, "%s: a value does not fit pprof's 64-bit integers: a sample count, count x "
			 "period (%.0f ns), or the run's duration (%llu ns)", p0->file, pp.period,
			 (unsigned long long)duration);
		rc = -1;
	} else {
		fflush(out);
		gzFile gz = gzdopen(dup(fileno(out)), "wb");
		if (gz == NULL || gzwrite(gz, buf, (unsigned)len) != (int)len || gzclose(gz) != Z_OK) {
			snprintf(err, errlen, "export: cannot write the gzipped profile");
			rc = -1;
		}
	}
	if (pp.skipped)
		note("export: %llu samples have no frame at all and are left out",
			(unsigned long long)pp.skipped);
	free(buf);
	free(strs);
	free(fp);
	for (size_t i = 0; i < pp.nloc; i++) {
		for (size_t k = 0; k < pp.lv[i].n_line; k++)
			free(pp.lv[i].line[k]);
		free(pp.lv[i].line);
	}
	free(lp);
	free(mp);
	free(sp);
	for (size_t i = 0; i < pp.nsample; i++)
		free(pp.ids[i]);
	free(pp.ids);
	free(pp.values);
	free(pp.sv);
	free(pp.lv);
	free(pp.keys);
	free(pp.fv);
	free(pp.mv);
	free(pp.bias);
	u64map_free(&pp.locs);
	agg_free(&pp.strings);
	agg_free(&pp.funcs);
	return rc;
}
