/*
 * report_write_file(): build the model once and hand it to the writer the
 * output name asks for (formats: runner/plan/output_format.h). Text formats are
 * written to "<out>.tmp" and renamed, so that a failed report never leaves half
 * a file behind.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "buf.h"
#include "output_format.h"
#include "render.h"
#include "banned.h"

/* The writer of each format of output_format.h: a stream writer for the
 * text formats (told the output's path when it writes files beside it),
 * a file writer for the rest. */
static const struct {
	int (*stream)(const struct report *r, FILE *f, struct xr_err *err);
	int (*stream_at)(const struct report *r, FILE *f, const char *path,
			 struct xr_err *err);
	int (*file)(const struct report *r, const char *path,
		    struct xr_err *err);
} writers[OUTPUT_FORMAT_COUNT] = {
    [OUTPUT_FORMAT_PDF] = {NULL, NULL, report_write_pdf},
    [OUTPUT_FORMAT_MD] = {NULL, report_write_md_charts, NULL},
    [OUTPUT_FORMAT_HTML] = {report_write_html, NULL, NULL},
    [OUTPUT_FORMAT_CSV] = {report_write_csv, NULL, NULL},
    [OUTPUT_FORMAT_JSON] = {report_write_json, NULL, NULL},
};

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

int report_write_file(const char *db_path, const char *out_path,
		      const struct report_opts *o, struct xr_err *err)
{
	static const struct report_opts defaults = {0};
	int fmt;
	struct report *r = NULL;
	struct buf tmp = BUF_INIT;
	FILE *f;
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
	rc = report_load(db_path, o, &r, err);
	if (rc < 0)
		return rc;
	if (writers[fmt].file) {
		rc = writers[fmt].file(r, out_path, err);
		report_free(r);
		return rc;
	}
	if (!strcmp(out_path, "-")) {
		f = stdout;
	} else {
		buf_addf(&tmp, "%s.tmp", out_path);
		f = fopen(tmp.s, "w");
		if (!f) {
			rc = xr_err_set(err, XR_EIO, out_path, 0, 0,
					"cannot write '%s': %s", out_path,
					strerror(errno));
			goto out;
		}
	}
	rc = o->runs ? report_write_runs_csv(r, f, err)
	     : writers[fmt].stream_at
		 ? writers[fmt].stream_at(r, f, out_path, err)
		 : writers[fmt].stream(r, f, err);
	if (f != stdout) {
		if (fclose(f) != 0 && rc == 0)
			rc = xr_err_set(err, XR_EIO, out_path, 0, 0,
					"cannot write '%s': %s", out_path,
					strerror(errno));
		if (rc == 0 && rename(tmp.s, out_path) < 0)
			rc = xr_err_set(err, XR_EIO, out_path, 0, 0,
					"cannot write '%s': %s", out_path,
					strerror(errno));
		if (rc < 0)
			remove(tmp.s);
	}
out:
	buf_release(&tmp);
	report_free(r);
	return rc;
}
