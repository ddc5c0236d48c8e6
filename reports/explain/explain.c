/*
 * Explain the number: each cell's ceilings from the host facts and its
 * bottleneck from the runs' series (explain.h); the ceilings' formulas
 * are in explain_ceil.c. The formulas and
 * thresholds are documented, with their sources, in schema/report.md
 * ("Limits"); a change here changes that table.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "explain_int.h"
#include "format.h"

#include "banned.h"

static const struct {
	const char *name, *text[REPORT_LANG_COUNT];
} kinds[] = {
#define EXPLAIN_ROW(e, n, en, ja) {n, {en, ja}},
    EXPLAIN_KIND_MAP(EXPLAIN_ROW)
#undef EXPLAIN_ROW
};

const char *explain_kind_name(enum explain_kind k)
{
	return kinds[k].name;
}

const char *explain_kind_text(enum explain_kind k, enum report_lang lang)
{
	return kinds[k].text[lang];
}

/* The latest value of a host's fact, or NULL. */
static const char *fact(const struct report *r, const char *host,
			const char *key)
{
	const char *v = NULL;
	int64_t s = -1;
	for (int i = 0; i < r->nfacts; i++) {
		const struct report_fact *f = &r->facts[i];
		if (!strcmp(f->host, host) && !strcmp(f->key, key) &&
		    f->session >= s) {
			v = f->value;
			s = f->session;
		}
	}
	return v;
}

static const char *observed(const struct report *r, int cell, const char *key)
{
	for (int i = 0; i < r->nobserved; i++)
		if (r->observed[i].cell == cell &&
		    !strcmp(r->observed[i].key, key))
			return r->observed[i].value;
	return NULL;
}

struct ctx {
	const struct report *r;
	enum report_lang lang;
	int single;	  /* the cell's iperf3 runs each end in one thread */
	const char *recv; /* the host that received the cell's data, or NULL */
	int near; /* the median within EXPLAIN_NEAR_CEILING of a ceiling */
	char missing[512], series[512], evidence[512];
	/* Cell ci's runs, in run order: runs[by_cell[first[ci]] ..
	 * by_cell[first[ci + 1] - 1]] (every cell's rule looked at all runs:
	 * cells x runs, 10^7 at 100,000 runs, bench/RESULTS.md). */
	int *by_cell, *first;
};

void explain_share(const struct report *r, int ja, double v, double ceiling,
		   const char *name, int digits, char *dst, size_t n)
{
	char pv[64], cv[64], buf[512];
	report_fmt_value_unit(r, v, pv, sizeof pv);
	report_fmt_value_unit(r, ceiling, cv, sizeof cv);
	if (ja)
		snprintf(buf, sizeof buf, "%s = %s（%s）の %.*f%%", pv, cv,
			 name, digits, 100 * v / ceiling);
	else
		snprintf(buf, sizeof buf, "%s = %.*f%% of %s (%s)", pv, digits,
			 100 * v / ceiling, cv, name);
	explain_cat(dst, n, "; ", buf);
}

static void ctx_free(struct ctx *x)
{
	free(x->by_cell);
	free(x->first);
	free(x);
}

/* Fills x->by_cell and x->first by a counting sort of the runs by cell. */
static int index_cells(struct ctx *x)
{
	const struct report *r = x->r;
	int *at;
	x->first = calloc((size_t)r->ncells + 2, sizeof *x->first);
	x->by_cell = malloc(((size_t)r->nruns + 1) * sizeof *x->by_cell);
	at = calloc((size_t)r->ncells + 1, sizeof *at);
	if (!x->first || !x->by_cell || !at) {
		free(at);
		return -XR_ENOMEM;
	}
	for (int i = 0; i < r->nruns; i++)
		if (r->runs[i].cell >= 0 && r->runs[i].cell < r->ncells)
			x->first[r->runs[i].cell + 1]++;
	for (int c = 0; c < r->ncells; c++) {
		at[c] = x->first[c];
		x->first[c + 1] += x->first[c];
	}
	for (int i = 0; i < r->nruns; i++)
		if (r->runs[i].cell >= 0 && r->runs[i].cell < r->ncells)
			x->by_cell[at[r->runs[i].cell]++] = i;
	free(at);
	return 0;
}

void explain_cat(char *dst, size_t n, const char *sep, const char *s)
{
	size_t l = strlen(dst);
	snprintf(dst + l, n - l, "%s%s", l ? sep : "", s);
}

struct ceil {
	double bps;
	enum explain_kind kind;
	char name[160];
};

static void consider(struct ceil *best, double bps, enum explain_kind k,
		     const char *name)
{
	if (isfinite(bps) && (!isfinite(best->bps) || bps < best->bps)) {
		best->bps = bps;
		best->kind = k;
		snprintf(best->name, sizeof best->name, "%s", name);
	}
}

/* The bus ceilings, each judged by its own share (explain_cell):
 * PCIe, USB, Wi-Fi. */
enum { BUS_PCIE, BUS_USB, BUS_WIFI, BUS_COUNT };

static const struct {
	enum explain_kind kind;
	double share;
} buses[BUS_COUNT] = {{EXPLAIN_PCIE, EXPLAIN_PCIE_SHARE},
		      {EXPLAIN_USB, EXPLAIN_USB_SHARE},
		      {EXPLAIN_WIFI, EXPLAIN_WIFI_SHARE}};

static void missing_once(struct ctx *x, const char *what, const char *h)
{
	char miss[96];
	snprintf(miss, sizeof miss, "%s of %s", what, h);
	if (!strstr(x->missing, miss))
		explain_cat(x->missing, sizeof x->missing, ", ", miss);
}

/* PCIe raw; a USB adapter's link data rate over the frame it carries
 * (the Ethernet header on, no FCS or preamble, as tbf counts), so at
 * the MTU; a Wi-Fi PHY rate, an estimate above what the MAC carries. */
static void bus_ceilings(struct ctx *x, const char *h, int udp, int mtu,
			 struct ceil *bus)
{
	const struct report *r = x->r;
	const char *pl = fact(r, h, "nic_pcie_link"),
		   *ul = fact(r, h, "nic_usb_link"),
		   *wl = fact(r, h, "nic_wifi_rate");
	char name[160];
	double gts = 0, v;
	int lanes = 0;
	if (pl && sscanf(pl, "%lf GT/s x%d", &gts, &lanes) == 2) {
		snprintf(name, sizeof name, "PCIe %.1f GT/s x%d on %s (raw)",
			 gts, lanes, h);
		consider(&bus[BUS_PCIE], explain_pcie_raw(gts, lanes),
			 EXPLAIN_PCIE, name);
	}
	v = explain_usb_data(explain_usb_signal(ul));
	if (isfinite(v) && mtu <= 68) {
		missing_once(x, "nic_mtu", h);
	} else if (isfinite(v)) {
		snprintf(name, sizeof name, "USB %s on %s, %s at MTU %d", ul, h,
			 udp ? "UDP" : "TCP", mtu);
		consider(&bus[BUS_USB], explain_tbf_goodput(v, mtu, udp),
			 EXPLAIN_USB, name);
	}
	v = explain_wifi_phy(wl);
	if (isfinite(v)) {
		snprintf(name, sizeof name,
			 "Wi-Fi PHY rate %.1f Mbit/s on %s (an estimate: "
			 "the MAC carries less)",
			 v / 1e6, h);
		consider(&bus[BUS_WIFI], v, EXPLAIN_WIFI, name);
	}
}

/* The host that received cell ci's data, when the report can tell: the
 * host of the engine.throughput series (runner/exec/series_metric.c
 * receiver(): the server's, the client's in reverse), trusted with two
 * hosts or more only (with one, the server was no host of the plan and
 * the client holds the series either way) and not for bidir. NULL:
 * unknown. */
static const char *cell_receiver(const struct ctx *x, int ci)
{
	const struct report *r = x->r;
	const char *dir = observed(r, ci, "direction");
	if (r->span.nhosts < 2 || (dir && !strcmp(dir, "bidir")))
		return NULL;
	for (int i = x->first[ci]; i < x->first[ci + 1]; i++) {
		const struct report_run *u = &r->runs[x->by_cell[i]];
		const struct report_series *t =
		    u->ok ? report_run_series(u, NULL, "engine.throughput")
			  : NULL;
		if (t)
			return t->host;
	}
	return NULL;
}

/* Does h's hook (ingress, else egress: a root qdisc, an egress policer)
 * carry the cell's ACKs only? Egress on the receiver, ingress on the
 * sender, when the receiver is known (cell_receiver); unknown: no. */
static int acks_only(const struct ctx *x, const char *h, int ingress)
{
	return x->recv && (strcmp(h, x->recv) == 0) != ingress;
}

/* A policer on all traffic of one of h's hooks (police_egress,
 * police_ingress: "RATE overhead O linklayer L: ..." when it limits,
 * "none: ..." when not, runner/host/qdisc_police.h) is a shaper as tbf
 * is: the line, named with its hook. An ingress policer holds the data
 * on the receiver only, an egress one on the sender only (the other
 * sees the ACKs); when the receiver is not known (cell_receiver), both
 * hooks of every host of the cell are ceilings, as tbf's are. */
static int police_ceilings(struct ctx *x, const char *h, int udp, int mtu,
			   struct ceil *best)
{
	static const char *const keys[] = {"police_egress", "police_ingress"};
	char name[160], ll[16];
	double rate;
	int ov, found = 0;
	for (int i = 0; i < 2; i++) {
		const char *f = fact(x->r, h, keys[i]);
		if (acks_only(x, h, i))
			continue;
		if (!f ||
		    sscanf(f, "%lf overhead %d linklayer %15[a-z]", &rate, &ov,
			   ll) != 3 ||
		    !(rate > 0))
			continue;
		snprintf(name, sizeof name,
			 "policer %.0f Mbit/s on %s %s, %s at MTU %d",
			 rate / 1e6, h, i ? "ingress" : "egress",
			 udp ? "UDP" : "TCP", mtu);
		consider(best,
			 explain_police_goodput(rate, mtu, udp, i, ov,
						!strcmp(ll, "atm")),
			 EXPLAIN_LINE, name);
		found = 1;
	}
	return found;
}

/* The narrowest ceiling that one host's facts set. */
static void host_ceilings(struct ctx *x, const char *h, int udp,
			  struct ceil *best, struct ceil *bus)
{
	const struct report *r = x->r;
	const char *link = fact(r, h, "nic_link"),
		   *q = fact(r, h, "qdisc_root");
	const char *drv = fact(r, h, "nic_driver");
	const char *m = fact(r, h, "nic_mtu"), *proto = udp ? "UDP" : "TCP";
	char name[160], key[64];
	int mtu = m ? atoi(m) : 0, pol;
	if (!m) {
		snprintf(key, sizeof key, "mtu@%s", h);
		for (int i = 0; i < r->nconds; i++)
			if (!strcmp(r->conds[i].key, key) &&
			    r->conds[i].nvalues == 1)
				mtu = atoi(r->conds[i].values[0].value);
	}
	bus_ceilings(x, h, udp, mtu, bus);
	if (mtu <= 68 && (link || q || fact(r, h, "police_egress") ||
			  fact(r, h, "police_ingress"))) {
		missing_once(x, "nic_mtu", h);
		return;
	}
	pol = police_ceilings(x, h, udp, mtu, best);
	/* tbf and htb both charge qdisc_pkt_len() (net/sched/sch_tbf.c,
	 * sch_htb.c htb_charge_class): the same goodput; htb's rate is its
	 * default class's ceil on the path (runner/host/qdisc_htb.h). A root
	 * qdisc shapes what its host sends: on the receiver (when known,
	 * cell_receiver) it holds the ACKs only, no ceiling of the data. */
	if (q && (!strncmp(q, "tbf ", 4) || !strncmp(q, "htb ", 4)) &&
	    !acks_only(x, h, 0)) {
		double rate = strtod(q + 4, NULL);
		snprintf(name, sizeof name,
			 "%.3s %.0f Mbit/s on %s, %s at MTU %d", q, rate / 1e6,
			 h, proto, mtu);
		if (rate > 0)
			consider(best, explain_tbf_goodput(rate, mtu, udp),
				 EXPLAIN_LINE, name);
	}
	if (link && drv && (!strcmp(drv, "veth") || !strcmp(drv, "loopback"))) {
		/* A virtual interface's speed is nominal, not a wire. */
	} else if (link && strtod(link, NULL) > 0) {
		double mbps = strtod(link, NULL);
		snprintf(name, sizeof name,
			 "%.0f Mbit/s Ethernet on %s, %s at MTU %d", mbps, h,
			 proto, mtu);
		consider(best, explain_eth_goodput(mbps * 1e6, mtu, udp),
			 EXPLAIN_LINE, name);
	} else if (!q && !pol && !fact(r, h, "nic_wifi_rate")) {
		missing_once(x, "nic_link", h);
	}
}

static int version_before(const char *v, int maj, int min)
{
	int a = 0, b = 0;
	/* observed as iperf3 prints it: "iperf 3.12" */
	while (v && *v && (*v < '0' || *v > '9'))
		v++;
	if (!v || sscanf(v, "%d.%d", &a, &b) != 2)
		return 0;
	return a < maj || (a == maj && b < min);
}

static void push(enum explain_kind *k, int *n, enum explain_kind v)
{
	if (*n < 2)
		k[(*n)++] = v;
}

/* The cell's hosts: those its runs have series from, else every host. */
static void cell_ceilings(struct ctx *x, int ci, int udp, struct ceil *best,
			  struct ceil *bus)
{
	const struct report *r = x->r;
	for (int h = 0; h < r->span.nhosts; h++) {
		int seen = 0, any = 0;
		for (int i = x->first[ci]; i < x->first[ci + 1] && !seen; i++) {
			const struct report_run *u = &r->runs[x->by_cell[i]];
			for (int j = 0; j < u->nseries; j++) {
				any = 1;
				seen |= !strcmp(u->series[j].host,
						r->span.hosts[h]);
			}
		}
		if (seen || !any)
			host_ceilings(x, r->span.hosts[h], udp, best, bus);
	}
}

/* CPU-bound in at least half of the runs with CPU evidence: the busiest
 * core at each sample averages >= EXPLAIN_CORE_BUSY, or the engine's
 * one-threaded process >= EXPLAIN_PROC_BUSY of a core. The engine's own
 * limit when iperf3 < 3.16 runs several streams (one thread for all of
 * them: iperf3 #289, #1569; multi-threaded since 3.16). */
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
static void engine_on_text(struct ctx *x, const struct explain_evid *e, int ja)
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

static void cpu_candidate(struct ctx *x, const struct explain_evid *e,
			  const char *ver, const char *par,
			  enum explain_kind *k, int *nk)
{
	int ja = x->lang == REPORT_LANG_JA;
	int eng = version_before(ver, 3, 16) && par && atoi(par) > 1;
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
			const char *os = fact(x->r, e->host, "os_release");
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
		engine_on_text(x, e, ja);
	}
	if (e->proc_name && e->proc > 0) {
		snprintf(buf, sizeof buf,
			 ja ? "iperf3 の %s プロセスがコア 1 個の %.0f%%"
			    : "iperf3's %s process %.0f%% of a core",
			 e->proc_name, e->proc);
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
		/* iperf3 --version says "iperf 3.12 (cJSON ...)": the
		 * observed version starts "iperf 3.12" */
		const char *num = !strncmp(ver, "iperf ", 6) ? ver + 6 : ver;
		snprintf(
		    buf, sizeof buf,
		    ja ? "iperf3 %s は %s 本のストリームを 1 スレッドで実行"
		       : "iperf3 %s runs its %s streams in one thread",
		    num, par);
		explain_cat(x->evidence, sizeof x->evidence, "; ", buf);
	}
	push(k, nk, eng ? EXPLAIN_ENGINE : EXPLAIN_CPU);
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
static double run_window(const struct report_run *u, double *cw, double *wnd)
{
	const struct report_series *c = report_run_series(u, NULL,
							  "engine.snd_cwnd"),
				   *w = report_run_series(u, NULL,
							  "engine.snd_wnd");
	*cw = c ? explain_loaded_mean(c, NULL) : NAN;
	*wnd = w ? explain_loaded_mean(w, NULL) : NAN;
	if (!(*cw > 0))
		return 0;
	return isfinite(*wnd) && *wnd < *cw ? *wnd : *cw;
}

/* The window evidence: "cwnd 64 KB / RTT ..." or, with snd_wnd, "min(cwnd
 * 37 KB, snd_wnd 23 KB) / RTT ...". Means over the n runs. */
static void window_text(struct ctx *x, double est, double cw, double wnd,
			int nw, double rtt, double q, int n)
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
static void window_candidate(struct ctx *x, int ci, double med,
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
		if (!((a = run_window(u, &cw, &wnd)) > 0) ||
		    !(t = report_run_series(u, NULL, "engine.rtt")) ||
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
	push(k, nk, EXPLAIN_WINDOW);
}

/* The cell's own losses per second (mean over its ok runs over the
 * engine duration): a TCP flow's `retransmits`, a UDP flow's
 * `lost_packets` (iperf3: the datagrams its receiver never got); NaN
 * without them. */
static double loss_rate(const struct ctx *x, int ci, int udp)
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
static void drops_candidate(struct ctx *x, const struct explain_evid *e,
			    enum explain_kind *k, int *nk)
{
	char buf[64];
	if (!e->nruns || e->drops / e->nruns < EXPLAIN_PER_S ||
	    (*nk && k[0] == EXPLAIN_LINE))
		return;
	snprintf(buf, sizeof buf, "%.0f drops/s", e->drops / e->nruns);
	explain_cat(x->evidence, sizeof x->evidence, "; ", buf);
	explain_cat(x->series, sizeof x->series, ", ", e->drop_series);
	push(k, nk, EXPLAIN_DROPS);
}

/* A bus (PCIe, USB, Wi-Fi) holds the cell when the median is at least
 * its share of the bus's ceiling and not above it, unless the cell is
 * line-bound already. */
static void bus_candidate(struct ctx *x, const struct ceil *c, double share,
			  double med, struct explain_limit *l,
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
	push(k, nk, c->kind);
}

static void explain_cell(struct ctx *x, int ci, struct explain_limit *l)
{
	const struct report *r = x->r;
	const struct report_cell *c = &r->cells[ci];
	const char *proto = observed(r, ci, "protocol");
	const char *ver = observed(r, ci, "version");
	const char *par = observed(r, ci, "parallel");
	int udp = proto && (!strcmp(proto, "UDP") || !strcmp(proto, "udp"));
	int bits = r->met.primary >= 0 && r->met.metric_units[r->met.primary] &&
		   !strcmp(r->met.metric_units[r->met.primary], "bit/s");
	double med =
	    c->st && r->met.primary >= 0 ? c->st[r->met.primary].median : NAN;
	struct ceil best = {NAN, EXPLAIN_NONE, ""}, bus[BUS_COUNT];
	struct explain_evid e = {0};
	enum explain_kind k[2];
	int nk = 0, ja = x->lang == REPORT_LANG_JA, lossy, others;
	double retr;
	char buf[512];

	x->missing[0] = x->series[0] = x->evidence[0] = '\0';
	retr = loss_rate(x, ci, udp);
	lossy = retr >= EXPLAIN_PER_S;
	x->single = version_before(ver, 3, 16) || (par && atoi(par) <= 1);
	l->ceiling = l->fraction = NAN;
	for (int b = 0; b < BUS_COUNT; b++)
		bus[b] = best;
	x->recv = cell_receiver(x, ci);
	if (bits)
		cell_ceilings(x, ci, udp, &best, bus);
	for (int i = x->first[ci]; i < x->first[ci + 1]; i++)
		if (r->runs[x->by_cell[i]].ok)
			explain_run_evidence(r, x->single,
					     &r->runs[x->by_cell[i]], &e);
	if (isfinite(best.bps) && med > 0) {
		l->ceiling = best.bps;
		l->fraction = med / best.bps;
		l->ceiling_name = arena_strdup(r->arena, best.name);
		explain_share(r, ja, med, best.bps, best.name, 1, x->evidence,
			      sizeof x->evidence);
		if (l->fraction >= EXPLAIN_AT_CEILING && l->fraction <= 1.05)
			push(k, &nk, best.kind);
	}
	x->near = l->fraction >= EXPLAIN_NEAR_CEILING &&
		  l->fraction < EXPLAIN_AT_CEILING;
	for (int b = 0; b < BUS_COUNT; b++)
		bus_candidate(x, &bus[b], buses[b].share, med, l, k, &nk);
	/* A CPU that carries a ceiling's rate is not what limits the cell. */
	/* A flow that loses packets is held by its losses first. */
	if (lossy && !(nk && k[0] == EXPLAIN_LINE))
		drops_candidate(x, &e, k, &nk);
	/* Busy cores that were as busy before the engine started, with the
	 * engine's own process below EXPLAIN_PROC_BUSY, are other processes'
	 * load: a flow that still runs at its window / RTT is not held by
	 * them (schema/report.md, Limits), so the window is tried first;
	 * unless the engine saturated a core idle before it (engine_rose):
	 * a receiver held by that core shrinks its window too. */
	others = e.leadin >= EXPLAIN_LEADIN_BUSY &&
		 !(e.proc >= EXPLAIN_PROC_BUSY) &&
		 !(e.cpu_runs && 2 * e.rose_runs >= e.cpu_runs);
	if (!nk && !udp && others)
		window_candidate(x, ci, med, k, &nk);
	if (!nk || (nk == 1 && k[0] == EXPLAIN_DROPS))
		cpu_candidate(x, &e, ver, par, k, &nk);
	if (!nk && !udp && !others)
		window_candidate(x, ci, med, k, &nk);
	/* Co-limited: a cell the CPU holds within EXPLAIN_NEAR_CEILING of a
	 * ceiling is held by both; the ceiling is named too (removing the CPU's
	 * limit would gain at most 1 / fraction). */
	if (x->near && nk == 1 &&
	    (k[0] == EXPLAIN_CPU || k[0] == EXPLAIN_ENGINE))
		push(k, &nk, best.kind);
	if (e.nruns && e.pause / e.nruns >= EXPLAIN_PER_S) {
		snprintf(buf, sizeof buf, "%.0f PAUSE frames/s",
			 e.pause / e.nruns);
		explain_cat(x->evidence, sizeof x->evidence, "; ", buf);
		explain_cat(x->series, sizeof x->series, ", ", e.pause_series);
		push(k, &nk, EXPLAIN_FLOW_CONTROL);
	}
	if (isnan(retr)) /* no losses of its own to tell */
		drops_candidate(x, &e, k, &nk);
	l->kind = nk > 0 ? k[0] : EXPLAIN_NONE;
	l->kind2 = nk > 1 ? k[1] : EXPLAIN_NONE;
	l->evidence = arena_strdup(r->arena, x->evidence);
	l->series = arena_strdup(r->arena, x->series);
	l->missing = x->missing[0] ? arena_strdup(r->arena, x->missing) : NULL;
	l->line = arena_printf(
	    r->arena, "%s%s%s%s%s%s%s%s%s", x->evidence[0] ? x->evidence : "",
	    x->evidence[0] ? ": " : "", explain_kind_text(l->kind, x->lang),
	    l->kind2 ? (ja ? "、" : " and ") : "",
	    l->kind2 ? explain_kind_text(l->kind2, x->lang) : "",
	    l->missing ? (ja ? "（不明な事実: " : " (facts missing: ") : "",
	    l->missing ? l->missing : "", l->missing ? (ja ? "）" : ")") : "",
	    "");
}

int explain_build(const struct report *r, struct explain **out)
{
	struct explain *x;
	struct ctx *c;
	*out = NULL;
	if (!r->arena || !r->met.metric_units || !r->cells || !r->ncells)
		return 0; /* a model built by hand: nothing to explain */
	x = arena_alloc(r->arena, sizeof *x);
	c = calloc(1, sizeof *c);
	if (!x || !c) {
		free(c);
		return -XR_ENOMEM;
	}
	c->r = r;
	c->lang = r->about.lang;
	x->cells = arena_alloc(r->arena, (r->ncells + 1) * sizeof *x->cells);
	x->pairs = arena_alloc(r->arena, (r->ncmps + 1) * sizeof *x->pairs);
	if (!x->cells || !x->pairs || index_cells(c) < 0) {
		ctx_free(c);
		return -XR_ENOMEM;
	}
	for (int i = 0; i < r->ncells; i++)
		explain_cell(c, i, &x->cells[i]);
	if (explain_refs(r, x) < 0) {
		ctx_free(c);
		return -XR_ENOMEM;
	}
	for (int i = 0; i < r->ncmps; i++) {
		const struct report_cmp *m = &r->cmps[i];
		enum explain_kind a = x->cells[m->a].kind;
		enum explain_kind b = x->cells[m->b].kind;
		x->pairs[i] = a == b
				  ? NULL
				  : arena_printf(r->arena,
						 c->lang == REPORT_LANG_JA
						     ? "%s は%s、%s は%s"
						     : "%s is %s; %s is %s",
						 r->cells[m->a].label,
						 explain_kind_text(a, c->lang),
						 r->cells[m->b].label,
						 explain_kind_text(b, c->lang));
	}
	ctx_free(c);
	*out = x;
	return 0;
}
