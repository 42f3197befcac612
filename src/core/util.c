/*
 * util.c - messages on stderr (all through say()), fatal errors, checked
 * allocation and stdout hygiene for the pct commands.  Helpers elsewhere
 * return -1 or NULL with a reason (a struct error, or an err buffer);
 * only command code calls die().
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "escape.h"
#include "util.h"

/* "pct: PREFIX MESSAGE\n" on stderr, the message escaped: it may quote a
 * path or a name from a hostile file. */
static void say(const char *prefix, const char *fmt, va_list ap)
{
	char *msg = NULL;
	if (vasprintf(&msg, fmt, ap) < 0)
		msg = NULL;
	fputs("pct: ", stderr);
	fputs(prefix, stderr);
	if (msg) {
		/* a message may hold newlines of its own (usage lines) */
		for (char *line = msg, *nl;; line = nl + 1) {
			nl = strchr(line, '\n');
			esc_write(line, nl ? (size_t)(nl - line) : strlen(line), stderr);
			if (nl == NULL)
				break;
			fputc('\n', stderr);
		}
	} else {
		fputs(fmt, stderr);
	}
	fputc('\n', stderr);
	free(msg);
}

static __attribute__((noreturn)) void die_with(int status, const char *fmt, va_list ap)
{
	fflush(stdout);
	say("", fmt, ap);
	exit(status);
}

void die(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	die_with(1, fmt, ap);
}

void die_usage(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	die_with(2, fmt, ap);
}

void note(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	say("", fmt, ap);
	va_end(ap);
}

int error_set(struct error *e, int status, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	e->status = status;
	if (vasprintf(&e->msg, fmt, ap) < 0)
		e->msg = xstrdup("out of memory");
	va_end(ap);
	return -1;
}

static void say_fmt(const char *prefix, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	say(prefix, fmt, ap);
	va_end(ap);
}

int error_report(struct error *e)
{
	if (e->msg) {
		fflush(stdout);
		say_fmt("", "%s", e->msg);
		free(e->msg);
		e->msg = NULL;
	}
	return e->status;
}

void warnx_(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	say("warning: ", fmt, ap);
	va_end(ap);
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (p == NULL)
		die("out of memory (%zu bytes)", n);
	return p;
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);
	if (p == NULL)
		die("out of memory (%zu x %zu bytes)", n, size);
	return p;
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (p == NULL)
		die("out of memory (%zu bytes)", n);
	return p;
}

char *xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;
	return memcpy(xmalloc(n), s, n);
}

char *xstrndup(const char *s, size_t n)
{
	size_t len = strnlen(s, n);
	char *c = memcpy(xmalloc(len + 1), s, len);
	c[len] = '\0';
	return c;
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;
	va_start(ap, fmt);
	int n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0)
		die("out of memory");
	return s;
}

void grow(void *p, size_t *cap, size_t need, size_t size)
{
	void **arr = p;
	if (need <= *cap)
		return;
	size_t n = *cap ? *cap : 16;
	while (n < need) {
		if (n > SIZE_MAX / 2 / size)
			die("out of memory (array of %zu)", need);
		n *= 2;
	}
	*arr = xrealloc(*arr, n * size);
	*cap = n;
}

void sort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
	if (n > 1)
		qsort(base, n, size, cmp);
}

int stdout_error(void)
{
	static int first;
	if ((fflush(stdout) != 0 || ferror(stdout)) && first == 0)
		first = errno ? errno : EIO;
	return first;
}

void finish_stdout(void)
{
	int err = stdout_error();
	if (err)
		die("error writing the output: %s", strerror(err));
}

uint64_t fnv1a(uint64_t h, const void *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		h = (h ^ ((const unsigned char *)p)[i]) * FNV1A_PRIME;
	return h;
}

static uint64_t splitmix(uint64_t x)
{
	x ^= x >> 30;
	x *= UINT64_C(0xbf58476d1ce4e5b9);
	x ^= x >> 27;
	x *= UINT64_C(0x94d049bb133111eb);
	return x ^ (x >> 31);
}

uint64_t hash_start(void)
{
	static uint64_t key;
	static int ready;
	if (!ready) {
		if (getrandom(&key, sizeof key, GRND_NONBLOCK) != (ssize_t)sizeof key)
			key = (uint64_t)time(NULL) * UINT64_C(0x9e3779b97f4a7c15) ^ (uint64_t)getpid() ^ (uintptr_t)&key;
		ready = 1;
	}
	return key;
}

uint64_t hash_mix(uint64_t h, uint64_t v)
{
	return splitmix(h ^ splitmix(v + UINT64_C(0x9e3779b97f4a7c15)));
}

uint64_t module_hash(const char *path, const uint8_t *build_id, size_t build_id_len)
{
	return fnv1a(fnv1a(FNV1A_BASIS, path, strlen(path) + 1), build_id, build_id_len);
}

const char *path_base(const char *path)
{
	const char *s = strrchr(path, '/');
	return s && s[1] ? s + 1 : path;
}

/* "Try 'pct CMD --help'", CMD from usage's "usage: pct CMD ...". */
static void usage_hint(const char *usage)
{
	const char *cmd = strncmp(usage, "usage: pct ", 11) == 0 ? usage + 11 : "";
	int len = (int)strcspn(cmd, " \n");
	fprintf(stderr, "Try 'pct %.*s%s--help' for the options.\n", len, cmd, len ? " " : "");
}

int usage_exit(const char *usage, int help)
{
	if (!help) {
		usage_hint(usage);
		return 2;
	}
	fputs(usage, stdout);
	return 0;
}

int usage_short(const char *usage)
{
	const char *end = strstr(usage, "\n\n");
	fprintf(stderr, "%.*s\n", end ? (int)(end - usage) : (int)strcspn(usage, "\n"), usage);
	usage_hint(usage);
	return 2;
}

void put_tsv_field(const char *s, FILE *out)
{
	esc_fputs(s, out);
}

const char *plus_minus(void)
{
	static const char *pm;
	if (pm == NULL) {
		const char *v = NULL, *names[] = { "LC_ALL", "LC_CTYPE", "LANG" };
		for (size_t i = 0; i < 3 && (v == NULL || *v == '\0'); i++)
			v = getenv(names[i]);
		int utf8 = v && (strcasestr(v, "utf-8") || strcasestr(v, "utf8"));
		pm = utf8 ? "\u00b1" : "+-";
	}
	return pm;
}
