/*
 * `xrun status [PLAN | --db FILE]`: where a plan's latest session stands,
 * read from the store without taking its lock (it works while xrun runs):
 * per manual block the done / failed / pending counts, the manual steps
 * still pending with their instructions expanded, and the failures with
 * their reasons. The plan is read back from the text stored with the
 * session, so --db alone is enough.
 */
#include <jansson.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "buf.h"
#include "cellctx.h"
#include "cmd.h"
#include "catalog.h"
#include "manual.h"
#include "plan.h"
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

/* Levels of a cell JSON as indices; 0 when every factor resolves. */
static int cell_levels(const struct plan *p, const char *cell, uint32_t *lv)
{
	json_t *o = json_loads(cell, 0, NULL);
	int f, bad = 0;
	if (!o)
		return -1;
	for (f = 0; f < p->nfactors; f++) {
		const char *v =
		    json_string_value(json_object_get(o, p->factors[f].name));
		int l = v ? plan_level_index(&p->factors[f], v) : -1;
		if (l < 0)
			bad = 1;
		lv[f] = l < 0 ? 0 : (uint32_t)l;
	}
	json_decref(o);
	return bad ? -1 : 0;
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

static void print_failures(sqlite3 *db, long long sid, long long block)
{
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(db,
			       "SELECT position, cell, rep, status, reason "
			       "FROM runs WHERE session_id = ? AND block = ? "
			       "AND status IN ('failed', 'timeout', "
			       "'interrupted') ORDER BY position LIMIT ?",
			       -1, &s, NULL) != SQLITE_OK)
		return;
	sqlite3_bind_int64(s, 1, sid);
	sqlite3_bind_int64(s, 2, block);
	sqlite3_bind_int(s, 3, STATUS_FAILURES_PER_BLOCK);
	while (sqlite3_step(s) == SQLITE_ROW) {
		const char *reason = (const char *)sqlite3_column_text(s, 4);
		/* #index and block numbers as `xrun plan` prints them. */
		printf("    %s: #%lld %s rep %d: %s\n",
		       sqlite3_column_text(s, 3),
		       (long long)sqlite3_column_int64(s, 0),
		       sqlite3_column_text(s, 1), sqlite3_column_int(s, 2),
		       reason ? reason : "(no reason recorded)");
	}
	sqlite3_finalize(s);
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

static int report_session(struct store *st, const struct store_session *ss)
{
	sqlite3 *db = store_sqlite(st);
	sqlite3_stmt *s;
	struct plan *p = NULL;
	struct xr_diag diag;
	char t1[32], t2[32];
	long long tot[7] = {0};
	static const char *const names[] = {"pending", "running", "ok",
					    "failed",  "timeout", "interrupted",
					    "skipped"};
	int i;

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

	if (sqlite3_prepare_v2(db,
			       "SELECT status, count(*) FROM runs WHERE "
			       "session_id = ? GROUP BY status",
			       -1, &s, NULL) != SQLITE_OK)
		goto fail;
	sqlite3_bind_int64(s, 1, ss->id);
	while (sqlite3_step(s) == SQLITE_ROW)
		for (i = 0; i < 7; i++)
			if (!strcmp((const char *)sqlite3_column_text(s, 0),
				    names[i]))
				tot[i] = sqlite3_column_int64(s, 1);
	sqlite3_finalize(s);
	printf("runs: %lld: %lld ok, %lld failed, %lld timeout, %lld "
	       "interrupted, %lld skipped, %lld pending",
	       (long long)ss->nruns, tot[2], tot[3], tot[4], tot[5], tot[6],
	       tot[0] + tot[1]);
	/* In flight now, or left 'running' by a killed xrun (redone). */
	if (tot[1])
		printf(" (%lld of them started: running now, or to redo)",
		       tot[1]);
	printf("\n");

	if (sqlite3_prepare_v2(
		db,
		"SELECT block, min(position), cell, count(*), "
		"sum(status IN ('ok', 'skipped')), "
		"sum(status IN ('failed', 'timeout')), "
		"sum(status IN ('pending', 'running', 'interrupted')), "
		"(SELECT cell FROM runs r2 WHERE r2.session_id = "
		"runs.session_id AND r2.block = runs.block AND r2.status "
		"IN ('pending', 'running', 'interrupted') ORDER BY "
		"position LIMIT 1) FROM runs WHERE session_id = ? GROUP "
		"BY block ORDER BY block",
		-1, &s, NULL) != SQLITE_OK)
		goto fail;
	sqlite3_bind_int64(s, 1, ss->id);
	while (sqlite3_step(s) == SQLITE_ROW) {
		long long block = sqlite3_column_int64(s, 0);
		const char *cell = (const char *)sqlite3_column_text(s, 2);
		const char *pcell = (const char *)sqlite3_column_text(s, 7);
		long long pend = sqlite3_column_int64(s, 6);
		struct buf lab = BUF_INIT;
		block_label(p, cell ? cell : "{}", &lab);
		printf("block %lld (%s): %lld runs: %lld done, %lld failed, "
		       "%lld pending\n",
		       block, lab.s, (long long)sqlite3_column_int64(s, 3),
		       (long long)sqlite3_column_int64(s, 4),
		       (long long)sqlite3_column_int64(s, 5), pend);
		if (pend && p && pcell)
			print_manual(p, pcell, (long long)ss->id);
		print_failures(db, ss->id, block);
		buf_release(&lab);
	}
	sqlite3_finalize(s);
	plan_free(p);
	return 0;
fail:
	fprintf(stderr, "xrun: cannot read '%s': %s\n", store_path(st),
		sqlite3_errmsg(db));
	plan_free(p);
	return 3;
}

int cmd_status(int argc, char **argv)
{
	const char *db = NULL, *plan_path = NULL;
	struct buf path = BUF_INIT;
	struct store *st = NULL;
	struct store_session ss = {0};
	struct xr_err err = {0};
	char plan_name[128] = "";
	int i, r, ret = 0;
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--db") && i + 1 < argc)
			db = argv[++i];
		else if (!strncmp(argv[i], "--db=", 5))
			db = argv[i] + 5;
		else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			printf("usage: xrun status [PLAN | --db FILE]\n");
			return 0;
		} else if (argv[i][0] == '-') {
			fprintf(stderr,
				"xrun: unknown option '%s'\nusage: xrun status "
				"[PLAN | --db FILE]\n",
				argv[i]);
			return 2;
		} else
			plan_path = argv[i];
	}
	if (plan_path) {
		struct plan *p = NULL;
		struct xr_diag diag;
		xr_diag_init(&diag, plan_path);
		r = plan_load(plan_path, catalog_builtin(), &p, &diag);
		if (r < 0) {
			if (diag.n)
				xr_diag_print(&diag, stderr);
			xr_diag_release(&diag);
			return 2;
		}
		xr_diag_release(&diag);
		snprintf(plan_name, sizeof plan_name, "%s", p->name);
		if (!db)
			buf_addf(&path, "./%s.db", p->name);
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
		ret = report_session(st, &ss);
	}
	store_session_release(&ss);
	store_close(st);
	buf_release(&path);
	return ret;
}
