/*
 * What one run observes besides the engine's answer (private to
 * runner/exec): the counters before and after it, the samplers of its
 * hosts for the whole run with their idle lead-in, the store's flusher
 * writing their points while it goes on, and the latency probe marked and
 * stopped with the engine (observe.c). runloop.c calls these in order:
 * observe_samplers_start, (lead-in), observe_snap_before,
 * observe_run_engine, observe_snap_after.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef XR_OBSERVE_H
#define XR_OBSERVE_H

#include <stddef.h>

#include "counters.h"
#include "engine.h"
#include "series.h"
#include "store.h"

struct runctx;
struct latency_run;
struct sampler;

/* The counters of a run's client and server hosts before it. */
struct snaps {
	int hi[2];
	int n;
	struct counters_snap *before[2];
	/* a snapshot that failed, for the run's note (issue 40: no silent
	 * drop); fail: the host has no such interface, the run fails with
	 * it */
	char note[384];
	char fail[256];
};

/* The samplers of one run's hosts (plan `sample:`) and what they saw. */
struct samplers {
	struct sampler *s[2];
	int n;
	double lead; /* the idle lead-in they want before the engine, s */
	struct series_set set;
};

/* Take the before-snapshots of the cell's hosts (plan `counters:`). */
/* The counters before the run; a host without the plan's interface
 * leaves why in s->fail (the run fails), another failure a note. */
void observe_snap_before(struct runctx *rc, struct snaps *s);
/* Take the after-snapshots and fill sc[] (rows owned by caller, rows[k]
 * freed by the caller); the number of hosts with a delta. */
size_t observe_snap_after(struct runctx *rc, struct snaps *s,
			  struct store_counters *sc, struct counter_row **rows);
/* Start the samplers of the run's hosts; sm->lead is their lead-in. */
int observe_samplers_start(struct runctx *rc, const struct engine_request *rq,
			   struct samplers *sm);
/* Wait until they have their lead-in's points (at most sm->lead and a
 * second): 0, or -XR_EINTR when interrupted. */
int observe_samplers_lead(struct samplers *sm);
/* Stop them; their series are in sm->set. */
void observe_samplers_stop(struct samplers *sm);
/* Run the engine for run i with samplers, flusher and probe around it. */
int observe_run_engine(struct runctx *rc, size_t i, struct engine_request *rq,
		       struct samplers *sm, struct latency_run *lat,
		       struct engine_result *res);

#endif
