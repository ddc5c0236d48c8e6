/*
 * `xrun status [PLAN | --db FILE]`: where a plan's latest session stands,
 * read from the store without taking its lock (it works while xrun runs):
 * per manual block the done / failed / pending counts, the manual steps
 * still pending with their instructions expanded, the failures with
 * their reasons, and the ok runs no verdict can stand on (a setting
 * verified wrong or never verified). The plan is read back from the text stored
 * with the session, so --db alone is enough.
 *
 * SPDX-License-Identifier: MIT
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "buf.h"
#include "cellctx.h"
#include "cmd.h"
#include "catalog.h"
#include "xr_err.h"
#include "exec.h"
#include "utf8.h"
#include "manual.h"
#include "plan.h"
#include "run_status.h"
#include "store.h"
#include "banned.h"

#define STATUS_FAILURES_PER_BLOCK 5

static void fmt_time(double t, char *out, size_t n)
{
	time_t s = (time_t)t;
	struct tm tm;
	if (t <= 0 || !localtime_r(&s, &tm)) {
		snprintf(out, n, "-");
		return;
	}
	strftime(out, n, "%Y-%m-%d %H:%M:%S", &tm);
}

/* Levels of a cell JSON as indices; 0 when every factor resolves,
 * -XR_EPARSE for a cell that is no JSON object, -XR_EPLAN for a level the
 * plan does not have (any more). */
static int cell_levels(const struct plan *p, const char *cell, uint32_t *lv)
{
	json_t *o = json_loads(cell, 0, NULL);
	int f, bad = 0;
	if (!o)
		return -XR_EPARSE;
	for (f = 0; f < p->nfactors; f++) {
		const char *v =
		    json_string_value(json_object_get(o, p->factors[f].name));
		int l = v ? plan_level_index(&p->factors[f], v) : -1;
		if (l < 0)
			bad = 1;
		lv[f] = l < 0 ? 0 : (uint32_t)l;
	}
	json_decref(o);
	return bad ? -XR_EPLAN : 0;
}

/* "os=windows11 slot=pcie4x1" for the manual factors of a cell. */
static void block_label(const struct plan *p, const char *cell, struct buf *b)
{
	json_t *o = json_loads(cell, 0, NULL);
	int f, any = 0;
	for (f = 0; p && o && f < p->nfactors; f++) {
		const char *v;
		if (!p->factors[f].manual)
			continue;
		v = json_string_value(json_object_get(o, p->factors[f].name));
		buf_addf(b, "%s%s=%s", any ? " " : "", p->factors[f].name,
			 v ? v : "?");
		any = 1;
	}
	if (!any)
		buf_adds(b, "no manual factors");
	json_decref(o);
}

static void print_step(void *arg, const struct plan_factor *f,
		       const char *level, const char *text)
{
	(void)arg;
	printf("    manual step: %s=%s: %s\n", f->name, level, text);
}

static void print_manual(const struct plan *p, const char *cell,
			 long long session)
{
	uint32_t *lv = calloc((size_t)p->nfactors + 1, sizeof *lv);
	struct cellctx c;
	if (!lv || cell_levels(p, cell, lv) < 0) {
		free(lv);
		return;
	}
	cellctx_init(&c, p, lv);
	c.session = session;
	manual_steps(&c, NULL, print_step, NULL);
	cellctx_release(&c);
	free(lv);
}

static int print_failure(void *ctx, const struct store_run_row *r)
{
	struct buf b = BUF_INIT;
	(void)ctx;
	/* #index and block numbers as `xrun plan` prints them; the reason
	 * may quote an engine's stderr, shown, not obeyed (utf8_term). */
	printf("    %s: #%lld %s rep %d: %s\n", r->status_name,
	       (long long)r->position, r->cell, r->rep,
	       r->reason ? utf8_term(&b, r->reason) : "(no reason recorded)");
	buf_release(&b);
	return 0;
}

/* A pending run with a reason is where a session stopped: its host was
 * lost and did not answer again (docs/run.md, "Lost connections"). */
static int print_stop(void *ctx, const struct store_run_row *r)
{
	(void)ctx;
	printf("stopped at #%lld %s rep %d: %s\n", (long long)r->position,
	       r->cell, r->rep, r->reason);
	return 0;
}

static int print_stops(struct store *st, int64_t sid, struct xr_err *err)
{
	struct store_run_filter f = {0};
	f.sessions = &sid;
	f.nsessions = 1;
	f.block = -1;
	f.statuses = STORE_STATUS_BIT(RUN_PENDING);
	f.with_reason = 1;
	f.limit = 1;
	return store_runs_each(st, &f, print_stop, NULL, err);
}

static int print_failures(struct store *st, int64_t sid, int64_t block,
			  struct xr_err *err)
{
	struct store_run_filter f = {0};
	f.sessions = &sid;
	f.nsessions = 1;
	f.block = block;
	f.statuses = STORE_STATUS_BIT(RUN_FAILED) |
		     STORE_STATUS_BIT(RUN_TIMEOUT) |
		     STORE_STATUS_BIT(RUN_INTERRUPTED);
	f.limit = STATUS_FAILURES_PER_BLOCK;
	return store_runs_each(st, &f, print_failure, NULL, err);
}

/*
 * A session marked running is either being run now or was killed. The lock
 * file says which without touching the lock: a live xrun's pid is in it
 * (a clean exit empties it).
 */
static void print_liveness(struct store *st)
{
	struct buf lp = BUF_INIT, text = BUF_INIT, comm = BUF_INIT;
	long pid;
	buf_addf(&lp, "%s.lock", store_path(st));
	/* An empty lock file (a later xrun exited cleanly, e.g. refusing
	 * a changed plan) reads as no text at all. */
	if (buf_read_file(&text, lp.s, 4096) == 0 && text.s &&
	    sscanf(text.s, "%ld", &pid) == 1 && pid > 0) {
		buf_reset(&lp);
		buf_addf(&lp, "/proc/%ld/comm", pid);
		if (buf_read_file(&comm, lp.s, 256) == 0 &&
		    !strncmp(comm.s, "xrun", 4))
			printf("xrun pid %ld is running it now\n", pid);
		else
			printf("the xrun that ran it (pid %ld) is gone: run "
			       "the plan again to resume\n",
			       pid);
	} else {
		printf("no xrun is running it: run the plan again to "
		       "resume\n");
	}
	buf_release(&lp);
	buf_release(&text);
	buf_release(&comm);
}

/* The ok runs no verdict can stand on (docs/run.md, `xrun status`):
 * "verification: 9 of 9 ok runs with a setting verified wrong, 0 with a
 * setting never verified"; nothing when the plan has no setting and no
 * run was verified wrong. */
static int print_verify(struct store *st, const struct plan *p, int64_t sid,
			int64_t nok, struct xr_err *err)
{
	struct buf names = BUF_INIT;
	int64_t wrong, unverified;
	int f, settings = 0;
	if (exec_verify_counts(st, p, sid, &wrong, &unverified, &names, err) <
	    0) {
		buf_release(&names);
		return -1;
	}
	for (f = 0; f < p->nfactors; f++)
		settings |=
		    p->factors[f].apply.argc > 0 || p->factors[f].manual;
	if (settings || wrong)
		printf(
		    "verification: %lld of %lld ok runs with a setting "
		    "verified wrong, %lld with a setting never verified%s%s%s"
		    "\n",
		    (long long)wrong, (long long)nok, (long long)unverified,
		    unverified && names.len ? " (no verify declared: " : "",
		    unverified && names.len ? names.s : "",
		    unverified && names.len ? ")" : "");
	buf_release(&names);
	return 0;
}

struct block_print {
	struct store *st;
	const struct plan *p; /* NULL when the stored plan did not load */
	int64_t session;
	int64_t listed; /* runs of the blocks printed */
	struct xr_err *err;
};

static int print_block(void *ctx, const struct store_block_row *b)
{
	struct block_print *c = ctx;
	struct buf lab = BUF_INIT;
	c->listed += b->nruns;
	block_label(c->p, b->cell ? b->cell : "{}", &lab);
	printf("block %lld (%s): %lld runs: %lld done, %lld failed, "
	       "%lld pending\n",
	       (long long)b->block, lab.s, (long long)b->nruns,
	       (long long)b->done, (long long)b->failed, (long long)b->pending);
	buf_release(&lab);
	if (b->pending && c->p && b->pending_cell)
		print_manual(c->p, b->pending_cell, (long long)c->session);
	return print_failures(c->st, c->session, b->block, c->err);
}

/* One line per sized cell: the decision and, once stopped, its outcome. */
static int print_sizing(void *ctx, const struct store_sizing_row *r)
{
	int *n = ctx;
	char reached[32] = "-", done[16] = "-";
	if (!(*n)++)
		printf("sizing (precision %g%%, max %d): cell: pilot, need -> "
		       "planned; done, precision reached, stopped\n",
		       r->precision * 100, r->max);
	if (r->reached == r->reached)
		snprintf(reached, sizeof reached, "%.2f%%", r->reached * 100);
	if (r->runs_done >= 0)
		snprintf(done, sizeof done, "%d", r->runs_done);
	printf("  %s: pilot %d, need %d -> %d; done %s, reached %s, %s%s\n",
	       r->cell ? r->cell : "{}", r->pilot_n, r->need, r->planned, done,
	       reached, r->stopped ? r->stopped : "running",
	       r->stopped && !strcmp(r->stopped, "max") &&
		       r->reached > r->precision
		   ? " (precision not achieved)"
		   : "");
	return 0;
}

static int cmd_status_report_session(struct store *st,
				     const struct store_session *ss)
{
	struct plan *p = NULL;
	struct xr_diag diag;
	struct xr_err err = {0};
	struct block_print bp;
	char t1[32], t2[32];
	int64_t tot[STORE_RUN_STATUSES];
	int nsized = 0;

	xr_diag_init(&diag, "stored plan");
	if (ss->plan_text &&
	    plan_load_mem("stored plan", ss->plan_text, strlen(ss->plan_text),
			  catalog_builtin(), &p, &diag) < 0)
		p = NULL;
	xr_diag_release(&diag);

	fmt_time(ss->started_at, t1, sizeof t1);
	fmt_time(ss->updated_at, t2, sizeof t2);
	printf("plan '%s', session %lld: %s (started %s, last update %s)\n",
	       ss->plan_name, (long long)ss->id, ss->status, t1, t2);
	printf("db %s\n", store_path(st));
	if (!strcmp(ss->status, "running"))
		print_liveness(st);

	if (store_run_counts(st, ss->id, tot, &err) < 0)
		goto fail;
	printf("runs: %lld: %lld ok, %lld failed, %lld timeout, %lld "
	       "interrupted, %lld skipped, %lld pending",
	       (long long)ss->nruns, (long long)tot[RUN_OK],
	       (long long)tot[RUN_FAILED], (long long)tot[RUN_TIMEOUT],
	       (long long)tot[RUN_INTERRUPTED], (long long)tot[RUN_SKIPPED],
	       (long long)(tot[RUN_PENDING] + tot[RUN_RUNNING]));
	/* In flight now, or left 'running' by a killed xrun (redone). */
	if (tot[RUN_RUNNING])
		printf(" (%lld of them started: running now, or to redo)",
		       (long long)tot[RUN_RUNNING]);
	printf("\n");
	if (p && print_verify(st, p, ss->id, tot[RUN_OK], &err) < 0)
		goto fail;
	if (print_stops(st, ss->id, &err) < 0)
		goto fail;
	status_print_eta(st, ss, p);

	bp.st = st;
	bp.p = p;
	bp.session = ss->id;
	bp.err = &err;
	bp.listed = 0;
	if (store_blocks_each(st, ss->id, print_block, &bp, &err) < 0)
		goto fail;
	if (store_sizing_each(st, ss->id, print_sizing, &nsized, &err) < 0)
		goto fail;
	/* A large session's rows are made as it reaches them: the rest of
	 * its schedule is pending without a row (schema/store.md). */
	if (bp.listed < ss->nruns)
		printf("later in the schedule: %lld runs, pending (not reached "
		       "yet)\n",
		       (long long)(ss->nruns - bp.listed));
	plan_free(p);
	return 0;
fail:
	xr_err_print(&err, "xrun");
	plan_free(p);
	return 3;
}

struct status_args {
	const char *db;
};

static const struct opt_def status_options[] = {
    {"db", 0, "FILE", "the store to read (default: ./<plan name>.db)",
     OPT_STRING, offsetof(struct status_args, db), NULL, 0},
    {0},
};

/* A store of shards (xrun merge of `run --shard` stores): which are in,
 * which are missing. */
static int cmd_status_report_shards(struct store *st)
{
	struct strv in = {0}, gaps = {0};
	struct xr_err err = {0};
	size_t i;
	int r = store_shards_check(st, &in, &gaps, &err);
	if (r < 0) {
		xr_err_print(&err, "xrun");
		return 3;
	}
	for (i = 0; i < in.n; i++)
		printf("%s\n", in.v[i]);
	for (i = 0; i < gaps.n; i++)
		printf("%s\n", gaps.v[i]);
	if (in.n && !gaps.n)
		printf("shards: complete\n");
	strv_release(&in);
	strv_release(&gaps);
	return 0;
}

static int cmd_status(int argc, char **argv)
{
	struct status_args a = {0};
	const char *db, *plan_path;
	struct buf path = BUF_INIT;
	struct store *st = NULL;
	struct store_session ss = {0};
	struct xr_err err = {0};
	char plan_name[128] = "";
	int r, ret = 0;
	if ((r = opt_parse(&cmd_status_spec, argc, argv, &a)) < 0)
		return opt_exit(r);
	db = a.db;
	plan_path = r ? argv[1] : NULL;
	if (plan_path) {
		struct plan *p = NULL;
		struct xr_diag diag;
		xr_diag_init(&diag, plan_path);
		r = plan_load(plan_path, catalog_builtin(), &p, &diag);
		if (r < 0) {
			if (diag.n || diag.nlost)
				xr_diag_print(&diag, stderr);
			xr_diag_release(&diag);
			return 2;
		}
		xr_diag_release(&diag);
		snprintf(plan_name, sizeof plan_name, "%s", p->name);
		if (!db)
			store_default_path(p->name, &path);
		plan_free(p);
	}
	if (db)
		buf_adds(&path, db);
	else if (!plan_path && cmd_embedded_db(&path) < 0)
		return 2; /* the embedded demo, as `xrun run` with no plan */
	if (store_open(path.s, STORE_READONLY, &st, &err) < 0) {
		xr_err_print(&err, "xrun");
		buf_release(&path);
		return xr_code_exit(err.code);
	}
	r = store_session_latest(st, plan_name[0] ? plan_name : NULL, &ss,
				 &err);
	if (r < 0) {
		xr_err_print(&err, "xrun");
		ret = 3;
	} else if (r == 0) {
		printf("no session%s%s%s in %s yet\n",
		       plan_name[0] ? " of plan '" : "", plan_name,
		       plan_name[0] ? "'" : "", path.s);
	} else {
		ret = cmd_status_report_session(st, &ss);
		if (ret == 0)
			ret = cmd_status_report_shards(st);
	}
	store_session_release(&ss);
	store_close(st);
	buf_release(&path);
	return ret;
}

const struct opt_cmd cmd_status_spec = {
    .name = "status",
    .args = "[PLAN]",
    .summary = "where the latest session stands: done / failed / pending per "
	       "manual block, pending manual steps, failures with reasons, "
	       "runs verified wrong or never verified",
    .about = "Reads the store without taking its lock, so it works while "
	     "xrun runs. With no PLAN and no --db: the store of the plan "
	     "compiled into the binary (./loopback.db).",
    .opts = status_options,
    .max_args = 1,
    .fn = cmd_status,
};
