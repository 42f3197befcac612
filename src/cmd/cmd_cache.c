/*
 * cmd_cache.c - `pct cache list|prune`: what the build-id cache holds,
 * and keeping it under a size (modfile.h).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "commands.h"
#include "escape.h"
#include "modfile.h"
#include "util.h"

static const char usage[] =
	"usage: pct cache list\n"
	"       pct cache prune [--max-size=SIZE]\n"
	"\n"
	"The build-id cache keeps the file of every module that held samples,\n"
	"when `pct record` ends or `pct archive` runs, by build-id, under\n"
	"$XDG_CACHE_HOME/pct (default ~/.cache/pct), so that profiles keep their\n"
	"names after a rebuild.  $PCT_CACHE=0 turns it off.\n"
	"\n"
	"list   one line per module: build-id, bytes, last used (UTC), whether\n"
	"       its debug file is kept, and the path it was recorded at; then\n"
	"       the total\n"
	"prune  remove the least recently used modules until the cache holds at\n"
	"       most SIZE bytes\n"
	"\n"
	"  --max-size=SIZE  bytes, or with a K, M, G or T suffix (powers of\n"
	"                   1024); default 2G, which `pct record` also keeps\n"
	"  -h, --help       show this help\n"
	"\n"
	"See pct-cache(1).\n";

/* SIZE: digits with an optional K, M, G or T; -1 if malformed. */
static int parse_size(const char *s, uint64_t *out)
{
	char *end;
	if (*s < '0' || *s > '9')
		return -1;
	unsigned long long v = strtoull(s, &end, 10);
	int shift = 0;
	if (*end && end[1] == '\0') {
		const char *p = strchr("KMGT", *end);
		if (p == NULL)
			return -1;
		shift = 10 * (int)(p - "KMGT" + 1);
		end++;
	}
	if (*end || (shift && v > (UINT64_MAX >> shift)))
		return -1;
	*out = (uint64_t)v << shift;
	return 0;
}

static int list(void)
{
	struct modfile_entry *e;
	size_t n;
	char *why;
	uint64_t total = 0;
	if (modfile_cache_scan(&e, &n, &why) != 0)
		die("cache: %s", why);
	for (size_t i = n; i-- > 0;) {
		char when[32];
		struct tm tm;
		time_t t = e[i].used.tv_sec;
		strftime(when, sizeof when, "%Y-%m-%d %H:%M:%S", gmtime_r(&t, &tm));
		printf("%s\t%llu\t%s\t%s\t", e[i].build_id, (unsigned long long)e[i].bytes, when,
		       e[i].has_debug ? "debug" : "-");
		esc_fputs(e[i].path, stdout);
		putchar('\n');
		total += e[i].bytes;
	}
	char *dir = modfile_cache_dir();
	printf("# %zu module%s, %llu bytes in ", n, n == 1 ? "" : "s", (unsigned long long)total);
	esc_fputs(dir, stdout);
	putchar('\n');
	free(dir);
	modfile_cache_entries_free(e, n);
	return 0;
}

int cmd_cache(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "max-size", required_argument, NULL, 'm' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	uint64_t max = MODFILE_CACHE_MAX_DEFAULT;
	int c;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		if (c != 'm')
			return usage_exit(usage, c == 'h');
		if (parse_size(optarg, &max) != 0)
			die_usage("cache: --max-size wants bytes, with an optional K, M, G or T, not '%s'", optarg);
	}
	if (optind + 1 != argc)
		return usage_short(usage);
	const char *what = argv[optind];
	if (strcmp(what, "list") == 0)
		return list();
	if (strcmp(what, "prune") != 0)
		die_usage("cache: unknown action '%s' (list or prune)", what);
	uint64_t freed;
	char *why;
	long removed = modfile_cache_prune(max, &freed, &why);
	if (removed < 0)
		die("cache: %s", why);
	note("cache: removed %ld module%s, %llu bytes; the cache is now at most %llu bytes", removed,
	     removed == 1 ? "" : "s", (unsigned long long)freed, (unsigned long long)max);
	return 0;
}
