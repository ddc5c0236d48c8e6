/*
 * The dry run of `xrun plan` (runner/cli/cmd_plan.c, which parses the
 * command line, calls this and hands it stdout), shared by its two forms:
 * the schedule, the hosts as the run resolves them, the per-run time
 * estimate and the manual instructions of each block (dry.c), rendered as
 * JSON (dry_json.c) or for a reader (dry_human.c) into the caller's
 * stream. A layer beside exec: it asks exec's own functions (cellctx,
 * manual steps, the run's seconds) what a run would do, and does none.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef XR_DRY_H
#define XR_DRY_H

#include <stddef.h>
#include <stdint.h>

#include "matrix.h"
#include "shard.h"
#include "xr_sched.h"

struct buf;
struct cellctx;
struct fastout;
struct plan;
struct xr_err;

/* Above this many cells the per-cell argv cache is not worth its memory. */
#define DRY_ARGV_CACHE_MAX 200000

struct frag {
	char *s; /* "factor":"level" */
	size_t n;
};

struct dry {
	const struct plan *p;
	struct matrix m;
	struct sched s;
	struct frag **frag; /* [nfactors][nlevels] */
	const char *db;	    /* --db: the store to measure from, or NULL */
	uint32_t shard_k, shard_n; /* --shard K/N (set by the caller), or 0 */
	struct shard_plan shard;   /* the units, when shard_n */
	double overhead;	   /* per-run overhead used in the estimate */
	size_t overhead_from;	   /* runs it was measured on; 0: the default */
	double lead_in;		   /* the samplers' lead-in (exec_lead_in) */
	double per_run;		   /* duration + omit + the longer of settle
				      and the lead-in + overhead */
	double estimate;	   /* seconds for every run */
	size_t nwarmup;
	/* The hosts as the run resolves them (cellctx_hosts_needed,
	 * host_plan_address): what {{client}}, {{server}}, the target and
	 * {{iface}} become. */
	char *need;  /* [nhosts] */
	char **addr; /* [nhosts] address of each needed host, else NULL */
	int client_hi, server_hi;
};

/* Fills d for plan p (d->db, the store to measure the overhead from, is
 * the one field the caller sets first). 0 or -XR_E*; dry_release frees d
 * either way. */
int dry_build(struct dry *d, const struct plan *p, struct xr_err *err);
void dry_release(struct dry *d);
/* The context of run i, with the hosts' addresses as the runner gives
 * them. OUT: cellctx_release it. */
void dry_cellctx(const struct dry *d, struct cellctx *c, size_t i);
/* {"factor":"level",...} of cell lv. */
void dry_out_cell(struct fastout *o, const struct dry *d, const uint32_t *lv);
/* The host of each role in cell lv ("client=a server=b", or json pairs). */
void dry_role_hosts(const struct plan *p, const uint32_t *lv, int json,
		    struct buf *out);
/* Whether a block's runs share their hosts (every binding factor manual). */
int dry_hosts_per_block(const struct plan *p);
/* The manual instructions for entering block b, "; "- or JSON-joined. */
void dry_block_instructions(const struct dry *d, size_t b, struct buf *out,
			    int json);
/* Whether the plan's latency probe has xrun start a server of its own on
 * the target (irtt toward a host or role; not toward an IP address). */
int dry_latency_server(const struct plan *p);
/* Whether any engine template depends on more than the cell. */
int dry_engine_per_run(const struct plan *p);
/* A word, or argv, as a reader would paste it into a shell. */
void dry_add_word(struct buf *b, const char *w);
void dry_add_argv(struct buf *b, char *const *argv);

/* The two forms: one JSON object (schema/plan.md, Scheduling), or text. */
void dry_write_json(struct fastout *o, const struct dry *d);
int dry_write_human(struct fastout *o, const struct dry *d, struct xr_err *err);

#endif
