/*
 * What one run observes besides the engine's answer: counters before and
 * after, the samplers of its hosts with their idle lead-in, the store's
 * flusher writing their points during the run, the latency probe marked
 * at the engine's start and stopped at its end (observe.h). Split from
 * runloop.c, which keeps the order of a run and what is stored.
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "counters.h"
#include "engine.h"
#include "exec.h"
#include "host.h"
#include "latency_probe.h"
#include "observe.h"
#include "plan.h"
#include "proc.h"
#include "runctx.h"
#include "sampler.h"
#include "series.h"
#include "banned.h"

/* A failed snapshot's words into the run's note: when before (0 after)
 * the run, on which host, why. */
static void snap_note(struct snaps *s, int before, const struct xr_err *e)
{
	size_t k = strlen(s->note);
	if (k + 4 < sizeof s->note)
		snprintf(s->note + k, sizeof s->note - k,
			 "%scounters %s the run not read: %.200s",
			 k ? "; " : "", before ? "before" : "after",
			 e->msg[0] ? e->msg : "failed");
}

void observe_snap_before(struct runctx *rc, struct snaps *s)
{
	int k;
	memset(s, 0, sizeof *s);
	if (!rc->p->counters)
		return;
	if (rc->client_hi >= 0)
		s->hi[s->n++] = rc->client_hi;
	if (rc->server_hi >= 0 && rc->server_hi != rc->client_hi)
		s->hi[s->n++] = rc->server_hi;
	for (k = 0; k < s->n; k++) {
		struct xr_err e = {0};
		if (counters_snapshot(rc->hosts[s->hi[k]],
				      runctx_iface(rc, s->hi[k]),
				      rc->p->counters, &s->before[k], &e) == 0)
			continue;
		s->before[k] = NULL;
		if (e.code == XR_EENV || e.code == XR_EUSAGE)
			snprintf(s->fail, sizeof s->fail, "%.250s", e.msg);
		else
			snap_note(s, 1, &e);
	}
}

/* Take the after-snapshots and fill sc[] (rows owned by caller). */
size_t observe_snap_after(struct runctx *rc, struct snaps *s,
			  struct store_counters *sc, struct counter_row **rows)
{
	size_t n = 0;
	int k;
	for (k = 0; k < s->n; k++) {
		struct counters_snap *after = NULL;
		struct xr_err e = {0};
		size_t nr = 0;
		rows[k] = NULL;
		if (!s->before[k])
			continue;
		if (counters_snapshot(rc->hosts[s->hi[k]],
				      runctx_iface(rc, s->hi[k]),
				      rc->p->counters, &after, &e) < 0) {
			snap_note(s, 0, &e);
			counters_snap_free(s->before[k]);
			continue;
		}
		if (counters_delta(s->before[k], after, &rows[k], &nr) == 0) {
			sc[n].host = rc->p->hosts[s->hi[k]].name;
			sc[n].rows = rows[k];
			sc[n].n = nr;
			n++;
		}
		counters_snap_free(after);
		counters_snap_free(s->before[k]);
	}
	return n;
}

/* The time a far-side sampler may take to send its first snapshot: a new
 * ssh session's key exchange and authentication on a loaded machine. */
#define SAMPLER_START_S 5.0

/* A far sampler's lead-in point may come this much later than its
 * schedule (the far side's sleep and the transport) before the run goes
 * on without it. */
#define SAMPLER_LEAD_LATE_S 1.0

/* The samplers' own lead-in (sampler_lead_s); none without sampling. The
 * run loop waits for their points rather than a time: a point taken as
 * the engine starts on a loaded machine came at t = 0.004 instead of
 * t < 0 when the wait was a sleep with a margin. */
static double observe_sampler_lead(const struct plan *p)
{
	if (p->sample <= 0 || !p->counters)
		return 0;
	return sampler_lead_s(p->sample);
}

double exec_lead_in(const struct plan *p)
{
	/* counters: none reads no counter, before, after or during. */
	double lead = observe_sampler_lead(p);
	/* the latency probe's idle phase is waited with it (lead_in) */
	if (p->latency.probe && p->latency.idle > lead)
		lead = p->latency.idle;
	return lead;
}

double exec_wait_before(const struct plan *p)
{
	double lead = exec_lead_in(p);
	return p->settle > lead ? p->settle : lead;
}

/*
 * Start a sampler on the client and the server host; the idle lead-in
 * they want so that the series show the link before the engine goes to
 * sm->lead: observe_samplers_lead waits for it, after the latency probe's
 * idle phase. A sampler that cannot start is noted; the run goes on.
 */
int observe_samplers_start(struct runctx *rc, const struct engine_request *rq,
			   struct samplers *sm)
{
	const struct plan *p = rc->p;
	double period = p->sample, lead = observe_sampler_lead(p), max_s, until;
	int hi[2], nh = 0, k;

	memset(sm, 0, sizeof *sm);
	if (lead <= 0)
		return 0;
	if (rc->client_hi >= 0)
		hi[nh++] = rc->client_hi;
	if (rc->server_hi >= 0 && rc->server_hi != rc->client_hi)
		hi[nh++] = rc->server_hi;
	max_s = (rq->timeout > 0 ? rq->timeout : 86400) + lead + 60;
	for (k = 0; k < nh; k++) {
		struct xr_err err = {0};
		const char *label = p->hosts[hi[k]].name;
		if (sampler_start(rc->hosts[hi[k]], label,
				  runctx_iface(rc, hi[k]), p->counters, period,
				  max_s, &sm->s[sm->n], &err) == 0) {
			sm->n++;
			continue;
		}
		if (!rc->o->quiet)
			fprintf(stderr, "xrun: warning: %s\n", err.msg);
		snprintf(sm->set.note + strlen(sm->set.note),
			 sizeof sm->set.note - strlen(sm->set.note), "%s%.200s",
			 sm->set.note[0] ? "; " : "", err.msg);
	}
	sm->lead = sm->n ? lead : 0;
	/* The lead-in counts from the far sides' first snapshots
	 * (sampler_wait_first); an interrupt is seen by the lead-in's wait */
	until = proc_now_mono() + SAMPLER_START_S;
	for (k = 0; k < sm->n; k++)
		if (sampler_wait_first(sm->s[k], until) < 0)
			break;
	return 0;
}

int observe_samplers_lead(struct samplers *sm)
{
	double until = proc_now_mono() + sm->lead + SAMPLER_LEAD_LATE_S;
	int k;
	for (k = 0; k < sm->n; k++)
		if (sampler_wait_lead(sm->s[k], until) < 0)
			return -XR_EINTR;
	return 0;
}

/* What the store's flusher thread writes while the run goes on: the
 * samplers' points since its last call (store_flusher_start). */
static int samplers_peek(void *ctx, struct series_set *dst)
{
	struct samplers *sm = ctx;
	int k, r = 0;
	for (k = 0; r == 0 && k < sm->n; k++)
		r = sampler_peek_new(sm->s[k], dst);
	return r;
}

/* Stop the run's flusher (before its samplers); a failed flush is told,
 * the series are stored whole with the run anyway. */
static void flush_stop(struct runctx *rc, struct store_flusher *fl)
{
	char why[256];
	store_flusher_stop(fl, why, sizeof why);
	if (why[0] && !rc->o->quiet) {
		progress_clear(rc);
		fprintf(stderr, "xrun: warning: %s\n", why);
	}
}

void observe_samplers_stop(struct samplers *sm)
{
	int k;
	for (k = 0; k < sm->n; k++)
		sampler_stop(sm->s[k], &sm->set);
	sm->n = 0;
	if (getenv("XRUN_SERIES_DUMP"))
		sampler_dump(&sm->set, stderr);
}

/* The engine's run i: its samplers and latency probe marked at its start
 * (t = 0 of their series), the samplers' points flushed to the store
 * while it runs, the probe and the samplers stopped at its end: the
 * engine's answer. */
int observe_run_engine(struct runctx *rc, size_t i, struct engine_request *rq,
		       struct samplers *sm, struct latency_run *lat,
		       struct engine_result *res)
{
	struct store_flusher *fl = NULL;
	int k, r;
	for (k = 0; k < sm->n; k++)
		sampler_mark(sm->s[k]);
	latency_mark(lat);
	if (sm->n)
		fl = store_flusher_start(rc->st, runctx_row(rc, i),
					 STORE_FLUSH_PERIOD, samplers_peek, sm);
	r = rc->eng->run(rc->eng_state, rc->p, rq, res);
	flush_stop(rc, fl);
	latency_finish(rc, lat, &sm->set, res);
	observe_samplers_stop(sm);
	return r;
}
