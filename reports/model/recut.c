/*
 * A report re-cut without re-running (issue 35): `xrun report PLAN` takes
 * the report settings of the plan file when they differ from the text
 * stored with the runs (the runs themselves must be the same ones: a
 * changed factor, level or engine is refused, it needs a new session),
 * and `--compare FACTOR[=BASELINE]` / `--accept sequential` set the
 * comparisons on the command line. The report says which: the sentence
 * in r->about.recut, the options as they were given.
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model_int.h"
#include "arena.h"
#include "buf.h"
#include "plan.h"
#include "suggest.h"
#include "banned.h"

static int oom(struct xr_err *err)
{
	return xr_err_set(err, XR_ENOMEM, NULL, 0, 0, "out of memory");
}

int model_recut_plan(struct model_build *m, struct xr_err *err)
{
	const struct report_opts *o = m->o;
	struct buf why = BUF_INIT;
	int r;
	if (!o->plan || !m->plan)
		return 0;
	if (plan_runs_differ(m->plan, o->plan, &why)) {
		r = xr_err_set(err, XR_ECHANGED, o->plan_file, 0, 0,
			       "%s since the runs in '%s': its report "
			       "settings cannot apply to them (a changed "
			       "factor, level or engine needs a new session: "
			       "xrun run --new-session; the stored runs as "
			       "they were: xrun report --db %s)",
			       why.s ? why.s : "the plan changed",
			       m->r->about.db_path, m->r->about.db_path);
		buf_release(&why);
		return r;
	}
	buf_release(&why);
	if (plan_report_same(&m->plan->report, &o->plan->report))
		return 0;
	/* the file's strings live as long as o->plan: report_build's call */
	m->plan->report = o->plan->report;
	m->r->about.settings_from = arena_strdup(m->a, o->plan_file);
	return m->r->about.settings_from ? 0 : oom(err);
}

int model_recut_note(struct model_build *m)
{
	struct report *r = m->r;
	const struct report_opts *o = m->o;
	int ja = MODEL_JA(m);
	struct buf b = BUF_INIT;
	if (r->about.settings_from)
		buf_addf(&b,
			 ja ? "レポートの設定は %s から（実行の後に変更された"
			      "ファイル）。"
			    : "Report settings from %s, changed since the "
			      "runs.",
			 r->about.settings_from);
	if (o->cli_options && *o->cli_options)
		buf_addf(&b,
			 ja ? "%s比較はコマンドラインの指定による: %s"
			    : "%sComparisons as given on the command line: "
			      "%s",
			 b.len ? " " : "", o->cli_options);
	if (b.len && !(r->about.recut = arena_strdup(m->a, b.s))) {
		buf_release(&b);
		return -1;
	}
	if (o->cli_options && *o->cli_options &&
	    !(r->about.recut_options = arena_strdup(m->a, o->cli_options))) {
		buf_release(&b);
		return -1;
	}
	buf_release(&b);
	return 0;
}

static int usage(struct report *r, struct xr_err *err, const char *arg,
		 const char *what, const char *word, const char *const *names,
		 int n)
{
	struct suggest s;
	struct buf list = BUF_INIT;
	const char *best;
	int i, rc;
	(void)r;
	suggest_init(&s, word, 0);
	for (i = 0; i < n; i++) {
		suggest_add(&s, names[i]);
		buf_addf(&list, "%s%s", i ? ", " : "", names[i]);
	}
	best = suggest_best(&s);
	rc = xr_err_set(err, XR_EUSAGE, NULL, 0, 0,
			"--compare '%s': unknown %s '%s' (%s%s%svalid: %s)",
			arg, what, word, best ? "did you mean '" : "",
			best ? best : "", best ? "'? " : "",
			list.s ? list.s : "none");
	buf_release(&list);
	return rc;
}

/* --compare FACTOR[=BASELINE] as a comparison of the report's factors. */
static int parse_one(struct model_build *m, const char *arg,
		     struct plan_compare *pc, struct xr_err *err)
{
	struct report *r = m->r;
	const char *eq = strchr(arg, '=');
	const char *names[MAX_FACTORS];
	char *f = arena_strdup(m->a, arg);
	int fi, k;
	if (!f)
		return oom(err);
	if (eq)
		f[eq - arg] = '\0';
	for (k = 0; k < r->nfactors && k < MAX_FACTORS; k++)
		names[k] = r->factors[k].name;
	if ((fi = report_factor_index(r, f)) < 0)
		return usage(r, err, arg, "factor", f, names, k);
	memset(pc, 0, sizeof *pc);
	pc->factor = r->factors[fi].name;
	if (!eq)
		return 0;
	for (k = 0; k < r->factors[fi].nlevels; k++)
		if (!strcmp(r->factors[fi].levels[k], eq + 1))
			pc->baseline = r->factors[fi].levels[k];
	if (!pc->baseline)
		return usage(r, err, arg, "level", eq + 1,
			     (const char *const *)r->factors[fi].levels,
			     r->factors[fi].nlevels);
	return 0;
}

int model_recut_compares(struct model_build *m, struct xr_err *err)
{
	const struct report_opts *o = m->o;
	struct report *r = m->r;
	struct plan_compare *v;
	int i, n = 0, rc;
	if (!o->ncompare && !o->accept_sequential)
		return 0;
	if (o->ncompare)
		n = o->ncompare;
	else if (m->plan && m->plan->report.ncompare)
		n = m->plan->report.ncompare;
	else /* the default comparisons: each factor with two levels */
		for (i = 0; i < r->nfactors; i++)
			n += r->factors[i].nlevels == 2;
	v = arena_alloc(m->a, ((size_t)n + 1) * sizeof *v);
	if (!v)
		return oom(err);
	for (i = 0; i < n && o->ncompare; i++)
		if ((rc = parse_one(m, o->compare[i], &v[i], err)) < 0)
			return rc;
	if (!o->ncompare && m->plan && m->plan->report.ncompare)
		memcpy(v, m->plan->report.compare, (size_t)n * sizeof *v);
	else if (!o->ncompare)
		for (i = 0, n = 0; i < r->nfactors; i++)
			if (r->factors[i].nlevels == 2) {
				memset(&v[n], 0, sizeof v[n]);
				v[n++].factor = r->factors[i].name;
			}
	for (i = 0; i < n && o->accept_sequential; i++)
		v[i].accept_sequential = 1;
	m->compare = v;
	m->ncompare = n;
	return 0;
}
