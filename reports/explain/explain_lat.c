/*
 * A latency metric explained (issue 34 Deliver 4): when the report's
 * metric is the latency probe's (`latency.loaded_p50` ...), each cell's
 * loaded round-trip time is set against the queue its facts allow: a tbf
 * root's queue holds at most limit bytes, drained at its rate, so a packet
 * waits at most limit x 8 / rate there (tc-tbf(8): limit = rate x latency
 * + burst; qdisc_root_queue, runner/host/facts.c). The queue full is
 * `queue` (queue-bound); a queue that the flow's window keeps below its
 * limit is `window` (the loaded RTT is window x 8 / rate: RFC 6349 section
 * 3.3.1, the BDP and what is above it queued); a delay is never
 * drop-bound. The qdisc's own backlog (series qdisc.backlog) and the BDP
 * are evidence. Rules and thresholds: schema/report.md, "Limits".
 *
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "explain_int.h"
#include "format.h"
#include "series_name.h"

#include "banned.h"

int explain_is_latency(const char *metric)
{
	return metric && !strncmp(metric, "latency.", 8);
}

/* The narrowest tbf queue on a host that carries the cell's data (not
 * the receiver's, which queues the ACKs only). */
struct lq {
	double rate, limit, delay; /* bit/s, B, s */
	const char *host;
	char facts[256];
};

static int find_queue(struct explain_ctx *x, struct lq *q)
{
	const struct report *r = x->r;
	q->rate = NAN;
	for (int h = 0; h < r->span.nhosts; h++) {
		const char *host = r->span.hosts[h];
		const char *root = explain_cell_fact(x, host, "qdisc_root");
		const char *queue;
		double rate, limit, burst;
		if (x->recv && !strcmp(host, x->recv))
			continue;
		if (!root || strncmp(root, "tbf ", 4) ||
		    !((rate = strtod(root + 4, NULL)) > 0))
			continue;
		queue = explain_cell_fact(x, host, "qdisc_root_queue");
		if (!queue ||
		    sscanf(queue, "limit %lf burst %lf", &limit, &burst) != 2 ||
		    !(limit > 0)) {
			char miss[96] = "";
			explain_fact_text(miss, sizeof miss,
					  x->lang == REPORT_LANG_JA, host,
					  "qdisc_root_queue", NULL);
			if (!strstr(x->missing, miss))
				explain_cat(x->missing, sizeof x->missing, ", ",
					    miss);
			continue;
		}
		if (isfinite(q->rate) && q->rate <= rate)
			continue;
		q->rate = rate;
		q->limit = limit;
		q->delay = limit * 8 / rate;
		q->host = host;
		q->facts[0] = '\0';
		explain_fact_text(q->facts, sizeof q->facts,
				  x->lang == REPORT_LANG_JA, host, "qdisc_root",
				  root);
		explain_fact_text(q->facts, sizeof q->facts,
				  x->lang == REPORT_LANG_JA, host,
				  "qdisc_root_queue", queue);
	}
	return isfinite(q->rate);
}

/* Means over the cell's ok runs of the window (explain_run_window, B)
 * and of the queue's backlog on its host (qdisc.backlog, B): NaN when
 * no run has them. */
static void run_means(struct explain_ctx *x, const struct lq *q, double *win,
		      double *backlog)
{
	const struct report *r = x->r;
	double w = 0, b = 0;
	int nw = 0, nb = 0;
	for (int i = x->first[x->ci]; i < x->first[x->ci + 1]; i++) {
		const struct report_run *u = &r->runs[x->by_cell[i]];
		const struct report_series *s;
		double cw, wnd, a, m;
		if (!u->ok)
			continue;
		if ((a = explain_run_window(u, &cw, &wnd)) > 0) {
			w += a;
			nw++;
		}
		s = report_run_series(u, q->host, SERIES_QDISC_BACKLOG);
		if (s && isfinite(m = explain_loaded_mean(s, NULL))) {
			b += m;
			nb++;
		}
	}
	*win = nw ? w / nw : NAN;
	*backlog = nb ? b / nb : NAN;
}

/* "1.18 MB" */
static void fmt_bytes(double b, char *out, size_t n)
{
	if (b >= 1e6)
		snprintf(out, n, "%.2f MB", b / 1e6);
	else if (b >= 1e3)
		snprintf(out, n, "%.1f kB", b / 1e3);
	else
		snprintf(out, n, "%.0f B", b);
}

/* The evidence beside the share: the backlog the qdisc held, the
 * window's RTT at the tbf's rate, the BDP at the idle RTT. */
static void lat_evidence(struct explain_ctx *x, const struct lq *q, double idle,
			 double win, double backlog)
{
	int ja = x->lang == REPORT_LANG_JA;
	char buf[256], v[32];
	if (isfinite(backlog)) {
		fmt_bytes(backlog, v, sizeof v);
		snprintf(buf, sizeof buf,
			 ja ? "%s の qdisc backlog 平均 %s = %.1f ms 分"
			    : "qdisc backlog on %s %s = %.1f ms at its rate",
			 q->host, v, 1e3 * backlog * 8 / q->rate);
		explain_cat(x->evidence, sizeof x->evidence, "; ", buf);
		explain_cat(x->series, sizeof x->series, ", ",
			    SERIES_QDISC_BACKLOG);
	}
	if (isfinite(win)) {
		fmt_bytes(win, v, sizeof v);
		snprintf(buf, sizeof buf,
			 ja ? "ウィンドウ %s / %.0f Mbit/s = %.1f ms"
			    : "window %s / %.0f Mbit/s = %.1f ms",
			 v, q->rate / 1e6, 1e3 * win * 8 / q->rate);
		explain_cat(x->evidence, sizeof x->evidence, "; ", buf);
		explain_cat(x->series, sizeof x->series, ", ",
			    SERIES_ENGINE_SND_CWND);
	}
	if (isfinite(idle)) {
		fmt_bytes(q->rate / 8 * idle, v, sizeof v);
		snprintf(buf, sizeof buf,
			 ja ? "BDP %s（アイドル RTT %.2f ms）"
			    : "BDP %s at the idle RTT %.2f ms",
			 v, 1e3 * idle);
		explain_cat(x->evidence, sizeof x->evidence, "; ", buf);
	}
}

void explain_latency_cell(struct explain_ctx *x, double med,
			  struct explain_limit *l)
{
	const struct report *r = x->r;
	const struct report_cell *c = &r->cells[x->ci];
	int idle_i = report_metric_index(r, "latency.idle_p50");
	int inc = !strcmp(r->met.metric, "latency.increase_p50");
	int ja = x->lang == REPORT_LANG_JA;
	double idle = idle_i >= 0 && c->st ? c->st[idle_i].median : NAN;
	double base, win, backlog, est;
	struct lq q;
	char name[256];
	enum explain_kind kind = EXPLAIN_NONE;
	l->kind = l->kind2 = EXPLAIN_NONE;
	l->ceiling = l->fraction = NAN;
	if (!strcmp(r->met.metric, "latency.idle_p50") || !(med > 0))
		return;
	if (!find_queue(x, &q) || x->differ[0]) {
		struct explain_ceil none = {NAN, EXPLAIN_NONE, "", ""};
		if (x->differ[0])
			explain_facts_settle(x, med, &none, NULL, 0, l);
		return;
	}
	/* The loaded RTT's ceiling: the idle RTT and the queue full; the
	 * increase's: the queue alone. */
	base = inc ? 0 : isfinite(idle) ? idle : 0;
	if (ja)
		snprintf(name, sizeof name,
			 "%s%s の tbf %.0f Mbit/s のキュー limit %.0f B = %.1f "
			 "ms",
			 base > 0 ? "アイドル RTT + " : "", q.host,
			 q.rate / 1e6, q.limit, 1e3 * q.delay);
	else
		snprintf(name, sizeof name,
			 "%stbf %.0f Mbit/s on %s, queue limit %.0f B = %.1f "
			 "ms",
			 base > 0 ? "idle RTT + " : "", q.rate / 1e6, q.host,
			 q.limit, 1e3 * q.delay);
	l->ceiling = base + q.delay;
	l->fraction = med / l->ceiling;
	l->ceiling_name = arena_strdup(r->arena, name);
	explain_share(r, ja, med, l->ceiling, name, 1, x->evidence,
		      sizeof x->evidence);
	run_means(x, &q, &win, &backlog);
	est = isfinite(win) ? win * 8 / q.rate : NAN;
	if (l->fraction > EXPLAIN_ABOVE_CEILING) {
		l->disagree = arena_strdup(r->arena, q.facts);
	} else if (l->fraction >= EXPLAIN_QUEUE_FULL ||
		   (l->fraction >= EXPLAIN_QUEUE_LOSSY &&
		    explain_loss_rate(x, x->ci, 0) >= EXPLAIN_PER_S)) {
		kind = EXPLAIN_QUEUE;
	} else if (!inc && isfinite(est) && med >= EXPLAIN_WINDOW_FIT * est &&
		   med <= est / EXPLAIN_WINDOW_FIT) {
		kind = EXPLAIN_WINDOW;
	}
	lat_evidence(x, &q, idle, win, backlog);
	l->kind = kind;
	l->evidence = arena_strdup(r->arena, x->evidence);
	l->series = arena_strdup(r->arena, x->series);
	l->missing = x->missing[0] ? arena_strdup(r->arena, x->missing) : NULL;
	l->line = arena_printf(
	    r->arena, "%s: %s%s%s%s", x->evidence,
	    l->disagree ? (ja ? "測定値が事実の示す上限を超え、両者が食い違う（"
			      : "the measurement is above the delay these "
				"facts allow, so the facts and the measurement "
				"disagree (")
			: "",
	    l->disagree ? l->disagree : "",
	    l->disagree ? (ja ? "）: " : "): ") : "",
	    l->disagree ? (ja ? "限界要因は示さない" : "no limit named")
			: explain_kind_text(kind, x->lang));
}
