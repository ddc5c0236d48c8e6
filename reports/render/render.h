/*
 * The report writers (reports/render): each renders a model built by
 * report_build() (reports/model/report.h) in one format. The tables they
 * show are laid out once, in table.c (rtable.h); the writers only render.
 */
#ifndef XR_RENDER_H
#define XR_RENDER_H

#include <stdio.h>

#include "err.h"
#include "report.h"

int report_write_md(const struct report *r, FILE *f, struct xr_err *err);
int report_write_csv(const struct report *r, FILE *f, struct xr_err *err);
int report_write_json(const struct report *r, FILE *f, struct xr_err *err);
/* A PDF needs a file (libharu writes it whole). */
int report_write_pdf(const struct report *r, const char *path,
		     struct xr_err *err);

/*
 * Build the model from db_path and write out_path; the format comes from
 * o->format or the extension (.pdf .md .csv .json); out_path "-" writes
 * md/csv/json to stdout. Used by `xrun report` and at the end of a run.
 */
int report_write_file(const char *db_path, const char *out_path,
		      const struct report_opts *o, struct xr_err *err);

#endif
