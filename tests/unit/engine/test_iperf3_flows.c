/*
 * Tests of the many-to-one merge (runner/engine/iperf3_flows.c): two
 * recorded iperf3 3.12 runs (tests/data/iperf3/srv_tcp.json and
 * srv_parallel2.json, see its README) as flows 1 and 2 of one run; the
 * run's metrics over the flows, the per-flow metrics and series, the
 * summed intervals, and a failed or interrupted flow failing the run with
 * the flow named. Expected numbers: python3's json module on the same
 * files (printed in the comments), added up by hand.
 *
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "engine.h"
#include "iperf3_flows.h"
#include "iperf3_json.h"
#include "tap.h"

static const char *srcdir(void)
{
	const char *s = getenv("XRUN_SOURCE_DIR");
	return s ? s : XRUN_SOURCE_DIR;
}

static int load(const char *name, struct engine_result *res)
{
	struct buf path = BUF_INIT, b = BUF_INIT;
	struct iperf3_report r;
	struct xr_err err = {0};
	int rc = -1;
	memset(res, 0, sizeof *res);
	buf_addf(&path, "%s/tests/data/iperf3/%s", srcdir(), name);
	if (buf_read_file(&b, path.s, 0) == 0 &&
	    iperf3_json_parse(b.s, b.len, &r, &err) == 0) {
		snprintf(r.client_host, sizeof r.client_host, "cli");
		snprintf(r.server_host, sizeof r.server_host, "srv");
		rc = iperf3_report_to_result(&r, res);
		res->status = rc == 0 ? RUN_OK : RUN_FAILED;
		res->raw = strdup(name);
		iperf3_report_release(&r);
	}
	ok(rc == 0, "%s loads", name);
	buf_release(&path);
	buf_release(&b);
	return rc;
}

static const struct engine_metric *metric(const struct engine_result *res,
					  const char *name)
{
	int i;
	for (i = 0; i < res->nmetrics; i++)
		if (strcmp(res->metrics[i].name, name) == 0)
			return &res->metrics[i];
	return NULL;
}

static double mval(const struct engine_result *res, const char *name)
{
	const struct engine_metric *m = metric(res, name);
	return m ? m->value : NAN;
}

static const char *observed(const struct engine_result *res, const char *key)
{
	int i;
	for (i = 0; i < res->nobserved; i++)
		if (strcmp(res->observed[i].key, key) == 0)
			return res->observed[i].value;
	return NULL;
}

static const int ports[] = {5301, 5302};

/* end.sum_received.bits_per_second: 19287079885.39526 (srv_tcp) and
 * 4658169652.903923 (srv_parallel2); retransmits 10 and 7; bytes
 * 4844290048 and 1192755200; streams[].sender rtt (us): mean 35, min 31,
 * max 39 and (3571, 962, 6181), (2422, 1284, 3560); the server's
 * intervals (runt left out) 5067570266.82544, 33341002710.31382 and
 * 6030438915.8788, 3280486437.833545. */
static void test_sum(void)
{
	struct engine_result f[2], res;
	if (load("srv_tcp.json", &f[0]) < 0 ||
	    load("srv_parallel2.json", &f[1]) < 0)
		return;
	memset(&res, 0, sizeof res);
	is_int(iperf3_flows_merge(f, 2, ports, &res), 0, "merge");
	is_int(res.status, RUN_OK, "both ok: run ok");
	is_str(res.nmetrics ? res.metrics[0].name : "", "throughput",
	       "throughput is the primary metric");
	is_near(mval(&res, "throughput"), 19287079885.39526 + 4658169652.903923,
		1e-3, "throughput = flow1 + flow2");
	is_near(mval(&res, "throughput.flow1"), 19287079885.39526, 1e-3,
		"throughput.flow1");
	is_near(mval(&res, "throughput.flow2"), 4658169652.903923, 1e-3,
		"throughput.flow2");
	is_near(mval(&res, "retransmits"), 17, 0, "retransmits summed");
	is_near(mval(&res, "retransmits.flow2"), 7, 0, "retransmits.flow2");
	is_near(mval(&res, "bytes"), 4844290048.0 + 1192755200.0, 0,
		"bytes summed");
	/* end.cpu_utilization_percent.host_total 16.3554078940326 and
	 * 10.500217528388676: the busiest process, not a sum */
	is_near(mval(&res, "cpu_host"), 16.3554078940326, 1e-9,
		"cpu_host: the busiest client");
	is_near(mval(&res, "rtt_min"), 31e-6, 1e-12, "rtt_min: the least");
	is_near(mval(&res, "rtt_max"), 6181e-6, 1e-12, "rtt_max: the most");
	/* flow 1: 35; flow 2: (3571 + 2422) / 2 = 2996.5; mean 1515.75 */
	is_near(mval(&res, "rtt_mean"), 1515.75e-6, 1e-12,
		"rtt_mean: the flows' mean");
	is_str(metric(&res, "rtt_mean.flow1")
		   ? metric(&res, "rtt_mean.flow1")->unit
		   : "",
	       "s", "per-flow unit kept");
	is_int(res.nintervals, 2, "2 summed intervals");
	if (res.nintervals == 2) {
		is_near(res.iv_value[0], 5067570266.82544 + 6030438915.8788,
			1e-3, "interval 1 = flow1 + flow2");
		is_near(res.iv_value[1], 33341002710.31382 + 3280486437.833545,
			1e-3, "interval 2 = flow1 + flow2");
		is_near(res.iv_end[0], 1.000039, 1e-9, "flow 1's times");
	}
	is_str(res.iv_host, "srv", "intervals on the server");
	ok(series_set_find(&res.series, "cli", "engine.rtt.flow1") &&
	       series_set_find(&res.series, "cli", "engine.rtt.flow2") &&
	       !series_set_find(&res.series, NULL, "engine.rtt"),
	   "series per flow");
	is_str(observed(&res, "flows"), "2", "observed flows");
	is_str(observed(&res, "ports"), "5301,5302", "observed ports");
	is_str(res.raw, "srv_tcp.json\nsrv_parallel2.json",
	       "raw: both outputs, flow 1 first");
	engine_result_release(&res);
	engine_result_release(&f[0]);
	engine_result_release(&f[1]);
}

/* A failed flow fails the run, named; the other flow keeps its own
 * metrics, the run has none of its own. */
static void test_fail(void)
{
	struct engine_result f[2], res;
	if (load("srv_tcp.json", &f[0]) < 0)
		return;
	memset(&f[1], 0, sizeof f[1]);
	f[1].status = RUN_FAILED;
	f[1].exit_code = 1;
	engine_result_set_reason(&f[1], "iperf3: unable to connect to server: "
					"Connection refused");
	memset(&res, 0, sizeof res);
	is_int(iperf3_flows_merge(f, 2, ports, &res), 0, "merge a failure");
	is_int(res.status, RUN_FAILED, "a failed flow fails the run");
	is_int(res.exit_code, 1, "its exit code");
	is_str(res.reason,
	       "flow 2 of 2 (port 5302): iperf3: unable to connect to "
	       "server: Connection refused",
	       "the reason names the flow");
	ok(!metric(&res, "throughput") && metric(&res, "throughput.flow1"),
	   "no run throughput; flow 1's kept");
	is_int(res.nintervals, 0, "no intervals");
	engine_result_release(&res);

	/* flow 1 timed out, flow 2 interrupted: interrupted (run again on
	 * resume), both named */
	engine_result_release(&f[0]);
	memset(&f[0], 0, sizeof f[0]);
	f[0].status = RUN_TIMEOUT;
	f[1].status = RUN_INTERRUPTED;
	f[1].reason[0] = '\0';
	memset(&res, 0, sizeof res);
	iperf3_flows_merge(f, 2, ports, &res);
	is_int(res.status, RUN_INTERRUPTED, "an interrupted flow: interrupted");
	is_str(res.reason,
	       "flow 1 of 2 (port 5301): timeout; flow 2 of 2 (port 5302): "
	       "interrupted",
	       "every failed flow named");
	engine_result_release(&res);
	engine_result_release(&f[0]);
	engine_result_release(&f[1]);
}

/* UDP loss over the flows: 1 of 100 and 9 of 300 packets lost are 10 of
 * 400, 2.5 % (the mean of 1 % and 3 % would be 2 %). The run's
 * lost_packets is that sum, 1 + 9 = 10 (explain reads it as the flow's
 * own losses per second), not the worst flow's 9. */
static void test_loss(void)
{
	struct engine_result f[2], res;
	memset(f, 0, sizeof f);
	memset(&res, 0, sizeof res);
	for (int k = 0; k < 2; k++) {
		f[k].status = RUN_OK;
		engine_result_add_metric(&f[k], "throughput", 1e6 * (k + 1),
					 "bit/s");
		engine_result_add_metric(&f[k], "lost_packets", k ? 9 : 1, "1");
		engine_result_add_metric(&f[k], "packets", k ? 300 : 100, "1");
		engine_result_add_metric(&f[k], "lost_percent", k ? 3 : 1, "%");
		engine_result_add_metric(&f[k], "jitter", k ? 3e-3 : 1e-3, "s");
	}
	iperf3_flows_merge(f, 2, ports, &res);
	is_near(mval(&res, "lost_percent"), 2.5, 1e-12,
		"lost_percent from the summed packets");
	is_near(mval(&res, "lost_packets"), 10, 0,
		"lost_packets: 1 + 9, the flows' sum");
	is_near(mval(&res, "packets"), 400, 0, "packets: 100 + 300");
	is_near(mval(&res, "jitter"), 2e-3, 1e-15, "jitter: the mean");
	is_near(mval(&res, "throughput"), 3e6, 0, "throughput summed");
	engine_result_release(&res);
	engine_result_release(&f[0]);
	engine_result_release(&f[1]);
}

int main(void)
{
	tap_plan(39);
	test_sum();
	test_fail();
	test_loss();
	return tap_done();
}
