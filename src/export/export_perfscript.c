/*
 * export_perfscript.c - the text `perf script` prints (perf-script(1)),
 * which speedscope (its linux-tools-perf importer) and the Firefox
 * Profiler import: one block per sample, in time order over every thread
 * and process of the set, blocks separated by an empty line:
 *
 *   COMM PID/TID SECONDS.MICROS: PERIOD EVENT:
 *   \tADDRESS SYMBOL+0xOFFSET (MODULE)
 *   ...
 *
 * COMM is the thread's name (else the process's program), SECONDS the
 * sample's CLOCK_MONOTONIC time (the profile's hdr.clock_start_ns plus the
 * tick's time, as perf's own timestamps), PERIOD the samples it stands for
 * times the set's effective period (ns for time, events for a hardware
 * event), EVENT pct's event name.  The stack lines come innermost first:
 * the absolute address in hex, the function and the offset in it (the
 * link-time address minus the symbol's start), and the module's path; a
 * PC no symbol names is "[unknown]", one outside every module in
 * "([unknown])".  A function inlined at a frame's address is a line of
 * its own above it, at the same address and offset, its module
 * "(inlined)", as perf prints it (the stack model's frames,
 * callstack_model).  Without -g stacks a sample has its PC alone.  Names
 * are escaped (escape.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "callstack.h"
#include "escape.h"
#include "export.h"
#include "util.h"

struct when {
	uint64_t ns;                   /* CLOCK_MONOTONIC */
	size_t prof, tick;
};

static int when_cmp(const void *a, const void *b)
{
	const struct when *x = a, *y = b;
	if (x->ns != y->ns)
		return x->ns < y->ns ? -1 : 1;
	if (x->prof != y->prof)
		return x->prof < y->prof ? -1 : 1;
	return x->tick < y->tick ? -1 : x->tick > y->tick;
}

/* The length of the program's name in a profile's command label: up to
 * the first space. */
static size_t program_len(const char *command)
{
	const char *sp = strchr(command, ' ');
	return sp ? (size_t)(sp - command) : strlen(command);
}

int export_perfscript(const struct pset *s, FILE *out, char *err, size_t errlen)
{
	struct export_timed t;
	if (export_timed_load(s, &t, err, errlen) != 0)
		return -1;
	size_t n = 0;
	for (size_t p = 0; p < s->nprofiles; p++)
		n += s->profiles[p].nticks;
	struct when *w = xmalloc((n ? n : 1) * sizeof *w);
	n = 0;
	for (size_t p = 0; p < s->nprofiles; p++) {
		const struct profile *pr = &s->profiles[p];
		for (size_t i = 0; i < pr->nticks; i++)
			w[n++] = (struct when){ pr->hdr.clock_start_ns + pr->ticks[i].time_ns, p, i };
	}
	sort(w, n, sizeof *w, when_cmp);
	double period = t.period > 0 ? t.period : 1;
	struct cs_mframe *mf = xmalloc(CALLSTACK_MAX_FRAMES * sizeof *mf);
	for (size_t i = 0; i < n; i++) {
		const struct profile *p = &s->profiles[w[i].prof];
		const struct profile_tick *tk = &p->ticks[w[i].tick];
		uint32_t th = export_tick_thread(p, tk);
		struct cs_frame tmp;
		const struct cs_frame *fr;
		size_t nf = th == UINT32_MAX ? 0 : export_tick_frames(&t, w[i].prof, tk, &fr, &tmp);
		if (nf == 0)
			continue;
		const char *name = th ? p->threads[th - 1].name : "";
		size_t len = *name ? strlen(name) : program_len(p->command);
		esc_write(*name ? name : p->command, len, out);
		/* the importers read a name of at least two characters, then blanks */
		if (len < 2)
			fputc(' ', out);
		fprintf(out, " %u/%u %llu.%06llu: %.0f %s:\n", p->hdr.pid, th ? p->threads[th - 1].tid : 0,
			(unsigned long long)(w[i].ns / 1000000000), (unsigned long long)(w[i].ns % 1000000000 / 1000),
			(double)tk->weight * period, event_name(p->hdr.event));
		size_t m = callstack_model(s, fr, nf, mf);
		for (size_t k = m; k-- > 0;) {
			const struct cs_frame *f = mf[k].f;
			struct export_place pl;
			export_place(s, w[i].prof, f, &pl);
			fprintf(out, "\t%16llx ", (unsigned long long)f->pc);
			if (mf[k].inlined || pl.name) {
				esc_fputs(mf[k].inlined ? mf[k].inl.name : pl.name, out);
				if (pl.name)
					fprintf(out, "+0x%llx", (unsigned long long)(pl.addr - pl.start));
			} else {
				fputs("[unknown]", out);
			}
			if (mf[k].inlined) {  /* as perf marks an inlined function's frame */
				fputs(" (inlined)\n", out);
				continue;
			}
			fputs(" (", out);
			esc_fputs(pl.module == PSET_NO_MODULE ? "[unknown]" : s->mods[pl.module].path, out);
			fputs(")\n", out);
		}
		fputc('\n', out);
	}
	free(w);
	free(mf);
	export_timed_free(&t);
	return 0;
}
