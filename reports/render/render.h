/*
 * The report writers (reports/render): each renders a model built by
 * report_build() (reports/model/report.h) in one format. The tables they
 * show are laid out once, in table.c (rtable.h); the writers only render.
 */
#ifndef XR_RENDER_H
#define XR_RENDER_H

#include <stdio.h>

#include "err.h"
#include "format.h"
#include "reference.h"

int report_write_md(const struct report *r, FILE *f, struct xr_err *err);
/* The Markdown with each matrix table's chart written as an SVG file
 * beside md_path ("r.md" -> "r-chart-1.svg", ...) and linked under the
 * table with its caption as alt text; md_path NULL or "-": no charts
 * (then the same as report_write_md). */
int report_write_md_charts(const struct report *r, FILE *f, const char *md_path,
			   struct xr_err *err);
/* One self-contained HTML page: inline CSS and SVG charts, no scripts or
 * external references. */
int report_write_html(const struct report *r, FILE *f, struct xr_err *err);
int report_write_csv(const struct report *r, FILE *f, struct xr_err *err);
int report_write_json(const struct report *r, FILE *f, struct xr_err *err);
/* One row per run and metric (a run without any value: one row with an
 * empty metric): `xrun report --runs` (schema/report.md, "Runs CSV"). */
int report_write_runs_csv(const struct report *r, FILE *f, struct xr_err *err);
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

#endif
