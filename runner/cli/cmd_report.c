/*
 * `xrun report [PLAN] [--db FILE] -o FILE` (its options: report_options
 * below): builds the report model from a store and writes it. Exit status:
 * 0 written; 2 usage or an unreadable plan; 3 no store, not a store, no
 * finished runs, a PDF font without the Japanese glyphs the report needs,
 * or a write error; 4 written, and a comparison has a verdict --fail-on
 * names (a CI gate: docs/ci.md).
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "buf.h"
#include "cmd.h"
#include "catalog.h"
#include "xr_err.h"
#include "oom.h"
#include "plan.h"
#include "render.h"
#include "store.h"
#include "banned.h"

#define THRESHOLD_INVALID (-1.0)

/* "1%" -> 0.01; "0.01" -> 0.01; "2" -> 0.02 (a bare number >= 1 is a
 * percentage). THRESHOLD_INVALID when invalid. */
static double parse_threshold(const char *s)
{
	char *end;
	double v = strtod(s, &end);
	if (end == s || v <= 0)
		return THRESHOLD_INVALID;
	if (*end == '%' && end[1] == 0)
		return v / 100;
	if (*end)
		return THRESHOLD_INVALID;
	return v >= 1 ? v / 100 : v;
}

static int threshold_cb(void *field, const char *v)
{
	double t = parse_threshold(v);
	if (t <= 0 || t >= 1) {
		fprintf(stderr,
			"xrun: invalid threshold '%s' (valid: a percentage "
			"such as 1%% or 0.5%%)\n",
			v);
		opt_usage(&cmd_report_spec, stderr);
		return -XR_EUSAGE;
	}
	*(double *)field = t;
	return 0;
}

static int tolerance_cb(void *field, const char *v)
{
	double t = parse_threshold(v);
	if (t <= 0 || t >= 1) {
		fprintf(stderr,
			"xrun: invalid tolerance '%s' (valid: a percentage "
			"such as 3%% or 0.5%%)\n",
			v);
		opt_usage(&cmd_report_spec, stderr);
		return -XR_EUSAGE;
	}
	*(double *)field = t;
	return 0;
}

static int cmd_report_session_cb(void *field, const char *v)
{
	char *end;
	long long n = strtoll(v, &end, 10);
	if (end == v || *end || n <= 0) {
		fprintf(stderr,
			"xrun: option '--session' needs a session number "
			"(1 or more), not '%s'\n",
			v);
		opt_usage(&cmd_report_spec, stderr);
		return -XR_EUSAGE;
	}
	*(int64_t *)field = n;
	return 0;
}

/* --accept: what a comparison may accept; the plan's report.compare
 * `accept:` takes the same (schema/plan.md). */
static int accept_cb(void *field, const char *v)
{
	if (strcmp(v, "sequential")) {
		fprintf(stderr,
			"xrun: option '--accept' takes 'sequential', not "
			"'%s'\n",
			v);
		opt_usage(&cmd_report_spec, stderr);
		return -XR_EUSAGE;
	}
	*(int *)field = 1;
	return 0;
}

static int usage_err(const char *fmt, const char *arg)
{
	fprintf(stderr, "xrun: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\n");
	opt_usage(&cmd_report_spec, stderr);
	return 2;
}

struct report_args {
	const char *db, *out;
	struct report_opts o;
	unsigned fail_on;
	struct opt_list compare; /* --compare FACTOR[=BASELINE] */
	const char *sessions;	 /* --sessions A-B,C */
};

/* --since: a date (YYYY-MM-DD, UTC midnight) or date and time
 * (YYYY-MM-DDTHH:MM, UTC). */
static int since_cb(void *field, const char *v)
{
	struct tm tm;
	const char *end;
	memset(&tm, 0, sizeof tm);
	end = strptime(v, "%Y-%m-%dT%H:%M", &tm);
	if (!end || *end) {
		memset(&tm, 0, sizeof tm);
		end = strptime(v, "%Y-%m-%d", &tm);
	}
	if (!end || *end) {
		fprintf(stderr,
			"xrun: option '--since' needs a date, 2026-11-20 or "
			"2026-11-20T14:00 (UTC), not '%s'\n",
			v);
		return -XR_EUSAGE;
	}
	*(double *)field = (double)timegm(&tm);
	return 0;
}

/* --sessions "3-8,10": the session ids, into o (malloc'd, freed by the
 * caller). 0 or 2 (usage). */
static int parse_sessions(const char *s, struct report_opts *o, int64_t **ids)
{
	int n = 0, cap = 0;
	const char *p = s;
	*ids = NULL;
	while (*p) {
		char *end;
		long long a = strtoll(p, &end, 10), b = a, k;
		if (end == p || a <= 0)
			goto bad;
		if (*end == '-') {
			p = end + 1;
			b = strtoll(p, &end, 10);
			if (end == p || b < a || b - a > 100000)
				goto bad;
		}
		for (k = a; k <= b; k++) {
			if (n == cap) {
				int64_t *t;
				cap = cap ? 2 * cap : 16;
				t = realloc(*ids, (size_t)cap * sizeof *t);
				if (!t)
					goto bad;
				*ids = t;
			}
			(*ids)[n++] = k;
		}
		if (*end && *end != ',')
			goto bad;
		p = *end ? end + 1 : end;
	}
	o->hist.sessions = *ids;
	o->hist.nsessions = n;
	return n ? 0 : 2;
bad:
	fprintf(stderr,
		"xrun: option '--sessions' needs session numbers such as "
		"3-8,10, not '%s'\n",
		s);
	return 2;
}

#define RA(field) offsetof(struct report_args, field)
static const struct opt_def report_options[] = {
    {"db", 0, "FILE", "the store to read (default: ./<plan name>.db)",
     OPT_STRING, RA(db), NULL, 0},
    {"output", 'o', "FILE",
     "the report to write; - writes md, html, csv, json or junit to "
     "stdout",
     OPT_STRING, RA(out), NULL, 1},
    {"format", 0, NULL,
     "the output format (default: from the file's extension)", OPT_CHOICE,
     RA(o.format), NULL, 0, &cli_format_choices},
    {"lang", 0, NULL, "the report's language (default: the plan's)", OPT_CHOICE,
     RA(o.lang), NULL, 0, &cli_lang_choices},
    {"title", 0, "T", "the report's title (default: the plan's)", OPT_STRING,
     RA(o.title), NULL, 0},
    {"metric", 0, "NAME", "the metric to report (default: throughput)",
     OPT_STRING, RA(o.metric), NULL, 0},
    {"threshold", 0, "1%",
     "the noise threshold of the comparisons (default: the plan's, else 1%)",
     OPT_CALLBACK, RA(o.threshold), threshold_cb, 0},
    {"unit", 0, "U", "the display unit, such as Gbit/s (default: automatic)",
     OPT_STRING, RA(o.unit), NULL, 0},
    {"reference", 0, "FILE",
     "a published matrix to compare with (schema/reference.md)", OPT_STRING,
     RA(o.reference), NULL, 0},
    {"tolerance", 0, "3%",
     "how far from a published value still counts as reproduced "
     "(default: the reference file's, else 5%)",
     OPT_CALLBACK, RA(o.tolerance), tolerance_cb, 0},
    {"session", 0, "N", "only this session (default: every session)",
     OPT_CALLBACK, RA(o.session), cmd_report_session_cb, 0},
    {"history", 0, NULL,
     "the sessions over time per cell: each session's value, the changes "
     "between them and the facts that changed (schema/report.md, "
     "History)",
     OPT_FLAG, RA(o.history), NULL, 0},
    {"since", 0, "DATE",
     "with --history: only sessions started since DATE (2026-11-20, UTC)",
     OPT_CALLBACK, RA(o.hist.since), since_cb, 0},
    {"sessions", 0, "LIST", "with --history: only these sessions (3-8,10)",
     OPT_STRING, RA(sessions), NULL, 0},
    {"fail-on", 0, NULL,
     "exit 4 when a comparison has one of these verdicts (a CI gate; "
     "junit marks them as failures); regression, with --history: when a "
     "cell's latest session is worse than the segment before it",
     OPT_CHOICES, RA(fail_on), NULL, 0, &cli_verdict_choices},
    {"compare", 0, "FACTOR[=BASELINE]",
     "compare the levels of FACTOR (with BASELINE, against it) instead of "
     "the plan's comparisons (repeatable; printed in the report)",
     OPT_LIST, RA(compare), NULL, 0},
    {"accept", 0, "sequential",
     "every comparison accepts sides that were not interleaved (a manual "
     "or sequential factor), as the plan's accept: does; printed in the "
     "report",
     OPT_CALLBACK, RA(o.accept_sequential), accept_cb, 0},
    {"adjust", 0, NULL,
     "adjust the verdicts for the report's several comparisons (default: "
     "none; holm: Holm 1979)",
     OPT_CHOICE, RA(o.adjust), NULL, 0, &cli_adjust_choices},
    {"runs", 0, NULL,
     "write one CSV row per run and metric instead of the report", OPT_FLAG,
     RA(o.runs), NULL, 0},
    {"png", 0, NULL,
     "with -o FILE.md: a PNG beside each chart's SVG, linked instead "
     "(1200 px wide; needs librsvg)",
     OPT_FLAG, RA(o.png), NULL, 0},
    {0},
};
#undef RA

/* The plan given as PLAN: its store's default path, and the plan for its
 * report settings (o->plan, o->plan_file). 0, or 2 after saying why. */
static int load_plan(const char *plan_path, struct plan **p, struct buf *dbp)
{
	struct xr_diag d;
	xr_diag_init(&d, plan_path);
	if (plan_load(plan_path, catalog_builtin(), p, &d) < 0) {
		xr_diag_print(&d, stderr);
		xr_diag_release(&d);
		return 2;
	}
	xr_diag_release(&d);
	store_default_path((*p)->name, dbp);
	return 0;
}

/* --compare and --accept as given, for the report to print. */
static void cli_options(const struct report_args *a, struct buf *b)
{
	int i;
	for (i = 0; i < a->compare.n; i++)
		buf_addf(b, "%s--compare %s", b->len ? " " : "",
			 a->compare.v[i]);
	if (a->o.accept_sequential)
		buf_addf(b, "%s--accept sequential", b->len ? " " : "");
}

/* Write the report, say what happened; an exit status. */
static int write_it(const char *db, const char *out, struct report_opts *o,
		    unsigned fail_on)
{
	struct xr_err err = {0};
	struct xr_diag refd;
	struct report_gate gate = {0};
	int rc;
	if (o->reference) {
		xr_diag_init(&refd, o->reference);
		o->diag = &refd;
	}
	gate.fail_on = fail_on;
	xr_oom_stage("writing the report %s from %s", out, db);
	rc = report_write_file_gate(db, out, o, &gate, &err);
	if (o->diag &&
	    (refd.n || refd.nlost)) /* the reference file's every problem */
		xr_diag_print(&refd, stderr);
	if (rc < 0 && !(o->diag && refd.nerr))
		xr_err_print(&err, "xrun");
	if (o->diag)
		xr_diag_release(&refd);
	if (rc == 0 && strcmp(out, "-"))
		fprintf(stderr, "xrun: wrote %s\n", out);
	if (rc < 0)
		return xr_code_exit(-rc);
	if (gate.nfailed) {
		fprintf(stderr,
			o->history
			    ? "xrun: %d of %d cells regressed at their "
			      "latest session (first: %s)\n"
			    : "xrun: %d of %d comparisons have a verdict "
			      "--fail-on names (first: %s)\n",
			gate.nfailed, gate.ncmps, gate.first);
		return xr_code_exit(XR_EGATE);
	}
	return 0;
}

static int cmd_report(int argc, char **argv)
{
	struct report_args a = {0};
	struct report_opts o;
	const char *db, *plan_path;
	struct buf dbp = BUF_INIT, cli = BUF_INIT;
	struct plan *p = NULL;
	int64_t *sess_ids = NULL;
	int rc;

	if ((rc = opt_parse(&cmd_report_spec, argc, argv, &a)) < 0)
		return opt_exit(rc);
	o = a.o;
	db = a.db;
	plan_path = rc ? argv[1] : NULL;
	if (!a.out) {
		rc = usage_err("%s", "missing -o FILE (the report to write)");
		goto out;
	}
	if (!o.history && (o.hist.since > 0 || a.sessions ||
			   (a.fail_on & REPORT_GATE_REGRESSION_BIT))) {
		rc = usage_err("%s", "--since, --sessions and --fail-on "
				     "regression go with --history");
		goto out;
	}
	if (o.history && (o.session > 0 || o.reference || o.runs)) {
		rc = usage_err("%s", "--history reads every session: not "
				     "with --session, --reference or --runs");
		goto out;
	}
	if (a.sessions && (rc = parse_sessions(a.sessions, &o, &sess_ids)))
		goto out;
	/* PLAN: its store, and its report settings when they changed since
	 * the runs (reports/model/recut.c) */
	if (plan_path && (rc = load_plan(plan_path, &p, &dbp)) != 0)
		goto out;
	o.plan = p;
	o.plan_file = plan_path;
	if (!db && p)
		db = dbp.s;
	if (!db) {
		/* No plan: the embedded demo's store, as `xrun run`. */
		if (cmd_embedded_db(&dbp) < 0) {
			rc =
			    usage_err("%s", "report needs a PLAN or --db FILE");
			goto out;
		}
		db = dbp.s;
	}
	o.compare = a.compare.v;
	o.ncompare = a.compare.n;
	cli_options(&a, &cli);
	o.cli_options = cli.s;
	rc = write_it(db, a.out, &o, a.fail_on);
out:
	free(sess_ids);
	plan_free(p);
	buf_release(&dbp);
	buf_release(&cli);
	opt_release(&cmd_report_spec, &a);
	return rc;
}

const struct opt_cmd cmd_report_spec = {
    .name = "report",
    .args = "[PLAN]",
    .summary = "write a PDF, Markdown, HTML, CSV, JSON or JUnit XML report "
	       "from a store",
    .about = "With no PLAN and no --db: the store of the plan compiled into "
	     "the binary (./loopback.db). Fonts: schema/report.md.",
    .opts = report_options,
    .max_args = 1,
    .fn = cmd_report,
};
