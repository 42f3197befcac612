/* namematch.c - see namematch.h. */
#define _GNU_SOURCE
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "escape.h"
#include "namematch.h"
#include "util.h"

size_t name_without_params(const char *name)
{
	size_t len = strlen(name);
	const char *close = strrchr(name, ')');
	if (close == NULL)
		return len;
	int depth = 0;
	for (const char *c = close; c >= name; c--) {
		if (*c == ')')
			depth++;
		else if (*c == '(' && --depth == 0)
			return c > name ? (size_t)(c - name) : len;
	}
	return len;
}

enum { BY_EXACT, BY_NO_PARAMS, BY_PREFIX, BY_REGEX, BY_END };

static int matches(int how, const char *typed, size_t tlen, const regex_t *re, const char *name)
{
	switch (how) {
	case BY_EXACT:
		return strcmp(name, typed) == 0;
	case BY_NO_PARAMS:
		return name_without_params(name) == tlen && strncmp(name, typed, tlen) == 0;
	case BY_PREFIX:
		return strncmp(name, typed, tlen) == 0;
	default:
		return re && regexec(re, name, 0, NULL, 0) == 0;
	}
}

size_t name_match(const char *typed, const char *const *names, size_t n, size_t **picked)
{
	size_t tlen = strlen(typed), count = 0;
	regex_t re;
	int have_re = 0;
	*picked = xmalloc((n ? n : 1) * sizeof **picked);
	for (int how = BY_EXACT; how < BY_END && count == 0; how++) {
		if (how == BY_REGEX)
			have_re = regcomp(&re, typed, REG_EXTENDED | REG_NOSUB) == 0;
		if (how == BY_PREFIX && tlen == 0)
			continue;
		for (size_t i = 0; i < n; i++)
			if (matches(how, typed, tlen, have_re ? &re : NULL, names[i]))
				(*picked)[count++] = i;
	}
	if (have_re)
		regfree(&re);
	return count;
}

const char *name_match_one(const char *cmd, const char *typed, const char *const *names, size_t n)
{
	size_t *picked;
	size_t count = name_match(typed, names, n, &picked);
	const char *one = count == 1 ? names[picked[0]] : NULL;
	if (count > 1) {
		char *t = esc_dup(typed);
		note("%s: '%s' is ambiguous: %zu functions match; name one of them:", cmd, t, count);
		free(t);
		for (size_t i = 0; i < count; i++) {
			fputs("  ", stderr);
			esc_fputs(names[picked[i]], stderr);
			fputc('\n', stderr);
		}
		free(picked);
		exit(1);
	}
	free(picked);
	return one;
}
