/*
 * method.c - the choice of the sampling method: which event ($PCT_EVENT),
 * at which period, by which mechanism (a CPU-time timer or a
 * perf_event_open(2) event, with or without a ring buffer), with the
 * fallbacks when perf events are refused, and the header fields that
 * describe that choice.  The handler that takes the samples is in
 * sample.c, the timers and events themselves in threads.c.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>

#include "runtime.h"

static const struct pct_event_def *chosen;  /* a row of PCT_EVENTS (pct_format.h) */

/* Choose how to sample the named event at hz (hz_explicit: the rate was
 * asked for): fills rt_g.method, or warns and returns -1 when the event
 * cannot be sampled here. */
int rt_method_choose(unsigned hz, int hz_explicit, const char *name)
{
	const struct pct_event_def *d = pct_event_by_name(name);
	struct rt_method *m = &rt_g.method;

	if (d == NULL) {
		rt_warn("unknown event in $PCT_EVENT (" PCT_EVENT_NAMES "):", name, 0);
		return -1;
	}
	m->event = (int)d->event;
	m->signo = rt_sig_choose();
	chosen = d;
	if (m->period == 0)
		m->period = 1;
	/* cpu: CPU timers (user + system time) unless a rate above the tick
	 * is asked for; wall: perf's exact period when it can, since the
	 * blocked threads' samples must have the same period as the running
	 * ones' */
	if (d->event == PCT_EVENT_WALL && !hz_explicit)
		hz = RT_WALL_DEFAULT_HZ;
	unsigned period = d->default_period ? rt_config_value(&rt_g.cfg.period) : 0;
	m->period = d->default_period ? (period ? period : d->default_period) : 1000000000u / hz;
	int want_perf = d->default_period || d->event == PCT_EVENT_USER || d->event == PCT_EVENT_WALL ||
			(hz_explicit && hz > RT_TIMER_MAX_HZ);
	m->mechanism = want_perf ? PCT_MECH_PERF : PCT_MECH_CPU_TIMER;
	/* A ring buffer per thread, drained at the tick, instead of a signal
	 * per sample (threads.c), except where the handler must see each
	 * sample's registers and stack (-g) or the wall sampler's period.
	 * Sized for 50 ms of samples at 24 bytes each (IP and time; a hardware event is
	 * taken as 10000 samples per second), 8 to 512 pages. */
	m->ring_pages = 0;
	if (m->mechanism == PCT_MECH_PERF && !rt_g.stack_bytes && d->event != PCT_EVENT_WALL) {
		uint64_t per_s = d->default_period ? 10000 : 1000000000u / m->period;
		uint64_t want = per_s * 24 / 20 / 4096 + 1;
		m->ring_pages = 8;
		while (m->ring_pages < want && m->ring_pages < 512)
			m->ring_pages *= 2;
	}
	int err = m->mechanism == PCT_MECH_PERF ? rt_arm_probe(m) : 0;
	const char *hint = err == EACCES || err == EPERM ? "see /proc/sys/kernel/perf_event_paranoid"
			 : err == ENOENT ? "the kernel does not offer it here" : NULL;
	if (err && d->default_period) {
		rt_warn("this CPU or VM exposes no such hardware event, so pct does not profile; "
			"perf_event_open for", d->name, err);
		return -1;
	}
	if (err && d->event == PCT_EVENT_USER) {
		rt_warn("user CPU time is sampled with perf_event_open, which was refused, so pct does "
			"not profile", hint, err);
		return -1;
	}
	if (err) {
		rt_say("perf_event_open was refused", hint, err,
		       d->event == PCT_EVENT_WALL ? "sampling falls back to CPU-time timers"
						  : "sampling falls back to CPU-time timers at 250 Hz, one sample per tick");
		m->mechanism = PCT_MECH_CPU_TIMER;
		m->ring_pages = 0;
		/* A period below the tick would make a signal stand for several
		 * periods (1 + overruns): counts with a variance of weight^2
		 * per signal, where the error bars assume Poisson */
		if (d->event != PCT_EVENT_WALL && m->period < 1000000000u / RT_TIMER_MAX_HZ)
			m->period = 1000000000u / RT_TIMER_MAX_HZ;
		/* A timer's effective period is only its requested one well
		 * below the tick (250 Hz asked gives 238 Hz at CONFIG_HZ=250) */
		if (d->event == PCT_EVENT_WALL && m->period < 1000000000u / RT_WALL_TIMER_MAX_HZ)
			m->period = 1000000000u / RT_WALL_TIMER_MAX_HZ;
	}
	return 0;
}

/* Describe the chosen method in the (new) header h: its event, unit,
 * mechanism and period (the period that a CPU timer really kept is
 * measured at the end, rt_sampling_stop). */
void rt_method_describe(struct pct_header *h)
{
	memcpy(h->dimension, chosen->dimension, strlen(chosen->dimension) + 1);
	h->dimension_abbrev = chosen->dimension_abbrev;
	h->event = chosen->event;
	h->mechanism = (uint32_t)rt_g.method.mechanism;
	h->period_requested_ns = rt_g.method.period;
	/* perf and the wall sampler keep exact periods; CPU timers are
	 * measured at the end */
	if (rt_g.method.mechanism == PCT_MECH_PERF)
		h->period_ns = rt_g.method.period;
}
