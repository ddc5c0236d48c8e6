/*
 * What a cell's runs show during their loaded phase, for the rules of
 * explain.c: the busiest core and its softirq share, the busiest core at
 * each sample, the engine's own processes, CPUs busy before the engine
 * started, drops and PAUSE frames per second (schema/report.md,
 * "Limits").
 *
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "explain_int.h"
#include "series_name.h"

#include "banned.h"

/* Mean of a series over the loaded phase; its sum per second in *rate. */
double explain_loaded_mean(const struct report_series *s, double *rate)
{
	double sum = 0, t1 = 0;
	int n = 0;
	for (int i = 0; i < s->n; i++)
		if (s->t[i] > 0 && isfinite(s->v[i])) {
			sum += s->v[i];
			t1 = s->t[i];
			n++;
		}
	if (rate)
		*rate = t1 > 0 ? sum / t1 : NAN;
	return n ? sum / n : NAN;
}

/* A cpu.N.busy series (of host, when not NULL): its core N. The whole
 * name must match: sscanf counts "cpu.0.softirq" as one conversion. */
static int core_busy(const struct report_series *s, const char *host, int *n)
{
	int k, end = 0;
	if (sscanf(s->name, SERIES_CPU_CORE_BUSY "%n", &k, &end) != 1 ||
	    s->name[end] != '\0' || (host && strcmp(s->host, host)))
		return 0;
	if (n)
		*n = k;
	return 1;
}

/* The busiest of host h's cores at each sample, averaged over the loaded
 * phase: a flow whose process moves between cores keeps one saturated at
 * a time while each core's own mean is split. NaN without CPU series. */
static double peak_busy(const struct report_run *u, const char *h)
{
	const struct report_series *ref = NULL;
	double sum = 0;
	int n = 0;
	for (int i = 0; i < u->nseries && !ref; i++)
		if (core_busy(&u->series[i], h, NULL))
			ref = &u->series[i];
	for (int k = 0; ref && k < ref->n; k++) {
		double m = NAN;
		if (!(ref->t[k] > 0))
			continue;
		for (int i = 0; i < u->nseries; i++) {
			const struct report_series *s = &u->series[i];
			if (core_busy(s, h, NULL) && s->n > k &&
			    s->t[k] == ref->t[k] && isfinite(s->v[k]) &&
			    (isnan(m) || s->v[k] > m))
				m = s->v[k];
		}
		if (isfinite(m)) {
			sum += m;
			n++;
		}
	}
	return n ? sum / n : NAN;
}

/* Mean of a series before the engine started (t <= 0), or NaN. */
static double leadin_mean(const struct report_series *s)
{
	double sum = 0;
	int n = 0;
	for (int i = 0; i < s->n; i++)
		if (s->t[i] <= 0 && isfinite(s->v[i])) {
			sum += s->v[i];
			n++;
		}
	return n ? sum / n : NAN;
}

/*
 * The engine saturated a core of host h in run u: one of its cores idle
 * before the engine started (lead-in mean < EXPLAIN_LEADIN_BUSY) was at
 * least EXPLAIN_CORE_BUSY busy during the run, and the host's cpu.all.busy
 * rose by at least half a core's worth with it (a busy loop that only
 * moved from one core to another in the meantime raises no total). Such a
 * core carries the engine's work, whatever other processes load the rest:
 * measured on the lab's cpu-pinned case beside a busy loop, core 0 went
 * from 0% to 100% and cpu.all.busy from 50% to 100% (bench/RESULTS.md,
 * "Explain beside a busy loop").
 */
static int explain_evid_engine_rose(const struct report_run *u, const char *h,
				    const struct report_series *all)
{
	double rise = explain_loaded_mean(all, NULL) - leadin_mean(all);
	int cores = 0, sat = 0;
	for (int i = 0; i < u->nseries; i++) {
		const struct report_series *s = &u->series[i];
		if (!core_busy(s, h, NULL))
			continue;
		cores++;
		sat |= explain_loaded_mean(s, NULL) >= EXPLAIN_CORE_BUSY &&
		       leadin_mean(s) < EXPLAIN_LEADIN_BUSY;
	}
	return sat && cores && rise >= 50.0 / cores;
}

/* Socket-buffer drops (the host's SNMP counters, runner/host/sampler.c):
 * a datagram that did not fit the socket's receive or send buffer
 * (UDP_MIB_RCVBUFERRORS, UDP_MIB_SNDBUFERRORS: net/ipv4/udp.c), a TCP
 * segment dropped for want of receive memory (TCPRcvQDrop:
 * tcp_data_queue), a full socket backlog (TCPBacklogDrop:
 * tcp_add_backlog), a zero receive window (TCPZeroWindowDrop) or an
 * out-of-order queue that could not grow (TCPOFODrop: tcp_data_queue_ofo);
 * Linux's include/uapi/linux/snmp.h. */
static const char *const sock_drops[] = {SERIES_UDP_RCVBUF_ERRORS,
					 SERIES_UDP_SNDBUF_ERRORS,
					 SERIES_TCP_RCV_Q_DROP,
					 SERIES_TCP_BACKLOG_DROP,
					 SERIES_TCP_ZERO_WINDOW_DROP,
					 SERIES_TCP_OFO_DROP,
					 NULL};

static int is_drop_series(const char *name)
{
	if ((!strncmp(name, SERIES_NIC, strlen(SERIES_NIC)) &&
	     strstr(name, "drop")) ||
	    !strcmp(name, SERIES_QDISC_DROPS) ||
	    !strcmp(name, SERIES_QDISC_INGRESS_DROPS))
		return 1;
	for (const char *const *d = sock_drops; *d; d++)
		if (!strcmp(name, *d))
			return 1;
	return 0;
}

/* Drops and PAUSE frames per second of run u's series into e. */
static void rate_evidence(const struct report_series *s, struct explain_evid *e)
{
	double rate;
	int drop = is_drop_series(s->name);
	int pause =
	    !strncmp(s->name, SERIES_NIC_ETHTOOL, strlen(SERIES_NIC_ETHTOOL)) &&
	    strstr(s->name, "pause");
	char *dst = drop ? e->drop_series : e->pause_series;
	if (!drop && !pause)
		return;
	explain_loaded_mean(s, &rate);
	if (!(rate > 0))
		return;
	*(drop ? &e->drops : &e->pause) += rate;
	if (!strstr(dst, s->name))
		explain_cat(dst, sizeof e->drop_series, ", ", s->name);
}

/* The engine's own processes (iperf3's cpu_utilization_percent: the
 * client's host_total, the server's remote_total), when each is one
 * thread: the busiest, % of one core, into *pct; NaN when unknown. */
static const char *explain_evid_engine_proc(const struct report *r, int single,
					    const struct report_run *u,
					    double *pct)
{
	static const char *const m[] = {"cpu_host", "cpu_remote"};
	static const char *const who[] = {"client", "server"};
	const char *name = NULL;
	*pct = NAN;
	for (int i = 0; i < 2 && single; i++) {
		int mi = report_metric_index(r, m[i]);
		double v = mi >= 0 && u->vals ? u->vals[mi] : NAN;
		if (isfinite(v) && (isnan(*pct) || v > *pct)) {
			*pct = v;
			name = who[i];
		}
	}
	return name;
}

/* Half the share of a core that CFS gives a task always runnable on host
 * h of run u (the kernel's sched-design-CFS.rst: each of nr_running tasks
 * gets 1 / nr_running of a CPU): 50 x cores / max(nr, cores) %, nr the
 * loaded mean of cpu.running (/proc/stat procs_running) less the task that
 * read it, cores h's cpu.N.busy series. NaN without them. */
static double run_share(const struct report_run *u, const char *h,
			int *contended)
{
	const struct report_series *q =
	    report_run_series(u, h, SERIES_CPU_RUNNING);
	double nr = q ? explain_loaded_mean(q, NULL) - 1 : NAN;
	int cores = 0;
	for (int i = 0; i < u->nseries; i++)
		cores += core_busy(&u->series[i], h, NULL);
	if (!(nr >= 0) || !cores)
		return NAN;
	*contended = nr >= cores;
	return 50.0 * cores / (nr > cores ? nr : cores);
}

/* The loaded samples of run u in which host h's engine processes ran
 * (engine.core finite: sampler_engine.c) into *n, and those in which the
 * busiest of them was on core last into *on. */
static void explain_evid_engine_on_core(const struct report_run *u,
					const char *h, int core, int *n,
					int *on)
{
	const struct report_series *s =
	    report_run_series(u, h, SERIES_ENGINE_CORE);
	for (int i = 0; s && i < s->n; i++)
		if (s->t[i] > 0 && isfinite(s->v[i])) {
			(*n)++;
			*on += s->v[i] == core;
		}
}

void explain_run_evidence(const struct report *r, int single,
			  const struct report_run *u, struct explain_evid *e)
{
	double best = -1, best_rank = -1e9, soft = NAN, peak = NAN, proc,
	       share = NAN;
	int core = -1, has_cpu = 0, contended = 0, rose = 0;
	const char *host = NULL,
		   *pn = explain_evid_engine_proc(r, single, u, &proc);
	for (int i = 0; i < u->nseries; i++) {
		const struct report_series *s = &u->series[i];
		double m, p, rank;
		int n, waited;
		if (!strcmp(s->name, SERIES_CPU_ALL_BUSY)) {
			if ((m = leadin_mean(s)) > e->leadin)
				e->leadin = m;
			rose |= explain_evid_engine_rose(u, s->host, s);
		}
		if (!strcmp(s->name, SERIES_CPU_RUNNING) &&
		    isfinite(p = run_share(u, s->host, &waited))) {
			contended |= waited;
			if (isnan(share) || p < share)
				share = p;
		}
		if (!core_busy(s, NULL, &n)) {
			rate_evidence(s, e);
			continue;
		}
		/* the core the engine loaded: a core as busy before the
		 * engine started counts only its rise (other processes) */
		m = explain_loaded_mean(s, NULL);
		p = leadin_mean(s);
		rank = p >= EXPLAIN_LEADIN_BUSY ? m - p : m;
		has_cpu = 1;
		if ((p = peak_busy(u, s->host)) > peak || isnan(peak))
			peak = p;
		if (!(rank > best_rank))
			continue;
		char name[64];
		best_rank = rank;
		best = m;
		core = n;
		host = s->host;
		snprintf(name, sizeof name, SERIES_CPU_CORE_SOFTIRQ, n);
		const struct report_series *q =
		    report_run_series(u, s->host, name);
		soft = q ? explain_loaded_mean(q, NULL) : NAN;
	}
	e->nruns++;
	if (!has_cpu && isnan(proc))
		return;
	e->cpu_runs++;
	e->rose_runs += rose;
	/* Busy: a core saturated, the engine's process at its limit, or a
	 * run queue of at least as many tasks as cores (each waited for a
	 * CPU) in which the engine's process wanted the CPU: it got at least
	 * half a runnable task's share (the others' load slowed it). */
	if (peak >= EXPLAIN_CORE_BUSY || proc >= EXPLAIN_PROC_BUSY)
		e->strong_runs++;
	if (peak >= EXPLAIN_CORE_BUSY || proc >= EXPLAIN_PROC_BUSY ||
	    (contended && proc >= share))
		e->busy_runs++;
	if (isfinite(share) && (!e->has_share || share < e->share)) {
		e->share = share;
		e->has_share = 1;
	}
	if (peak > e->peak)
		e->peak = peak;
	if (proc > e->proc) {
		e->proc = proc;
		e->proc_name = pn;
	}
	if (host)
		explain_evid_engine_on_core(u, host, core, &e->on_samples,
					    &e->on_core);
	if (best > e->busy) {
		e->busy = best;
		e->softirq = soft;
		e->core = core;
		e->host = host;
	}
}
