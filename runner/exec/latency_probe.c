/*
 * The plan's latency probe in the run loop (latency_probe.h): which host
 * sends the probes and to which address in the current cell, the shared
 * lead-in wait, and the run's latency metrics from the probe's summary.
 * Everything about the child itself (start, read, stop) is latprobe.c's.
 *
 * SPDX-License-Identifier: MIT
 */
#include "latency_probe.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "engine.h"
#include "host.h"
#include "latprobe.h"
#include "plan.h"
#include "proc.h"
#include "runctx.h"
#include "series.h"
#include "banned.h"

/* The address probes go to: a host's (role or name), else to itself (an
 * IP address, checked by the loader); *toh the host, opened when the
 * probe needs a server there (irtt), else NULL. NULL when the host
 * cannot open. */
static const char *target_address(struct runctx *rc, const char *to,
				  struct host **toh, struct xr_err *err)
{
	int hi = runctx_host_index(rc, to);
	*toh = NULL;
	if (hi < 0)
		return to;
	/* ping needs no more of the target than its address */
	if (rc->p->hosts[hi].address && strcmp(rc->p->latency.probe, "irtt"))
		return rc->p->hosts[hi].address;
	if (hostset_get(rc, hi, err) < 0)
		return NULL;
	*toh = rc->hosts[hi];
	if (rc->p->hosts[hi].address)
		return rc->p->hosts[hi].address;
	return host_address(rc->hosts[hi]);
}

static int start(struct runctx *rc, double timeout, struct latency_run *lr,
		 struct xr_err *err)
{
	const struct plan_latency *l = &rc->p->latency;
	const char *addr;
	struct host *toh;
	double max_s = (timeout > 0 ? timeout : 86400) + l->idle + 60;
	int hi = runctx_host_index(rc, l->from);

	if (hi < 0)
		return xr_err_set(err, XR_EENV, NULL, 0, 0,
				  "latency probe: no host plays '%s' in this "
				  "cell",
				  l->from);
	if (hostset_get(rc, hi, err) < 0 ||
	    !(addr = target_address(rc, l->to, &toh, err)))
		return -XR_EENV;
	return latprobe_start(rc->hosts[hi], toh, rc->p->hosts[hi].name,
			      l->probe, addr, l->interval, max_s, &lr->p, err);
}

/* The time a probe may take to send its first reply, beyond its idle
 * phase: a new ssh session's key exchange and authentication on a loaded
 * machine (the sanitizer suite under -j2 took more than 1 s), irtt's
 * server started over ssh. */
#define LATENCY_START_S 5.0

int latency_lead_in(struct runctx *rc, double timeout, struct latency_run *lr,
		    struct xr_err *err)
{
	const struct plan_latency *l = &rc->p->latency;
	double wait;
	int r;

	lr->p = NULL;
	if (!l->probe)
		return 0;
	if ((r = start(rc, timeout, lr, err)) < 0)
		return r == -XR_ENOMEM || r == -XR_EINTR ? r : -XR_EENV;
	/* The idle phase counts from the first reply */
	r = latprobe_wait_reply(lr->p, LATENCY_START_S + l->idle);
	if (r < 0) {
		latency_abort(lr);
		return -XR_EINTR;
	}
	wait = r ? 0 : l->idle;
	if (wait > 0 && proc_sleep(wait) < 0) {
		latency_abort(lr);
		return -XR_EINTR;
	}
	if (lr->p && latprobe_check(lr->p, err) < 0) {
		latency_abort(lr);
		return -XR_EENV;
	}
	return 0;
}

void latency_mark(struct latency_run *lr)
{
	latprobe_mark(lr->p);
}

static void add(struct engine_result *res, const char *name, double v,
		const char *unit)
{
	if (isfinite(v))
		engine_result_add_metric(res, name, v, unit);
}

void latency_finish(struct runctx *rc, struct latency_run *lr,
		    struct series_set *ss, struct engine_result *res)
{
	struct latprobe_summary s;
	(void)rc;
	if (!lr->p)
		return;
	latprobe_stop(lr->p, ss, &s);
	lr->p = NULL;
	latency_metrics(&s, res);
}

void latency_metrics(const struct latprobe_summary *s,
		     struct engine_result *res)
{
	if (s->unknown) /* not known, and why in the run's notes */
		return;
	/* seconds, as every latency metric is stored (schema/store.md) */
	add(res, "latency.idle_p50", s->idle_p50, "s");
	add(res, "latency.loaded_p50", s->loaded_p50, "s");
	add(res, "latency.loaded_p90", s->loaded_p90, "s");
	add(res, "latency.loaded_p99", s->loaded_p99, "s");
	add(res, "latency.increase_p50", s->increase_p50, "s");
	add(res, "latency.loss", s->loss * 100, "%");
}

void latency_abort(struct latency_run *lr)
{
	struct series_set drop = {0};
	struct latprobe_summary s;
	if (!lr->p)
		return;
	latprobe_stop(lr->p, &drop, &s);
	lr->p = NULL;
	series_set_release(&drop);
}
