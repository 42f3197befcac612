/*
 * stage_dump.c - the dump stage: the raw samples of a profile set as TSV,
 * one row per (module, build-id, offset, process, thread), summed over
 * the files, after the '#pct' lines that describe them; and the parser
 * of those lines, which later stages copy through (stages.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "live.h"
#include "pset.h"
#include "stages.h"
#include "tsv.h"
#include "util.h"

struct drow {
	uint32_t module;
	uint64_t offset, samples;
	uint32_t pid, tid;
	const char *command, *thread;
	const struct pset *s;
};

const char *stage_module_path(const struct pset *s, uint32_t module)
{
	return module == PSET_NO_MODULE ? "[unknown]" : s->mods[module].path;
}

static const char *mod_path(const struct drow *r)
{
	return stage_module_path(r->s, r->module);
}

static int cmp_drow(const void *pa, const void *pb)
{
	const struct drow *a = pa, *b = pb;
	int c = strcmp(mod_path(a), mod_path(b));
	if (c == 0 && a->module != b->module)
		c = a->module < b->module ? -1 : 1;
	if (c == 0)
		c = a->offset < b->offset ? -1 : a->offset > b->offset;
	if (c == 0)
		c = a->pid < b->pid ? -1 : a->pid > b->pid;
	if (c == 0)
		c = strcmp(a->command, b->command);
	if (c == 0)
		c = a->tid < b->tid ? -1 : a->tid > b->tid;
	if (c == 0)
		c = strcmp(a->thread, b->thread);
	return c;
}

/* The '#pct' lines: what `pct sum` needs for its summary (stages.h). */
void stage_dump_meta(const struct pset *s, FILE *out)
{
	fprintf(out, "#pct files=%llu dropped=%llu cpu_ns=%llu dimension=", (unsigned long long)s->runs,
		(unsigned long long)s->dropped, (unsigned long long)s->cpu_ns);
	put_tsv_field(s->profiles[0].hdr.dimension, out);
	fprintf(out, " event=%s", event_name(s->profiles[0].hdr.event));
	fputc('\n', out);
	fprintf(out, "#pct cpu_before_ns=%llu expected=", (unsigned long long)pset_cpu_before_ns(s));
	if (s->expected >= 0)
		fprintf(out, "%.1f", s->expected);
	else
		fputc('-', out);
	size_t incomplete = 0;
	for (size_t i = 0; i < s->nprofiles; i++)
		incomplete += s->profiles[i].hdr.state != PCT_STATE_COMPLETE;
	uint32_t mech = s->profiles[0].hdr.mechanism;
	fprintf(out, " mechanism=%s incomplete=%zu\n",
		mech == PCT_MECH_PERF ? "perf" : mech == PCT_MECH_PERF_ATTACH ? "perf-attach"
					       : mech == PCT_MECH_PTRACE ? "ptrace" : "timer", incomplete);
	/* the files still being written (live.h), only if there are any */
	size_t live = 0;
	for (size_t i = 0; i < s->nprofiles; i++)
		live += incomplete && profile_live(&s->profiles[i]);
	if (live)
		fprintf(out, "#pct live=%zu\n", live);
	struct profile_overruns o = { 0 };
	for (size_t i = 0; i < s->nprofiles; i++)
		profile_overruns_add(&s->profiles[i], &o);
	if (o.max > 1)
		fprintf(out, "#pct overruns signals=%llu samples=%llu squares=%llu max=%llu\n",
			(unsigned long long)o.signals, (unsigned long long)o.samples, (unsigned long long)o.squares,
			(unsigned long long)o.max);
	/* a --time slice, only if there is one */
	if (s->sliced) {
		fprintf(out, "#pct slice_from_ns=%llu slice_to_ns=", (unsigned long long)s->slice.from_ns);
		if (s->slice.to_ns == UINT64_MAX)
			fputc('-', out);
		else
			fprintf(out, "%llu", (unsigned long long)s->slice.to_ns);
		fputc('\n', out);
	}
	/* every process, in the set's order (a tree file's: the tree's), for
	 * sum's process view: pid, and the command as its column holds it */
	for (size_t i = 0; i < s->nprofiles; i++) {
		fprintf(out, "#pct process pid=%u command=", s->profiles[i].hdr.pid);
		put_tsv_field(s->profiles[i].command, out);
		fputc('\n', out);
	}
	if (s->runs == 1) {
		fprintf(out, "#pct file=");
		put_tsv_field(s->profiles[0].file, out);
		fprintf(out, " pid=%u cmdline=", s->profiles[0].hdr.pid);
		put_tsv_field(s->profiles[0].cmdline, out);
		fputc('\n', out);
	}
}

void stage_meta_parse(char *const *comments, size_t ncomments, struct stage_meta *m)
{
	memset(m, 0, sizeof *m);
	strcpy(m->dimension, "seconds");
	int lines = 0, cpu_lines = 0;
	for (size_t i = 0; i < ncomments; i++) {
		const char *c = comments[i];
		if (strncmp(c, "#pct ", 5) != 0)
			continue;
		unsigned long long files = 0, dropped = 0, cpu = 0;
		char dim[32];
		if (sscanf(c, "#pct files=%llu dropped=%llu cpu_ns=%llu dimension=%31s", &files, &dropped, &cpu,
			   dim) == 4) {
			m->files += files;
			m->dropped += dropped;
			m->cpu_ns += cpu;
			strcpy(m->dimension, dim);
			const char *ev = strstr(c, " event=");
			if (ev)
				sscanf(ev, " event=%31s", m->event);
			m->have = 1;
			lines++;
		} else if (strncmp(c, "#pct cpu_before_ns=", 19) == 0) {
			unsigned long long before, incomplete = 0;
			char expected[32];
			int got = sscanf(c, "#pct cpu_before_ns=%llu expected=%31s mechanism=%15s incomplete=%llu", &before,
					 expected, m->mechanism, &incomplete);
			if (got < 3)
				continue;
			m->incomplete = m->incomplete + incomplete < incomplete ? UINT64_MAX : m->incomplete + incomplete;
			char *end;
			double e = strtod(expected, &end);
			if (*end || !(e >= 0) || e > 1e18)
				e = -1;
			if (m->expected >= 0)          /* 0 at first; -1 once one is unknown */
				m->expected = e >= 0 ? m->expected + e : -1;
			m->cpu_before_ns = m->cpu_before_ns + before < before ? UINT64_MAX : m->cpu_before_ns + before;
			cpu_lines++;
		} else if (strncmp(c, "#pct slice_from_ns=", 19) == 0) {
			unsigned long long from, to;
			char end[24];
			if (sscanf(c, "#pct slice_from_ns=%llu slice_to_ns=%23s", &from, end) == 2) {
				m->sliced = 1;
				m->slice_from_ns = from;
				m->slice_to_ns = strcmp(end, "-") == 0 || sscanf(end, "%llu", &to) != 1 ? UINT64_MAX : to;
			}
		} else if (strncmp(c, "#pct overruns ", 14) == 0) {
			unsigned long long sg, w, q, mx;
			struct profile_overruns *o = &m->overruns;
			if (sscanf(c, "#pct overruns signals=%llu samples=%llu squares=%llu max=%llu", &sg, &w, &q, &mx) ==
			    4 && w >= sg && q >= w) {
				o->signals = o->signals + sg < sg ? UINT64_MAX : o->signals + sg;
				o->samples = o->samples + w < w ? UINT64_MAX : o->samples + w;
				o->squares = o->squares + q < q ? UINT64_MAX : o->squares + q;
				if (mx > o->max)
					o->max = mx;
			}
		} else if (strncmp(c, "#pct live=", 10) == 0) {
			unsigned long long live;
			if (sscanf(c, "#pct live=%llu", &live) == 1)
				m->live = m->live + live < live ? UINT64_MAX : m->live + live;
		} else if (strncmp(c, "#pct process pid=", 17) == 0) {
			const char *cmd = strstr(c + 17, " command=");
			if (cmd == NULL || cmd - (c + 17) > 10)
				continue;
			char pid[16];
			snprintf(pid, sizeof pid, "%.*s", (int)(cmd - (c + 17)), c + 17);
			char *key[2] = { pid, (char *)cmd + 9 };
			m->processes.nkeys = 2;
			agg_add(&m->processes, key, 0);
		} else if (strncmp(c, "#pct file=", 10) == 0) {
			const char *pid = strstr(c, " pid="), *cmd = pid ? strstr(pid, " cmdline=") : NULL;
			if (pid && cmd) {
				free(m->file);
				m->file = xasprintf("%.*s", (int)(pid - c - 10), c + 10);
				snprintf(m->pid, sizeof m->pid, "%.*s", (int)(cmd - pid - 5), pid + 5);
				m->cmdline = cmd + 9;
			}
		}
	}
	/* every profile's description must say what it expected, or none is
	 * known */
	if (cpu_lines != lines)
		m->expected = -1, m->cpu_before_ns = 0;
}

void stage_meta_free(struct stage_meta *m)
{
	free(m->file);
	agg_free(&m->processes);
	m->file = NULL;
}

void stage_dump(const struct pset *s, FILE *out)
{
	struct drow *rows = NULL;
	size_t nrows = 0, cap = 0;
	for (size_t p = 0; p < s->nprofiles; p++) {
		const struct profile *pr = &s->profiles[p];
		for (size_t i = 0; i < pr->nsamples; i++) {
			const struct profile_sample *smp = &pr->samples[i];
			const struct profile_thread *t = smp->thread ? &pr->threads[smp->thread - 1] : NULL;
			grow(&rows, &cap, nrows + 1, sizeof *rows);
			rows[nrows++] = (struct drow){ pset_module_of(s, p, smp), smp->offset, smp->count, pr->hdr.pid,
						       t ? t->tid : 0, pr->command, t ? t->name : "?", s };
		}
	}
	sort(rows, nrows, sizeof *rows, cmp_drow);
	size_t n = 0;
	for (size_t i = 0; i < nrows; i++) {
		if (n && cmp_drow(&rows[n - 1], &rows[i]) == 0)
			rows[n - 1].samples += rows[i].samples;
		else
			rows[n++] = rows[i];
	}

	char hex[2 * PCT_BUILD_ID_MAX + 1];
	stage_dump_meta(s, out);
	fprintf(out, "module\tbuild_id\toffset\tpid\tcommand\ttid\tthread\tsamples\n");
	for (size_t i = 0; i < n; i++) {
		const struct drow *r = &rows[i];
		put_tsv_field(mod_path(r), out);
		if (r->module == PSET_NO_MODULE)
			hex[0] = '\0';
		else
			build_id_hex(s->mods[r->module].build_id, s->mods[r->module].build_id_len, hex);
		fprintf(out, "\t%s\t0x%llx\t%u\t", hex, (unsigned long long)r->offset, r->pid);
		put_tsv_field(r->command, out);
		fprintf(out, "\t%u\t", r->tid);
		put_tsv_field(r->thread, out);
		fprintf(out, "\t%llu\n", (unsigned long long)r->samples);
	}
	free(rows);
}

