/*
 * pipeline.c - the report pipeline: the views of `pct report`, dump |
 * sym [| line] run in one process through memory streams (pipeline.h), as
 * `pct diff` reads profiles, and the same pipeline ending in sum without
 * text between the stages, as `pct report` runs it.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "escape.h"
#include "pipeline.h"
#include "profile.h"
#include "stages.h"
#include "symtab.h"
#include "u64map.h"
#include "util.h"

static const struct view views[] = {
	{ "function", 1, 0, "module,function" },
	{ "module", 0, 0, "module" },
	{ "address", 1, 0, "module,address,function" },
	{ "line", 1, 1, "file,line,function,inline" },
	{ "file", 1, 1, "file" },
	{ "thread", 0, 0, "pid,tid,thread" },
	{ "process", 0, 0, "pid,command" },
};

static FILE *buf_writer(struct pipe_buf *p, struct error *e)
{
	p->w = open_memstream(&p->buf, &p->len);
	if (p->w == NULL)
		error_set(e, 1, "out of memory");
	return p->w;
}

static FILE *buf_reader(struct pipe_buf *p, struct error *e)
{
	int rc = fclose(p->w);
	p->w = NULL;
	FILE *r = rc == 0 ? fmemopen(p->buf, p->len, "r") : NULL;
	if (r == NULL)
		error_set(e, 1, "out of memory");
	return r;
}

const struct view *view_find(const char *name)
{
	for (size_t i = 0; i < sizeof views / sizeof views[0]; i++)
		if (strcmp(name, views[i].name) == 0)
			return &views[i];
	return NULL;
}

const char *view_names(void)
{
	static char list[256];
	if (list[0] == '\0') {
		size_t n = sizeof views / sizeof views[0], len = 0;
		for (size_t i = 0; i < n; i++)
			len += (size_t)snprintf(list + len, sizeof list - len, "%s%s", i == 0 ? "" : i + 1 < n ? ", " : " or ",
						views[i].name);
	}
	return list;
}

void pipeline_free(struct pipe_buf b[3])
{
	for (size_t i = 0; i < 3; i++) {
		if (b[i].w)
			fclose(b[i].w);
		free(b[i].buf);
		b[i] = (struct pipe_buf){ 0 };
	}
}

FILE *pipeline_run(const struct pset *s, const struct view *v, struct pipe_buf b[3], struct error *e)
{
	memset(b, 0, 3 * sizeof *b);
	if (buf_writer(&b[0], e) == NULL)
		goto fail;
	stage_dump(s, b[0].w);
	FILE *in = buf_reader(&b[0], e);
	size_t cur = 0;                /* the buffer in reads */
	stage_fn *stages[2] = { v->sym ? stage_sym : NULL, v->line ? stage_line : NULL };
	for (size_t i = 0; i < 2 && in; i++) {
		if (stages[i] == NULL)
			continue;
		/* the stage from in to a new buffer, which becomes in */
		int rc = buf_writer(&b[i + 1], e) ? stages[i](in, "pipeline", b[i + 1].w, e) : -1;
		fclose(in);
		/* read through: its memory goes before the next stage's grows */
		free(b[cur].buf);
		b[cur].buf = NULL;
		b[cur].len = 0;
		cur = i + 1;
		in = rc == 0 ? buf_reader(&b[i + 1], e) : NULL;
	}
	if (in)
		return in;
fail:
	pipeline_free(b);
	return NULL;
}

/* The columns of the stages' TSV (stages.h), in the order they add them. */
enum col {
	COL_MODULE, COL_BUILD_ID, COL_OFFSET, COL_PID, COL_COMMAND, COL_TID, COL_THREAD, COL_SAMPLES,
	COL_FUNCTION, COL_FUNCTION_OFFSET, COL_ADDRESS,      /* sym */
	COL_FILE, COL_LINE, COL_INLINE,                      /* line */
	NCOLS
};
static const char *const col_names[NCOLS] = {
	"module", "build_id", "offset", "pid", "command", "tid", "thread", "samples",
	"function", "function_offset", "address", "file", "line", "inline",
};
#define SYM_COLS (1u << COL_FUNCTION | 1u << COL_FUNCTION_OFFSET | 1u << COL_ADDRESS)
#define LINE_COLS (1u << COL_FILE | 1u << COL_LINE | 1u << COL_INLINE)

/* The TSV route: the stages' text through memory, then sum. */
static int sum_through_text(const struct pset *s, const struct view *v, FILE *out, const struct sum_opts *o,
			    struct error *e)
{
	struct pipe_buf b[3];
	FILE *in = pipeline_run(s, v, b, e);
	if (in == NULL)
		return -1;
	int rc = stage_sum(in, "pipeline", out, o, e);
	fclose(in);
	pipeline_free(b);
	return rc;
}

/* The '#pct' lines dump would write, read as sum reads them; m points
 * into *text (free it after m). */
static int meta_of(const struct pset *s, struct stage_meta *m, char **text, struct error *e)
{
	char *buf = NULL, **lines = NULL;
	size_t len = 0, n = 0, cap = 0;
	FILE *w = open_memstream(&buf, &len);
	if (w == NULL)
		return error_set(e, 1, "out of memory");
	stage_dump_meta(s, w);
	if (fclose(w) != 0) {
		free(buf);
		return error_set(e, 1, "out of memory");
	}
	for (char *l = buf, *next; l && *l; l = next) {
		next = strchr(l, '\n');
		if (next)
			*next++ = '\0';
		grow(&lines, &cap, n + 1, sizeof *lines);
		lines[n++] = l;
	}
	stage_meta_parse(lines, n, m);
	free(lines);
	*text = buf;
	return 0;
}

/* A module's bucket of samples, in the order dump sorts modules. */
struct bucket {
	const char *path;
	uint32_t module;
	size_t first, n;               /* its samples: refs[first .. first + n) */
};

static int cmp_bucket(const void *pa, const void *pb)
{
	const struct bucket *a = pa, *b = pb;
	int c = strcmp(a->path, b->path);
	return c ? c : a->module < b->module ? -1 : a->module > b->module;
}

/* s's samples grouped by module, in dump's order of modules (path, then
 * number), each as (profile << 40 | sample); *nb buckets, empty ones
 * left out.  (Sorting each module's samples by offset, as dump does, made
 * 10^7 samples slower, 12.5 s of CPU against 11.0: the symbol lookups
 * gained less than the sort cost.) */
#define REF_SHIFT 40
static struct bucket *buckets_of(const struct pset *s, uint64_t **refs, size_t *nb)
{
	size_t nm = s->nmods + 1, total = 0;   /* the last bucket: no module */
	struct bucket *b = xcalloc(nm, sizeof *b);
	for (size_t p = 0; p < s->nprofiles; p++)
		for (size_t i = 0; i < s->profiles[p].nsamples; i++) {
			uint32_t m = pset_module_of(s, p, &s->profiles[p].samples[i]);
			b[m == PSET_NO_MODULE ? s->nmods : m].n++;
			total++;
		}
	for (size_t m = 0, at = 0; m < nm; m++) {
		b[m].module = m == s->nmods ? PSET_NO_MODULE : (uint32_t)m;
		b[m].path = stage_module_path(s, b[m].module);
		b[m].first = at;
		at += b[m].n;
		b[m].n = 0;
	}
	*refs = xmalloc((total ? total : 1) * sizeof **refs);
	for (size_t p = 0; p < s->nprofiles; p++)
		for (size_t i = 0; i < s->profiles[p].nsamples; i++) {
			uint32_t m = pset_module_of(s, p, &s->profiles[p].samples[i]);
			struct bucket *k = &b[m == PSET_NO_MODULE ? s->nmods : m];
			(*refs)[k->first + k->n++] = (uint64_t)p << REF_SHIFT | i;
		}
	*nb = 0;
	for (size_t m = 0; m < nm; m++)
		if (b[m].n)
			b[(*nb)++] = b[m];
	sort(b, *nb, sizeof *b, cmp_bucket);
	return b;
}

/* A sample of a bucket in the order of its address column: "0x" and the
 * hex digits of its link-time address compare as strings (agg.h), which
 * is the digits' value left-aligned in 64 bits, then the fewer digits
 * first; a sample without an address ("") before all.  With its count,
 * so that the samples are not read again out of their order. */
struct by_address {
	uint64_t aligned;              /* the digits, left-aligned */
	uint64_t packed;               /* the digit count << DIGITS_SHIFT | the samples */
};
#define DIGITS_SHIFT 59

/* The 8-bit digit d of v's sort key: 0 the digit count, 1..8 the bytes of
 * aligned from the lowest. */
static unsigned radix_digit(const struct by_address *v, int d)
{
	return d == 0 ? (unsigned)(v->packed >> DIGITS_SHIFT) : (unsigned)(v->aligned >> (8 * (d - 1))) & 255;
}

/* v[0..n) by (aligned, digit count): a least-significant-digit radix
 * sort, a byte at a time, skipping the bytes all share (a merge sort's
 * 2.3 x 10^8 compares of 10^7 addresses cost 1.6 s). */
static void radix_by_address(struct by_address *v, size_t n)
{
	if (n < 2)
		return;
	size_t (*count)[256] = xcalloc(9, sizeof *count);
	for (size_t i = 0; i < n; i++)
		for (int d = 0; d < 9; d++)
			count[d][radix_digit(&v[i], d)]++;
	struct by_address *tmp = NULL, *src = v, *dst;
	for (int d = 0; d < 9; d++) {
		if (count[d][radix_digit(&v[0], d)] == n)
			continue;              /* one value: the order stays */
		if (tmp == NULL)
			tmp = xmalloc(n * sizeof *tmp);
		dst = src == v ? tmp : v;
		size_t at[256];
		for (size_t x = 0, sum = 0; x < 256; x++) {
			at[x] = sum;
			sum += count[d][x];
		}
		for (size_t i = 0; i < n; i++)
			dst[at[radix_digit(&src[i], d)]++] = src[i];
		src = dst;
	}
	if (src != v)
		memcpy(v, src, n * sizeof *v);
	free(tmp);
	free(count);
}

/* The samples refs[0..n) of one module (symtab st, NULL if none) in the
 * order of their rows' keys by address, in v, so that the agg takes them
 * in ascending order: no hashing, no key compares in its sort
 * (aggregate.h). */
static void order_by_address(const struct pset *s, struct symtab *st, const uint64_t *refs, size_t n,
			     struct by_address *v)
{
	for (size_t r = 0; r < n; r++) {
		const struct profile_sample *smp =
			&s->profiles[refs[r] >> REF_SHIFT].samples[refs[r] & ((UINT64_C(1) << REF_SHIFT) - 1)];
		uint64_t addr = 0, digits = 0;
		if (st && symtab_addr(st, smp->offset, &addr) == 0)
			for (digits = 1; digits < 16 && addr >> (4 * digits); digits++)
				;
		v[r] = (struct by_address){ digits ? addr << (4 * (16 - digits)) : 0, digits << DIGITS_SHIFT | smp->count };
	}
	radix_by_address(v, n);
}

/* A key field as the TSV holds it: s escaped (escape.h); a copy in *tmp
 * (to free) only when escaping changes it. */
static char *field(const char *s, char **tmp)
{
	if (esc_len(s) == strlen(s))
		return (char *)s;
	return *tmp = esc_dup(s);
}

/* "0x" and v in hex in buf (24 bytes), as printf's "0x%llx" (a row per
 * address: 10^7 of them). */
static char *hex_of(char *buf, uint64_t v)
{
	char tmp[16];
	size_t n = 0;
	do
		tmp[n++] = "0123456789abcdef"[v & 15];
	while ((v >>= 4) != 0);
	buf[0] = '0';
	buf[1] = 'x';
	for (size_t i = 0; i < n; i++)
		buf[2 + i] = tmp[n - 1 - i];
	buf[2 + n] = '\0';
	return buf;
}

/* hex_of(v), or "" if !have, as sym prints its optional columns. */
static char *hex_or_empty(char *buf, int have, uint64_t v)
{
	if (have)
		return hex_of(buf, v);
	buf[0] = '\0';
	return buf;
}

/* The column named name, or NCOLS if view v has none of that name. */
static size_t col_of(const struct view *v, const char *name)
{
	size_t c = 0;
	while (c < NCOLS && strcmp(col_names[c], name) != 0)
		c++;
	if (c < NCOLS && ((!v->sym && (1u << c & SYM_COLS)) || (!v->line && (1u << c & LINE_COLS))))
		return NCOLS;
	return c;
}

int pipeline_group(const struct pset *s, const struct view *v, char *const *keys, size_t nkeys, struct agg *a,
		   uint32_t **row_of, struct error *e)
{
	enum col col[16];
	unsigned need = 0;
	if (nkeys == 0 || nkeys > 16)
		return error_set(e, 2, "pipeline: %zu columns to group by (1 to 16)", nkeys);
	if (s->nprofiles >> (64 - REF_SHIFT))
		return error_set(e, 1, "pipeline: %zu profiles, more than a reference can name", s->nprofiles);
	for (size_t i = 0; i < nkeys; i++) {
		size_t c = col_of(v, keys[i]);
		if (c == NCOLS || c == COL_SAMPLES)
			return error_set(e, 2, "pipeline: no '%s' column to group by", keys[i]);
		col[i] = (enum col)c;
		need |= 1u << c;
	}
	if (row_of)
		for (size_t p = 0; p < s->nprofiles; p++)
			row_of[p] = xmalloc((s->profiles[p].nsamples ? s->profiles[p].nsamples : 1) * sizeof **row_of);

	/* Keys of the module and function only: a row per function name,
	 * found again by the symtab's pointer to it (names are interned and
	 * live as long as the symtab) instead of by hashing the strings */
	const unsigned by_name = 1u << COL_MODULE | 1u << COL_BUILD_ID | 1u << COL_FUNCTION;
	int memo = v->sym && (need & ~by_name) == 0;
	struct u64map rows = { 0 };
	a->nkeys = nkeys;
	uint64_t *refs;
	size_t nb;
	struct bucket *b = buckets_of(s, &refs, &nb);
	/* keys module, address first, and nothing a sample holds but its
	 * address: each module's samples in the order of their rows (buckets
	 * are in the order of module paths) */
	const unsigned of_address = by_name | 1u << COL_ADDRESS | 1u << COL_FUNCTION_OFFSET;
	int by_addr = nkeys >= 2 && col[0] == COL_MODULE && col[1] == COL_ADDRESS && v->sym && !v->line &&
		      (need & ~of_address) == 0 && row_of == NULL;
	size_t nsamples = 0;
	for (size_t p = 0; p < s->nprofiles; p++) {
		nsamples += s->profiles[p].nsamples;
		for (size_t i = 0; by_addr && i < s->profiles[p].nsamples; i++)
			by_addr = s->profiles[p].samples[i].count >> DIGITS_SHIFT == 0;
	}
	/* a row per address or offset: about a row per sample, made without
	 * moving the rows again and again */
	if (need & (1u << COL_ADDRESS | 1u << COL_OFFSET))
		agg_reserve(a, nsamples);
	int rc = 0;
	/* by address, every module's samples in order first: then the
	 * references go before the rows are made */
	struct by_address *ords = NULL;
	if (by_addr) {
		ords = xmalloc((nsamples ? nsamples : 1) * sizeof *ords);
		for (size_t j = 0; j < nb && rc == 0; j++) {
			char hex[2 * PCT_BUILD_ID_MAX + 1] = "", *module = esc_dup(b[j].path);
			struct symtab *st = NULL;
			if (b[j].module != PSET_NO_MODULE)
				build_id_hex(s->mods[b[j].module].build_id, s->mods[b[j].module].build_id_len, hex);
			rc = stage_row_symtab(module, hex, "pipeline", &st, e);
			if (rc == 0)
				order_by_address(s, st, refs + b[j].first, b[j].n, ords + b[j].first);
			free(module);
		}
		free(refs);
		refs = NULL;
	}
	for (size_t j = 0; j < nb && rc == 0; j++) {
		const uint32_t mod = b[j].module;
		char hex[2 * PCT_BUILD_ID_MAX + 1] = "", *module = esc_dup(b[j].path);
		struct symtab *st = NULL;
		if (mod != PSET_NO_MODULE)
			build_id_hex(s->mods[mod].build_id, s->mods[mod].build_id_len, hex);
		/* as sym and line find it: from the escaped column */
		if ((v->sym || v->line) && (rc = stage_row_symtab(module, hex, "pipeline", &st, e)) != 0) {
			free(module);
			break;
		}
		const struct by_address *ord = ords ? ords + b[j].first : NULL;
		const char *last_fn = NULL;    /* the function named last, and its field */
		char *last_field = NULL, *last_tmp = NULL;
		for (size_t k = 0; k < b[j].n; k++) {
			/* by address, no sample is read again (10^7 of them, out
			 * of their order: a cache miss each), nor referred to */
			const uint64_t ref = ord ? 0 : refs[b[j].first + k];
			const size_t pi = ref >> REF_SHIFT, si = ref & ((UINT64_C(1) << REF_SHIFT) - 1);
			const struct profile *pr = &s->profiles[pi];
			const struct profile_sample *smp = ord ? NULL : &pr->samples[si];
			const uint64_t count = ord ? ord[k].packed & ((UINT64_C(1) << DIGITS_SHIFT) - 1) : smp->count;
			const struct profile_thread *t = smp && smp->thread ? &pr->threads[smp->thread - 1] : NULL;
			struct sym_cols sc = { 0 };
			struct srcline sl;
			int line = 0;
			if (ord) {
				uint64_t digits = ord[k].packed >> DIGITS_SHIFT;
				stage_sym_cols_at(st, digits > 0, digits ? ord[k].aligned >> (4 * (16 - digits)) : 0, &sc);
			} else if (v->sym && (need & (SYM_COLS | LINE_COLS))) {
				stage_sym_cols(st, smp->offset, &sc);
			}
			uint64_t *row = memo ? u64map_slot(&rows, (uintptr_t)sc.function) : NULL;
			if (row && *row) {
				agg_add_to(a, *row - 1, count);
				if (row_of)
					row_of[pi][si] = (uint32_t)(*row - 1);
				continue;
			}
			if (need & LINE_COLS)
				line = stage_line_cols(st, sc.has_address, sc.address, smp->offset, &sl) == 0;
			char num[16][24], *tmp[16] = { 0 }, *vals[16];
			for (size_t i = 0; i < nkeys; i++) {
				switch (col[i]) {
				case COL_MODULE: vals[i] = module; break;
				case COL_BUILD_ID: vals[i] = hex; break;
				case COL_OFFSET: vals[i] = hex_of(num[i], smp->offset); break;
				case COL_PID: snprintf(vals[i] = num[i], 24, "%u", pr->hdr.pid); break;
				case COL_COMMAND: vals[i] = field(pr->command, &tmp[i]); break;
				case COL_TID: snprintf(vals[i] = num[i], 24, "%u", t ? t->tid : 0); break;
				case COL_THREAD: vals[i] = field(t ? t->name : "?", &tmp[i]); break;
				case COL_FUNCTION:
					/* rows by address come a function's at a time */
					if (sc.function && sc.function != last_fn) {
						free(last_tmp);
						last_tmp = NULL;
						last_field = field(sc.function, &last_tmp);
						last_fn = sc.function;
					}
					vals[i] = sc.function ? last_field : "[unknown]";
					break;
				case COL_FUNCTION_OFFSET: vals[i] = hex_or_empty(num[i], sc.function != NULL, sc.function_offset); break;
				case COL_ADDRESS: vals[i] = hex_or_empty(num[i], sc.has_address, sc.address); break;
				case COL_FILE: vals[i] = line ? field(sl.file, &tmp[i]) : "[unknown]"; break;
				case COL_LINE: snprintf(vals[i] = num[i], 24, "%d", line ? sl.line : 0); break;
				case COL_INLINE: vals[i] = line ? field(sl.inlined, &tmp[i]) : ""; break;
				default: vals[i] = ""; break;   /* COL_SAMPLES: refused above */
				}
			}
			size_t added = agg_add(a, vals, count);
			if (row)
				*row = added + 1;
			if (row_of)
				row_of[pi][si] = (uint32_t)added;
			for (size_t i = 0; i < nkeys; i++)
				free(tmp[i]);
		}
		free(last_tmp);
		free(module);
		u64map_free(&rows);    /* the next module's names are others */
	}
	free(b);
	free(refs);
	free(ords);
	if (rc != 0 && row_of)
		for (size_t p = 0; p < s->nprofiles; p++) {
			free(row_of[p]);
			row_of[p] = NULL;
		}
	return rc;
}

int pipeline_sum(const struct pset *s, const struct view *v, FILE *out, const struct sum_opts *o, struct error *e)
{
	struct sum_keys k;
	if (sum_keys_parse(o, &k, e) != 0)
		return -1;
	for (size_t i = 0; i < k.nkeys; i++) {
		size_t c = col_of(v, k.keys[i]);
		if (c == NCOLS)
			break;         /* pipeline_group says so */
		if (c == COL_SAMPLES || s->nprofiles >> (64 - REF_SHIFT)) {
			/* dump's merged counts as a key, or too many files for a
			 * reference: the text route */
			free(k.by);
			return sum_through_text(s, v, out, o, e);
		}
	}
	struct stage_meta m;
	char *meta_text = NULL;
	if (meta_of(s, &m, &meta_text, e) != 0) {
		free(k.by);
		return -1;
	}
	struct agg a = { .nkeys = k.nkeys };
	int rc = pipeline_group(s, v, k.keys, k.nkeys, &a, NULL, e);
	if (rc == 0)
		sum_print(out, &a, k.keys, &m, o);
	stage_meta_free(&m);
	free(meta_text);
	agg_free(&a);
	free(k.by);
	return rc;
}
