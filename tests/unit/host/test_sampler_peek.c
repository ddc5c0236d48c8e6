/* Unit tests for sampler_peek_new (sampler.h), what the run loop's
 * flusher thread writes while a run goes on: nothing before the mark;
 * after it, each call hands only the points taken since the previous
 * one, while the sampler's thread goes on sampling; and what every call
 * handed, in order, is exactly the start of what sampler_stop gives (the
 * same t from the mark, the same values), so that the chunks of a killed
 * run are a prefix of the run it would have stored.
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>
#include <string.h>

#include "host.h"
#include "plan.h"
#include "proc.h"
#include "sampler.h"
#include "series.h"
#include "tap.h"

struct peeker {
	struct sampler *s;
	struct series_set got; /* every point handed out, in order */
	int calls, nonempty, rc;
};

/* The flusher's side: peek three times, 0.2 s apart. */
static void peek_thrice(struct peeker *p)
{
	int k;
	for (k = 0; k < 3; k++) {
		struct series_set one = {0};
		proc_sleep(0.2);
		if (sampler_peek_new(p->s, &one) < 0)
			p->rc = -1;
		p->nonempty += one.n > 0;
		if (series_set_take(&p->got, &one) < 0)
			p->rc = -1;
		series_set_release(&one);
		p->calls++;
	}
}

/* Is a a prefix of b, point for point? */
static int prefix_of(const struct series *a, const struct series *b)
{
	size_t k;
	if (!a || !b || a->n > b->n)
		return 0;
	for (k = 0; k < a->n; k++)
		if (a->t[k] != b->t[k] || a->v[k] != b->v[k])
			return 0;
	return 1;
}

int main(void)
{
	struct plan_host ph;
	struct host *h = NULL;
	struct sampler *s = NULL;
	struct series_set before = {0}, all = {0};
	struct peeker p;
	struct xr_err err = {0};
	size_t i, npeeked = 0, prefixes = 0;
	unsigned what = PLAN_COUNTER_NIC | PLAN_COUNTER_CPU;

	tap_plan(8);
	memset(&ph, 0, sizeof ph);
	memset(&p, 0, sizeof p);
	ph.name = "client";
	ok(host_open(&ph, "/tmp", &h, &err) == 0, "open the local host");
	ok(sampler_start(h, "client", "lo", what, 0.1, 60, &s, &err) == 0,
	   "start a local sampler: %s", err.msg);
	proc_sleep(0.25);
	ok(sampler_peek_new(s, &before) == 0 && before.n == 0,
	   "nothing before the mark");
	sampler_mark(s);
	p.s = s;
	peek_thrice(&p);
	ok(p.rc == 0 && p.calls == 3, "three peeks while it samples");
	ok(p.nonempty >= 2, "new points at %d of 3 peeks 0.2 s apart",
	   p.nonempty);
	sampler_stop(s, &all);
	for (i = 0; i < p.got.n; i++) {
		const struct series *a = &p.got.s[i];
		npeeked += a->n;
		prefixes +=
		    prefix_of(a, series_set_find(&all, a->host, a->name));
	}
	ok(p.got.n > 0 && prefixes == p.got.n,
	   "every peeked series is a prefix of the stopped one (%zu of %zu)",
	   prefixes, p.got.n);
	{
		const struct series *a =
		    series_set_find(&p.got, "client", "nic.rx_bytes");
		const struct series *b =
		    series_set_find(&all, "client", "nic.rx_bytes");
		ok(a && b && a->n >= 4 && a->t[0] < 0,
		   "the lead-in first (t %.3f), %zu points handed out",
		   a ? a->t[0] : 0.0, a ? a->n : 0);
		ok(a && b && b->n >= a->n && b->n <= a->n + 2,
		   "the stop adds only what came after the last peek (%zu "
		   "-> %zu)",
		   a ? a->n : 0, b ? b->n : 0);
	}
	(void)npeeked;
	series_set_release(&p.got);
	series_set_release(&all);
	host_close(h);
	return tap_done();
}
