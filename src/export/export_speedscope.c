/*
 * export_speedscope.c - speedscope's JSON file format (the schema
 * www.speedscope.app/file-format-schema.json, shipped in the npm package
 * speedscope as dist/release/file-format-schema.json; its
 * src/lib/file-format-spec.ts): one "sampled" profile per thread (per
 * process and thread for a process tree), its samples in time order, each
 * a stack of indices into one shared table of frames, root first.
 *
 * A frame is a function of the stack model (callstack_model): its name,
 * the source file that defines it and the line it starts on where DWARF
 * says, else the module's path; a PC no symbol names is "MODULE+0xADDR",
 * one outside every module "[unknown]"; a function inlined at a frame's
 * address is a frame of its own above it, "NAME (inline)", its file that
 * of its code.
 * A weight is the samples a tick stands for times the set's effective
 * period: unit "nanoseconds" for time (the events cpu, user and wall),
 * "none" (events counted) for a hardware event, and "none" with the
 * samples themselves when the period is unknown.  With time, startValue
 * and endValue are the thread's first tick and its last tick plus its
 * weight, in ns since the set's origin (its earliest start of sampling);
 * otherwise 0 and the sum of the weights.  Strings are escaped as every
 * name pct prints (escape.h), so the file is ASCII and valid UTF-8.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "callstack.h"
#include "escape.h"
#include "export.h"
#include "symtab.h"
#include "u64map.h"
#include "util.h"

struct frame_key {
	uint32_t module;
	uint64_t addr;
	int placed;
	const char *inl;               /* a function inlined there: its name (the symtab's, one
					  pointer per name), addr 0; NULL otherwise */
	const char *file;              /* inl: the file of its code where first met */
};

struct ss {
	const struct pset *s;
	struct export_timed t;
	FILE *out;
	struct frame_key *keys;        /* per frame of the shared table */
	char **names;                  /* per frame, malloc'd */
	size_t nframes, capkeys, capnames;
	struct u64map index;           /* hash of the key -> frame + 1 (collisions: the next key) */
	uint32_t ids[CALLSTACK_MAX_FRAMES];
	struct cs_mframe mf[CALLSTACK_MAX_FRAMES];
};

/* s as a JSON string (escape.h) */
static void json_str(const char *s, FILE *out)
{
	esc_json(s, 0, out);
}

/* The shared frame of a frame of the stack model of profile prof, made
 * on first use. */
static uint32_t frame_id(struct ss *ss, size_t prof, const struct cs_mframe *mf)
{
	struct export_place pl;
	export_place(ss->s, prof, mf->f, &pl);
	struct frame_key k = { pl.module, pl.name ? pl.start : pl.addr, pl.placed, NULL, NULL };
	if (pl.module == PSET_NO_MODULE)
		k.addr = 0;  /* one [unknown] */
	if (mf->inlined) {
		k.addr = 0;
		k.inl = mf->inl.name;
		k.file = mf->file;
	}
	uint64_t h = hash_mix(hash_mix(hash_start(), k.addr),
			      ((uint64_t)k.module << 40) ^ ((uint64_t)k.placed << 63) ^ (uint64_t)(uintptr_t)k.inl);
	uint64_t *slot;
	for (;; h++) {
		slot = u64map_get(&ss->index, h);
		if (slot == NULL)
			break;
		const struct frame_key *o = &ss->keys[*slot - 1];
		if (o->module == k.module && o->addr == k.addr && o->placed == k.placed && o->inl == k.inl)
			return (uint32_t)(*slot - 1);
	}
	grow(&ss->keys, &ss->capkeys, ss->nframes + 1, sizeof *ss->keys);
	grow(&ss->names, &ss->capnames, ss->nframes + 1, sizeof *ss->names);
	ss->keys[ss->nframes] = k;
	if (k.inl)
		ss->names[ss->nframes] = xasprintf("%s" CS_INLINE_SUFFIX, k.inl);
	else if (pl.name)
		ss->names[ss->nframes] = xstrdup(pl.name);
	else if (pl.module != PSET_NO_MODULE)
		ss->names[ss->nframes] = xasprintf("%s+0x%llx", ss->s->mods[pl.module].display,
						   (unsigned long long)pl.addr);
	else
		ss->names[ss->nframes] = xstrdup("[unknown]");
	*u64map_slot(&ss->index, h) = ++ss->nframes;
	return (uint32_t)(ss->nframes - 1);
}

/* The shared frames: name, and file and line where known. */
static void write_frames(struct ss *ss)
{
	struct srcline sl;
	fputs("\"shared\":{\"frames\":[", ss->out);
	for (size_t i = 0; i < ss->nframes; i++) {
		const struct frame_key *k = &ss->keys[i];
		fputs(i ? ",\n{\"name\":" : "\n{\"name\":", ss->out);
		json_str(ss->names[i], ss->out);
		if (k->module != PSET_NO_MODULE) {
			const char *file = ss->s->mods[k->module].path;
			struct symtab *st = pset_symtab(&ss->s->mods[k->module]);
			int line = 0;
			if (k->inl) {
				if (k->file)
					file = k->file;
			} else if (k->placed) {
				const char *f = export_function_file(st, k->addr);
				if (strcmp(f, "???") != 0)
					file = f;
				if (symtab_srcline(st, k->addr, &sl) == 0)
					line = sl.line;
			}
			fputs(",\"file\":", ss->out);
			json_str(file, ss->out);
			if (line > 0)
				fprintf(ss->out, ",\"line\":%d", line);
		}
		fputc('}', ss->out);
	}
	fputs("]}", ss->out);
}

/* The profile's ticks ordered by thread (stable: each thread's in time
 * order), in *order; the thread of each in *th. */
static size_t *by_thread(const struct profile *p, uint32_t **th)
{
	size_t nt = p->nthreads + 1;
	size_t *start = xcalloc(nt + 1, sizeof *start);
	size_t *order = xmalloc((p->nticks ? p->nticks : 1) * sizeof *order);
	*th = xmalloc((p->nticks ? p->nticks : 1) * sizeof **th);
	for (size_t i = 0; i < p->nticks; i++) {
		(*th)[i] = export_tick_thread(p, &p->ticks[i]);
		if ((*th)[i] != UINT32_MAX)
			start[(*th)[i] + 1]++;
	}
	for (size_t k = 1; k <= nt; k++)
		start[k] += start[k - 1];
	for (size_t i = 0; i < p->nticks; i++)
		if ((*th)[i] != UINT32_MAX)
			order[start[(*th)[i]]++] = i;
	free(start);
	return order;
}

/* The profile of one thread: ticks order[0..n) of profile prof. */
static void write_thread(struct ss *ss, size_t prof, const size_t *order, size_t n, uint32_t thread,
			 const char *unit, double period)
{
	const struct profile *p = &ss->s->profiles[prof];
	FILE *out = ss->out;
	struct cs_frame tmp;
	const struct cs_frame *fr;
	char *name = thread ? xasprintf("%s (pid %u, tid %u)", p->threads[thread - 1].name[0] ?
					p->threads[thread - 1].name : "thread", p->hdr.pid, p->threads[thread - 1].tid)
			    : xasprintf("unknown thread (pid %u)", p->hdr.pid);
	double start = 0, end = 0;
	for (size_t i = 0; i < n; i++)
		end += (double)p->ticks[order[i]].weight * period;
	if (ss->t.time && n > 0) {
		uint64_t base = p->hdr.clock_start_ns - ss->t.origin_ns;
		const struct profile_tick *last = &p->ticks[order[n - 1]];
		start = (double)(base + p->ticks[order[0]].time_ns);
		end = (double)(base + last->time_ns) + (double)last->weight * period;
	}
	fputs("{\"type\":\"sampled\",\"name\":", out);
	json_str(name, out);
	fprintf(out, ",\"unit\":\"%s\",\"startValue\":%.15g,\"endValue\":%.15g,\n\"samples\":[", unit, start, end);
	int first = 1;
	for (size_t i = 0; i < n; i++) {
		const struct profile_tick *tk = &p->ticks[order[i]];
		size_t nf = export_tick_frames(&ss->t, prof, tk, &fr, &tmp);
		if (nf == 0)
			continue;
		nf = callstack_model(ss->s, fr, nf, ss->mf);
		for (size_t k = 0; k < nf; k++)
			ss->ids[k] = frame_id(ss, prof, &ss->mf[k]);
		fputs(first ? "[" : ",[", out);
		first = 0;
		for (size_t k = 0; k < nf; k++)
			fprintf(out, k ? ",%u" : "%u", ss->ids[k]);
		fputc(']', out);
	}
	fputs("],\n\"weights\":[", out);
	first = 1;
	for (size_t i = 0; i < n; i++) {
		const struct profile_tick *tk = &p->ticks[order[i]];
		if (export_tick_frames(&ss->t, prof, tk, &fr, &tmp) == 0)
			continue;
		fprintf(out, first ? "%.15g" : ",%.15g", (double)tk->weight * period);
		first = 0;
	}
	fputs("]}", out);
	free(name);
}

int export_speedscope(const struct pset *s, FILE *out, char *err, size_t errlen)
{
	struct ss ss = { .s = s, .out = out };
	if (export_timed_load(s, &ss.t, err, errlen) != 0)
		return -1;
	const char *unit = ss.t.time ? "nanoseconds" : "none";
	double period = ss.t.period;
	if (!(period > 0)) {  /* no period: the samples themselves */
		unit = "none";
		period = 1;
	}
	fputs("{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\",\"exporter\":\"pct\",\"name\":",
	      out);
	json_str(s->profiles[0].command, out);
	/* the thread with the most samples is shown first */
	size_t nprof = 0, active = 0;
	uint64_t most = 0;
	fputs(",\"profiles\":[\n", out);
	for (size_t prof = 0; prof < s->nprofiles; prof++) {
		const struct profile *p = &s->profiles[prof];
		uint32_t *th;
		size_t *order = by_thread(p, &th);
		size_t n = 0;
		for (size_t i = 0; i < p->nticks; i++)
			n += th[i] != UINT32_MAX;
		for (size_t i = 0; i < n;) {
			size_t j = i;
			uint64_t w = 0;
			while (j < n && th[order[j]] == th[order[i]])
				w += p->ticks[order[j++]].weight;
			if (nprof++)
				fputs(",\n", out);
			write_thread(&ss, prof, order + i, j - i, th[order[i]], unit, period);
			if (w > most) {
				most = w;
				active = nprof - 1;
			}
			i = j;
		}
		free(order);
		free(th);
	}
	fprintf(out, "],\n\"activeProfileIndex\":%zu,\n", active);
	write_frames(&ss);
	fputs("}\n", out);
	for (size_t i = 0; i < ss.nframes; i++)
		free(ss.names[i]);
	free(ss.names);
	free(ss.keys);
	u64map_free(&ss.index);
	export_timed_free(&ss.t);
	return 0;
}
