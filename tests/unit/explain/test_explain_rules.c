/* Unit tests of the CPU and window rules in reports/explain/explain_cand.c on
 * hand-built
 * models: one cell, runs with two cores' cpu.N.busy series (a lead-in
 * point at t = -0.25 and eight loaded ones) and iperf3's cpu_host /
 * cpu_remote. The shapes are those measured on the 2-core lab machine
 * (schema/report.md, "Limits"): at idle the unshaped veth pair keeps its
 * sender's process at 95-98% of a core while the busiest core's own mean
 * is 81-95% (the process moves between the cores); on a machine loaded by
 * other processes every core is 100% busy before the run too and the
 * process gets 15-46% of a core. The window cases: cwnd 65536 B over a
 * 20 ms RTT is 65536 * 8 / 0.020 = 26214400 bit/s (python3).
 *
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "arena.h"
#include "explain.h"
#include "tap.h"

#define NPT 9
static const double T[NPT] = {-0.25, 0.25, 0.5, 0.75, 1, 1.25, 1.5, 1.75, 2};

struct tcase {
	const char *name;
	double c0[NPT], c1[NPT]; /* cpu.0.busy, cpu.1.busy; c0[0] < 0: none */
	double host, remote;	 /* cpu_host, cpu_remote; NaN: not stored */
	const char *version, *parallel, *qdisc;
	double median;		     /* bit/s */
	const char *kind, *evidence; /* expected kind; a part of the text */
	/* macOS: cpu.all.busy alone (c0, every sample), no per-core series
	 * (top gives host-wide busy only); the line must claim no core */
	int host_wide;
};

static const struct tcase cases[] = {
    {"idle veth: the process moves, each core's mean 80%, peak 100%",
     {3, 100, 100, 60, 60, 100, 100, 60, 60},
     {3, 60, 60, 100, 100, 60, 60, 100, 100},
     NAN,
     NAN,
     "iperf 3.12",
     "1",
     NULL,
     30e9,
     "cpu",
     "the busiest core at each sample 100%"},
    {"idle veth: cores 86/75, iperf3's sender 97% of a core",
     {3, 86, 86, 86, 86, 86, 86, 86, 86},
     {3, 75, 75, 75, 75, 75, 75, 75, 75},
     97,
     80,
     "iperf 3.12",
     "1",
     NULL,
     30e9,
     "cpu",
     "iperf3's client process 97% of a core"},
    {"cores 86/75, processes 60%: no limit found",
     {3, 86, 86, 86, 86, 86, 86, 86, 86},
     {3, 75, 75, 75, 75, 75, 75, 75, 75},
     60,
     50,
     "iperf 3.12",
     "1",
     NULL,
     30e9,
     "none",
     NULL},
    {"loaded machine: cores 100% before and during, process 19%",
     {100, 100, 100, 100, 100, 100, 100, 100, 100},
     {100, 100, 100, 100, 100, 100, 100, 100, 100},
     19,
     42,
     "iperf 3.12",
     "1",
     NULL,
     10e9,
     "cpu",
     "CPUs 100% busy before the engine started (other processes)"},
    {"at the tbf ceiling on a loaded machine: line, not CPU",
     {100, 100, 100, 100, 100, 100, 100, 100, 100},
     {100, 100, 100, 100, 100, 100, 100, 100, 100},
     19,
     42,
     "iperf 3.12",
     "1",
     "tbf 1000000000",
     950e6,
     "line",
     NULL},
    {"iperf3 3.17, 4 threads summed to 97%, cores 50%: none",
     {3, 50, 50, 50, 50, 50, 50, 50, 50},
     {3, 50, 50, 50, 50, 50, 50, 50, 50},
     97,
     40,
     "iperf 3.17",
     "4",
     NULL,
     20e9,
     "none",
     NULL},
    {"iperf3 3.12, 4 streams, a core 100%: engine-bound",
     {3, 100, 100, 100, 100, 100, 100, 100, 100},
     {3, 20, 20, 20, 20, 20, 20, 20, 20},
     99,
     40,
     "iperf 3.12",
     "4",
     NULL,
     20e9,
     "engine",
     "iperf3 3.12 runs its 4 streams in one thread"},
    {"no CPU series: the process alone",
     {-1},
     {-1},
     96,
     70,
     "iperf 3.12",
     "1",
     NULL,
     20e9,
     "cpu",
     "iperf3's client process 96% of a core"},
    /* macOS hosts (the sampler reads top's host-wide line): a busy
     * host-wide figure, even 100%, is no core at 100%; one core of four
     * saturated is 25% host-wide and says nothing either */
    {"macOS: host-wide busy 100% alone is no busy core",
     {100, 100, 100, 100, 100, 100, 100, 100, 100},
     {0},
     NAN,
     NAN,
     "iperf 3.12",
     "1",
     NULL,
     10e9,
     "none",
     NULL,
     1},
    {"macOS: one core of four saturated, host-wide 25%",
     {25, 25, 25, 25, 25, 25, 25, 25, 25},
     {0},
     NAN,
     NAN,
     "iperf 3.12",
     "1",
     NULL,
     10e9,
     "none",
     NULL,
     1},
    {"macOS: host-wide 100%, iperf3's process 97%: the process only",
     {100, 100, 100, 100, 100, 100, 100, 100, 100},
     {0},
     97,
     NAN,
     "iperf 3.12",
     "1",
     NULL,
     10e9,
     "cpu",
     "iperf3's client process 97% of a core",
     1},
};

static const char *metrics[] = {"throughput", "cpu_host", "cpu_remote"};
static const char *units[] = {"bit/s", "%", "%"};
static const char *hosts[] = {"client", "server"};

static void one(const struct tcase *c)
{
	struct report r = {0};
	struct report_cell cell = {0};
	struct report_stats st[3] = {{0}};
	struct report_series s[4];
	struct report_run u = {0};
	struct report_observed ob[2] = {{0, "version", c->version, 1},
					{0, "parallel", c->parallel, 1}};
	struct report_fact f[2] = {{1, "client", "qdisc_root", c->qdisc},
				   {1, "client", "nic_mtu", "1500"}};
	double vals[3] = {c->median, c->host, c->remote};
	struct explain *x = NULL;
	r.arena = arena_new();
	r.met.metrics = metrics;
	r.met.metric_units = units;
	r.met.nmetrics = 3;
	r.met.display_unit = "Gbit/s";
	r.met.display_scale = 1e9;
	st[0].median = c->median;
	cell.st = st;
	cell.label = "x=a";
	/* an iperf3 cell, as the model reads it from its first ok run: the
	 * sentences name the engine and its one-thread versions from its row
	 * (runner/desc engine_cond.c) */
	cell.engine = "iperf3";
	r.cells = &cell;
	r.ncells = 1;
	r.span.hosts = hosts;
	r.span.nhosts = 2;
	r.observed = ob;
	r.nobserved = 2;
	r.facts = f;
	r.nfacts = c->qdisc ? 2 : 0;
	u.ok = 1;
	u.vals = vals;
	u.series = s;
	if (c->host_wide) {
		s[0] = (struct report_series){"client", "cpu.all.busy", "%",
					      T,	c->c0,		NPT};
		u.nseries = 1;
	} else if (c->c0[0] >= 0) {
		s[0] = (struct report_series){"client", "cpu.0.busy", "%",
					      T,	c->c0,	      NPT};
		s[1] = (struct report_series){"client", "cpu.1.busy", "%",
					      T,	c->c1,	      NPT};
		s[2] = (struct report_series){"client", "cpu.all.busy", "%",
					      T,	c->c0,		1};
		u.nseries = 3;
	}
	r.runs = &u;
	r.nruns = 1;
	is_int(explain_build(&r, &x), 0, c->name);
	if (x) {
		is_str(explain_kind_name(x->cells[0].kind), c->kind, c->name);
		if (c->evidence)
			ok(strstr(x->cells[0].line, c->evidence) != NULL,
			   "%s: '%s' in '%s'", c->name, c->evidence,
			   x->cells[0].line);
		if (c->host_wide)
			ok(!strstr(x->cells[0].line, "core 0") &&
			       !strstr(x->cells[0].line, "core -1") &&
			       !strstr(x->cells[0].line, "busiest core"),
			   "%s: no core claimed in '%s'", c->name,
			   x->cells[0].line);
		if (!strcmp(c->kind, "line"))
			ok(x->cells[0].kind2 == EXPLAIN_NONE,
			   "%s: no second kind", c->name);
	}
	arena_free(r.arena);
}

struct wcase {
	const char *name;
	double median, rtt_mean, rtt_min, retrans;
	const char *kind;
	double wnd; /* engine.snd_wnd (B) at every point; 0: no series */
	const char *evidence;
	/* A loaded machine: cpu.0.busy and cpu.all.busy at `busy` % at every
	 * point, the lead-in (t = -0.25) too, and iperf3's client process at
	 * `proc` % of a core; busy 0: no CPU series. */
	double busy, proc;
	double load; /* controller_load (max) on 2 CPUs; 0: no condition */
	/* cpu.running (/proc/stat procs_running) at every point, with a
	 * cpu.0.softirq series beside it; 0: neither. The fixture has one core
	 * (cpu.0.busy). */
	double running;
	/* the client's os_release fact; NULL: none (softirq's name) */
	const char *os;
	/* the client's qdisc_root fact (with nic_mtu 1500); NULL: none */
	const char *qdisc;
	/* two cores (no cpu.running): cpu.0.busy at lead0 in the lead-in and
	 * busy after, cpu.1.busy at lead1 then busy1, cpu.all.busy their
	 * mean; 0: the one core above */
	int two;
	double lead0, lead1, busy1;
};

/* With snd_wnd (python3: 65536 * 8 / 0.02 = 26214400; 16384 * 8 / 0.02 =
 * 6553600, 0.8 of it 5242880, its inverse 8192000). */
#define WCW "cwnd 64 KB / RTT 20.00 ms = 26.2 Mbit/s"
#define WMIN "min(cwnd 64 KB, snd_wnd 16 KB) / RTT 20.00 ms = 6.55 Mbit/s"
static const struct wcase wcases[] = {
    {"25 of 26.2 Mbit/s = cwnd / RTT, RTT at its min: window", 25e6, 0.0201,
     0.0200, 0, "window", 0, WCW},
    {"cwnd / RTT fits but the RTT doubled (a queue): none", 25e6, 0.040, 0.020,
     0, "none", 0, NULL},
    {"10 retransmits in 2 s: the window is the losses', none", 25e6, 0.0201,
     0.0200, 10, "none", 0, NULL},
    /* The rule counts retransmits per second of the engine's 2 s (the
     * fixture's engine_duration), not per run: 1.5 in 2 s is 0.75/s (<
     * EXPLAIN_PER_S 1), the window's; 2 in 2 s is 1/s, the losses'. */
    {"1.5 retransmits in 2 s (0.75/s): window", 25e6, 0.0201, 0.0200, 1.5,
     "window", 0, WCW},
    {"2 retransmits in 2 s (1/s, EXPLAIN_PER_S): none", 25e6, 0.0201, 0.0200, 2,
     "none", 0, NULL},
    {"15 of 26.2 Mbit/s (0.57): not the window", 15e6, 0.0201, 0.0200, 0,
     "none", 0, NULL},
    {"6.2 of min(cwnd, snd_wnd 16K) / RTT = 6.55 Mbit/s: window", 6.2e6, 0.0201,
     0.0200, 0, "window", 16384, WMIN},
    {"25 Mbit/s fits cwnd / RTT but snd_wnd 16K allows 6.55: none", 25e6,
     0.0201, 0.0200, 0, "none", 16384, NULL},
    {"5.3 of 6.55 Mbit/s (0.809 >= 0.8): window", 5.3e6, 0.0201, 0.0200, 0,
     "window", 16384, WMIN},
    {"5.2 of 6.55 Mbit/s (0.793 < 0.8): none", 5.2e6, 0.0201, 0.0200, 0, "none",
     16384, NULL},
    {"snd_wnd 128K above cwnd 64K: cwnd's 26.2 Mbit/s, window", 25e6, 0.0201,
     0.0200, 0, "window", 131072,
     "min(cwnd 64 KB, snd_wnd 128 KB) / RTT 20.00 ms = 26.2 Mbit/s"},
    {"others' load (cores 100% before and during, iperf3 2%), the window "
     "fits: window, not CPU",
     6.2e6, 0.0201, 0.0200, 0, "window", 16384, WMIN, 100, 2},
    {"others' load, the window does not fit (5.2 of 6.55): CPU", 5.2e6, 0.0201,
     0.0200, 0, "cpu", 16384, "CPUs 100% busy before the engine started", 100,
     2},
    {"iperf3's process at 80% (EXPLAIN_PROC_BUSY) beside the load: CPU", 6.2e6,
     0.0201, 0.0200, 0, "cpu", 16384, "iperf3's client process 80% of a core",
     100, 80},
    /* No lead-in load (cores 40%), no window fit (5.2 of 6.55 Mbit/s): the
     * engine's process alone decides, at EXPLAIN_PROC_BUSY 80 (the lab's
     * unshaped veth sender measured 86-94%). */
    {"iperf3's process 80%, cores 40%: cpu", 5.2e6, 0.0201, 0.0200, 0, "cpu",
     16384, "iperf3's client process 80% of a core", 40, 80},
    {"iperf3's process 79.9%, cores 40%: none", 5.2e6, 0.0201, 0.0200, 0,
     "none", 16384, NULL, 40, 79.9},
    /* half a runnable task's share at load 15 on 2 CPUs: 50 * 2 / 15 =
     * 6.667% (python3) */
    {"others' load 15 on 2 CPUs, iperf3 2% (< 6.67%), no window fit: none",
     5.2e6, 0.0201, 0.0200, 0, "none", 16384, NULL, 100, 2, 15},
    {"others' load 15 on 2 CPUs, iperf3 7% (>= 6.67%): cpu", 5.2e6, 0.0201,
     0.0200, 0, "cpu", 16384, "iperf3's client process 7% of a core", 100, 7,
     15},
    /* The run queue sampled during the run decides over a load average
     * that lagged (python3, one core: 50 * 1 / max(5 - 1, 1) = 12.5;
     * 50 * 1 / (15 - 1) = 3.5714285714285716). The load average alone
     * (1.0 on 2 CPUs) gives 50 * 2 / 2 = 50: iperf3 at 46% would be
     * refused (the lab's unshaped pair at load 1.4 while other processes
     * started). */
    {"load average 1.0, iperf3 46%, no run queue: none", 5.2e6, 0.0201, 0.0200,
     0, "none", 16384, NULL, 100, 46, 1.0},
    {"load average 1.0, run queue 5 (12.5%), iperf3 46%: cpu", 5.2e6, 0.0201,
     0.0200, 0, "cpu", 16384, "iperf3's client process 46% of a core", 100, 46,
     1.0, 5},
    {"run queue 15 (3.57%), iperf3 3.5%: none", 5.2e6, 0.0201, 0.0200, 0,
     "none", 16384, NULL, 100, 3.5, 1.0, 15},
    {"run queue 15 (3.57%), iperf3 3.6%: cpu", 5.2e6, 0.0201, 0.0200, 0, "cpu",
     16384, "iperf3's client process 4% of a core", 100, 3.6, 1.0, 15},
    /* Cores 40%, nothing before the run: a run queue of 4 on one core
     * (3 tasks besides the reader >= 1 core: every task waited) and
     * iperf3 at 50% >= 50 * 1 / 3 = 16.67 is a CPU-starved run; a queue
     * of 1 (the reader alone) is no contention. */
    {"run queue 4 on one core, iperf3 50%: cpu", 5.2e6, 0.0201, 0.0200, 0,
     "cpu", 16384, "iperf3's client process 50% of a core", 40, 50, 0, 4},
    /* cpu.0.softirq is no second core: 2 cores would make it 33.3% */
    {"run queue 4 on one core (and its softirq series), iperf3 20%: cpu", 5.2e6,
     0.0201, 0.0200, 0, "cpu", 16384, "iperf3's client process 20% of a core",
     40, 20, 0, 4},
    /* The share's name: softirq, or on Windows % DPC Time (winctr.c);
     * the fixture's cpu.0.softirq is 0.02 of 40% busy: 0%. */
    {"run queue 4 on one core, a Linux host: softirq", 5.2e6, 0.0201, 0.0200, 0,
     "cpu", 16384, "40% busy, 0% softirq", 40, 20, 0, 4,
     "Debian GNU/Linux 12 (bookworm)"},
    {"run queue 4 on one core, a Windows host: DPC", 5.2e6, 0.0201, 0.0200, 0,
     "cpu", 16384, "40% busy, 0% DPC", 40, 20, 0, 4,
     "Microsoft Windows 11 Pro"},
    /* Near a ceiling (EXPLAIN_NEAR_CEILING 0.90 to 0.95 of it) the run
     * queue alone makes no CPU claim (python3: 5850000 * 1448 / 1514 =
     * 5594980.18, 5.2e6 of it 0.9294; 6500000 * 1448 / 1514 = 6216644.65,
     * 5.2e6 of it 0.8365). */
    {"0.929 of a tbf, run queue 4, iperf3 50%: none", 5.2e6, 0.0201, 0.0200, 0,
     "none", 16384, "92.9% of 5.59 Mbit/s", 40, 50, 0, 4, NULL, "tbf 5850000"},
    /* ... and when the CPU holds the cell there, the ceiling is named as
     * well: both hold it (co-limited) */
    {"0.929 of a tbf, iperf3 85% (>= EXPLAIN_PROC_BUSY): cpu and line", 5.2e6,
     0.0201, 0.0200, 0, "cpu+line", 16384,
     "iperf3's client process 85% of a core", 40, 85, 0, 4, NULL,
     "tbf 5850000"},
    {"0.929 of a tbf, iperf3 85%: the line says 'CPU-bound and line-bound'",
     5.2e6, 0.0201, 0.0200, 0, "cpu+line", 16384, ": CPU-bound and line-bound",
     40, 85, 0, 4, NULL, "tbf 5850000"},
    {"0.836 of a tbf, run queue 4, iperf3 50%: cpu", 5.2e6, 0.0201, 0.0200, 0,
     "cpu", 16384, "83.6% of 6.22 Mbit/s", 40, 50, 0, 4, NULL, "tbf 6500000"},
    {"run queue 4 on one core, iperf3 16%: none", 5.2e6, 0.0201, 0.0200, 0,
     "none", 16384, NULL, 40, 16, 0, 4},
    {"run queue 1 on one core, iperf3 50%: none", 5.2e6, 0.0201, 0.0200, 0,
     "none", 16384, NULL, 40, 50, 0, 1},
    /* Beside a busy loop (bench/RESULTS.md, "Explain beside a busy loop":
     * the lab's cpu-pinned case, both iperf3 processes on core 0): core 0
     * went from 0% to 100%, core 1 held the loop at 100% before and
     * during, cpu.all.busy 50% -> 100% (a rise of 50 >= 50 / 2 cores);
     * min(cwnd, snd_wnd) / RTT fitted too, the receiver's window shrunk
     * by its core. The engine's core decides, and the evidence names it,
     * not the loop's (here the other way round: the loop on core 0, the
     * first series, which a rank by the loaded mean alone would name). */
    {"a busy loop on core 1, the engine saturates core 0 (0 -> 100), the "
     "window fits: cpu",
     6.2e6, 0.0201, 0.0200, 0, "cpu", 16384, "core 0 of client 100% busy", 100,
     30, 0, 0, NULL, NULL, 1, 0, 100, 100},
    {"a busy loop on core 0, the engine saturates core 1 (0 -> 100): cpu, "
     "core 1 named",
     6.2e6, 0.0201, 0.0200, 0, "cpu", 16384, "core 1 of client 100% busy", 100,
     30, 0, 0, NULL, NULL, 1, 100, 0, 100},
    /* The loop moved from core 1 to core 0 as the run began: core 0
     * 0 -> 100, core 1 100 -> 2, cpu.all.busy 50 -> 51 (a rise of 1 <
     * 25): no core of the engine's, the window fits first. */
    {"a busy loop that moved to core 0 (all 50 -> 51), the window fits: "
     "window",
     6.2e6, 0.0201, 0.0200, 0, "window", 16384, WMIN, 100, 2, 0, 0, NULL, NULL,
     1, 0, 100, 2},
    /* The same rise on a core that was already half busy (lead-in 50, not
     * < EXPLAIN_LEADIN_BUSY): other processes' load, the window first */
    {"core 0 50 -> 100, core 1 100, all 75 -> 100: window", 6.2e6, 0.0201,
     0.0200, 0, "window", 16384, WMIN, 100, 2, 0, 0, NULL, NULL, 1, 50, 100,
     100},
};

static const char *wmetrics[] = {"throughput", "rtt_mean", "rtt_min",
				 "retransmits", "cpu_host"};
static const char *wunits[] = {"bit/s", "s", "s", "1", "%"};

static void wone(const struct wcase *c)
{
	static const double cw[NPT] = {65536, 65536, 65536, 65536, 65536,
				       65536, 65536, 65536, 65536};
	static const double rt[NPT] = {0.02, 0.02, 0.02, 0.02, 0.02,
				       0.02, 0.02, 0.02, 0.02};
	struct report r = {0};
	struct report_cell cell = {0};
	struct report_stats st[5] = {{0}};
	struct report_observed ob[1] = {{0, "version", "iperf 3.12", 1}};
	struct report_condition cond = {0};
	struct report_fact fa[3] = {{1, "client", "os_release", c->os},
				    {1, "client", "qdisc_root", c->qdisc},
				    {1, "client", "nic_mtu", "1500"}};
	double wn[NPT], bz[NPT], rq[NPT], b1[NPT], all[NPT];
	struct report_series s[7] = {
	    {"client", "engine.snd_cwnd", "B", T, cw, NPT},
	    {"client", "engine.rtt", "s", T, rt, NPT},
	    {"client", "engine.snd_wnd", "B", T, wn, NPT},
	    {"client", "cpu.0.busy", "%", T, bz, NPT},
	    {"client", "cpu.all.busy", "%", T, bz, NPT},
	    {"client", "cpu.running", "1", T, rq, NPT},
	    {"client", "cpu.0.softirq", "%", T, rt, NPT}};
	struct report_run u = {0};
	double vals[5] = {c->median, c->rtt_mean, c->rtt_min, c->retrans,
			  c->busy > 0 ? c->proc : NAN};
	struct explain *x = NULL;
	for (int i = 0; i < NPT; i++) {
		wn[i] = c->wnd;
		bz[i] = c->two && T[i] <= 0 ? c->lead0 : c->busy;
		rq[i] = c->running;
		b1[i] = T[i] <= 0 ? c->lead1 : c->busy1;
		all[i] = c->two ? (bz[i] + b1[i]) / 2 : bz[i];
	}
	s[4].v = all;
	if (c->two) /* cpu.running's slot: the second core */
		s[5] = (struct report_series){"client", "cpu.1.busy", "%",
					      T,	b1,	      NPT};
	r.arena = arena_new();
	r.met.metrics = wmetrics;
	r.met.metric_units = wunits;
	r.met.nmetrics = 5;
	r.met.display_unit = "Mbit/s";
	r.met.display_scale = 1e6;
	r.met.engine_duration = 2;
	st[0].median = c->median;
	cell.st = st;
	cell.label = "w=64K";
	cell.engine = "iperf3"; /* its runs' engine, as the model reads it */
	r.cells = &cell;
	r.ncells = 1;
	u.ok = 1;
	u.vals = vals;
	u.series = s;
	u.nseries = c->running > 0 || c->two ? 7
		    : c->busy > 0	     ? 5
		    : c->wnd > 0	     ? 3
					     : 2;
	r.observed = ob;
	r.nobserved = 1;
	cond.key = "controller_load";
	cond.is_load = 1;
	cond.load_min = cond.load_max = c->load;
	cond.cpus = 2;
	r.conds = &cond;
	r.nconds = c->load > 0;
	r.runs = &u;
	r.nruns = 1;
	r.span.hosts = hosts;
	r.span.nhosts = 1;
	r.facts = c->os ? fa : fa + 1;
	r.nfacts = c->os ? 1 : c->qdisc ? 2 : 0;
	is_int(explain_build(&r, &x), 0, c->name);
	if (x) {
		/* "cpu+line": kind, then also (kind2) */
		const char *plus = strchr(c->kind, '+');
		char k1[32];
		snprintf(k1, sizeof k1, "%.*s",
			 plus ? (int)(plus - c->kind) : (int)strlen(c->kind),
			 c->kind);
		is_str(explain_kind_name(x->cells[0].kind), k1, c->name);
		char what[300];
		snprintf(what, sizeof what, "%s: also", c->name);
		is_str(explain_kind_name(x->cells[0].kind2),
		       plus ? plus + 1 : "none", what);
	}
	if (x && c->evidence)
		ok(strstr(x->cells[0].line, c->evidence) != NULL,
		   "window evidence '%s' in: %s", c->evidence,
		   x->cells[0].line);
	arena_free(r.arena);
}

int main(void)
{
	size_t n = sizeof cases / sizeof *cases;
	int checks = 0;
	for (size_t i = 0; i < n; i++)
		checks += 2 + (cases[i].evidence != NULL) + cases[i].host_wide +
			  !strcmp(cases[i].kind, "line");
	for (size_t i = 0; i < sizeof wcases / sizeof *wcases; i++)
		checks += 3 + (wcases[i].evidence != NULL);
	tap_plan(checks);
	for (size_t i = 0; i < n; i++)
		one(&cases[i]);
	for (size_t i = 0; i < sizeof wcases / sizeof *wcases; i++)
		wone(&wcases[i]);
	return tap_done();
}
