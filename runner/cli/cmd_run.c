/*
 * `xrun run` (and `xrun PLAN`): the command line, the session and resume.
 * Loads and schedules the plan, opens (or creates) its store under an
 * exclusive lock, and decides what to continue: the latest unfinished
 * session with the same cells is resumed (finished runs kept, runs left
 * 'running' or 'interrupted' redone in their own row), a plan whose cells
 * changed is refused with what changed, a finished session is reported
 * complete. Then runloop.c executes; this file prints the summary, writes
 * the plan's report outputs and turns the outcome into the exit status
 * (docs/run.md).
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "buf.h"
#include "cmd.h"
#include "engine.h"
#include "catalog.h"
#include "plan.h"
#include "proc.h"
#include "render.h"
#include "runctx.h"
#include "sha256.h"
#include "units.h"
#include "banned.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: xrun run [PLAN] [--db FILE] [--only FACTOR=LEVEL]... "
		"[--unattended] [--yes] [--new-session] [--quiet]\n");
}

/* ---- what changes the runs ------------------------------------------- */

static const char *order_name(enum plan_order o)
{
	return o == PLAN_ORDER_RANDOM	    ? "random"
	       : o == PLAN_ORDER_SEQUENTIAL ? "sequential"
					    : "abba";
}

/*
 * The cells description: everything that decides which runs exist and in
 * which order (factors and levels, manual or not, exclusions, repeat,
 * order, the seed when order is random, warm-up, engine type). Its hash
 * identifies a session's schedule; the text lets a refusal say what
 * changed. Durations, params and hooks are not in it: changing them does
 * not move runs, and the plan text stored with each session records them.
 */
static void cells_desc(const struct plan *p, struct buf *b)
{
	int f, i, k, j;
	buf_adds(b, "{\"engine\":");
	buf_add_json_str(b, p->engine.type);
	buf_adds(b, ",\"factors\":[");
	for (f = 0; f < p->nfactors; f++) {
		const struct plan_factor *fa = &p->factors[f];
		buf_adds(b, f ? ",{\"name\":" : "{\"name\":");
		buf_add_json_str(b, fa->name);
		buf_addf(b, ",\"manual\":%s,\"levels\":[",
			 fa->manual ? "true" : "false");
		for (i = 0; i < fa->nlevels; i++) {
			if (i)
				buf_addc(b, ',');
			buf_add_json_str(b, fa->levels[i]);
		}
		buf_adds(b, "]}");
	}
	buf_adds(b, "],\"exclude\":[");
	for (i = 0; i < p->nexcludes; i++) {
		const struct plan_exclude *e = &p->excludes[i];
		buf_adds(b, i ? ",{" : "{");
		for (k = 0; k < e->nterms; k++) {
			const struct plan_factor *fa =
			    &p->factors[e->factor[k]];
			if (k)
				buf_addc(b, ',');
			buf_add_json_str(b, fa->name);
			buf_adds(b, ":[");
			for (j = 0; j < e->nlv[k]; j++) {
				if (j)
					buf_addc(b, ',');
				buf_add_json_str(b, fa->levels[e->lv[k][j]]);
			}
			buf_addc(b, ']');
		}
		buf_addc(b, '}');
	}
	buf_addf(b, "],\"repeat\":%d,\"order\":\"%s\",\"warmup\":%d", p->repeat,
		 order_name(p->order), p->warmup);
	if (p->order == PLAN_ORDER_RANDOM)
		buf_addf(b, ",\"seed\":%llu", (unsigned long long)p->seed);
	buf_addc(b, '}');
}

static const char *str_or(const char *s, const char *d)
{
	return s ? s : d;
}

static json_t *find_factor(json_t *factors, const char *name)
{
	size_t i;
	json_t *f;
	json_array_foreach(factors, i, f)
	{
		if (!strcmp(
			str_or(json_string_value(json_object_get(f, "name")),
			       ""),
			name))
			return f;
	}
	return NULL;
}

static void levels_text(json_t *levels, struct buf *b)
{
	size_t i;
	json_t *v;
	buf_addc(b, '[');
	json_array_foreach(levels, i, v)
	{
		buf_adds(b, i ? ", " : "");
		buf_adds(b, str_or(json_string_value(v), "?"));
	}
	buf_addc(b, ']');
}

static const char *factor_name(json_t *f)
{
	return str_or(json_string_value(json_object_get(f, "name")), "?");
}

static int factor_names_same_order(json_t *a, json_t *b)
{
	size_t i;
	if (json_array_size(a) != json_array_size(b))
		return 0;
	for (i = 0; i < json_array_size(a); i++)
		if (strcmp(factor_name(json_array_get(a, i)),
			   factor_name(json_array_get(b, i))) != 0)
			return 0;
	return 1;
}

static void factor_names_text(json_t *factors, struct buf *b)
{
	size_t i;
	json_t *f;
	buf_addc(b, '[');
	json_array_foreach(factors, i, f)
	{
		buf_adds(b, i ? ", " : "");
		buf_adds(b, factor_name(f));
	}
	buf_addc(b, ']');
}

/* One line per difference between two cells descriptions. */
static void describe_changes(const char *olds, const char *news,
			     struct buf *out)
{
	json_t *o = json_loads(olds ? olds : "{}", 0, NULL);
	json_t *n = json_loads(news, 0, NULL);
	json_t *of, *nf, *f;
	static const char *const keys[] = {"engine", "repeat", "order",
					   "seed",   "warmup", "exclude"};
	size_t i;
	if (!o || !n) {
		buf_adds(out, "  the schedule differs\n");
		goto out;
	}
	of = json_object_get(o, "factors");
	nf = json_object_get(n, "factors");
	json_array_foreach(nf, i, f)
	{
		const char *name =
		    json_string_value(json_object_get(f, "name"));
		json_t *g = find_factor(of, str_or(name, ""));
		if (!g) {
			buf_addf(out, "  factor '%s' added\n", name);
			continue;
		}
		if (!json_equal(json_object_get(f, "levels"),
				json_object_get(g, "levels"))) {
			buf_addf(out, "  factor '%s' levels changed: ", name);
			levels_text(json_object_get(g, "levels"), out);
			buf_adds(out, " -> ");
			levels_text(json_object_get(f, "levels"), out);
			buf_addc(out, '\n');
		}
		if (!json_equal(json_object_get(f, "manual"),
				json_object_get(g, "manual")))
			buf_addf(out, "  factor '%s' is now %s\n", name,
				 json_is_true(json_object_get(f, "manual"))
				     ? "manual"
				     : "automatic");
	}
	json_array_foreach(of, i, f)
	{
		const char *name =
		    json_string_value(json_object_get(f, "name"));
		if (!find_factor(nf, str_or(name, "")))
			buf_addf(out, "  factor '%s' removed\n", name);
	}
	for (i = 0; i < sizeof keys / sizeof keys[0]; i++) {
		json_t *a = json_object_get(o, keys[i]);
		json_t *b = json_object_get(n, keys[i]);
		char *as, *bs;
		if ((!a && !b) || (a && b && json_equal(a, b)))
			continue;
		as = a ? json_dumps(a, JSON_ENCODE_ANY | JSON_COMPACT) : NULL;
		bs = b ? json_dumps(b, JSON_ENCODE_ANY | JSON_COMPACT) : NULL;
		buf_addf(out, "  %s changed: %s -> %s\n", keys[i],
			 as ? as : "(none)", bs ? bs : "(none)");
		free(as);
		free(bs);
	}
	if (!out->len && !factor_names_same_order(of, nf)) {
		/* Same factors, another order: the matrix order changes. */
		buf_adds(out, "  factor order changed: ");
		factor_names_text(of, out);
		buf_adds(out, " -> ");
		factor_names_text(nf, out);
		buf_addc(out, '\n');
	}
	if (!out->len)
		buf_adds(out, "  the schedule differs\n");
out:
	json_decref(o);
	json_decref(n);
}

/* ---- options --------------------------------------------------------- */

static int parse_only(const struct plan *p, const char *arg, struct run_only *o)
{
	const char *eq = strchr(arg, '=');
	char name[128];
	int f, l, i;
	if (!eq || eq == arg || (size_t)(eq - arg) >= sizeof name) {
		fprintf(stderr, "xrun: --only '%s' is not FACTOR=LEVEL\n", arg);
		return -1;
	}
	snprintf(name, sizeof name, "%.*s", (int)(eq - arg), arg);
	if ((f = plan_factor_index(p, name)) < 0) {
		fprintf(stderr,
			"xrun: --only: unknown factor '%s' (factors:", name);
		for (i = 0; i < p->nfactors; i++)
			fprintf(stderr, " %s", p->factors[i].name);
		fprintf(stderr, ")\n");
		return -1;
	}
	if ((l = plan_level_index(&p->factors[f], eq + 1)) < 0) {
		fprintf(stderr,
			"xrun: --only: factor '%s' has no level '%s' (levels:",
			name, eq + 1);
		for (i = 0; i < p->factors[f].nlevels; i++)
			fprintf(stderr, " %s", p->factors[f].levels[i]);
		fprintf(stderr, ")\n");
		return -1;
	}
	o->factor = f;
	o->level = (uint32_t)l;
	return 0;
}

/* ---- session --------------------------------------------------------- */

static int insert_pending(struct runctx *rc, int64_t plan_id, const char *hash,
			  const char *desc, const char *argv_json,
			  struct xr_err *err)
{
	const struct plan *p = rc->p;
	struct buf cell = BUF_INIT;
	size_t i;
	int r;
	if ((r = store_begin(rc->st, err)) < 0)
		return r;
	if ((r = store_session_create(rc->st, plan_id, hash, desc, argv_json,
				      &rc->session_id, err)) < 0)
		goto fail;
	for (i = 0; i < rc->s.nruns; i++) {
		const struct sched_run *run = &rc->s.runs[i];
		struct store_pending sp;
		buf_reset(&cell);
		matrix_cell_json(p, matrix_cell(&rc->m, run->cell), &cell);
		sp.position = (uint32_t)i;
		sp.block = run->block;
		sp.block_pos = run->pos;
		/* Pass k holds repetition k+1 of every cell (warm-ups: 0). */
		sp.pass = run->rep ? run->rep - 1 : 0;
		sp.rep = run->rep;
		sp.cell_index = run->cell;
		sp.warmup = run->warmup;
		sp.cell = cell.s;
		if ((r = store_run_pending_add(rc->st, rc->session_id, &sp,
					       err)) < 0)
			goto fail;
	}
	buf_release(&cell);
	return store_commit(rc->st, err);
fail:
	buf_release(&cell);
	store_rollback(rc->st);
	return r;
}

static void argv_json(int argc, char **argv, struct buf *b)
{
	int i;
	buf_adds(b, "[\"xrun\"");
	for (i = 0; i < argc; i++) {
		buf_addc(b, ',');
		buf_add_json_str(b, argv[i]);
	}
	buf_addc(b, ']');
}

/* Runs this invocation means to execute (for the ETA). */
static size_t count_todo(struct runctx *rc)
{
	const struct plan *p = rc->p;
	const uint32_t *first = NULL;
	size_t i, n = 0;
	int f, ok;
	for (i = 0; i < rc->s.nruns; i++) {
		const uint32_t *lv = matrix_cell(&rc->m, rc->s.runs[i].cell);
		if (runctx_run_done(rc->status[i]) ||
		    !runctx_only_match(rc, lv))
			continue;
		ok = 1;
		if (!rc->interactive) {
			if (!first)
				first = lv;
			for (f = 0; f < p->nfactors; f++)
				if (p->factors[f].manual && lv[f] != first[f])
					ok = 0;
		}
		n += ok;
	}
	return n;
}

/* xrun's own CPU time (user + sys), not its children's: what xrun costs
 * the machine it measures (bench/overhead.sh reads it from the summary). */
static double self_cpu(void)
{
	struct rusage ru;
	if (getrusage(RUSAGE_SELF, &ru) != 0)
		return 0;
	return (double)ru.ru_utime.tv_sec + (double)ru.ru_stime.tv_sec +
	       ((double)ru.ru_utime.tv_usec + (double)ru.ru_stime.tv_usec) /
		   1e6;
}

static void summary(struct runctx *rc, double elapsed)
{
	char dur[32];
	size_t i, pending = 0;
	for (i = 0; i < rc->s.nruns; i++)
		if (!runctx_run_done(rc->status[i]))
			pending++;
	units_fmt_duration(elapsed, dur, sizeof dur);
	fprintf(stderr,
		"xrun: %zu run%s this time: %zu ok, %zu failed, %zu timeout%s "
		"in %s; %zu of %zu done; xrun cpu %.3f s; db %s\n",
		rc->n_run, rc->n_run == 1 ? "" : "s", rc->n_ok, rc->n_failed,
		rc->n_timeout, rc->n_interrupted ? ", 1 interrupted" : "", dur,
		rc->s.nruns - pending, rc->s.nruns, self_cpu(),
		store_path(rc->st));
	if (rc->n_blocks_left)
		fprintf(stderr,
			"xrun: %zu run%s in %zu block%s need a manual change "
			"first: left pending (see 'xrun status --db %s')\n",
			rc->n_left, rc->n_left == 1 ? "" : "s",
			rc->n_blocks_left, rc->n_blocks_left == 1 ? "" : "s",
			store_path(rc->st));
}

/* The session's worst outcome: 1 when any of its runs failed. */
static int session_failed(struct runctx *rc)
{
	size_t i;
	for (i = 0; i < rc->s.nruns; i++)
		if (rc->status[i] == RUN_FAILED || rc->status[i] == RUN_TIMEOUT)
			return 1;
	return 0;
}

static void write_reports(struct runctx *rc)
{
	const struct plan *p = rc->p;
	int i;
	for (i = 0; i < p->report.noutputs; i++) {
		struct report_opts ro = {0};
		struct xr_err err = {0};
		ro.session = rc->session_id;
		if (report_write_file(store_path(rc->st), p->report.outputs[i],
				      &ro, &err) < 0)
			fprintf(stderr,
				"xrun: warning: cannot write report '%s': "
				"%s\n",
				p->report.outputs[i], err.msg);
		else if (!rc->o->quiet)
			fprintf(stderr, "xrun: wrote %s\n",
				p->report.outputs[i]);
	}
}

int cmd_run(int argc, char **argv)
{
	struct run_opts o = {0};
	struct runctx rc;
	struct plan *p = NULL;
	struct xr_diag diag;
	struct xr_err err = {0};
	struct store_session last = {0};
	struct buf text = BUF_INIT, desc = BUF_INIT, dbp = BUF_INIT,
		   aj = BUF_INIT, changes = BUF_INIT;
	const char *plan_path = NULL;
	const char **only_args = NULL;
	char cells_hash[65];
	int64_t plan_id = 0;
	int i, nonly = 0, ret = 2, r, resumed = 0;
	double t0;

	memset(&rc, 0, sizeof rc);
	rc.client_hi = rc.server_hi = -1;
	only_args = calloc((size_t)argc + 1, sizeof *only_args);
	if (!only_args)
		return 3;
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--db") && i + 1 < argc)
			o.db_path = argv[++i];
		else if (!strncmp(a, "--db=", 5))
			o.db_path = a + 5;
		else if (!strcmp(a, "--only") && i + 1 < argc)
			only_args[nonly++] = argv[++i];
		else if (!strncmp(a, "--only=", 7))
			only_args[nonly++] = a + 7;
		else if (!strcmp(a, "--unattended"))
			o.unattended = 1;
		else if (!strcmp(a, "--yes") || !strcmp(a, "-y"))
			o.yes = 1;
		else if (!strcmp(a, "--new-session"))
			o.new_session = 1;
		else if (!strcmp(a, "--quiet") || !strcmp(a, "-q"))
			o.quiet = 1;
		else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			usage(stdout);
			free(only_args);
			return 0;
		} else if (!strcmp(a, "--db") || !strcmp(a, "--only")) {
			fprintf(
			    stderr, "xrun: option '%s' needs a value (%s)\n", a,
			    a[2] == 'd' ? "--db FILE" : "--only FACTOR=LEVEL");
			usage(stderr);
			free(only_args);
			return 2;
		} else if (a[0] == '-' && a[1]) {
			fprintf(stderr, "xrun: unknown option '%s'\n", a);
			usage(stderr);
			free(only_args);
			return 2;
		} else if (!plan_path)
			plan_path = a;
		else {
			fprintf(stderr,
				"xrun: one plan at a time ('%s' and "
				"'%s')\n",
				plan_path, a);
			free(only_args);
			return 2;
		}
	}

	/* The plan. */
	xr_diag_init(&diag, plan_path ? plan_path : xr_embedded_plan_name);
	if (plan_path) {
		r = plan_load(plan_path, catalog_builtin(), &p, &diag);
		if (r == 0 && buf_read_file(&text, plan_path, 0) < 0)
			r = -XR_EIO;
	} else {
		r = plan_load_mem(xr_embedded_plan_name, xr_embedded_plan,
				  strlen(xr_embedded_plan), catalog_builtin(),
				  &p, &diag);
		buf_adds(&text, xr_embedded_plan);
	}
	if (diag.n) /* qsort(NULL, 0) trips UBSan in err.c */
		xr_diag_print(&diag, stderr);
	xr_diag_release(&diag);
	if (r < 0) {
		if (!diag.n)
			fprintf(stderr, "xrun: cannot load plan '%s'\n",
				plan_path ? plan_path : xr_embedded_plan_name);
		ret = r == -XR_EIO ? 2 : 2;
		goto out;
	}
	rc.p = p;
	rc.o = &o;
	if (nonly && !(o.only = calloc((size_t)nonly, sizeof *o.only)))
		goto out;
	for (i = 0; i < nonly; i++)
		if (parse_only(p, only_args[i], &o.only[i]) < 0)
			goto out;
	o.nonly = nonly;
	if (!(rc.eng = engine_find(p->engine.type))) {
		fprintf(stderr, "xrun: unknown engine '%s' (known: %s)\n",
			p->engine.type, engine_names());
		goto out;
	}
	if (matrix_build(p, &rc.m, &err) < 0 ||
	    sched_build(p, &rc.m, &rc.s, &err) < 0) {
		xr_err_print(&err, "xrun");
		ret = xr_code_exit(err.code);
		goto out;
	}

	/* The store. */
	if (o.db_path)
		buf_adds(&dbp, o.db_path);
	else
		buf_addf(&dbp, "./%s.db", p->name);
	ret = 3;
	if (store_open(dbp.s, STORE_CREATE | STORE_LOCK, &rc.st, &err) < 0) {
		xr_err_print(&err, "xrun");
		goto out;
	}
	stale_reap(store_lock_previous(rc.st), o.quiet);
	cells_desc(p, &desc);
	sha256_hex(desc.s, desc.len, cells_hash);
	argv_json(argc - 1, argv + 1, &aj);
	if (store_plan_put(rc.st, p->name, p->title, plan_path, p->hash, text.s,
			   &plan_id, &err) < 0 ||
	    store_session_latest(rc.st, p->name, &last, &err) < 0) {
		xr_err_print(&err, "xrun");
		goto out;
	}
	if (last.id && !o.new_session) {
		int same = !strcmp(last.cells_hash, cells_hash);
		int finished = !strcmp(last.status, "done");
		if (!finished && !same) {
			describe_changes(last.cells_desc, desc.s, &changes);
			fprintf(stderr,
				"xrun: the plan changed since session %lld in "
				"'%s' (not finished) in a way that changes "
				"its runs:\n%s"
				"xrun: refusing to mix them; run with "
				"--new-session to start over (the old runs "
				"are kept) or use another --db\n",
				(long long)last.id, dbp.s, changes.s);
			ret = 2;
			goto out;
		}
		if (finished && same) {
			fprintf(stderr,
				"xrun: session %lld of plan '%s' is complete "
				"(%lld runs) in '%s'; nothing to do (use "
				"--new-session to run it again)\n",
				(long long)last.id, p->name,
				(long long)last.nruns, dbp.s);
			ret = 0;
			goto out;
		}
		if (!finished && same) {
			rc.session_id = last.id;
			resumed = 1;
			if (last.plan_id != plan_id)
				store_session_set_plan(rc.st, last.id, plan_id,
						       NULL);
		}
	}
	if (!rc.session_id &&
	    insert_pending(&rc, plan_id, cells_hash, desc.s, aj.s, &err) < 0) {
		xr_err_print(&err, "xrun");
		goto out;
	}
	rc.ids = calloc(rc.s.nruns + 1, sizeof *rc.ids);
	rc.status = calloc(rc.s.nruns + 1, 1);
	if (!rc.ids || !rc.status ||
	    store_runs_load(rc.st, rc.session_id, rc.ids, rc.status, rc.s.nruns,
			    &err) != (int64_t)rc.s.nruns) {
		if (!err.msg[0])
			xr_err_set(&err, XR_ESTORE, dbp.s, 0, 0,
				   "session %lld does not hold the %zu runs "
				   "of the schedule",
				   (long long)rc.session_id, rc.s.nruns);
		xr_err_print(&err, "xrun");
		goto out;
	}
	rc.interactive = !o.unattended && isatty(0);
	rc.n_todo = count_todo(&rc);
	for (i = 0; (size_t)i < rc.s.nruns; i++)
		rc.n_done0 += runctx_run_done(rc.status[i]);
	if (!o.quiet) {
		size_t done = 0, redo = 0;
		for (i = 0; (size_t)i < rc.s.nruns; i++) {
			done += runctx_run_done(rc.status[i]);
			redo += rc.status[i] == RUN_RUNNING ||
				rc.status[i] == RUN_INTERRUPTED;
		}
		if (resumed)
			fprintf(stderr,
				"xrun: resuming session %lld of '%s': %zu of "
				"%zu runs done, %zu to redo; db %s\n",
				(long long)rc.session_id, p->name, done,
				rc.s.nruns, redo, dbp.s);
		else
			fprintf(stderr,
				"xrun: plan '%s': %zu run%s, %d manual "
				"change%s; session %lld; db %s\n",
				p->name, rc.s.nruns, rc.s.nruns == 1 ? "" : "s",
				rc.s.manual_interventions,
				rc.s.manual_interventions == 1 ? "" : "s",
				(long long)rc.session_id, dbp.s);
	}

	store_session_set_status(rc.st, rc.session_id, "running", 0, NULL);
	proc_install_signal_handlers();
	t0 = proc_now_mono();
	r = runloop_execute(&rc);
	{
		size_t left = 0;
		for (i = 0; (size_t)i < rc.s.nruns; i++)
			left += !runctx_run_done(rc.status[i]);
		store_session_set_status(rc.st, rc.session_id,
					 rc.interrupted ? "interrupted"
					 : left		? "incomplete"
							: "done",
					 !rc.interrupted && !left, NULL);
	}
	summary(&rc, proc_now_mono() - t0);
	if (rc.env_error) {
		xr_err_print(&rc.env_err, "xrun");
		ret = rc.interrupted ? 130 : 3;
		goto out;
	}
	if (rc.interrupted || r == -XR_EINTR) {
		fprintf(stderr, "xrun: interrupted; finished runs are stored; "
				"run the same command again to resume\n");
		ret = 130;
		goto out;
	}
	if (r < 0) {
		fprintf(stderr, "xrun: stopped: %s\n", xr_code_name(r));
		ret = xr_code_exit(r);
		goto out;
	}
	write_reports(&rc);
	ret = session_failed(&rc) ? 1 : 0;
out:
	store_session_release(&last);
	if (rc.st)
		store_close(rc.st);
	free(rc.ids);
	free(rc.status);
	sched_release(&rc.s);
	matrix_release(&rc.m);
	plan_free(p);
	free(o.only);
	free(only_args);
	buf_release(&text);
	buf_release(&desc);
	buf_release(&dbp);
	buf_release(&aj);
	buf_release(&changes);
	return ret;
}

int cmd_embedded_db(struct buf *out)
{
	struct plan *p = NULL;
	struct xr_diag d;
	int r;
	xr_diag_init(&d, xr_embedded_plan_name);
	r = plan_load_mem(xr_embedded_plan_name, xr_embedded_plan,
			  strlen(xr_embedded_plan), catalog_builtin(), &p, &d);
	xr_diag_release(&d);
	if (r < 0)
		return -1;
	buf_addf(out, "./%s.db", p->name);
	plan_free(p);
	return 0;
}
