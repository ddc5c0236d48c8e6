/*
 * Where a rate search's loss began (explain.h, explain_search): from the
 * trials the report read back (report.h, struct report_search_trial),
 * the load at which the first loss appears and, at that trial and at the
 * highest load tried, what the trial's own numbers say of where it went:
 * the part of the load the sender did not send (the trial's loss ratio
 * against its lost datagrams), the datagrams lost on the way, and the
 * counters that counted drops in that trial (a qdisc's drops, a UDP
 * socket's RcvbufErrors, a NIC's drop and miss counters), each with its
 * host. Rules in schema/report.md, "Rate search".
 *
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "buf.h"
#include "explain.h"
#include "banned.h"

static const char *const place_en[REPORT_DROP_N] = {
    "the qdisc", "the socket buffer", "the NIC"};

static int bits(const struct report_search *s)
{
	return !strcmp(s->unit, "bit/s");
}

static void load_text(const struct report_search *s, double v, char *out,
		      size_t n)
{
	if (bits(s))
		snprintf(out, n, "%.2f Mbit/s", v / 1e6);
	else
		snprintf(out, n, "%g", v);
}

/* What trial t says of where its loss went. */
static void at_trial(const struct report_search *s,
		     const struct report_search_trial *t, struct buf *out)
{
	char l[48];
	double dg = t->packets > 0 && t->lost >= 0 ? t->lost / t->packets : NAN;
	double unsent =
	    isfinite(dg) && dg < 1 ? 1 - (1 - t->loss) / (1 - dg) : NAN;
	int k, any = 0;
	load_text(s, t->load, l, sizeof l);
	buf_addf(out, "at %s, %.3g%% lost", l, t->loss * 100);
	/* without the datagram counts (a command engine) nothing is said
	 * of what was sent */
	if (isfinite(dg) && isfinite(unsent) && unsent > 1e-9)
		buf_addf(out,
			 " (%.3g%% of the load not sent: the sender fell "
			 "behind; %.0f of %.0f datagrams lost)",
			 unsent * 100, t->lost, t->packets);
	else if (isfinite(dg))
		buf_addf(out,
			 " (all of the load sent; %.0f of %.0f datagrams "
			 "lost)",
			 t->lost, t->packets);
	for (k = 0; k < REPORT_DROP_N; k++) {
		if (!(t->drop[k] > 0))
			continue;
		buf_addf(out, "%s%s on %s (%s %.0f)",
			 any++ ? ", " : ": drops at ", place_en[k],
			 t->drop_host[k] ? t->drop_host[k] : "?",
			 t->drop_name[k] ? t->drop_name[k] : "?", t->drop[k]);
	}
	if (!any && isfinite(dg) && t->lost > 0)
		buf_adds(out, ": no counter of this run counted the drops");
}

int explain_search(const struct report *r, int si, struct buf *out,
		   double *from, double *to)
{
	const struct report_search *s = &r->searches[si];
	const struct report_search_trial *first = NULL, *top = NULL;
	double below = NAN;
	char a[48], b[48];
	int k;
	buf_reset(out);
	*from = *to = NAN;
	for (k = 0; k < s->ntrials; k++) {
		const struct report_search_trial *t = &s->trials[k];
		if (!t->ok)
			continue;
		if (t->loss > 0 && (!first || t->load < first->load))
			first = t;
		if (!top || t->load > top->load)
			top = t;
	}
	if (!first) {
		buf_adds(out, "No trial lost anything.");
		return out->s ? 0 : -XR_ENOMEM;
	}
	for (k = 0; k < s->ntrials; k++)
		if (s->trials[k].ok && !(s->trials[k].loss > 0) &&
		    s->trials[k].load < first->load &&
		    !(s->trials[k].load <= below))
			below = s->trials[k].load;
	*from = below;
	*to = first->load;
	load_text(s, first->load, b, sizeof b);
	if (isfinite(below)) {
		load_text(s, below, a, sizeof a);
		buf_addf(out,
			 "Loss began between %s (the highest trial load "
			 "without loss) and %s: ",
			 a, b);
	} else
		buf_addf(out,
			 "Loss began at or below %s, the lowest load "
			 "tried: ",
			 b);
	at_trial(s, first, out);
	if (top != first) {
		buf_adds(out, "; ");
		at_trial(s, top, out);
	}
	buf_addc(out, '.');
	return out->s ? 0 : -XR_ENOMEM;
}
