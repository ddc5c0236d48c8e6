/*
 * Internals of reports/explain shared by explain.c (measured cells) and
 * explain_ref.c (published cells of a reference). Not for writers.
 */
#ifndef XR_EXPLAIN_INT_H
#define XR_EXPLAIN_INT_H

#include <stddef.h>

#include "explain.h"

/* Append s to dst (size n), after sep when dst is not empty. */
void explain_cat(char *dst, size_t n, const char *sep, const char *s);

/* "V = 78% of C (NAME)" (digits decimals of the share v / ceiling), in
 * Japanese when ja, appended to dst (size n) after "; ". */
struct report;
void explain_share(const struct report *r, int ja, double v, double ceiling,
		   const char *name, int digits, char *dst, size_t n);

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
 * thread each (iperf3 < 3.16 or one stream), so their CPU counts. */
void explain_run_evidence(const struct report *r, int single,
			  const struct report_run *u, struct explain_evid *e);

/* The published cells' limits and sentences of r->ref into x (x->cells
 * built first). 0, or -XR_ENOMEM. */
int explain_refs(const struct report *r, struct explain *x);

#endif
