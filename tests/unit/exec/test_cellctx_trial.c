/*
 * A rate search's trial as an engine request (cellctx.c, schema/plan.md
 * "Rate search"): the search's parameter set to the trial's load, and
 * the goal's trial duration in place of engine.duration ("it replaces
 * engine.duration for trials"), with the timeout that follows from it.
 *
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cellctx.h"
#include "plan.h"
#include "sched_fixture.h"
#include "tap.h"

static const char *param_of(const struct engine_request *rq, const char *k)
{
	int i;
	for (i = 0; i < rq->nparams; i++)
		if (!strcmp(rq->params[i].key, k))
			return rq->params[i].value;
	return NULL;
}

int main(void)
{
	struct plan *p = fx_plan(); /* iperf3, engine.duration 10 s */
	uint32_t lv[1] = {0};	    /* no factors */
	struct cellctx c;
	struct cellctx_request r;
	struct xr_err e;
	int rc;
	tap_plan(7);
	p->engine.omit = 1;
	cellctx_init(&c, p, lv);
	c.load_param = "bitrate";
	c.load_value = "194450000";
	c.trial_duration = 0.5;
	rc = cellctx_request(&c, &r, &e);
	is_int(rc, 0, "a trial's request");
	is_str(param_of(&r.rq, "bitrate"), "194450000",
	       "bitrate is the trial's load");
	is_near(r.rq.duration, 0.5, 0, "the goal's 0.5 s, not engine's 10 s");
	/* 0.5 + omit 1 + the margin (10 s) = 11.5 s, not 10 + 1 + 10 */
	is_near(r.rq.timeout, 0.5 + 1 + CELLCTX_TIMEOUT_MARGIN, 1e-12,
		"timeout 11.5 s from the trial's duration");
	cellctx_request_release(&r);
	/* Not a trial: engine.duration as planned. */
	c.load_param = c.load_value = NULL;
	c.trial_duration = 0;
	rc = cellctx_request(&c, &r, &e);
	is_int(rc, 0, "a plain run's request");
	is_near(r.rq.duration, 10, 0, "a plain run lasts engine.duration");
	ok(!param_of(&r.rq, "bitrate"), "and sets no bitrate");
	cellctx_request_release(&r);
	cellctx_release(&c);
	arena_free(p->arena);
	return tap_done();
}
