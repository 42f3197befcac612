/* test_namematch.c - names as people type them (namematch.h). */
#include <stdlib.h>
#include <string.h>

#include "namematch.h"
#include "unit.h"

static const char *const names[] = {
	"hash_loop(unsigned long)",
	"hash_mix(long)",
	"work(int)",
	"work(double)",
	"ns::f(int) const",
	"operator()(int)",
	"(anonymous namespace)::g(char)",
	"plain",
	"plain_too",
};
#define N (sizeof names / sizeof names[0])

/* The one name typed picks, or NULL; *count gets how many matched. */
static const char *pick(const char *typed, size_t *count)
{
	size_t *p;
	*count = name_match(typed, names, N, &p);
	const char *one = *count == 1 ? names[p[0]] : NULL;
	free(p);
	return one;
}

int main(void)
{
	size_t n;
	/* without the parameter list, and what follows it */
	CHECK(name_without_params("hash_loop(unsigned long)") == strlen("hash_loop"));
	CHECK(name_without_params("ns::f(int) const") == strlen("ns::f"));
	CHECK(name_without_params("operator()(int)") == strlen("operator()"));
	CHECK(name_without_params("(anonymous namespace)::g(char)") == strlen("(anonymous namespace)::g"));
	CHECK(name_without_params("f(void (*)(int))") == 1);
	CHECK(name_without_params("plain") == 5);
	CHECK(name_without_params("(x)") == 3);
	CHECK(name_without_params("a)(") == 3);

	/* exact first: "plain" is also a prefix of "plain_too" */
	CHECK(pick("plain", &n) && strcmp(pick("plain", &n), "plain") == 0 && n == 1);
	CHECK(pick("hash_loop(unsigned long)", &n) == names[0]);
	/* without parameters */
	CHECK(pick("hash_loop", &n) == names[0]);
	CHECK(pick("ns::f", &n) == names[4]);
	CHECK(pick("operator()", &n) == names[5]);
	CHECK(pick("(anonymous namespace)::g", &n) == names[6]);
	/* overloads are ambiguous */
	CHECK(pick("work", &n) == NULL && n == 2);
	/* a unique prefix, an ambiguous one */
	CHECK(pick("hash_l", &n) == names[0]);
	CHECK(pick("hash_", &n) == NULL && n == 2);
	CHECK(pick("plain_", &n) == names[8]);
	/* a regex, anywhere in the name */
	CHECK(pick("^hash_l[aeiou]+p", &n) == names[0]);
	CHECK(pick("mix", &n) == names[1]);
	CHECK(pick("double\\)$", &n) == names[3]);
	CHECK(pick("w[aeiou]rk", &n) == NULL && n == 2);
	/* a prefix before a regex; an invalid regex and no match pick nothing */
	CHECK(pick("(", &n) == names[6]);
	CHECK(pick("nosuch(", &n) == NULL && n == 0);
	CHECK(pick("nosuch", &n) == NULL && n == 0);
	CHECK(pick("", &n) == NULL);
	/* no names */
	size_t *p;
	CHECK(name_match("x", names, 0, &p) == 0);
	free(p);
	return unit_done("test_namematch");
}
