/* The run's latency metrics (runner/exec/latency_probe.c latency_metrics)
 * from a probe's summary, as `xrun run` stores them. The summary is that
 * of unit/test_latprobe's summary case (20 probes 0.1 s apart from t =
 * -0.55, rtt k+1 ms, replies 2, 8 and 9 lost; the engine from 0 to
 * 1.6 s), worked by hand there and with python3's statistics.quantiles(
 * method="inclusive"): idle p50 4 ms; loaded p50 14.5, p90 18.9, p99
 * 19.89 ms; 2 of the 8 probes sent in [0, 0.8 s] lost. Written here as
 * latprobe_summarise gives it (that test checks that), so that this one
 * checks the metrics alone: stored in base units, seconds, and the loss
 * in percent, 2 / 8 * 100 = 25 (not the share 0.25 under the unit %).
 *
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <string.h>

#include "engine.h"
#include "latency_probe.h"
#include "latprobe.h"
#include "tap.h"

static const struct engine_metric *find(const struct engine_result *r,
					const char *name)
{
	for (int i = 0; i < r->nmetrics; i++)
		if (!strcmp(r->metrics[i].name, name))
			return &r->metrics[i];
	return NULL;
}

static void is_metric(const struct engine_result *r, const char *name,
		      double want, const char *unit)
{
	const struct engine_metric *m = find(r, name);
	ok(m && fabs(m->value - want) <= 1e-12 * fmax(1, fabs(want)) &&
	       !strcmp(m->unit, unit),
	   "%s = %.17g %s (got %.17g %s)", name, want, unit, m ? m->value : NAN,
	   m ? m->unit : "-");
}

int main(void)
{
	struct latprobe_summary s = {
	    .n_idle = 5,
	    .n_loaded = 12,
	    .idle_p50 = 0.004,
	    .loaded_p50 = 0.0145,
	    .loaded_p90 = 0.0189,
	    .loaded_p99 = 0.01989,
	    .increase_p50 = 0.0145 - 0.004,
	    .loss = 2.0 / 8,
	    .sent_loaded = 8,
	    .lost_loaded = 2,
	};
	struct engine_result res;

	tap_plan(8);
	memset(&res, 0, sizeof res);
	latency_metrics(&s, &res);
	is_metric(&res, "latency.idle_p50", 0.004, "s");
	is_metric(&res, "latency.loaded_p50", 0.0145, "s");
	is_metric(&res, "latency.loaded_p90", 0.0189, "s");
	is_metric(&res, "latency.loaded_p99", 0.01989, "s");
	is_metric(&res, "latency.increase_p50", 0.0105, "s");
	is_metric(&res, "latency.loss", 25, "%");
	is_int(res.nmetrics, 6, "six metrics");
	engine_result_release(&res);

	/* no reply: the summary's NaNs add nothing */
	s.idle_p50 = s.loaded_p50 = s.loaded_p90 = s.loaded_p99 = NAN;
	s.increase_p50 = s.loss = NAN;
	memset(&res, 0, sizeof res);
	latency_metrics(&s, &res);
	is_int(res.nmetrics, 0, "no reply: no latency metric");
	engine_result_release(&res);
	return tap_done();
}
