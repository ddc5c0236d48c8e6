/*
 * What limits a cell, the words of it: the kinds (EXPLAIN_KIND_MAP: name,
 * English, Japanese), the thresholds the rules compare with (schema/
 * report.md, "Limits", with their sources), a cell's limit and the whole
 * explanation of a report. A leaf of reports/explain: explain.c, which
 * builds the explanation, and the rules' files (explain_cand.c,
 * explain_evid.c, explain_facts.c, explain_lat.c, explain_ref.c) all read
 * it, and none of them calls back into explain.c.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef XR_EXPLAIN_KIND_H
#define XR_EXPLAIN_KIND_H

#include "report.h"

#define EXPLAIN_KIND_MAP(X)                                                    \
	X(NONE, "none", "no limit found", "限界要因は見つからず")              \
	X(LINE, "line", "line-bound", "回線律速")                              \
	X(PCIE, "pcie", "bus-bound", "バス律速")                               \
	X(USB, "usb", "USB-bound", "USB 律速")                                 \
	X(WIFI, "wifi", "Wi-Fi-bound", "Wi-Fi 律速")                           \
	X(CPU, "cpu", "CPU-bound", "CPU 律速")                                 \
	X(DROPS, "drops", "drop-bound", "パケット破棄")                        \
	X(FLOW_CONTROL, "flow_control", "flow-control-bound", "フロー制御")    \
	X(WINDOW, "window", "window-bound", "ウィンドウ律速")                  \
	X(ENGINE, "engine", "engine-bound", "負荷エンジン律速")                \
	X(QUEUE, "queue", "queue-bound", "キュー律速")

enum explain_kind {
#define EXPLAIN_ENUM(e, n, en, ja) EXPLAIN_##e,
	EXPLAIN_KIND_MAP(EXPLAIN_ENUM)
#undef EXPLAIN_ENUM
	    EXPLAIN_COUNT
};

/* Thresholds (schema/report.md, "Limits"). */
#define EXPLAIN_AT_CEILING 0.95 /* measured / ceiling: at the ceiling */
/* measured / ceiling above it: the facts and the measurement disagree */
#define EXPLAIN_ABOVE_CEILING 1.05
#define EXPLAIN_PCIE_SHARE 0.75 /* measured / raw PCIe: bus-bound */
#define EXPLAIN_USB_SHARE 0.75	/* measured / USB ceiling: USB-bound */
#define EXPLAIN_WIFI_SHARE 0.5	/* measured / PHY rate: Wi-Fi-bound */
#define EXPLAIN_CORE_BUSY 90.0	/* the busiest core's mean busy %: CPU-bound */
/* The engine's one-threaded process, % of a core: CPU-bound. Below the
 * core figure because a sender whose flow only the CPU limits still sleeps
 * part of the time, in TCP Small Queues and send-buffer waits for its own
 * packets to be consumed by the receive softirq (Documentation/networking/
 * ip-sysctl.rst, tcp_limit_output_bytes): measured on the lab's unshaped
 * veth pair (nothing else limits it) 86-94% of a core, asleep 5-12% of the
 * time (/proc/PID/schedstat), where 90 called 1 of 4 quiet sessions "no
 * limit found"; line-bound, window-bound and drop-bound lab cells run far
 * below it (bench/RESULTS.md, "The engine's process threshold"). */
#define EXPLAIN_PROC_BUSY 80.0
/* Near a ceiling (this fraction of it, below EXPLAIN_AT_CEILING) the run
 * queue alone does not make a cell CPU-bound: a saturated core or the
 * engine's process at EXPLAIN_PROC_BUSY must. The lab's pcie3x1 case (a
 * 6.2 Gbit/s tbf, the CPU carrying about that rate) measured 86.7-93.4% of
 * its tbf and was called cpu from the run queue at 93.3% with cores 62%
 * busy and iperf3 at 52% of a core: two causes at once, which one kind
 * cannot say (bench/RESULTS.md, "Explain after the policer"). */
#define EXPLAIN_NEAR_CEILING 0.90
/* A latency metric: the queueing delay at this fraction of what the
 * shaper's queue holds or more is the queue full (queue-bound). CUBIC
 * takes its window to 0.7 of itself at a loss (RFC 9438 section 4.6,
 * beta_cubic), so a queue it fills swings between about 0.7 and 1 of its
 * limit; 0.8 leaves room below the middle of that swing. */
#define EXPLAIN_QUEUE_FULL 0.8
/* ... or at this fraction with the flow losing >= EXPLAIN_PER_S packets a
 * second: the queue overflowed, and the RTT swings below its full delay
 * as CUBIC backs off (the lab's 20 ms queue: 0.72-0.78 of it with 4.7-13
 * retransmits/s, e2e/lab_facts_latency). */
#define EXPLAIN_QUEUE_LOSSY 0.5
#define EXPLAIN_LEADIN_BUSY 50.0 /* CPUs busy before the run: noted */
#define EXPLAIN_WINDOW_FIT 0.8	 /* median / (cwnd / RTT), and its inverse */
#define EXPLAIN_RTT_QUEUE 1.5	 /* RTT mean / min: no standing queue */
#define EXPLAIN_PER_S 1.0	 /* drops or PAUSE frames per second */

struct explain_limit {
	enum explain_kind kind, kind2; /* kind2: a second candidate, or NONE */
	double ceiling;		       /* metric's unit; NaN: none known */
	double fraction;	       /* median / ceiling; NaN: none */
	const char *ceiling_name;      /* "tbf 1000 Mbit/s, TCP at MTU 1500 on
					  client"; NULL */
	const char *evidence;	       /* the evidence, report's language */
	const char *series;	       /* "server cpu.1.busy"; "" when none */
	const char *missing;	       /* facts missing for a ceiling; NULL */
	/* The facts that differed between the cell's runs ("nic_mtu of
	 * client: 1500 in 2 runs, 9000 in 1 run"): no ceiling; NULL. */
	const char *differ;
	/* The facts of a ceiling the median is above (EXPLAIN_ABOVE_CEILING
	 * of it): they and the measurement disagree, no kind; NULL. */
	const char *disagree;
	const char *line; /* the whole limit line */
};

struct explain {
	struct explain_limit *cells; /* [r->ncells] */
	const char **pairs; /* [r->ncmps]: a sentence when the sides are
			       bound by different things, else NULL */
	/* With --reference: each published cell's limit from the conditions
	 * the reference states (link, mtu, pcie; schema/reference.md), and
	 * its sentence beside the measured cell's, NULL when the reference
	 * states no ceiling for it. [nrefs] = [r->ref->nrows]; 0 without. */
	struct explain_limit *refs;
	const char **ref_lines;
	int nrefs;
};

const char *explain_kind_name(enum explain_kind k);
const char *explain_kind_text(enum explain_kind k, enum report_lang lang);
/* Add kind v to k[*n] (at most two kinds). */
void explain_push(enum explain_kind *k, int *n, enum explain_kind v);

#endif
