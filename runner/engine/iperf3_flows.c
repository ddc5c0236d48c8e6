/*
 * Many-to-one iperf3 runs (engine.flows): the N clients' results, one per
 * server port, merged into the run's result: per-flow metrics, the run's
 * metrics over the flows, summed intervals, per-flow series, and a run
 * that fails as a whole, naming its failed flows, when one flow fails.
 *
 * SPDX-License-Identifier: MIT
 */
#include "iperf3_flows.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "engine.h"
#include "banned.h"

/* ---- one run: the flows' results merged ---------------------------- */

enum agg { AGG_SUM, AGG_MIN, AGG_MAX, AGG_MEAN, AGG_PERCENT };

/* How each iperf3 metric (iperf3_json.c) goes over the flows; a metric
 * not named here is stored per flow only. */
static const struct {
	const char *name;
	enum agg agg;
} aggs[] = {
    {"throughput", AGG_SUM},
    {"throughput_up", AGG_SUM},
    {"throughput_down", AGG_SUM},
    {"sender_throughput", AGG_SUM},
    {"bytes", AGG_SUM},
    {"retransmits", AGG_SUM},
    {"packets", AGG_SUM},
    {"lost_packets", AGG_SUM},
    /* the busiest process: what reports' cpu rule reads (one core) */
    {"cpu_host", AGG_MAX},
    {"cpu_remote", AGG_MAX},
    {"rtt_min", AGG_MIN},
    {"rtt_max", AGG_MAX},
    {"rtt_mean", AGG_MEAN},
    {"jitter", AGG_MEAN},
    {"lost_percent", AGG_PERCENT},
};

static const struct engine_metric *find_metric(const struct engine_result *r,
					       const char *name)
{
	int i;
	for (i = 0; i < r->nmetrics; i++)
		if (strcmp(r->metrics[i].name, name) == 0)
			return &r->metrics[i];
	return NULL;
}

/* The run's value of metric name over the flows, 0 when a flow lacks it
 * (then the run has none). */
static int over_flows(const struct engine_result *flow, int n, const char *name,
		      enum agg agg, double *out)
{
	const struct engine_metric *m;
	double acc = 0, lost = 0, pk = 0;
	int k;
	for (k = 0; k < n; k++) {
		if (!(m = find_metric(&flow[k], name)))
			return 0;
		if (agg == AGG_SUM || agg == AGG_MEAN)
			acc += m->value;
		else if ((agg == AGG_MIN && (k == 0 || m->value < acc)) ||
			 (agg == AGG_MAX && (k == 0 || m->value > acc)))
			acc = m->value;
	}
	if (agg == AGG_MEAN)
		acc /= n;
	if (agg == AGG_PERCENT) {
		if (!over_flows(flow, n, "lost_packets", AGG_SUM, &lost) ||
		    !over_flows(flow, n, "packets", AGG_SUM, &pk) || !(pk > 0))
			return 0;
		acc = 100.0 * lost / pk;
	}
	*out = acc;
	return 1;
}

static int run_metrics(const struct engine_result *flow, int n,
		       struct engine_result *res)
{
	const struct engine_metric *m;
	size_t i;
	double v;
	int rc = 0;
	for (i = 0; i < sizeof aggs / sizeof aggs[0]; i++)
		if ((m = find_metric(&flow[0], aggs[i].name)) &&
		    over_flows(flow, n, aggs[i].name, aggs[i].agg, &v))
			rc |= engine_result_add_metric(res, aggs[i].name, v,
						       m->unit);
	return rc;
}

static int flow_metrics(const struct engine_result *flow, int n,
			struct engine_result *res)
{
	char name[sizeof flow->metrics[0].name];
	int k, i, rc = 0;
	for (k = 0; k < n; k++)
		for (i = 0; i < flow[k].nmetrics; i++) {
			const struct engine_metric *m = &flow[k].metrics[i];
			if (snprintf(name, sizeof name, "%s.flow%d", m->name,
				     k + 1) >= (int)sizeof name)
				continue; /* no metric name is that long */
			rc |= engine_result_add_metric(res, name, m->value,
						       m->unit);
		}
	return rc;
}

/* The run's intervals: the flows' summed index by index on flow 1's
 * times, as far as every flow has them. */
static int sum_intervals(const struct engine_result *flow, int n,
			 struct engine_result *res)
{
	int k, i, m = flow[0].nintervals;
	for (k = 1; k < n; k++)
		if (flow[k].nintervals < m)
			m = flow[k].nintervals;
	for (i = 0; i < m; i++) {
		double v = 0;
		for (k = 0; k < n; k++)
			v += flow[k].iv_value[i];
		if (engine_result_add_interval(res, flow[0].iv_start[i],
					       flow[0].iv_end[i], v) < 0)
			return -XR_ENOMEM;
	}
	if (m > 0)
		snprintf(res->iv_host, sizeof res->iv_host, "%s",
			 flow[0].iv_host);
	return 0;
}

static int flow_series(const struct engine_result *flow, int n,
		       struct engine_result *res)
{
	char name[SERIES_NAME_MAX];
	size_t j, p;
	int k;
	for (k = 0; k < n; k++)
		for (j = 0; j < flow[k].series.n; j++) {
			const struct series *s = &flow[k].series.s[j];
			struct series *d;
			snprintf(name, sizeof name, "%.80s.flow%d", s->name,
				 k + 1);
			d = series_set_get(&res->series, s->host, name,
					   s->unit);
			for (p = 0; d && p < s->n; p++)
				if (series_add(d, s->t[p], s->v[p]) < 0)
					d = NULL;
			if (!d)
				return -XR_ENOMEM;
		}
	return 0;
}

/* The run's status and reason: ok when every flow is; an interrupted
 * flow makes the run interrupted (run again on resume), else the first
 * failed flow's status; the reason names each failed flow. */
static void status_of(const struct engine_result *flow, int n, const int *ports,
		      struct engine_result *res)
{
	struct buf r = BUF_INIT;
	int k, first = -1;
	res->status = RUN_OK;
	res->exit_code = 0;
	for (k = 0; k < n; k++) {
		if (flow[k].status == RUN_OK)
			continue;
		if (first < 0) {
			first = k;
			res->status = flow[k].status;
			res->exit_code = flow[k].exit_code;
		}
		if (flow[k].status == RUN_INTERRUPTED)
			res->status = RUN_INTERRUPTED;
		buf_addf(&r, "%sflow %d of %d (port %d): %s", r.len ? "; " : "",
			 k + 1, n, ports[k],
			 flow[k].reason[0] ? flow[k].reason
					   : run_status_name(flow[k].status));
	}
	if (first >= 0)
		engine_result_set_reason(res, "%s", r.s);
	buf_release(&r);
}

/* The flows' outputs one after another, flow 1 first. */
static char *joined(const struct engine_result *flow, int n, int err,
		    size_t *len)
{
	struct buf b = BUF_INIT;
	int k;
	for (k = 0; k < n; k++) {
		const char *s = err ? flow[k].err_text : flow[k].raw;
		size_t l = err ? flow[k].err_len : flow[k].raw_len;
		if (!s)
			continue;
		if (b.len)
			buf_addc(&b, '\n');
		buf_add(&b, s, l ? l : strlen(s));
	}
	return buf_detach(&b, len);
}

int iperf3_flows_merge(const struct engine_result *flow, int n,
		       const int *ports, struct engine_result *res)
{
	char num[32];
	struct buf pl = BUF_INIT;
	int k, i, rc = 0;

	status_of(flow, n, ports, res);
	res->started_at = flow[0].started_at;
	for (k = 0; k < n; k++) {
		if (flow[k].started_at < res->started_at)
			res->started_at = flow[k].started_at;
		if (flow[k].elapsed > res->elapsed)
			res->elapsed = flow[k].elapsed;
		if (flow[k].out_cut > res->out_cut)
			res->out_cut = flow[k].out_cut;
		buf_addf(&pl, "%s%d", k ? "," : "", ports[k]);
	}
	res->raw = joined(flow, n, 0, &res->raw_len);
	res->err_text = joined(flow, n, 1, &res->err_len);
	if (res->status == RUN_OK)
		rc |= run_metrics(flow, n, res);
	rc |= flow_metrics(flow, n, res);
	for (i = 0; i < flow[0].nobserved; i++)
		rc |= engine_result_add_observed(res, flow[0].observed[i].key,
						 flow[0].observed[i].value);
	snprintf(num, sizeof num, "%d", n);
	rc |= engine_result_add_observed(res, "flows", num);
	rc |= engine_result_add_observed(res, "ports", pl.s);
	buf_release(&pl);
	if (rc || !res->raw || !res->err_text)
		return -XR_ENOMEM;
	if (res->status == RUN_OK && sum_intervals(flow, n, res) < 0)
		return -XR_ENOMEM;
	return flow_series(flow, n, res);
}
