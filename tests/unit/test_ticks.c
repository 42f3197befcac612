/*
 * test_ticks.c - the time of samples (pct_format.h, version 3), end to
 * end in one process: the runtime's writer logs ticks at chosen times
 * until its 256-tick log is full, then counts per-second buckets; the
 * reader sorts the ticks, keeps the buckets, slices by time, compacts;
 * damaged ticks and buckets are refused with the file named; time ranges
 * parse.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "profile.h"
#include "runtime.h"
#include "tree.h"
#include "unit.h"

static char dir[] = "/tmp/pct-unit-XXXXXX";

__attribute__((noipa)) static int probe_a(int x)
{
	return x * 3 + 1;
}

__attribute__((noipa)) static int probe_b(int x)
{
	return x * 5 + 2;
}

#define NS 1000000000ull

/* a sample at pc (thread unknown) at t ns after the start */
static void sample_at(uintptr_t pc, uint64_t t)
{
	if (!atomic_load(&rt_g.table_ready) && rt_output_create() != 0)
		return;
	rt_sample_at(pc, 0, 1, rt_g.led.clock_start_ns + t);
}

/*
 * 200 samples in probe_a over the first second, 100 in probe_b over the
 * next, written in an order that is not the time order; the log holds
 * 256 (PCT_TIME_AREA=4), so 44 of probe_b's land in bucket 1.
 */
static const char *write_profile(void)
{
	static char name[256];
	snprintf(name, sizeof name, "%s/ticks.pct", dir);
	rt_g.time_area_kb = 4;
	CHECK(rt_output_prepare(name, 10, 0) == 0);
	rt_modules_defer_scan();
	/* what rt_sampling_start would note: the clock at the start (now,
	 * less the 2 s the samples below span, so that the end the writer
	 * takes from the clock is after it however recently the machine booted) */
	uint64_t now = rt_monotonic_ns();
	rt_g.led.clock_start_ns = rt_g.hdr->clock_start_ns = now > 2 * NS ? now - 2 * NS : 0;
	uintptr_t a = (uintptr_t)probe_a + 1, b = (uintptr_t)probe_b + 1;
	for (int i = 0; i < 200; i++)
		sample_at(a, (uint64_t)(199 - i) * (NS / 200));  /* backwards */
	for (int i = 0; i < 100; i++)
		sample_at(b, NS + (uint64_t)i * (NS / 100));
	CHECK(rt_g.hdr->ticks_max == 256 && rt_g.hdr->ticks_used == 256);
	rt_sampling_stop();
	rt_output_finish();
	return name;
}

static void test_read(const char *file)
{
	struct profile p;
	char err[512];
	CHECK(profile_read(file, &p, err, sizeof err) == 0);
	CHECK(p.hdr.version == PCT_VERSION && p.timed);
	CHECK(p.total == 300 && p.nticks == 256 && p.ticks_total == 256);
	int sorted = 1;
	for (size_t i = 1; i < p.nticks; i++)
		sorted &= p.ticks[i - 1].time_ns <= p.ticks[i].time_ns;
	CHECK(sorted);
	CHECK(p.ticks[0].time_ns == 0 && p.ticks[255].time_ns == NS + 55 * (NS / 100));
	CHECK(p.ticks[0].sample < p.nsamples && p.ticks[0].weight == 1 && p.ticks[0].stack == 0);
	CHECK(p.bucket_ns == NS && p.nbuckets == 1);
	if (p.nbuckets == 1)
		CHECK(p.buckets[0].start_ns == NS && p.buckets[0].count == 44 && p.buckets[0].thread == 0);
	CHECK(p.hdr.untimed == 0);
	profile_free(&p);
}

/* ..1 is probe_a's 200; 1.. is probe_b's 56 ticks, with 44 coarse */
static void test_slice(const char *file)
{
	struct profile p;
	struct time_range r;
	char err[512];
	uint64_t coarse = 0;
	CHECK(time_range_parse("..1", &r, err, sizeof err) == 0);
	CHECK(profile_read(file, &p, err, sizeof err) == 0);
	uint64_t cpu = p.cpu_ns;
	CHECK(profile_slice(&p, &r, p.hdr.clock_start_ns, &coarse, err, sizeof err) == 0);
	CHECK(p.total == 200 && p.nticks == 200 && coarse == 0 && p.nsamples == 1);
	CHECK(p.cpu_ns <= cpu);
	profile_free(&p);

	CHECK(time_range_parse("1..", &r, err, sizeof err) == 0);
	CHECK(profile_read(file, &p, err, sizeof err) == 0);
	CHECK(profile_slice(&p, &r, p.hdr.clock_start_ns, &coarse, err, sizeof err) == 0);
	CHECK(p.total == 56 && coarse == 44 && p.nsamples == 1 && p.nbuckets == 1);
	profile_free(&p);

	/* the origin of a tree: its first process started 0.5 s earlier */
	CHECK(time_range_parse("1.5..", &r, err, sizeof err) == 0);
	CHECK(profile_read(file, &p, err, sizeof err) == 0);
	coarse = 0;
	CHECK(profile_slice(&p, &r, p.hdr.clock_start_ns - NS / 2, &coarse, err, sizeof err) == 0);
	CHECK(p.total == 56 && coarse == 44);
	profile_free(&p);
}

static void test_ranges(void)
{
	struct time_range r;
	char err[256];
	CHECK(time_range_parse("..", &r, err, sizeof err) == 0 && r.from_ns == 0 && r.to_ns == UINT64_MAX);
	CHECK(time_range_parse("0.25..1.5", &r, err, sizeof err) == 0 && r.from_ns == NS / 4 &&
	      r.to_ns == 3 * NS / 2);
	CHECK(time_range_parse("2..", &r, err, sizeof err) == 0 && r.from_ns == 2 * NS && r.to_ns == UINT64_MAX);
	const char *bad[] = { "", "1", "1..1", "2..1", "-1..", "..-1", "1e3..", "a..b", "1...2", "nan..", "5000000000.." };
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		int rc = time_range_parse(bad[i], &r, err, sizeof err);
		CHECK(rc == -1 && strstr(err, "bad time range") != NULL);
		/* the argument echoed as given */
		char want[64];
		snprintf(want, sizeof want, "--time=%s: ", bad[i]);
		CHECK(strncmp(err, want, strlen(want)) == 0);
		if (rc == 0)
			fprintf(stderr, "  '%s' was accepted\n", bad[i]);
	}
	CHECK(time_range_parse("\033[2J..", &r, err, sizeof err) == -1 && strchr(err, '\033') == NULL);
}

/* a tree member is compacted: its ticks follow their entries */
static void test_compact(const char *file)
{
	struct profile p, q;
	char err[512];
	void *out;
	size_t outlen;
	int fd = open(file, O_RDONLY);
	struct stat st;
	CHECK(fd >= 0 && fstat(fd, &st) == 0);
	CHECK(profile_compact_fd(fd, (uint64_t)st.st_size, file, &out, &outlen, err, sizeof err) == 0);
	close(fd);
	CHECK(outlen < (size_t)st.st_size);
	CHECK(profile_parse("compacted", out, outlen, &q, err, sizeof err) == 0);
	CHECK(profile_read(file, &p, err, sizeof err) == 0);
	CHECK(q.nticks == p.nticks && q.nbuckets == p.nbuckets && q.timed);
	int same = q.nticks == p.nticks;
	for (size_t i = 0; same && i < p.nticks; i++)
		same = p.ticks[i].time_ns == q.ticks[i].time_ns &&
		       p.samples[p.ticks[i].sample].offset == q.samples[q.ticks[i].sample].offset;
	CHECK(same);
	profile_free(&p);
	profile_free(&q);
	free(out);
}

static char *slurp(const char *path, size_t *len)
{
	struct stat st;
	int fd = open(path, O_RDONLY);
	if (fd < 0 || fstat(fd, &st) != 0)
		abort();
	char *buf = malloc((size_t)st.st_size);
	if (read(fd, buf, (size_t)st.st_size) != st.st_size)
		abort();
	close(fd);
	*len = (size_t)st.st_size;
	return buf;
}

static void spit(const char *path, const void *buf, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0 || write(fd, buf, len) != (ssize_t)len)
		abort();
	close(fd);
}

static void expect_error(const char *file, const char *what)
{
	struct profile p;
	char err[512] = "";
	int rc = profile_read(file, &p, err, sizeof err);
	if (rc == 0)
		profile_free(&p);
	CHECK(rc == -1 && strstr(err, file) != NULL && strstr(err, what) != NULL);
	if (rc != -1 || strstr(err, what) == NULL)
		fprintf(stderr, "  expected an error about '%s', got '%s'\n", what, rc ? err : "none");
}

static void test_damage(const char *good)
{
	size_t len;
	char *orig = slurp(good, &len), *buf = malloc(len);
	char bad[256];
	snprintf(bad, sizeof bad, "%s/bad.pct", dir);
	struct pct_header *h = (struct pct_header *)buf;
	const struct pct_header *oh = (const struct pct_header *)orig;
	struct pct_tick *t = (struct pct_tick *)(buf + oh->ticks_offset);
	struct pct_bucket *b = (struct pct_bucket *)(buf + oh->buckets_offset);
	uint32_t used_bucket = 0;
	for (uint32_t i = 0; i < oh->buckets_slots; i++)
		if (((const struct pct_bucket *)(orig + oh->buckets_offset))[i].key)
			used_bucket = i;

#define DAMAGE(stmt, what)                        \
	do {                                      \
		memcpy(buf, orig, len);           \
		stmt;                             \
		spit(bad, buf, len);              \
		expect_error(bad, what);          \
	} while (0)

	DAMAGE(h->ticks_offset = len - 8, "tick log");
	DAMAGE(h->ticks_offset += 4, "tick log");
	DAMAGE(h->ticks_max = UINT64_C(1) << 40, "tick log");
	DAMAGE(t[3].entry = (uint32_t)h->table_slots + 7, "tick 3");
	DAMAGE(t[3].weight = 5000, "tick 3");
	DAMAGE(t[5].time_ns = UINT64_MAX, "tick 5");
	DAMAGE(for (int i = 0; i < 256; i++) t[i].entry = t[0].entry, "does not match the sample table");
	DAMAGE(h->buckets_slots = 3, "bucket table");
	DAMAGE(h->bucket_ms = 0, "bucket table");
	DAMAGE(b[used_bucket].key |= 0x7fff, "bucket slot");
	DAMAGE(b[used_bucket].key = 1, "bucket slot");  /* bucket number 0 is no bucket */
	DAMAGE(h->clock_end_ns = h->clock_start_ns - 1, "clock_end_ns");
	DAMAGE(h->untimed = UINT64_C(1) << 60, "untimed");

	/* a version 2 file has no time, whatever its bytes say */
	memcpy(buf, orig, len);
	h->version = 2;
	spit(bad, buf, len);
	struct profile p;
	char err[512];
	CHECK(profile_read(bad, &p, err, sizeof err) == 0);
	CHECK(!p.timed && p.nticks == 0 && p.total == 300 && p.hdr.ticks_offset == 0);
	struct time_range r = { 0, UINT64_MAX };
	uint64_t coarse = 0;
	CHECK(profile_slice(&p, &r, 0, &coarse, err, sizeof err) == -1 && strstr(err, "no sample times"));
	profile_free(&p);
	/* a running file's tick of a slot not read yet is skipped, not an error */
	memcpy(buf, orig, len);
	h->state = PCT_STATE_RUNNING;
	t[3].entry = (uint32_t)h->table_slots;  /* an empty slot, in range */
	spit(bad, buf, len);
	CHECK(profile_read(bad, &p, err, sizeof err) == 0 && p.nticks == 255);
	profile_free(&p);
	/* a sparse file that claims a log of 2^30 ticks (16 GiB) costs what
	 * it holds: the holes are not read (SEEK_DATA), nor stored */
	memcpy(buf, orig, len);
	h->ticks_max = h->ticks_used = UINT64_C(1) << 30;
	memset(buf + oh->buckets_offset, 0, len - oh->buckets_offset);  /* (inside that claimed log now) */
	h->buckets_offset = 0;
	h->file_size = h->ticks_offset + (h->ticks_max << 4);
	spit(bad, buf, len);
	CHECK(truncate(bad, (off_t)(h->ticks_offset + (h->ticks_max << 4))) == 0);
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	int rc = profile_read(bad, &p, err, sizeof err);
	CHECK(rc == 0 && p.nticks == 256 && p.total == 300);
	if (rc != 0)
		fprintf(stderr, "  the sparse log: %s\n", err);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	profile_free(&p);
	double secs = (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
	CHECK(secs < 5);   /* about a millisecond; reading 16 GiB of zeros took minutes */
	unlink(bad);
	free(orig);
	free(buf);
}

/* Timer overruns (profile.h): the sums over a profile's ticks, the
 * factor and the one sentence. */
static void test_overruns(void)
{
	struct profile_tick t[4] = { { .weight = 1 }, { .weight = 1 }, { .weight = 32 }, { .weight = 15 } };
	struct profile p = { .ticks = t, .nticks = 4 };
	struct profile_overruns o = { 0 };
	profile_overruns_add(&p, &o);
	CHECK(o.signals == 4 && o.samples == 49 && o.squares == 1 + 1 + 1024 + 225 && o.max == 32);
	char buf[400];
	CHECK(profile_overruns_note(&o, buf, sizeof buf) == 1);
	/* sqrt(1251 / 49) = 5.05 */
	CHECK(strstr(buf, "timer overruns: 49 samples came in 4 signals, one of them for 32 periods") == buf);
	CHECK(strstr(buf, "about 5.1x too narrow") != NULL);
	/* summed over two profiles */
	profile_overruns_add(&p, &o);
	CHECK(o.signals == 8 && o.samples == 98 && o.squares == 2502 && o.max == 32);
	/* every weight 1: nothing to say */
	struct profile_tick ones[3] = { { .weight = 1 }, { .weight = 1 }, { .weight = 1 } };
	struct profile q = { .ticks = ones, .nticks = 3 };
	struct profile_overruns z = { 0 };
	profile_overruns_add(&q, &z);
	CHECK(z.samples == 3 && z.squares == 3 && z.max == 1);
	CHECK(profile_overruns_note(&z, buf, sizeof buf) == 0 && buf[0] == 0);
	/* a factor below STATS_OVERRUN_NOTE (1.1): 100 signals, one of
	 * weight 2: sqrt(103 / 101) = 1.01 */
	struct profile_overruns few = { .signals = 100, .samples = 101, .squares = 103, .max = 2 };
	CHECK(profile_overruns_note(&few, buf, sizeof buf) == 0);
	/* saturating, not wrapping */
	struct profile_tick huge[2] = { { .weight = UINT64_MAX / 2 }, { .weight = UINT64_MAX / 2 + 10 } };
	struct profile h = { .ticks = huge, .nticks = 2 };
	struct profile_overruns s = { 0 };
	profile_overruns_add(&h, &s);
	CHECK(s.samples == UINT64_MAX && s.squares == UINT64_MAX);
}

int main(void)
{
	test_overruns();
	if (mkdtemp(dir) == NULL)
		return 2;
	const char *file = write_profile();
	test_read(file);
	test_slice(file);
	test_ranges();
	test_compact(file);
	test_damage(file);
	char cmd[300];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		return 2;
	return unit_done("test_ticks");
}
