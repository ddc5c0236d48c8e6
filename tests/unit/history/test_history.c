/*
 * The history of a plan's sessions (reports/history/history.c) and what
 * its writers and trend chart print (reports/render/write_history.c,
 * chart_history.c), on a report model built by hand: 8 sessions (ids 11
 * to 18, one a day at 02:00 UTC from 2026-11-20, listed out of order),
 * 3 runs a cell and session at level x (1 - e, 1, 1 + e) bit/s, and a
 * fifth cell run only in the last session:
 *
 *   a=x  100 Mbit/s in 11-14, 90 from 15 (e 0.5%); qdisc_root on client
 *        tbf 300000000 -> tbf 270000000 at 15: the latest the same
 *   a=y  50 throughout, e 2%: the latest not known (its 90% interval is
 *        wider than +-1%, though its estimate is 0)
 *   a=z  100 in 11-17, 90 in 18 (e 1%): the latest a worse change
 *   a=v  100, 90 from 14, 110 from 16 (e 0.5%): two changes, the latest
 *        the same as the segment after the second
 *   a=w  70 in session 18 only: one session
 *
 * Every number expected was computed with python3 and mpmath (Student t
 * quantiles by root-finding on the regularized incomplete beta), from
 * the runs as written here, not from the code; the script is the
 * comment above each number. Also --since and two machines' sessions
 * (the hosts of session_info) kept apart. The runs have no fact sets, so
 * each cell's facts are its sessions' host facts, but at the end, where
 * a=x's runs of session 14 hold a qdisc its host facts lost.
 *
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "chart.h"
#include "history.h"
#include "render.h"
#include "report.h"
#include "tap.h"
#include "banned.h"

#define NS 8
#define NC 5
#define T0 1795140000.0 /* 2026-11-20 02:00 UTC (calendar.timegm) */

static const char *const labels[NC] = {"a=x", "a=y", "a=z", "a=v", "a=w"};
static const double noise[NC] = {0.005, 0.02, 0.01, 0.005, 0};

static double level(int c, int k) /* session index k = 0..7 */
{
	switch (c) {
	case 0:
		return k < 4 ? 100e6 : 90e6;
	case 1:
		return 50e6;
	case 2:
		return k < 7 ? 100e6 : 90e6;
	case 3:
		return k < 3 ? 100e6 : k < 5 ? 90e6 : 110e6;
	default:
		return k == 7 ? 70e6 : 0;
	}
}

static struct report_run runs[NC * NS * 3];
static double vals[NC * NS * 3];
static struct report_cell cells[NC];
static int cell_first[NC + 1], cell_runs[NC * NS * 3];
static struct report_session sinfo[NS];
static struct report_fact facts[2 * NS];
static char qd[NS][32];
static const struct report_fkv kv14[1] = {{"qdisc_root", "tbf 300000000"}};
static const struct report_fset set14 = {1,    14,   "client", "open",
					 NULL, NULL, kv14,     1};
static const struct report_fset *const fset14[1] = {&set14};
static const char *metrics[1] = {"throughput"}, *units[1] = {"bit/s"};

static void build(struct report *r)
{
	/* listed out of time order: the history sorts them */
	static const int order[NS] = {3, 0, 7, 1, 5, 2, 4, 6};
	int c, k, j, n = 0;
	memset(r, 0, sizeof *r);
	r->arena = arena_new();
	for (c = 0; c < NC; c++) {
		cells[c].index = c;
		cells[c].label = labels[c];
		cell_first[c] = n; /* runs are stored cell by cell */
		for (k = 0; k < NS; k++) {
			if (!(level(c, k) > 0))
				continue;
			for (j = 0; j < 3; j++, n++) {
				memset(&runs[n], 0, sizeof runs[n]);
				vals[n] =
				    level(c, k) * (1 + noise[c] * (j - 1));
				runs[n].id = n + 1;
				runs[n].session = 11 + k;
				runs[n].cell = c;
				runs[n].rep = j + 1;
				runs[n].ok = 1;
				runs[n].status = "ok";
				runs[n].vals = &vals[n];
				cell_runs[n] = n;
			}
		}
	}
	for (k = 0; k < NS; k++) {
		int i = order[k];
		sinfo[k].id = 11 + i;
		sinfo[k].plan_hash = "h1";
		sinfo[k].started_at = T0 + 86400.0 * i;
		sinfo[k].hosts = "client=box-a";
		sinfo[k].testbed = NULL;
		snprintf(qd[k], sizeof qd[k], "tbf %d",
			 k < 4 ? 300000000 : 270000000);
		facts[2 * k] =
		    (struct report_fact){11 + k, "client", "hostname", "box-a"};
		facts[2 * k + 1] =
		    (struct report_fact){11 + k, "client", "qdisc_root", qd[k]};
	}
	cell_first[NC] = n;
	r->cells = cells;
	r->ncells = NC;
	r->cell_first = cell_first;
	r->cell_runs = cell_runs;
	r->runs = runs;
	r->nruns = n;
	r->facts = facts;
	r->nfacts = 2 * NS;
	r->span.session_info = sinfo;
	r->span.nsessions = NS;
	r->about.plan_name = "hist";
	r->about.db_path = "hist.db";
	r->met.threshold = 0.01;
	r->met.metric = "throughput";
	r->met.metrics = metrics;
	r->met.metric_units = units;
	r->met.nmetrics = 1;
	r->met.primary = 0;
	r->met.display_unit = "Mbit/s";
	r->met.display_scale = 1e6;
	r->met.higher_is_better = 1;
}

/* What writer w prints for r. OUT: caller frees. */
static char *written(const struct report *r, int w, unsigned fail_on)
{
	char *mem = NULL;
	size_t len = 0;
	struct xr_err err = {0};
	FILE *f = open_memstream(&mem, &len);
	int rc = -1;
	if (!f)
		return NULL;
	if (w == 0)
		rc = report_write_history_json(r, f, &err);
	else if (w == 1)
		rc = report_write_history_csv(r, f, &err);
	else if (w == 2)
		rc = report_write_history_md(r, f, NULL, 0, &err);
	else
		rc = report_write_history_junit(r, fail_on, f, &err);
	fclose(f);
	if (rc < 0) {
		free(mem);
		return NULL;
	}
	return mem;
}

static const struct history_cell *cell(const struct report *r, int c,
				       const char *tb)
{
	int k;
	for (k = 0; k < r->history->ncells; k++)
		if (r->history->cells[k].cell == c &&
		    (!tb || !strcmp(r->history->cells[k].testbed, tb)))
			return &r->history->cells[k];
	return NULL;
}

static void sessions_and_change(const struct report *r)
{
	const struct history_cell *x = cell(r, 0, NULL);
	const struct history_change *c;
	int k, inorder = 1;
	if (!ok(x && x->ns == NS, "a=x: 8 sessions"))
		return;
	for (k = 0; k < NS; k++)
		inorder &= x->s[k].session == 11 + k && x->s[k].n == 3;
	ok(inorder, "oldest first: 11 .. 18, 3 runs each");
	/* exp(mean of the logs) and exp(mean -+ t(0.975, 2) sd / sqrt 3):
	 * t = 4.302652729749462 */
	is_near(x->s[0].value, 99999166.6597222, 1e-4,
		"session 11: geometric mean 99999166.66 bit/s");
	is_near(x->s[0].lo, 98764778.42750491, 1e-4,
		"its 95% interval's low end 98764778.43");
	is_near(x->s[0].hi, 101248982.60141341, 1e-4,
		"its 95% interval's high end 101248982.60");
	ok(!strcmp(x->s[4].changed,
		   "qdisc_root on client: tbf 300000000 -> tbf 270000000"),
	   "session 15's facts changed: '%s'", x->s[4].changed);
	ok(!strcmp(x->s[5].changed, ""), "session 16's: none");
	if (!ok(x->nch == 1, "one change (%d)", x->nch))
		return;
	c = &x->ch[0];
	is_int(c->at, 4, "at index 4");
	is_int((long long)c->session, 15, "at session 15, the first after it");
	ok(c->dir == HISTORY_WORSE, "a drop of throughput is worse");
	/* 100 (90/100 - 1); Welch at 1 - 0.05/4 with df 22 */
	is_near(c->effect_pct, -10.0, 1e-9, "effect -10%");
	is_near(c->lo_pct, -10.425160453123564, 1e-9, "its low end -10.43%");
	is_near(c->hi_pct, -9.572821553746664, 1e-9, "its high end -9.57%");
	if (ok(c->ncauses == 1, "one cause (%d)", c->ncauses)) {
		ok(!strcmp(c->causes[0].host, "client") &&
		       !strcmp(c->causes[0].key, "qdisc_root"),
		   "qdisc_root on client");
		ok(!strcmp(c->causes[0].before, "tbf 300000000"),
		   "before: tbf 300000000 ('%s')", c->causes[0].before);
		ok(!strcmp(c->causes[0].after, "tbf 270000000"),
		   "after: tbf 270000000 ('%s')", c->causes[0].after);
	}
}

static void answers(const struct report *r)
{
	const struct report_history *hs = r->history;
	const struct history_cell *x = cell(r, 0, NULL), *y = cell(r, 1, NULL),
				  *z = cell(r, 2, NULL), *v = cell(r, 3, NULL),
				  *w = cell(r, 4, NULL);
	if (!ok(x && y && z && v && w, "five histories"))
		return;
	/* the cells with two sessions or more: x, y, z, v */
	is_int(hs->ntests, 4, "4 tests (a=w has one session)");
	is_near(hs->alpha, 0.0125, 1e-15, "each at 0.05 / 4");
	is_int(hs->regressions, 1, "one regression (a=z)");
	/* x: sessions 15-17 (9 runs) against 18, pooled, t(0.95, 10) */
	ok(x->answer == HISTORY_SAME, "a=x: the same");
	is_near(x->answer_pct, 0, 1e-9, "a=x: +0%");
	is_near(x->answer_lo, -0.5389191618432757, 1e-9,
		"a=x: 90% interval from -0.54%");
	is_near(x->answer_hi, 0.5418392373202907, 1e-9, "a=x: to +0.54%");
	/* y: 21 runs against 3, t(0.95, 22): [-1.79, +1.82] reaches past
	 * +-1%; the smallest n with t s sqrt(1/21 + 1/n) <= log 1.01 is 15
	 * (python3 counted n up) */
	ok(y->answer == HISTORY_UNKNOWN, "a=y: not known");
	is_near(y->answer_lo, -1.7917027678193702, 1e-9, "a=y: from -1.79%");
	is_near(y->answer_hi, 1.8243904214971665, 1e-9, "a=y: to +1.82%");
	is_int(y->runs_needed, 15, "a=y: 15 runs would settle it");
	/* z: the last session alone, 21 runs against 3, Welch at 0.9875 */
	ok(z->answer == HISTORY_CHANGED && z->nch == 1 && z->ch[0].at == 7 &&
	       z->ch[0].dir == HISTORY_WORSE,
	   "a=z: the latest session is a worse change");
	is_near(z->nch ? z->ch[0].lo_pct : 0, -13.629162904350475, 1e-9,
		"a=z: from -13.63%");
	/* v: changes at 14 and 16; 18 against 16-17 only */
	ok(v->nch == 2 && v->ch[0].session == 14 && v->ch[1].session == 16 &&
	       v->ch[0].dir == HISTORY_WORSE && v->ch[1].dir == HISTORY_BETTER,
	   "a=v: worse at 14, better at 16");
	ok(v->answer == HISTORY_SAME, "a=v: the same as the segment 16-17");
	is_near(v->answer_pct, 0, 1e-9, "a=v: +0% (not +10.6%: 14-17)");
	is_near(v->answer_lo, -0.6182332580377063, 1e-9, "a=v: from -0.62%");
	ok(w->answer == HISTORY_ONE && w->ns == 1, "a=w: one session");
}

/* The last field (the answer) of the CSV row that starts with
 * cell_session (after its newline). */
static const char *csv_answer(const char *csv, const char *cell_session)
{
	static char out[64];
	const char *p = strstr(csv, cell_session), *e, *c;
	out[0] = 0;
	if (!p || !(e = strchr(p + 1, '\n')))
		return "?";
	for (c = e; c > p && c[-1] != ','; c--)
		;
	snprintf(out, sizeof out, "%.*s", (int)(e - c), c);
	return out;
}

static void writers(const struct report *r)
{
	char *json = written(r, 0, 0), *csv = written(r, 1, 0),
	     *md = written(r, 2, 0), *j0 = written(r, 3, 0),
	     *j1 = written(r, 3, REPORT_GATE_REGRESSION_BIT);
	ok(json && strstr(json, "\"regressions\": 1,"), "JSON: regressions 1");
	ok(json && strstr(json, "\"tests\": 4,"), "JSON: tests 4");
	/* the summary: x and v the same, y not known, z changed, w one */
	ok(md && strstr(md, "- 5 cells: 1 changed at the latest session, "
			    "2 the same within 1%, 1 not known, 1 with one "
			    "session\n"),
	   "the summary's counts");
	ok(md && strstr(md, "\nsame within 1%: +0.0% [-0.5, +0.5]\n"),
	   "a=x's answer: same within 1%% [-0.5, +0.5]");
	ok(md && strstr(md, "\nnot known: +0.0% [-1.8, +1.8]; 15 runs in a "
			    "next session would settle it\n"),
	   "a=y's answer: not known, 15 runs");
	ok(md && strstr(md, "- a=z @ client=box-a: worse -10.0% [-13.6, "
			    "-6.2] at session 18 (2026-11-27 02:00 UTC): no "
			    "recorded fact changed\n"),
	   "a=z in the summary: worse -10.0%% at session 18");
	/* the CSV's answer column: on the latest session's row only */
	is_str(csv ? csv_answer(csv, "\na=z,client=box-a,18,") : "?", "changed",
	       "CSV: a=z's session 18 row answers 'changed'");
	is_str(csv ? csv_answer(csv, "\na=z,client=box-a,11,") : "?", "",
	       "CSV: its session 11 row is empty");
	is_str(csv ? csv_answer(csv, "\na=x,client=box-a,18,") : "?", "same",
	       "CSV: a=x's session 18 row answers 'same'");
	/* JUnit: a failure only when --fail-on regression asks */
	ok(j0 && strstr(j0, "tests=\"5\" failures=\"0\"") &&
	       !strstr(j0, "<failure"),
	   "JUnit without the gate: no failure");
	ok(j1 && strstr(j1, "tests=\"5\" failures=\"1\"") &&
	       strstr(j1, "<failure message=\"worse -10.0% [-13.6, -6.2] at "
			  "session 18"),
	   "JUnit with --fail-on regression: a=z fails");
	free(json);
	free(csv);
	free(md);
	free(j0);
	free(j1);
}

/* The trend chart of a=x, 600 wide: session k centred at 52 + dx (k +
 * 0.5), dx = (600 - 52 - 10) / 8 = 67.25; the change between sessions
 * 14 and 15 (index 4) at 52 + 4 dx = 321, its label there. */
static void chart(const struct report *r)
{
	const struct history_cell *x = cell(r, 0, NULL);
	struct arena *a = arena_new();
	struct chart_fig f;
	int i, marks = 0, at = 0, label = 0;
	if (!ok(a && x && chart_history(r, x, 600, a, &f) == 0, "a=x's chart"))
		return;
	for (i = 0; i < f.nops; i++) {
		const struct chart_op *o = &f.ops[i];
		if (o->kind == CHART_OP_PATH && o->colour == CHART_MARK) {
			marks++;
			at += fabs(o->px[0] - 321) < 1e-9 &&
			      fabs(o->px[1] - 321) < 1e-9;
		}
		if (o->kind == CHART_OP_TEXT && o->text &&
		    !strcmp(o->text, "-10.0% qdisc_root"))
			label += fabs(o->x - 321) < 1e-9;
	}
	is_int(marks, 1, "one change marked");
	is_int(at, 1, "at x = 321, between sessions 14 and 15");
	is_int(label, 1, "labelled '-10.0% qdisc_root' there");
	arena_free(a);
}

int main(void)
{
	struct report r;
	struct xr_err err = {0};
	struct history_opts all = {0}, since = {0};
	const struct history_cell *x, *xb;
	int k;
	tap_plan(64);
	build(&r);
	if (!ok(r.arena && history_build(&r, &all, &err) == 0,
		"history built: %s", err.msg))
		return tap_done();
	is_int(r.history->ncells, 5, "5 histories, one a cell");
	sessions_and_change(&r);
	answers(&r);
	writers(&r);
	chart(&r);

	/* --since 2026-11-24 (session 15's start): sessions 15-18 */
	since.since = T0 + 4 * 86400.0;
	if (ok(history_build(&r, &since, &err) == 0, "--since: built"))
		x = cell(&r, 0, NULL);
	else
		x = NULL;
	ok(x && x->ns == 4 && x->s[0].session == 15 && x->nch == 0,
	   "--since: a=x from session 15, no change (%d sessions)",
	   x ? x->ns : -1);
	is_int(r.history->ntests, 4, "--since: 4 tests");

	/* sessions 11-14 on box-a, 15-18 on box-b (testbed unset): two
	 * histories a cell, and neither holds a=x's step */
	for (k = 0; k < NS; k++)
		sinfo[k].hosts =
		    sinfo[k].id < 15 ? "client=box-a" : "client=box-b";
	ok(history_build(&r, &all, &err) == 0, "two machines: built");
	x = cell(&r, 0, "client=box-a");
	xb = cell(&r, 0, "client=box-b");
	is_int(r.history->ncells, 9, "9 histories (a=w only on box-b)");
	ok(x && xb && x->ns == 4 && xb->ns == 4 && x->s[3].session == 14 &&
	       xb->s[0].session == 15,
	   "a=x: 11-14 on box-a, 15-18 on box-b");
	ok(x && xb && x->nch == 0 && xb->nch == 0,
	   "no change across the two machines");
	/* Session 14's host facts lost the qdisc (its last read came after
	 * a restore) while a=x's runs in it held tbf 300000000 (their fact
	 * set): the change at 15 still names the qdisc they ran under,
	 * found among session 15's facts and valued per cell (main's
	 * cell_fact, schema/store.md fact_sets). */
	for (k = 0; k < NS; k++)
		sinfo[k].hosts = "client=box-a";
	facts[2 * 3 + 1] =
	    (struct report_fact){14, "client", "hostname", "box-a"};
	for (k = 9; k < 12; k++) { /* a=x's runs of session 14 */
		runs[k].fsets = fset14;
		runs[k].nfsets = 1;
	}
	ok(history_build(&r, &all, &err) == 0, "a cell's own facts: built");
	x = cell(&r, 0, NULL);
	ok(x && x->nch == 1 && x->ch[0].ncauses == 1 &&
	       !strcmp(x->ch[0].causes[0].key, "qdisc_root") &&
	       !strcmp(x->ch[0].causes[0].before, "tbf 300000000") &&
	       !strcmp(x->ch[0].causes[0].after, "tbf 270000000"),
	   "the change at 15: qdisc_root tbf 300000000 -> tbf 270000000");
	ok(x && !strcmp(x->s[4].changed, "qdisc_root on client: tbf "
					 "300000000 -> tbf 270000000"),
	   "session 15's facts changed: '%s'", x ? x->s[4].changed : "");
	arena_free(r.arena);
	return tap_done();
}
