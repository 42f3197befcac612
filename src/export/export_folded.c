/*
 * export_folded.c - folded stacks: one line per distinct call stack,
 * "root;caller;...;leaf COUNT", the input of flamegraph.pl and one that
 * speedscope imports.  Names are escaped (escape.h), and a ';' in a name
 * is written "\x3b", so that it never splits a frame.
 */
#include <stdio.h>

#include "callstack.h"
#include "escape.h"
#include "export.h"

int export_folded(const struct pset *s, FILE *out, char *err, size_t errlen)
{
	if (!callstack_present(s)) {
		snprintf(err, errlen, "%s: no call stacks (record with `pct record -g`)", s->profiles[0].file);
		return -1;
	}
	struct agg a = { 0 };
	struct cs_graph g;
	callstack_graph(s, &g);
	callstack_fold(&g, &a);
	for (size_t i = 0; i < a.nrows; i++) {
		esc_fputs(a.rows[i].key[0], out);
		fprintf(out, " %llu\n", (unsigned long long)a.rows[i].samples);
	}
	/* the format has no comments: the unwinding line goes to stderr */
	if (g.unrooted)
		callstack_print_unrooted(&g, "pct: export: ", stderr);
	agg_free(&a);
	callstack_graph_free(&g);
	return 0;
}
