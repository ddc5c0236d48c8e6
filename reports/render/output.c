/*
 * report_write_file(): build the model once and hand it to the writer the
 * output name asks for (formats: runner/plan/output_format.h). Files go
 * through the one writer (runner/base/wfile.h): rendered into a temporary
 * beside the target, then renamed over it, so that a failed or killed
 * report never leaves half a file behind and never replaces the store.
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "history.h"
#include "output_format.h"
#include "xr_png.h"
#include "render.h"
#include "wfile.h"
#include "banned.h"

/* The writer of each format of output_format.h: a stream writer for the
 * text formats (told the output's path when it writes files beside it,
 * or the gate's verdicts when it marks them), a file writer for the
 * rest. */
struct writer {
	int (*stream)(const struct report *r, FILE *f, struct xr_err *err);
	int (*stream_at)(const struct report *r, FILE *f, const char *path,
			 int png, struct xr_err *err);
	int (*file)(const struct report *r, const char *path,
		    struct xr_err *err);
	int (*stream_gate)(const struct report *r, unsigned fail_on, FILE *f,
			   struct xr_err *err);
};
static const struct writer writers[OUTPUT_FORMAT_COUNT] = {
    [OUTPUT_FORMAT_PDF] = {NULL, NULL, report_write_pdf},
    [OUTPUT_FORMAT_MD] = {NULL, report_write_md_charts, NULL},
    [OUTPUT_FORMAT_HTML] = {report_write_html, NULL, NULL},
    [OUTPUT_FORMAT_CSV] = {report_write_csv, NULL, NULL},
    [OUTPUT_FORMAT_JSON] = {report_write_json, NULL, NULL},
    [OUTPUT_FORMAT_JUNIT] = {NULL, NULL, NULL, report_write_junit},
};

/* The same for a history report (report --history). */
static const struct writer history_writers[OUTPUT_FORMAT_COUNT] = {
    [OUTPUT_FORMAT_PDF] = {NULL, NULL, report_write_history_pdf},
    [OUTPUT_FORMAT_MD] = {NULL, report_write_history_md, NULL},
    [OUTPUT_FORMAT_HTML] = {report_write_history_html, NULL, NULL},
    [OUTPUT_FORMAT_CSV] = {report_write_history_csv, NULL, NULL},
    [OUTPUT_FORMAT_JSON] = {report_write_history_json, NULL, NULL},
    [OUTPUT_FORMAT_JUNIT] = {NULL, NULL, NULL, report_write_history_junit},
};
#define WRITER(r, fmt) ((r)->history ? history_writers[fmt] : writers[fmt])

/* The format of out_path: --format, else the extension, else the
 * stdout default for "-"; -1 with err filled when there is none. */
static int choose_format(const char *out_path, const struct report_opts *o,
			 struct xr_err *err)
{
	char valid[128];
	int fmt = o->format ? output_format_find(o->format)
			    : output_format_of_path(out_path);
	if (!o->format && fmt < 0 && !strcmp(out_path, "-"))
		fmt = OUTPUT_FORMAT_STDOUT;
	if (fmt < 0)
		return xr_err_set(err, XR_EUSAGE, NULL, 0, 0,
				  "unknown report format for '%s' (valid: "
				  "%s or --format)",
				  o->format ? o->format : out_path,
				  output_format_list(valid, sizeof valid, 1));
	if (!output_formats[fmt].stream && !strcmp(out_path, "-"))
		return xr_err_set(err, XR_EUSAGE, NULL, 0, 0,
				  "a %s report cannot go to stdout ('-'); "
				  "name a file",
				  output_formats[fmt].name);
	return fmt;
}

/* --png: Markdown to a file only, and only when built with librsvg;
 * refused before any work. */
static int check_png(int fmt, const char *out_path, const struct report_opts *o,
		     struct xr_err *err)
{
	if (!o->png)
		return 0;
	if (fmt != OUTPUT_FORMAT_MD || o->runs || !strcmp(out_path, "-"))
		return xr_err_set(err, XR_EUSAGE, NULL, 0, 0,
				  "--png writes the charts of a markdown "
				  "report to files beside it, not for '%s'",
				  out_path);
	if (!png_available())
		return xr_err_set(err, XR_EENV, NULL, 0, 0,
				  "--png: this xrun was built without "
				  "librsvg (install librsvg2-dev and "
				  "rebuild)");
	return 0;
}

/* A text format of r on f (the CI gate's verdicts for JUnit). */
static int render_stream(const struct report *r, int fmt,
			 const struct report_opts *o,
			 const struct report_gate *gate, FILE *f,
			 const char *out_path, struct xr_err *err)
{
	if (o->runs)
		return report_write_runs_csv(r, f, err);
	if (WRITER(r, fmt).stream_gate)
		return WRITER(r, fmt).stream_gate(r, gate ? gate->fail_on : 0,
						  f, err);
	if (WRITER(r, fmt).stream_at)
		return WRITER(r, fmt).stream_at(r, f, out_path, o->png, err);
	return WRITER(r, fmt).stream(r, f, err);
}

/* Render format fmt of r through the one writer, as a stream (held in
 * memory first, a JSON report of 10^6 published runs took 67 MB more,
 * bench/RESULTS.md, "Reference reading"). */
static int write_text(const struct report *r, int fmt,
		      const struct report_opts *o,
		      const struct report_gate *gate, const char *out_path,
		      struct xr_err *err)
{
	struct wfile *w;
	FILE *f;
	int rc = wfile_open(out_path, &w, &f, err);

	if (rc < 0)
		return rc;
	rc = render_stream(r, fmt, o, gate, f, out_path, err);
	return rc < 0 ? wfile_abort(w, rc, err) : wfile_commit(w, err);
}

/* Counts the comparisons whose verdict g->fail_on names; the first one
 * named as "factor: a -> b: worse". */
static void gate_count(const struct report *r, struct report_gate *g)
{
	int k;
	g->nfailed = 0;
	g->ncmps = r->ncmps;
	g->first[0] = 0;
	if (r->history) { /* --history: the cells whose latest session is
			     a worse change, when --fail-on regression */
		const struct report_history *h = r->history;
		g->ncmps = h->ncells;
		for (k = 0; k < h->ncells; k++) {
			const struct history_cell *c = &h->cells[k];
			if (!(g->fail_on & REPORT_GATE_REGRESSION_BIT) ||
			    c->answer != HISTORY_CHANGED ||
			    c->ch[c->nch - 1].dir != HISTORY_WORSE)
				continue;
			if (!g->nfailed++)
				snprintf(g->first, sizeof g->first,
					 "%s%s%s: %+.1f%% at session %lld",
					 c->label ? c->label : "",
					 c->testbed[0] ? " @ " : "", c->testbed,
					 c->ch[c->nch - 1].effect_pct,
					 (long long)c->ch[c->nch - 1].session);
		}
		return;
	}
	for (k = 0; k < r->ncmps; k++) {
		const struct report_cmp *c = &r->cmps[k];
		if (!(g->fail_on & (1u << c->verdict)))
			continue;
		if (!g->nfailed++)
			snprintf(g->first, sizeof g->first, "%s%s%s -> %s: %s",
				 c->factor >= 0 ? r->factors[c->factor].name
						: "",
				 c->factor >= 0 ? ": " : "",
				 r->cells[c->a].label, r->cells[c->b].label,
				 report_verdict_name(c->verdict));
	}
}

int report_write_file(const char *db_path, const char *out_path,
		      const struct report_opts *o, struct xr_err *err)
{
	return report_write_file_gate(db_path, out_path, o, NULL, err);
}

int report_write_file_gate(const char *db_path, const char *out_path,
			   const struct report_opts *o,
			   struct report_gate *gate, struct xr_err *err)
{
	static const struct report_opts defaults = {0};
	int fmt, to_stdout = !strcmp(out_path, "-");
	struct report *r = NULL;
	int rc;

	if (!o)
		o = &defaults;
	if ((fmt = choose_format(out_path, o, err)) < 0)
		return fmt;
	if (o->runs && !o->format && !strcmp(out_path, "-"))
		fmt = OUTPUT_FORMAT_CSV;
	if (o->runs && fmt != OUTPUT_FORMAT_CSV)
		return xr_err_set(err, XR_EUSAGE, NULL, 0, 0,
				  "--runs writes csv, not %s ('%s')",
				  output_formats[fmt].name, out_path);
	if ((rc = check_png(fmt, out_path, o, err)) < 0)
		return rc;
	/* Refused before the work of reading the store. */
	if (wfile_protect(db_path, "the store", 1) < 0)
		return xr_err_set(err, XR_ENOMEM, NULL, 0, 0,
				  "out of memory protecting '%s'", db_path);
	if (!to_stdout && (rc = wfile_check(out_path, err)) < 0)
		return rc;
	rc = report_load(db_path, o, &r, err);
	if (rc == 0 && o->history)
		rc = history_build(r, &o->hist, err);
	if (rc < 0) {
		report_free(r);
		return rc;
	}
	if (gate)
		gate_count(r, gate);
	if (WRITER(r, fmt).file)
		rc = WRITER(r, fmt).file(r, out_path, err);
	else if (to_stdout)
		rc = render_stream(r, fmt, o, gate, stdout, out_path, err);
	else
		rc = write_text(r, fmt, o, gate, out_path, err);
	report_free(r);
	return rc;
}
