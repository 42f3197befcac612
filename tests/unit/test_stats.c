/* test_stats.c - the Poisson standard error and the aggregation of rows. */
#include <math.h>
#include <string.h>

#include "aggregate.h"
#include "stats.h"
#include "u64map.h"
#include "unit.h"

static void test_stderr(void)
{
	CHECK(stats_stderr(0) == 0.0);
	CHECK(fabs(stats_stderr(100) - 10.0) < 1e-12);
	CHECK(fabs(stats_stderr(5) - 2.2360679775) < 1e-9);   /* the seed's sqrt(5) = 2.2 */
	/* 100 of 10000 samples: 1% +- 0.1 percentage points */
	CHECK(fabs(stats_stderr_percent(100, 10000) - 0.1) < 1e-12);
	CHECK(stats_stderr_percent(3, 0) == 0.0);
}

static void test_u64map(void)
{
	struct u64map m = { 0 };
	for (uint64_t k = 0; k < 100000; k++)
		*u64map_slot(&m, k * 7919) = k + 1;
	CHECK(m.len == 100000);
	int ok = 1;
	for (uint64_t k = 0; k < 100000; k++) {
		uint64_t *v = u64map_get(&m, k * 7919);
		ok &= v != NULL && *v == k + 1;
	}
	CHECK(ok);
	CHECK(u64map_get(&m, 1) == NULL);
	CHECK(*u64map_slot(&m, 0) == 1);               /* key 0 is an ordinary key */
	u64map_free(&m);
	CHECK(u64map_get(&m, 0) == NULL);
}

static void add(struct agg *a, const char *m, const char *f, uint64_t n)
{
	char *key[2] = { (char *)m, (char *)f };
	agg_add(a, key, n);
}

static void test_aggregate(void)
{
	struct agg a = { .nkeys = 2 };
	add(&a, "libc.so.6", "memcpy", 5);
	add(&a, "prog", "main", 7);
	add(&a, "libc.so.6", "memcpy", 4);
	add(&a, "prog", "a_tie", 9);
	add(&a, "libc.so.6", "z_tie", 9);
	add(&a, "prog", "", 1);                        /* an empty value is a value */
	add(&a, "prog\tx", "", 1);                     /* keys are compared whole */
	CHECK(a.nrows == 6);
	CHECK(a.total == 36);
	agg_sort(&a);
	/* 9 (libc memcpy), 9 (libc z_tie), 9 (prog a_tie), 7 (main): ties by key columns in order */
	CHECK(a.rows[0].samples == 9 && strcmp(a.rows[0].key[1], "memcpy") == 0);
	CHECK(a.rows[1].samples == 9 && strcmp(a.rows[1].key[1], "z_tie") == 0);
	CHECK(a.rows[2].samples == 9 && strcmp(a.rows[2].key[1], "a_tie") == 0);
	CHECK(a.rows[3].samples == 7 && strcmp(a.rows[3].key[0], "prog") == 0);
	CHECK(strcmp(a.rows[4].key[0], "prog") == 0 && strcmp(a.rows[5].key[0], "prog\tx") == 0);
	/* the table follows the sort */
	add(&a, "prog", "main", 1);
	CHECK(a.rows[3].samples == 8 && a.nrows == 6);
	agg_free(&a);

	/* many rows */
	struct agg b = { .nkeys = 1 };
	char buf[32], *key[1] = { buf };
	for (int i = 0; i < 50000; i++) {
		snprintf(buf, sizeof buf, "k%d", i % 10000);
		agg_add(&b, key, (uint64_t)(i % 10000));
	}
	CHECK(b.nrows == 10000);
	agg_sort(&b);
	CHECK(b.rows[0].samples == 5 * 9999 && strcmp(b.rows[0].key[0], "k9999") == 0);
	CHECK(b.rows[9999].samples == 0);
	agg_free(&b);
}

int main(void)
{
	test_stderr();
	test_u64map();
	test_aggregate();
	return unit_done("test_stats");
}
