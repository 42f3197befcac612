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

static void test_aggregate(void)
{
	struct agg a = { 0 };
	agg_add(&a, 1, 5, "libc.so.6", "memcpy");
	agg_add(&a, 2, 7, "prog", "main");
	agg_add(&a, 1, 4, "libc.so.6", "memcpy");
	agg_add(&a, 3, 9, "prog", "a_tie");
	agg_add(&a, 4, 9, "libc.so.6", "z_tie");
	CHECK(a.nrows == 4);
	CHECK(a.total == 34);
	agg_sort(&a);
	/* 9 (libc z_tie), 9 (prog a_tie), 9 (memcpy), 7 (main): ties by module, then function */
	CHECK(a.rows[0].samples == 9 && strcmp(a.rows[0].function, "memcpy") == 0);
	CHECK(a.rows[1].samples == 9 && strcmp(a.rows[1].function, "z_tie") == 0);
	CHECK(a.rows[2].samples == 9 && strcmp(a.rows[2].function, "a_tie") == 0);
	CHECK(a.rows[3].samples == 7 && strcmp(a.rows[3].module, "prog") == 0);
	/* the index follows the sort */
	agg_add(&a, 2, 1, "prog", "main");
	CHECK(a.rows[3].samples == 8);
	agg_free(&a);
}

int main(void)
{
	test_stderr();
	test_u64map();
	test_aggregate();
	return unit_done("test_stats");
}
