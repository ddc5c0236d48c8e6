/*
 * Internals of reports/explain shared by explain.c (measured cells) and
 * explain_ref.c (published cells of a reference). Not for writers.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef XR_EXPLAIN_INT_H
#define XR_EXPLAIN_INT_H

#include <stddef.h>

#include "explain_kind.h"
#include "explain_text.h"

struct report;

/* What a cell's runs show (explain_evid.c), summed over its ok runs. */
struct explain_evid {
	int cpu_runs, busy_runs;
	int strong_runs; /* busy by a saturated core or the engine's process,
			  * not by the run queue alone */
	int rose_runs;	 /* a core idle before the engine saturated by it */
	double busy, softirq; /* the core busiest on average */
	int core;
	const char *host;
	double peak; /* the busiest core at each sample, averaged */
	/* Loaded samples of the busiest core's host with the engine's
	 * processes there seen (engine.core), and those in which they ran
	 * on that core last: each run's own busiest core, summed. */
	int on_samples, on_core;
	double proc;	       /* the engine's busiest process, % of one core */
	const char *proc_name; /* "client" (cpu_host), "server" */
	double leadin;	       /* cpu.all.busy before the engine started */
	/* Half a runnable task's share of a core from the run queue sampled
	 * during the runs (cpu.running), the lowest over runs and hosts, %;
	 * has_share 0: no such series. */
	double share;
	int has_share;
	double drops, pause; /* per second, summed over runs */
	int nruns;
	char drop_series[128], pause_series[128];
};

/* Mean of a series over the loaded phase (t > 0); its sum per second
 * in *rate (NULL: not wanted). NaN without points. */
struct report_series;
struct report_run;
double explain_loaded_mean(const struct report_series *s, double *rate);
/* Run u's evidence added into e; single: the engine's processes are one
 * thread each (an engine version that runs its streams in one thread,
 * runner/desc engine_one_thread, or one stream), so their CPU counts. */
void explain_run_evidence(const struct report *r, int single,
			  const struct report_run *u, struct explain_evid *e);

/* The published cells' limits and sentences of r->ref into x (x->cells
 * built first). 0, or -XR_ENOMEM. */
int explain_refs(const struct report *r, struct explain *x);

/* One measured cell being explained (explain.c), which the candidates
 * (explain_cand.c) write their evidence into. */
struct explain_ctx {
	const struct report *r;
	enum report_lang lang;
	int single;	  /* the cell's engine runs each end in one thread */
	const char *recv; /* the host that received the cell's data, or NULL */
	int near; /* the median within EXPLAIN_NEAR_CEILING of a ceiling */
	char missing[512], series[512], evidence[512];
	int ci; /* the cell being explained */
	/* The facts that took more than one value over the cell's runs
	 * ("nic_mtu of client: 1500 in 2 runs, 9000 in 1"): no ceiling is
	 * named from them (explain_cell_fact). */
	char differ[512];
	/* Cell ci's runs, in run order: runs[by_cell[first[ci]] ..
	 * by_cell[first[ci + 1] - 1]] (every cell's rule looked at all runs:
	 * cells x runs, 10^7 at 100,000 runs, bench/RESULTS.md). */
	int *by_cell, *first;
};

/* A ceiling: its rate (NaN: none), kind and name, and the facts it
 * comes from ("qdisc_root of client: tbf 200000000"). */
struct explain_ceil {
	double bps;
	enum explain_kind kind;
	char name[160];
	char facts[256];
};

/* explain_facts.c: the latest value of a host's fact in the sessions, or
 * NULL. */
const char *explain_fact(const struct report *r, const char *host,
			 const char *key);
/* The value of a host's fact that cell x->ci's runs held under (each
 * run's fact set; a run without one: explain_fact). NULL when none has
 * it, or when the runs held different values: then x->differ says which
 * (a missing fact counts as a value, "none"). */
const char *explain_cell_fact(struct explain_ctx *x, const char *host,
			      const char *key);

/* explain_facts.c: 1 when cell x->ci is settled by its facts, l filled:
 * its runs held different values of a fact a ceiling needs (x->differ),
 * or the median med is above EXPLAIN_ABOVE_CEILING of the narrowest
 * ceiling (best, or a bus ceiling of bus[nbus]) whose facts it then names;
 * 0 otherwise. */
int explain_facts_settle(struct explain_ctx *x, double med,
			 const struct explain_ceil *best,
			 const struct explain_ceil *bus, int nbus,
			 struct explain_limit *l);

/* explain_lat.c: is metric one of the latency probe's ("latency.*")?
 * Cell x->ci's limit when it is (the loaded RTT against the queue its
 * facts allow); med its median in s. */
int explain_is_latency(const char *metric);
void explain_latency_cell(struct explain_ctx *x, double med,
			  struct explain_limit *l);
/* explain_cand.c: run u's window over the loaded phase, min(mean
 * engine.snd_cwnd, mean engine.snd_wnd) in B; *cw, *wnd the two means
 * (wnd NaN without it); <= 0: none. */
double explain_run_window(const struct report_run *u, double *cw, double *wnd);

/* The candidates (explain_cand.c), in the order explain_cell tries them;
 * each pushes its kind into k[*nk] and its evidence into x. */
/* The flow's own losses per second of cell ci (retransmits, or a UDP
 * flow's lost datagrams), NaN when its runs give none. */
double explain_loss_rate(const struct explain_ctx *x, int ci, int udp);
void explain_bus_candidate(struct explain_ctx *x, const struct explain_ceil *c,
			   double share, double med, struct explain_limit *l,
			   enum explain_kind *k, int *nk);
void explain_drops_candidate(struct explain_ctx *x,
			     const struct explain_evid *e, enum explain_kind *k,
			     int *nk);
void explain_window_candidate(struct explain_ctx *x, int ci, double med,
			      enum explain_kind *k, int *nk);
void explain_cpu_candidate(struct explain_ctx *x, const struct explain_evid *e,
			   const char *ver, const char *par,
			   enum explain_kind *k, int *nk);

#endif
