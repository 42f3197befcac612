/*
 * export_folded.c - folded stacks: one line per distinct call stack,
 * "root;caller;...;leaf COUNT", the input of flamegraph.pl and one that
 * speedscope imports.  Names are escaped (escape.h).
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
	callstack_fold(s, &a);
	for (size_t i = 0; i < a.nrows; i++) {
		esc_fputs(a.rows[i].key[0], out);
		fprintf(out, " %llu\n", (unsigned long long)a.rows[i].samples);
	}
	agg_free(&a);
	return 0;
}
