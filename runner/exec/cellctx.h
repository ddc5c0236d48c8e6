/*
 * The context of one run: everything a {{placeholder}} in a plan can name
 * once the schedule has chosen a cell, a repetition and a position, and the
 * engine request built from it. The runner and `xrun plan` both use it, so
 * a dry run shows exactly what the real run will execute.
 *
 * Names resolve in this order: factors (the cell's level), vars, then the
 * built-ins of placeholder.h (rep, index, block, ...).
 *
 * Usage:
 *	struct cellctx c;
 *	cellctx_init(&c, plan, matrix_cell(&m, run->cell));
 *	c.rep = run->rep; c.index = i; c.block = run->block;
 *	c.server = host_address(server);        (optional)
 *	cellctx_request(&c, &rq, &err); ... rq.rq ...
 *	cellctx_request_release(&rq);
 *	cellctx_release(&c);
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef XR_CELLCTX_H
#define XR_CELLCTX_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "engine.h"
#include "xr_err.h"

struct plan;
struct plan_argv;

/* Added to duration + omit when the plan sets no engine timeout. */
#define CELLCTX_TIMEOUT_MARGIN 10.0

struct cellctx {
	/* Set by the caller (cellctx_init zeroes them). */
	const struct plan *plan;
	const uint32_t *lv;   /* [plan nfactors] level indices; borrowed */
	unsigned rep;	      /* 1-based; 0 for a warm-up */
	size_t index;	      /* 0-based position in the schedule */
	unsigned block;	      /* manual block */
	long long session;    /* store session id; 0 in a dry run */
	const char *client;   /* client host address, NULL: from the plan */
	const char *server;   /* server host address, NULL: from the plan */
	const char *original; /* {{original}}: value found before the first
				 change (restore hooks), or NULL */
	const char *iface;    /* {{iface}} of the host a hook runs on
				 (cellctx_iface), NULL: the client's */
	/* A search's trial (schema/plan.md, "Rate search"): load_param
	 * (search.param) is set to load_value, as an engine parameter and
	 * as the placeholder {{load_param}}, and the run lasts
	 * trial_duration seconds. NULL: not a trial. */
	const char *load_param, *load_value;
	double trial_duration;
	/* Private. */
	char num[4][24];
	struct buf addr[3]; /* client, server, target */
	int resolving;	    /* guards {{target}} inside engine.target */
	int target_done;    /* addr[2] holds the target */
};

/*
 * The plan's hosts as a run sees them, for the runner and the dry run
 * alike (with host_plan_address, host.h, for their addresses).
 */
/* The plan host index a name in `on:` or the engine section means
 * ("client" and "server" are the engine's hosts), or -1. */
int cellctx_host_index(const struct plan *p, const char *name);
/* The plan host index role means in cell lv: the host a factor's
 * `hosts:` binds at its level, else as cellctx_host_index; -1 if none. */
int cellctx_role_index(const struct plan *p, const char *role,
		       const uint32_t *lv);
/* need[i] = 1 for each host the run may open, in any cell: the engine's
 * client and server and every host a factor's hooks run on, through
 * every `hosts:` binding. need: [p->nhosts]. */
void cellctx_hosts_needed(const struct plan *p, char *need);
/* The interface of host hi for {{iface}} in its hooks, its counters and
 * probes: its iface:, else the plan var iface, else "lo" when every
 * needed host is this machine (loopback is then where the traffic is),
 * else NULL. */
const char *cellctx_iface(const struct plan *p, const char *need, int hi);

void cellctx_init(struct cellctx *c, const struct plan *p, const uint32_t *lv);
void cellctx_release(struct cellctx *c);

/* A tmpl_lookup_fn; ctx is a struct cellctx. The value stays valid until
 * the next lookup of the same built-in or cellctx_release. */
const char *cellctx_lookup(void *ctx, const char *name);

/* Expand template t into out (appending). -XR_EPLAN naming the
 * placeholder when one resolves to nothing. */
int cellctx_expand(struct cellctx *c, const char *t, struct buf *out,
		   struct xr_err *err);

/* Expand an argv template. OUT: NULL-terminated, caller frees with
 * cellctx_argv_free; NULL on error (err filled) or when a->argv is NULL
 * (err->code 0). */
char **cellctx_argv(struct cellctx *c, const struct plan_argv *a,
		    struct xr_err *err);
void cellctx_argv_free(char **argv);

/* The address the engine connects to: engine.target expanded, else the
 * server host's address, else 127.0.0.1. Valid until cellctx_release. */
const char *cellctx_target(struct cellctx *c, struct xr_err *err);

/* The engine request of the run plus the storage behind it. */
struct cellctx_request {
	struct engine_request rq;
	struct engine_param *params; /* owned; values owned */
	char **run_argv;	     /* owned */
};

/*
 * Build the request: engine section params, then every factor with
 * `param:` overriding or adding its key with the cell's level (a factor
 * on duration/omit/timeout changes those fields too), all expanded;
 * target; duration, omit and the timeout (engine.timeout, else
 * duration + omit + CELLCTX_TIMEOUT_MARGIN); for the command engine the
 * expanded run argv. 0 or negative with err filled.
 */
int cellctx_request(struct cellctx *c, struct cellctx_request *out,
		    struct xr_err *err);
void cellctx_request_release(struct cellctx_request *r);

#endif
