/*
 * The catalog handed to the plan loader: the engines and probes that exist
 * (built above this layer by exec_catalog()).
 * Part of the plan's interface: include "plan.h", which includes this
 * file (the header is split only to keep each part short).
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef XR_PLAN_CATALOG_H
#define XR_PLAN_CATALOG_H

#include "xr_err.h"

struct plan;
struct xr_diag;

/*
 * What the loader checks names against: the engines and built-in probes
 * that exist. They live in layers above this one (runner/engine,
 * runner/host), so the caller hands them in: exec_catalog() (runner/exec)
 * builds the program's. With a NULL catalog engine types, engine
 * parameters and probe names are not checked (a plan stored with a session
 * was checked when it ran).
 */
struct plan_engine_desc {
	const char *name; /* "iperf3" */
	/* Validate the engine section and every factor `param:` naming this
	 * engine's parameters; add problems to d. NULL: has_param decides. */
	void (*check)(const struct plan *p, struct xr_diag *d);
	/* Is key a parameter this engine takes? */
	int (*has_param)(const char *key);
	double default_duration; /* engine.duration when unset, seconds */
	/* Takes engine.server (a host it starts a server on) and
	 * engine.target (an address to connect to); needs one of them. */
	int has_server;
	/* Reads engine.run (an argv) and engine.metrics (values extracted
	 * from its output); other engines ignore them. */
	int reads_run;
};
/* engine.duration when no engine says (a plan loaded without a catalog) */
#define PLAN_DEFAULT_DURATION 10.0
struct plan_catalog {
	const struct plan_engine_desc *(*find_engine)(const char *name);
	const char *(*engine_names)(void); /* "iperf3, command" */
	const char *const *probe_names;	   /* NULL-terminated */
	/* latency: probes (runner/host/latprobe.c), NULL-terminated */
	const char *const *latency_probe_names;
};

#endif
