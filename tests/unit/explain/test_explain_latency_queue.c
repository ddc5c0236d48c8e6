/* Which queue a latency metric is set against, and how its delay is
 * counted (issue 34 Deliver 4; reports/explain/explain_lat.c), on
 * hand-built models of one cell and one run: the narrowest tbf on a host
 * that carries the data (never the receiver's, which queues the ACKs),
 * its delay limit x 8 / rate, the increase's ceiling without the idle
 * RTT, queue-bound from 0.8 of the queue (0.5 only with losses), and the
 * backlog's delay in the evidence. Every number by hand (python3 gives the
 * same):
 *   tbf 100 Mbit/s, limit 250000 B: 250000 * 8 / 1e8 = 0.020 s = 20.0 ms
 *   tbf 1000 Mbit/s, limit 250000 B: 250000 * 8 / 1e9 = 0.002 s = 2.0 ms
 *   tbf 10 Mbit/s, limit 125000 B: 125000 * 8 / 1e7 = 0.100 s
 *   idle RTT 0.1 ms: the loaded RTT's ceiling 0.0001 + 0.020 = 0.0201 s;
 *   a loaded median of 18 ms is 0.018 / 0.0201 = 0.895522388 of it
 *   (>= 0.8: queue-bound); of the 10 Mbit/s receiver's 0.1001 s it would
 *   be 0.179820, of the 1000 Mbit/s queue's 0.0021 s 8.571 (disagree).
 *   latency.increase_p50 17 ms, idle 30 ms: 0.017 / 0.020 = 0.85 of the
 *   queue alone (queue-bound); idle + queue would be 0.017 / 0.050 = 0.34.
 *   A loaded 12 ms, no losses: 0.012 / 0.0201 = 0.597014925, below 0.8:
 *   not the queue; the window 150000 B at 1e8 bit/s is 150000 * 8 / 1e8 =
 *   0.012 s, 12 ms is 1.0 of it: window-bound.
 *   A qdisc backlog of 187500 B at 1e8 bit/s: 187500 * 8 / 1e8 = 0.015 s
 *   = 15.0 ms, written "187.5 kB = 15.0 ms".
 *
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "arena.h"
#include "explain.h"
#include "tap.h"

static const char *metrics[] = {"latency.loaded_p50", "latency.idle_p50",
				"latency.increase_p50"};
static const char *units[] = {"s", "s", "s"};
static const char *hosts[] = {"client", "server"};
static const double T[5] = {-0.5, 0.5, 1, 1.5, 2};

struct lcase {
	int metric;		/* index into metrics: the report's */
	double med, idle;	/* s */
	const char *croot, *cq; /* client's qdisc_root, qdisc_root_queue */
	const char *sroot, *sq; /* server's */
	double cwnd;		/* B on client; 0: no series */
	double backlog;		/* B, client's qdisc.backlog; 0: none */
	const char *recv;	/* host of engine.throughput; NULL: none */
};

static struct arena *a;

static const struct explain_limit *one(const struct lcase *k)
{
	static struct report r;
	static struct report_cell cell;
	static struct report_stats st[3];
	static struct report_run u;
	static struct report_series s[3];
	static struct report_fset set[2];
	static struct report_fkv kv[2][3];
	static const struct report_fset *ps[2];
	static double vals[3], cw[5], bl[5], tp[5];
	struct explain *x = NULL;
	int ns = 0;
	memset(&r, 0, sizeof r);
	memset(&u, 0, sizeof u);
	r.arena = a;
	r.met.metrics = metrics;
	r.met.metric_units = units;
	r.met.nmetrics = 3;
	r.met.primary = k->metric;
	r.met.metric = metrics[k->metric];
	r.met.display_unit = "ms";
	r.met.display_scale = 1e-3;
	for (int i = 0; i < 3; i++)
		st[i].median = vals[i] = NAN;
	st[k->metric].median = vals[k->metric] = k->med;
	st[1].median = vals[1] = k->idle;
	cell.st = st;
	cell.label = "q=x";
	r.cells = &cell;
	r.ncells = 1;
	r.span.hosts = hosts;
	r.span.nhosts = 2;
	kv[0][0] = (struct report_fkv){"nic_mtu", "1500"};
	kv[0][1] = (struct report_fkv){"qdisc_root", k->croot};
	kv[0][2] = (struct report_fkv){"qdisc_root_queue", k->cq};
	kv[1][0] = (struct report_fkv){"nic_mtu", "1500"};
	kv[1][1] = (struct report_fkv){"qdisc_root", k->sroot};
	kv[1][2] = (struct report_fkv){"qdisc_root_queue", k->sq};
	set[0] = (struct report_fset){1,    1,	  "client", "open",
				      NULL, NULL, kv[0],    k->croot ? 3 : 1};
	set[1] = (struct report_fset){2,    1,	  "server", "open",
				      NULL, NULL, kv[1],    k->sroot ? 3 : 1};
	ps[0] = &set[0];
	ps[1] = &set[1];
	for (int i = 0; i < 5; i++) {
		cw[i] = k->cwnd;
		bl[i] = k->backlog;
		tp[i] = 9e7;
	}
	if (k->cwnd > 0)
		s[ns++] = (struct report_series){
		    "client", "engine.snd_cwnd", "B", T, cw, 5};
	if (k->backlog > 0)
		s[ns++] = (struct report_series){
		    "client", "qdisc.backlog", "B", T, bl, 5};
	if (k->recv)
		s[ns++] = (struct report_series){
		    k->recv, "engine.throughput", "bit/s", T, tp, 5};
	u.ok = 1;
	u.vals = vals;
	u.series = s;
	u.nseries = ns;
	u.fsets = ps;
	u.nfsets = 2;
	r.runs = &u;
	r.nruns = 1;
	if (explain_build(&r, &x) < 0 || !x)
		return NULL;
	return &x->cells[0];
}

static void near(double got, double want, double tol, const char *what)
{
	ok(fabs(got - want) <= tol, "%s: %.9g (want %.9g)", what, got, want);
}

int main(void)
{
	const struct explain_limit *l;
	struct lcase k;
	a = arena_new();
	tap_plan(19);

	/* The receiver's narrower tbf queues the ACKs only: the client's. */
	k = (struct lcase){0,
			   0.018,
			   0.0001,
			   "tbf 100000000",
			   "limit 250000 burst 32750",
			   "tbf 10000000",
			   "limit 125000 burst 32750",
			   0,
			   0,
			   "server"};
	l = one(&k);
	is_str(l->ceiling_name,
	       "idle RTT + tbf 100 Mbit/s on client, queue limit 250000 B = "
	       "20.0 ms",
	       "receiver's tbf left out: the sender's queue named");
	near(l->ceiling, 0.0201, 1e-12, "its ceiling, s");
	near(l->fraction, 0.895522388, 1e-8, "its fraction");
	is_str(explain_kind_name(l->kind), "queue", "18 of 20.1 ms: queue");

	/* Both hosts on the data path (receiver unknown): the narrowest. */
	k = (struct lcase){0,
			   0.018,
			   0.0001,
			   "tbf 1000000000",
			   "limit 250000 burst 32750",
			   "tbf 100000000",
			   "limit 250000 burst 32750",
			   0,
			   0,
			   NULL};
	l = one(&k);
	is_str(l->ceiling_name,
	       "idle RTT + tbf 100 Mbit/s on server, queue limit 250000 B = "
	       "20.0 ms",
	       "two tbfs: the 100 Mbit/s one, not the 1000 Mbit/s");
	is_str(explain_kind_name(l->kind), "queue", "... queue-bound");
	ok(l->disagree == NULL, "... and no disagreement");

	/* The increase's ceiling is the queue alone. */
	k = (struct lcase){2,
			   0.017,
			   0.030,
			   "tbf 100000000",
			   "limit 250000 burst 32750",
			   NULL,
			   NULL,
			   0,
			   0,
			   NULL};
	l = one(&k);
	near(l->ceiling, 0.020, 1e-12, "increase: ceiling = the queue, s");
	near(l->fraction, 0.85, 1e-9, "increase: fraction 17 / 20 ms");
	is_str(l->ceiling_name,
	       "tbf 100 Mbit/s on client, queue limit 250000 B = 20.0 ms",
	       "increase: no idle RTT in the name");
	is_str(explain_kind_name(l->kind), "queue", "increase: queue-bound");

	/* 0.6 of the queue, no losses: the window, not the queue. */
	k = (struct lcase){0,
			   0.012,
			   0.0001,
			   "tbf 100000000",
			   "limit 250000 burst 32750",
			   NULL,
			   NULL,
			   150000,
			   0,
			   NULL};
	l = one(&k);
	near(l->fraction, 0.597014925, 1e-8, "12 of 20.1 ms");
	is_str(explain_kind_name(l->kind), "window",
	       "0.6 of the queue without losses: window-bound");
	ok(strstr(l->line, "window 150.0 kB / 100 Mbit/s = 12.0 ms") != NULL,
	   "the window's delay: %s", l->line);

	/* The backlog's delay at the tbf's rate. */
	k = (struct lcase){
	    0,	  0.018, 0.0001, "tbf 100000000", "limit 250000 burst 32750",
	    NULL, NULL,	 0,	 187500,	  NULL};
	l = one(&k);
	ok(strstr(l->line, "qdisc backlog on client 187.5 kB = 15.0 ms at its "
			   "rate") != NULL,
	   "backlog 187500 B at 100 Mbit/s = 15.0 ms: %s", l->line);
	ok(strstr(l->series, "qdisc.backlog") != NULL, "series named: %s",
	   l->series);
	is_str(explain_kind_name(l->kind), "queue", "18 of 20.1 ms: queue");
	near(l->ceiling, 0.0201, 1e-12, "ceiling, s");
	near(l->fraction, 0.895522388, 1e-8, "fraction");
	arena_free(a);
	return tap_done();
}
