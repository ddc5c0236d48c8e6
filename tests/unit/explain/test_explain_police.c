/* A tc policer as a ceiling (reports/explain/explain.c police_ceilings,
 * explain_police_goodput) on hand-built models: one TCP cell, the
 * police_egress / police_ingress facts as runner/host/qdisc_police.c
 * writes them, nic_mtu 1500. The ceilings (python3):
 *   ingress 10 Mbit/s, TCP: 10e6 * 1448 / 1500 = 9653333.33 (the IP
 *     packet: the Ethernet header is pulled before the ingress hook)
 *   egress 10 Mbit/s, TCP: 10e6 * 1448 / 1514 = 9564068.69 (as tbf)
 *   egress, UDP: 10e6 * 1472 / 1514 = 9722589.17
 *   egress, overhead 20, atm: 53 * ceil(1534 / 48) = 1696 B charged,
 *     10e6 * 1448 / 1696 = 8537735.85
 * A run at 9.5 Mbit/s is 9.5e6 / 9653333.33 = 0.984 of the ingress one.
 *
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <string.h>

#include "arena.h"
#include "explain.h"
#include "tap.h"

#define NPT 5
static const double T[NPT] = {-0.25, 0.5, 1, 1.5, 2};
static const double DROPS[NPT] = {0, 40, 40, 40, 40}; /* 80 drops/s */

static const char *metrics[] = {"throughput"};
static const char *units[] = {"bit/s"};
static const char *hosts[] = {"client", "server"};

struct pcase {
	const char *name, *host, *key, *value; /* the policer's fact */
	double median;			       /* bit/s */
	const char *drops;	 /* a drop series' name, or NULL */
	const char *kind, *text; /* the expected kind; a part of the line */
	double ceiling;		 /* NaN: none */
	const char *recv; /* the host of an engine.throughput series, or NULL */
	const char *dir;  /* the cell's observed direction, or NULL */
	/* an older session's value of the same fact (session 1; the case's
	 * own is session 2), listed before the newer one when old_first */
	const char *old;
	int old_first;
};

static const struct pcase cases[] = {
    {"ingress policer on the server, run at 0.984 of it: line", "server",
     "police_ingress",
     "10000000 overhead 0 linklayer ethernet: u32 protocol ip pref 1, "
     "exceed drop",
     9.5e6, "qdisc.ingress_drops", "line",
     "policer 10 Mbit/s on server ingress, TCP at MTU 1500", 9653333.33},
    {"egress policer on the client: the frame as tbf counts it", "client",
     "police_egress",
     "10000000 overhead 0 linklayer ethernet: matchall protocol all pref "
     "49152, exceed drop",
     9.4e6, NULL, "line", "policer 10 Mbit/s on client egress", 9564068.69},
    {"overhead 20 and atm cells", "client", "police_egress",
     "10000000 overhead 20 linklayer atm: u32 protocol all pref 1, exceed "
     "drop",
     8.4e6, NULL, "line", "policer 10 Mbit/s on client egress", 8537735.85},
    {"exceed pipe: no ceiling, no evidence: none", "server", "police_ingress",
     "none: matchall protocol all pref 49152, exceed pipe: the exceed "
     "action does not drop",
     9.5e6, NULL, "none", NULL, NAN},
    {"exceed pipe with the ingress qdisc's drops: drops, no ceiling", "server",
     "police_ingress",
     "none: flower protocol all pref 49150, exceed reclassify: the filter "
     "does not match all traffic",
     9.5e6, "qdisc.ingress_drops", "drops", "80 drops/s", NAN},
    {"half the policer's rate with its drops: drops, not line", "server",
     "police_ingress",
     "10000000 overhead 0 linklayer ethernet: u32 protocol ip pref 1, "
     "exceed drop",
     4.8e6, "qdisc.ingress_drops", "drops", "80 drops/s", 9653333.33},
    /* engine.throughput on the server: it received, the client sent */
    {"the receiver's ingress policer: line", "server", "police_ingress",
     "10000000 overhead 0 linklayer ethernet: u32 protocol ip pref 1, "
     "exceed drop",
     9.5e6, NULL, "line", "on server ingress", 9653333.33, "server"},
    {"the sender's ingress policer sees the ACKs only: none", "client",
     "police_ingress",
     "10000000 overhead 0 linklayer ethernet: u32 protocol ip pref 1, "
     "exceed drop",
     9.5e6, NULL, "none", NULL, NAN, "server"},
    {"the sender's egress policer: line", "client", "police_egress",
     "10000000 overhead 0 linklayer ethernet: matchall protocol all pref "
     "49152, exceed drop",
     9.4e6, NULL, "line", "on client egress", 9564068.69, "server"},
    {"the receiver's egress policer sees the ACKs only: none", "server",
     "police_egress",
     "10000000 overhead 0 linklayer ethernet: matchall protocol all pref "
     "49152, exceed drop",
     9.4e6, NULL, "none", NULL, NAN, "server"},
    /* A tbf root shapes what its host sends, like an egress policer
     * (10e6 * 1448 / 1514 = 9564068.69, python3). */
    {"the receiver's tbf root sees the ACKs only: none", "server", "qdisc_root",
     "tbf 10000000", 9.4e6, NULL, "none", NULL, NAN, "server"},
    {"the sender's tbf root: line", "client", "qdisc_root", "tbf 10000000",
     9.4e6, NULL, "line", "tbf 10 Mbit/s on client", 9564068.69, "server"},
    {"a tbf root, the receiver unknown: line", "server", "qdisc_root",
     "tbf 10000000", 9.4e6, NULL, "line", "tbf 10 Mbit/s on server",
     9564068.69},
    /* bidir: each host sends data too, so the receiver of the
     * engine.throughput series holds no ACKs-only hook: its tbf is a
     * ceiling (10e6 * 1448 / 1514 = 9564068.69, python3) */
    {"bidir: the tbf root of the throughput series' host: line", "server",
     "qdisc_root", "tbf 10000000", 9.4e6, NULL, "line",
     "tbf 10 Mbit/s on server", 9564068.69, "server", "bidir"},
    {"reverse is no bidir: the receiver's tbf sees the ACKs only: none",
     "server", "qdisc_root", "tbf 10000000", 9.4e6, NULL, "none", NULL, NAN,
     "server", "reverse"},
    /* A host fact of two sessions: the newest (session 2) is the host as
     * it is now, 20 Mbit/s: 20e6 * 1448 / 1514 = 19128137.38 (python3),
     * wherever the facts come in the list. */
    {"tbf 20 Mbit/s (session 2) over 10 Mbit/s (session 1): line", "client",
     "qdisc_root", "tbf 20000000", 19e6, NULL, "line",
     "tbf 20 Mbit/s on client", 19128137.38, NULL, NULL, "tbf 10000000", 0},
    {"the same, session 1's fact listed first: line", "client", "qdisc_root",
     "tbf 20000000", 19e6, NULL, "line", "tbf 20 Mbit/s on client", 19128137.38,
     NULL, NULL, "tbf 10000000", 1},
    /* Socket-buffer drops count as drops too (explain_evid.c sock_drops):
     * no ceiling here, the receiver's SNMP counters at 80/s. */
    {"a full UDP receive buffer (udp.rcvbuf_errors): drops", "server",
     "nic_driver", "veth", 4.8e6, "udp.rcvbuf_errors", "drops", "80 drops/s",
     NAN},
    {"TCP segments dropped for receive memory (tcp.rcv_q_drop): drops",
     "server", "nic_driver", "veth", 4.8e6, "tcp.rcv_q_drop", "drops",
     "80 drops/s", NAN},
    {"UDP datagrams received (udp.in_datagrams) are no drops: none", "server",
     "nic_driver", "veth", 4.8e6, "udp.in_datagrams", "none", NULL, NAN},
};
static const double TPUT[NPT] = {0, 9.5e6, 9.5e6, 9.5e6, 9.5e6};

static void one(const struct pcase *c)
{
	struct report r = {0};
	struct report_cell cell = {0};
	struct report_stats st[1] = {{0}};
	struct report_series s[3];
	struct report_run u = {0};
	struct report_fact f[3] = {{2, c->host, c->key, c->value},
				   {2, c->host, "nic_mtu", "1500"},
				   {1, c->host, c->key, c->old}};
	struct report_observed ob = {0, "direction", c->dir, 1};
	double vals[1] = {c->median};
	struct explain *x = NULL;
	r.arena = arena_new();
	r.met.metrics = metrics;
	r.met.metric_units = units;
	r.met.nmetrics = 1;
	r.met.display_unit = "Mbit/s";
	r.met.display_scale = 1e6;
	r.met.engine_duration = 2;
	st[0].median = c->median;
	cell.st = st;
	cell.label = "x=a";
	r.cells = &cell;
	r.ncells = 1;
	r.span.hosts = hosts;
	r.span.nhosts = 2;
	r.facts = f;
	r.nfacts = c->old ? 3 : 2;
	if (c->old && c->old_first) { /* session 1's first */
		struct report_fact t = f[2];
		f[2] = f[0];
		f[0] = t;
	}
	r.observed = &ob;
	r.nobserved = c->dir != NULL;
	u.ok = 1;
	u.vals = vals;
	u.series = s;
	if (c->drops)
		s[u.nseries++] = (struct report_series){c->host, c->drops, "",
							T,	 DROPS,	   NPT};
	if (c->recv)
		s[u.nseries++] = (struct report_series){
		    c->recv, "engine.throughput", "bit/s", T, TPUT, NPT};
	/* The sender's own series: a cell's ceilings come from the hosts its
	 * runs have series from (explain.c cell_ceilings). */
	if (c->recv && strcmp(c->recv, c->host) && !c->drops)
		s[u.nseries++] = (struct report_series){
		    c->host, "nic.tx_bytes", "B", T, TPUT, NPT};
	r.runs = &u;
	r.nruns = 1;
	is_int(explain_build(&r, &x), 0, c->name);
	if (x) {
		const struct explain_limit *l = &x->cells[0];
		is_str(explain_kind_name(l->kind), c->kind, c->name);
		if (c->text)
			ok(strstr(l->line, c->text) != NULL, "%s: '%s' in '%s'",
			   c->name, c->text, l->line);
		if (isnan(c->ceiling))
			ok(isnan(l->ceiling), "%s: no ceiling", c->name);
		else
			ok(fabs(l->ceiling - c->ceiling) <= 0.01,
			   "%s: ceiling %.2f", c->name, l->ceiling);
		if (c->drops && !strcmp(c->kind, "drops"))
			ok(l->series && strstr(l->series, c->drops),
			   "%s: %s in the series", c->name, c->drops);
	}
	arena_free(r.arena);
}

int main(void)
{
	size_t n = sizeof cases / sizeof *cases;
	tap_plan(82); /* 4 4 4 3 5 5 4 3 4 3 3 4 4 4 3 4 4 5 5 3 per case, 4
		       * more */
	for (size_t i = 0; i < n; i++)
		one(&cases[i]);
	is_near(explain_police_goodput(10e6, 1500, 0, 1, 0, 0), 9653333.33,
		0.01, "ingress TCP: the IP packet");
	is_near(explain_police_goodput(10e6, 1500, 1, 0, 0, 0), 9722589.17,
		0.01, "egress UDP: the frame without FCS");
	is_near(explain_police_goodput(10e6, 1500, 0, 0, 20, 1), 8537735.85,
		0.01, "egress, overhead 20, atm: 32 cells of 53");
	ok(isnan(explain_police_goodput(10e6, 60, 0, 0, 0, 0)),
	   "MTU 60: no ceiling");
	return tap_done();
}
