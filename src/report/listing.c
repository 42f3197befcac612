/* listing.c - see listing.h. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "modfile.h"
#include "pset.h"
#include "listing.h"
#include "profile.h"
#include "source.h"
#include "symtab.h"
#include "util.h"

/* Report the error fmt with exit status st: -1, the status in *status. */
static int fail(int *status, int st, const char *fmt, ...)
{
	struct error e = { 0 };
	char *msg = NULL;
	va_list ap;
	va_start(ap, fmt);
	if (vasprintf(&msg, fmt, ap) < 0)
		msg = NULL;
	va_end(ap);
	error_set(&e, st, "%s", msg ? msg : "out of memory");
	free(msg);
	*status = error_report(&e);
	return -1;
}

int listing_open(int argc, char **argv, const char *usage, const char *count_name, size_t count,
		 struct listing *l, int *status)
{
	const struct option opts[] = {
		{ count_name, required_argument, NULL, 'n' },
		{ "source-dir", required_argument, NULL, 'S' },
		{ "source-root", required_argument, NULL, 'R' },
		MODFILE_LONG_OPTIONS,
		PSET_SELECT_LONG_OPTIONS,
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;
	char *end, err[512];
	memset(l, 0, sizeof *l);
	l->count = count;
	while ((c = getopt_long(argc, argv, "n:S:h", opts, NULL)) != -1) {
		switch (c) {
		case 'n':
			l->count = strtoul(optarg, &end, 10);
			if (*end || optarg[0] == '-' || optarg[0] == '\0')
				return fail(status, 2, "%s: -n wants a number of %s, not '%s'", argv[0], count_name,
					    optarg);
			break;
		case 'S':
			source_add_dir(optarg);
			break;
		case 'R':
			if (source_add_root(optarg) != 0)
				return fail(status, 2, "%s: --source-root '%s': %s", argv[0], optarg, strerror(errno));
			break;
		default:
			if (modfile_option(c, optarg) || pset_select_option(c, optarg))
				break;
			*status = usage_exit(usage, c == 'h');
			return -1;
		}
	}
	if (optind >= argc) {
		*status = usage_short(usage);
		return -1;
	}
	/* the first operand is a target unless it is a profile */
	if (argc - optind >= 2 && !is_profile(argv[optind]))
		l->target = argv[optind++];
	if (pset_load(&l->set, argv + optind, (size_t)(argc - optind), err, sizeof err) != 0)
		return fail(status, 1, "%s", err);
	l->total = pset_addresses(&l->set, &l->addrs, &l->naddrs);
	return 0;
}

void listing_close(struct listing *l)
{
	free(l->addrs);
	pset_free(&l->set);
	symtab_free_all();
	source_free_all();
}
