/*
 * The plan's latency probe in the run loop (`latency:`, schema/plan.md
 * "Latency under load"): started with the run's lead-in (the sampler's
 * and the probe's idle phase are one wait), marked when the engine
 * starts, stopped right after it ends; its replies become the series
 * latency.rtt and the run's latency.* metrics. Private to runner/exec.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef XR_LATENCY_PROBE_H
#define XR_LATENCY_PROBE_H

struct runctx;
struct engine_result;
struct series_set;
struct xr_err;
struct latprobe;

struct latency_run {
	struct latprobe *p; /* NULL: the plan has no probe */
};

/*
 * Start the plan's probe (if any), wait for its first reply (at most its
 * idle phase and LATENCY_START_S), then its idle phase from that reply;
 * check the probe got replies (the samplers, started before it, wait for
 * their own lead-in after it: one wait, the longer). timeout: the
 * engine's deadline for the run (<= 0: none). 0 (at once without a
 * probe); -XR_EINTR when interrupted; -XR_EENV when the probe cannot run
 * (err says why: the run fails with it). On < 0 nothing is left running.
 */
int latency_lead_in(struct runctx *rc, double timeout, struct latency_run *lr,
		    struct xr_err *err);
/* The engine starts now. */
void latency_mark(struct latency_run *lr);
/*
 * The engine has ended: stop the probe, add latency.rtt to ss and the
 * metrics latency.idle_p50, .loaded_p50, .loaded_p90, .loaded_p99,
 * .increase_p50 (s) and latency.loss (%) to res. No probe: nothing.
 */
void latency_finish(struct runctx *rc, struct latency_run *lr,
		    struct series_set *ss, struct engine_result *res);
/*
 * The run's latency metrics from a probe's summary, as latency_finish
 * stores them: the percentiles in s (as the summary has them), the loss in
 * % (the summary's 0..1 share times 100); a value the summary lacks (NaN)
 * is not added.
 */
struct latprobe_summary;
void latency_metrics(const struct latprobe_summary *s,
		     struct engine_result *res);
/* Stop without keeping anything (the run was not started). */
void latency_abort(struct latency_run *lr);

#endif
