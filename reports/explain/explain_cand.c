/*
 * The bottleneck candidates of a measured cell (explain.c, explain_cell):
 * the CPU (a busy core, its softirq share, whether the engine's process
 * ran on it, the engine's own process, the run queue), the window (min
 * of cwnd and the send window over the RTT), the flow's own drops and a
 * bus ceiling (PCIe, USB, Wi-Fi), each pushing its kind and writing its
 * evidence into the cell's context. The thresholds and their sources are
 * in schema/report.md ("Limits").
 *
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "engine_cond.h"
#include "explain_int.h"
#include "format.h"
#include "series_name.h"
#include "banned.h"

/* CPU-bound in at least half of the runs with CPU evidence: the busiest
 * core at each sample averages >= EXPLAIN_CORE_BUSY, or the engine's
 * one-threaded process >= EXPLAIN_PROC_BUSY of a core. The engine's own
 * limit when a version that runs all its streams in one thread runs
 * several (its descriptor says which: runner/desc engine_one_thread). */
/* Without the run queue sampled during the runs (explain_evid.c,
 * run_share; cpu.running comes with Linux /proc/stat), the same share from
 * the controller's load average, which lags a machine whose load rises by
 * a minute: half the share of a core that the scheduler gives a task that
 * is always runnable on the controller, 100 x cpus / max(load, cpus) % (CFS
 * runs each of nr_running tasks at 1 / nr_running of a CPU: the kernel's
 * sched-design-CFS.rst; the 1-minute load average stands for nr_running),
 * from the session's controller_load condition (its highest); NaN
 * without it. */
static double half_fair_share(const struct report *r)
{
	for (int i = 0; i < r->nconds; i++) {
		const struct report_condition *c = &r->conds[i];
		if (c->is_load && c->cpus > 0 && c->load_max > 0)
			return 50.0 * c->cpus /
			       (c->load_max > c->cpus ? c->load_max : c->cpus);
	}
	return NAN;
}

/* Whether the engine's processes on the busiest core's host ran on it
 * (sampler_engine.c: engine.core, in-process samplers only): "in k of n
 * samples"; without such a series (a far host, or a store from before
 * it) the report says it does not know. */
static void explain_cand_engine_on_text(struct explain_ctx *x,
					const struct explain_evid *e, int ja)
{
	char buf[256];
	if (!e->on_samples) {
		snprintf(buf, sizeof buf,
			 ja ? "エンジンのプロセスがそのコアで実行されたかは不明"
			      "（%s に engine.core なし）"
			    : "whether the engine's process ran on it is not "
			      "known (no engine.core on %s)",
			 e->host);
		explain_cat(x->evidence, sizeof x->evidence, "; ", buf);
		return;
	}
	if (ja)
		snprintf(
		    buf, sizeof buf,
		    "%s のエンジンのプロセスは %d サンプル中 %d 回そのコアで"
		    "実行",
		    e->host, e->on_samples, e->on_core);
	else
		snprintf(buf, sizeof buf,
			 "the engine's process on %s ran on it in %d of %d "
			 "samples",
			 e->host, e->on_core, e->on_samples);
	explain_cat(x->evidence, sizeof x->evidence, "; ", buf);
	snprintf(buf, sizeof buf, "%s engine.core", e->host);
	explain_cat(x->series, sizeof x->series, ", ", buf);
}

void explain_cpu_candidate(struct explain_ctx *x, const struct explain_evid *e,
			   const char *ver, const char *par,
			   enum explain_kind *k, int *nk)
{
	int ja = x->lang == REPORT_LANG_JA;
	const char *engine = x->r->cells[x->ci].engine;
	const char *label = engine_label(engine);
	int eng = engine_one_thread(engine, ver) && par && atoi(par) > 1;
	int after_drops = *nk && k[0] == EXPLAIN_DROPS;
	char buf[512];
	if (!(e->cpu_runs && 2 * e->busy_runs >= e->cpu_runs))
		return;
	/* Near a ceiling, or after the flow's own drops (which explain the
	 * cell already), a CPU claim needs a saturated core or the engine's
	 * process at EXPLAIN_PROC_BUSY: the run queue alone is not enough */
	if ((x->near || after_drops) && !(2 * e->strong_runs >= e->cpu_runs))
		return;
	/* ... and after the drops, with cores busy before the engine started
	 * (other processes), the saturated core must be the engine's
	 * (engine_rose) or its process at EXPLAIN_PROC_BUSY: others' load is
	 * not named beside the drops, as it is not beside the window */
	if (after_drops && e->leadin >= EXPLAIN_LEADIN_BUSY &&
	    !(2 * e->rose_runs >= e->cpu_runs) &&
	    !(e->proc >= EXPLAIN_PROC_BUSY))
		return;
	/* Cores busy before the engine started (other processes) hold the
	 * cell only if the engine's process wanted the CPU: one that got less
	 * than half a runnable task's share slept, waiting on the network. */
	if (e->leadin >= EXPLAIN_LEADIN_BUSY && e->proc_name &&
	    !(2 * e->rose_runs >= e->cpu_runs) &&
	    e->proc < (e->has_share ? e->share : half_fair_share(x->r)))
		return;
	if (e->host) {
		double sq = isfinite(e->softirq) && e->busy > 0
				? 100 * e->softirq / e->busy
				: NAN;
		if (ja)
			snprintf(buf, sizeof buf,
				 "%s のコア %d が %.0f%% 使用中", e->host,
				 e->core, e->busy);
		else
			snprintf(buf, sizeof buf, "core %d of %s %.0f%% busy",
				 e->core, e->host, e->busy);
		explain_cat(x->evidence, sizeof x->evidence, "; ", buf);
		if (isfinite(sq)) {
			/* On Windows the share is % DPC Time (winctr.c,
			 * oswin.c: where NDIS indicates receives), named so. */
			const char *os =
			    explain_fact(x->r, e->host, "os_release");
			const char *what =
			    os && !strncmp(os, "Microsoft Windows", 17)
				? "DPC"
				: "softirq";
			if (ja)
				snprintf(buf, sizeof buf, "（%s %.0f%%）", what,
					 sq);
			else
				snprintf(buf, sizeof buf, ", %.0f%% %s", sq,
					 what);
			explain_cat(x->evidence, sizeof x->evidence, "", buf);
		}
		if (e->peak >= e->busy + 1) {
			snprintf(buf, sizeof buf,
				 ja ? "各サンプルの最多忙コア %.0f%%"
				    : "the busiest core at each sample %.0f%%",
				 e->peak);
			explain_cat(x->evidence, sizeof x->evidence, ", ", buf);
		}
		snprintf(buf, sizeof buf, "%s cpu.%d.busy", e->host, e->core);
		explain_cat(x->series, sizeof x->series, ", ", buf);
		explain_cand_engine_on_text(x, e, ja);
	}
	if (!*label) /* no ok run named its engine */
		label = ja ? "エンジン" : "the engine";
	if (e->proc_name && e->proc > 0) {
		snprintf(buf, sizeof buf,
			 ja ? "%s の %s プロセスがコア 1 個の %.0f%%"
			    : "%s's %s process %.0f%% of a core",
			 label, e->proc_name, e->proc);
		explain_cat(x->evidence, sizeof x->evidence, "; ", buf);
		explain_cat(x->series, sizeof x->series, ", ",
			    strcmp(e->proc_name, "client") ? "cpu_remote"
							   : "cpu_host");
	}
	if (e->leadin >= EXPLAIN_LEADIN_BUSY) {
		snprintf(buf, sizeof buf,
			 ja ? "開始前から CPU %.0f%% 使用中（他のプロセス）"
			    : "CPUs %.0f%% busy before the engine started "
			      "(other processes)",
			 e->leadin);
		explain_cat(x->evidence, sizeof x->evidence, "; ", buf);
	}
	if (eng) {
		/* the observed version is the engine's text ("iperf 3.12"):
		 * its number after its name */
		snprintf(buf, sizeof buf,
			 ja ? "%s %s は %s 本のストリームを 1 スレッドで実行"
			    : "%s %s runs its %s streams in one thread",
			 label, engine_version_number(engine, ver), par);
		explain_cat(x->evidence, sizeof x->evidence, "; ", buf);
	}
	explain_push(k, nk, eng ? EXPLAIN_ENGINE : EXPLAIN_CPU);
}

/* Metric mi (report_metric_index) of run u, NaN when absent. */
static double run_value(const struct report_run *u, int mi)
{
	return mi >= 0 && u->vals ? u->vals[mi] : NAN;
}

/* The window of run u over the loaded phase: min(mean engine.snd_cwnd,
 * mean engine.snd_wnd) in B, the sender's congestion window and the
 * receiver's advertised one (RFC 7323 section 1: the sender may have at
 * most min(cwnd, rwnd) unacknowledged; snd_wnd: iperf3 >= 3.10). *cw and
 * *wnd: the two means (wnd NaN without the series); <= 0: none. */
double explain_run_window(const struct report_run *u, double *cw, double *wnd)
{
	const struct report_series *c = report_run_series(
				       u, NULL, SERIES_ENGINE_SND_CWND),
				   *w = report_run_series(
				       u, NULL, SERIES_ENGINE_SND_WND);
	*cw = c ? explain_loaded_mean(c, NULL) : NAN;
	*wnd = w ? explain_loaded_mean(w, NULL) : NAN;
	if (!(*cw > 0))
		return 0;
	return isfinite(*wnd) && *wnd < *cw ? *wnd : *cw;
}

/* The window evidence: "cwnd 64 KB / RTT ..." or, with snd_wnd, "min(cwnd
 * 37 KB, snd_wnd 23 KB) / RTT ...". Means over the n runs. */
static void window_text(struct explain_ctx *x, double est, double cw,
			double wnd, int nw, double rtt, double q, int n)
{
	int ja = x->lang == REPORT_LANG_JA;
	char buf[256], v[64], win[96];
	report_fmt_value_unit(x->r, est, v, sizeof v);
	if (nw == n)
		snprintf(win, sizeof win, "min(cwnd %.0f KB, snd_wnd %.0f KB)",
			 cw / n / 1024, wnd / n / 1024);
	else
		snprintf(win, sizeof win, "cwnd %.0f KB", cw / n / 1024);
	snprintf(buf, sizeof buf,
		 ja ? "%s / RTT %.2f ms = %s（RTT 平均は最小の %.2f 倍）"
		    : "%s / RTT %.2f ms = %s (RTT mean %.2f x its min)",
		 win, 1e3 * rtt / n, v, q);
	explain_cat(x->evidence, sizeof x->evidence, "; ", buf);
	explain_cat(x->series, sizeof x->series, ", ",
		    nw == n ? "engine.snd_cwnd, engine.snd_wnd, engine.rtt"
			    : "engine.snd_cwnd, engine.rtt");
}

/* Window-bound (RFC 6349 section 3.3.1: TCP throughput <= window / RTT):
 * the median within EXPLAIN_WINDOW_FIT of the window (run_window: min of
 * cwnd and snd_wnd) x 8 / mean RTT over the loaded phase, the RTT not
 * raised by a queue (mean <= EXPLAIN_RTT_QUEUE x min: a full path would
 * queue) and < EXPLAIN_PER_S retransmits per second (a window that losses
 * set is the drops'). Averages over the cell's ok runs that have all of
 * them; none: no candidate. */
void explain_window_candidate(struct explain_ctx *x, int ci, double med,
			      enum explain_kind *k, int *nk)
{
	const struct report *r = x->r;
	double win = 0, cws = 0, wnds = 0, rtt = 0, mean = 0, min = 0, retr = 0,
	       est, dur;
	int n = 0, nw = 0;
	/* Looked up once: by name per run of every cell, this loop was 13%
	 * of a 100,000-run report (bench/RESULTS.md). */
	int mean_i = report_metric_index(r, "rtt_mean"),
	    min_i = report_metric_index(r, "rtt_min"),
	    retr_i = report_metric_index(r, "retransmits");
	for (int i = x->first[ci]; i < x->first[ci + 1]; i++) {
		const struct report_run *u = &r->runs[x->by_cell[i]];
		const struct report_series *t;
		double a, cw, wnd, b, rm, rn, rt;
		if (!u->ok)
			continue;
		rm = run_value(u, mean_i);
		rn = run_value(u, min_i);
		if (!((a = explain_run_window(u, &cw, &wnd)) > 0) ||
		    !(t = report_run_series(u, NULL, SERIES_ENGINE_RTT)) ||
		    !((b = explain_loaded_mean(t, NULL)) > 0) || !(rm > 0) ||
		    !(rn > 0))
			continue;
		win += a;
		cws += cw;
		if (isfinite(wnd)) {
			wnds += wnd;
			nw++;
		}
		rtt += b;
		mean += rm;
		min += rn;
		rt = run_value(u, retr_i);
		retr += isfinite(rt) ? rt : 0;
		n++;
	}
	dur = r->met.engine_duration > 0 ? r->met.engine_duration : NAN;
	if (!n || !(med > 0))
		return;
	est = win * 8 / rtt; /* the n's cancel */
	if (!(med >= EXPLAIN_WINDOW_FIT * est &&
	      med <= est / EXPLAIN_WINDOW_FIT &&
	      mean <= EXPLAIN_RTT_QUEUE * min &&
	      !(retr / n / dur >= EXPLAIN_PER_S)))
		return;
	window_text(x, est, cws, wnds, nw, rtt, mean / min, n);
	explain_push(k, nk, EXPLAIN_WINDOW);
}

/* The cell's own losses per second (mean over its ok runs over the
 * engine duration): a TCP flow's `retransmits`, a UDP flow's
 * `lost_packets` (iperf3: the datagrams its receiver never got); NaN
 * without them. */
double explain_loss_rate(const struct explain_ctx *x, int ci, int udp)
{
	const struct report *r = x->r;
	double sum = 0, d = r->met.engine_duration;
	int n = 0,
	    mi = report_metric_index(r, udp ? "lost_packets" : "retransmits");
	for (int i = x->first[ci]; i < x->first[ci + 1]; i++) {
		const struct report_run *u = &r->runs[x->by_cell[i]];
		double v = u->ok ? run_value(u, mi) : NAN;
		if (isfinite(v)) {
			sum += v;
			n++;
		}
	}
	return n && d > 0 ? sum / n / d : NAN;
}

/* Drop-bound: >= EXPLAIN_PER_S drops a second from the NIC or the root
 * qdisc, when not line-bound (a shaper at its rate drops from its queue:
 * that is the line). A cell whose engine counts its own losses (TCP
 * retransmits, UDP lost datagrams) gets here only with them (>=
 * EXPLAIN_PER_S a second), and then before the CPU: drops of other
 * traffic do not hold it, and a flow that loses is held by its losses
 * (Mathis et al., "The macroscopic behavior of the TCP congestion
 * avoidance algorithm", CCR 1997). */
void explain_drops_candidate(struct explain_ctx *x,
			     const struct explain_evid *e, enum explain_kind *k,
			     int *nk)
{
	char buf[64];
	if (!e->nruns || e->drops / e->nruns < EXPLAIN_PER_S ||
	    (*nk && k[0] == EXPLAIN_LINE))
		return;
	snprintf(buf, sizeof buf, "%.0f drops/s", e->drops / e->nruns);
	explain_cat(x->evidence, sizeof x->evidence, "; ", buf);
	explain_cat(x->series, sizeof x->series, ", ", e->drop_series);
	explain_push(k, nk, EXPLAIN_DROPS);
}

/* A bus (PCIe, USB, Wi-Fi) holds the cell when the median is at least
 * its share of the bus's ceiling and not above it, unless the cell is
 * line-bound already. */
void explain_bus_candidate(struct explain_ctx *x, const struct explain_ceil *c,
			   double share, double med, struct explain_limit *l,
			   enum explain_kind *k, int *nk)
{
	const struct report *r = x->r;
	if (!isfinite(c->bps) || med < share * c->bps || med > c->bps ||
	    (*nk && k[0] == EXPLAIN_LINE))
		return;
	explain_share(r, x->lang == REPORT_LANG_JA, med, c->bps, c->name, 0,
		      x->evidence, sizeof x->evidence);
	if (!isfinite(l->ceiling) || c->bps < l->ceiling) {
		l->ceiling = c->bps;
		l->fraction = med / c->bps;
		l->ceiling_name = arena_strdup(r->arena, c->name);
	}
	explain_push(k, nk, c->kind);
}
