/*
 * `xrun report [PLAN | --db FILE] -o FILE [--format pdf|md|csv|json]
 * [--lang en|ja] [--title T] [--metric NAME] [--threshold 1%]
 * [--unit Gbit/s] [--session N] [--reference FILE]`: builds the report model
 * from a store and writes it. Exit status: 0 written; 2 usage or an unreadable
 * plan; 3 no store, not a store, no finished runs, a PDF font without the
 * Japanese glyphs the report needs, or a write error.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "cmd.h"
#include "catalog.h"
#include "plan.h"
#include "render.h"
#include "banned.h"

static const char usage_text[] =
    "usage: xrun report [PLAN | --db FILE] -o FILE [--format "
    "pdf|md|csv|json]\n"
    "                   [--lang en|ja] [--title T] [--metric NAME] "
    "[--threshold 1%]\n"
    "                   [--unit Gbit/s] [--session N] [--reference FILE]\n"
    "  -o -  writes md, csv or json to stdout\n";

/* "1%" -> 0.01; "0.01" -> 0.01; "2" -> 0.02 (a bare number >= 1 is a
 * percentage). -1 when invalid. */
static double parse_threshold(const char *s)
{
	char *end;
	double v = strtod(s, &end);
	if (end == s || v <= 0)
		return -1;
	if (*end == '%' && end[1] == 0)
		return v / 100;
	if (*end)
		return -1;
	return v >= 1 ? v / 100 : v;
}

static int usage_err(const char *fmt, const char *arg)
{
	fprintf(stderr, "xrun: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\n");
	fputs(usage_text, stderr);
	return 2;
}

int cmd_report(int argc, char **argv)
{
	struct report_opts o = {0};
	const char *db = NULL, *plan_path = NULL, *out = NULL;
	struct buf dbp = BUF_INIT;
	struct xr_err err = {0};
	struct xr_diag refd;
	int i, rc;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;
#define OPT(name, field)                                                       \
	if (!strcmp(a, name)) {                                                \
		if (!v)                                                        \
			return usage_err("option '%s' needs a value", a);      \
		field = v;                                                     \
		i++;                                                           \
		continue;                                                      \
	}
		OPT("--db", db)
		OPT("-o", out)
		OPT("--output", out)
		OPT("--format", o.format)
		OPT("--lang", o.lang)
		OPT("--title", o.title)
		OPT("--metric", o.metric)
		OPT("--unit", o.unit)
		OPT("--reference", o.reference)
#undef OPT
		if (!strcmp(a, "--threshold")) {
			if (!v)
				return usage_err("option '%s' needs a value",
						 a);
			o.threshold = parse_threshold(v);
			if (o.threshold <= 0 || o.threshold >= 1)
				return usage_err("invalid threshold '%s' "
						 "(valid: a percentage such "
						 "as 1%% or 0.5%%)",
						 v);
			i++;
			continue;
		}
		if (!strcmp(a, "--session")) {
			if (!v || atoll(v) <= 0)
				return usage_err("option '%s' needs a "
						 "session number",
						 a);
			o.session = atoll(v);
			i++;
			continue;
		}
		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			fputs(usage_text, stdout);
			return 0;
		}
		if (a[0] == '-' && a[1])
			return usage_err("unknown option '%s'", a);
		if (plan_path)
			return usage_err("more than one plan given ('%s')", a);
		plan_path = a;
	}
	if (!out)
		return usage_err("%s", "missing -o FILE (the report to write)");
	if (o.lang && report_lang_parse(o.lang) < 0)
		return usage_err("unknown language '%s' (valid: en, ja)",
				 o.lang);
	if (o.format && strcmp(o.format, "pdf") && strcmp(o.format, "md") &&
	    strcmp(o.format, "csv") && strcmp(o.format, "json"))
		return usage_err("unknown format '%s' (valid: pdf, md, csv, "
				 "json)",
				 o.format);
	if (!db && plan_path) {
		struct plan *p = NULL;
		struct xr_diag d;
		xr_diag_init(&d, plan_path);
		if (plan_load(plan_path, catalog_builtin(), &p, &d) < 0) {
			xr_diag_print(&d, stderr);
			xr_diag_release(&d);
			return 2;
		}
		xr_diag_release(&d);
		buf_addf(&dbp, "./%s.db", p->name);
		plan_free(p);
		db = dbp.s;
	}
	if (!db) {
		/* No plan: the embedded demo's store, as `xrun run`. */
		if (cmd_embedded_db(&dbp) < 0) {
			buf_release(&dbp);
			return usage_err("%s",
					 "report needs a PLAN or --db FILE");
		}
		db = dbp.s;
	}
	if (o.reference) {
		xr_diag_init(&refd, o.reference);
		o.diag = &refd;
	}
	rc = report_write_file(db, out, &o, &err);
	buf_release(&dbp);
	if (o.diag && refd.n) /* the reference file's every problem */
		xr_diag_print(&refd, stderr);
	if (rc < 0 && !(o.diag && refd.nerr))
		xr_err_print(&err, "xrun");
	if (o.diag)
		xr_diag_release(&refd);
	return rc < 0 ? xr_code_exit(-rc) : 0;
}
