/*
 * The report writers (reports/render): each renders a model built by
 * report_build() (reports/model/report.h) in one format. The tables they
 * show are laid out once, in table.c (rtable.h); the writers only render.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef XR_RENDER_H
#define XR_RENDER_H

#include <stdio.h>

#include "format.h"
#include "reference.h"
#include "xr_err.h"

int report_write_md(const struct report *r, FILE *f, struct xr_err *err);
/* The Markdown with each chart written as an SVG file beside md_path
 * ("r.md" -> "r-chart-1.svg", ...) and linked under its table with its
 * caption as alt text; png: a PNG of each beside it too ("r-chart-1.png",
 * xr_png.h), linked instead of the SVG; md_path NULL or "-": no charts (then
 * the same as report_write_md). */
int report_write_md_charts(const struct report *r, FILE *f, const char *md_path,
			   int png, struct xr_err *err);
/* One self-contained HTML page: inline CSS and SVG charts, no scripts or
 * external references. */
int report_write_html(const struct report *r, FILE *f, struct xr_err *err);
int report_write_csv(const struct report *r, FILE *f, struct xr_err *err);
int report_write_json(const struct report *r, FILE *f, struct xr_err *err);
/* JUnit XML (write_junit.c): a test case per comparison, a <failure>
 * for each whose verdict is in fail_on (bits 1u << enum report_verdict,
 * the verdicts `--fail-on` names). */
int report_write_junit(const struct report *r, unsigned fail_on, FILE *f,
		       struct xr_err *err);
/* One row per run and metric (a run without any value: one row with an
 * empty metric): `xrun report --runs` (schema/report.md, "Runs CSV"). */
int report_write_runs_csv(const struct report *r, FILE *f, struct xr_err *err);
/* The history report (`report --history`, write_history.c): the same
 * formats over r->history. --fail-on's bit for "the latest session is a
 * worse change" is REPORT_GATE_REGRESSION_BIT, past the verdicts'. */
#define REPORT_GATE_REGRESSION_BIT (1u << (REPORT_NOT_VERIFIED + 1))
int report_write_history_md(const struct report *r, FILE *f,
			    const char *md_path, int png, struct xr_err *err);
int report_write_history_html(const struct report *r, FILE *f,
			      struct xr_err *err);
int report_write_history_csv(const struct report *r, FILE *f,
			     struct xr_err *err);
int report_write_history_json(const struct report *r, FILE *f,
			      struct xr_err *err);
int report_write_history_junit(const struct report *r, unsigned fail_on,
			       FILE *f, struct xr_err *err);
int report_write_history_pdf(const struct report *r, const char *path,
			     struct xr_err *err);
/* A PDF needs a file (libharu writes it whole). */
int report_write_pdf(const struct report *r, const char *path,
		     struct xr_err *err);

/*
 * Build the model from db_path and write out_path; the format comes from
 * o->format or the extension (.pdf .md .html .csv .json); out_path "-"
 * writes md/html/csv/json to stdout. Used by `xrun report` and at the end of a
 * run.
 */
int report_write_file(const char *db_path, const char *out_path,
		      const struct report_opts *o, struct xr_err *err);

/* A CI gate on the comparisons (`xrun report --fail-on`). */
struct report_gate {
	unsigned fail_on; /* bits 1u << enum report_verdict; 0: no gate */
	int nfailed;	  /* OUT: comparisons with one of those verdicts */
	int ncmps;	  /* OUT: comparisons in the report */
	char first[512];  /* OUT: the first of them, "cc: a -> b: worse" */
};
/* report_write_file(), also counting into *gate (may be NULL) the
 * comparisons whose verdict gate->fail_on names; the JUnit writer marks
 * them as failures. */
int report_write_file_gate(const char *db_path, const char *out_path,
			   const struct report_opts *o,
			   struct report_gate *gate, struct xr_err *err);

#endif
