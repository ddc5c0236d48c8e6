/*
 * report_write_file(): build the model once and hand it to the writer the
 * output name asks for. Text formats are written to "<out>.tmp" and
 * renamed, so that a failed report never leaves half a file behind.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "buf.h"
#include "render.h"
#include "banned.h"

static const char *ext_format(const char *path)
{
	const char *dot = strrchr(path, '.');
	if (!dot || strchr(dot, '/'))
		return NULL;
	if (!strcasecmp(dot, ".pdf"))
		return "pdf";
	if (!strcasecmp(dot, ".md") || !strcasecmp(dot, ".markdown"))
		return "md";
	if (!strcasecmp(dot, ".csv"))
		return "csv";
	if (!strcasecmp(dot, ".json"))
		return "json";
	return NULL;
}

int report_write_file(const char *db_path, const char *out_path,
		      const struct report_opts *o, struct xr_err *err)
{
	static const struct report_opts defaults = {0};
	const char *fmt;
	struct report *r = NULL;
	struct buf tmp = BUF_INIT;
	FILE *f;
	int rc;

	if (!o)
		o = &defaults;
	fmt = o->format ? o->format : ext_format(out_path);
	if (!fmt && !strcmp(out_path, "-"))
		fmt = "md";
	if (!fmt || (strcmp(fmt, "pdf") && strcmp(fmt, "md") &&
		     strcmp(fmt, "csv") && strcmp(fmt, "json")))
		return xr_err_set(err, XR_EUSAGE, NULL, 0, 0,
				  "unknown report format for '%s' (valid: "
				  ".pdf, .md, .csv, .json or --format)",
				  fmt ? fmt : out_path);
	if (!strcmp(fmt, "pdf") && !strcmp(out_path, "-"))
		return xr_err_set(err, XR_EUSAGE, NULL, 0, 0,
				  "a pdf report cannot go to stdout ('-'); "
				  "name a file");
	rc = report_build(db_path, o, &r, err);
	if (rc < 0)
		return rc;
	if (!strcmp(fmt, "pdf")) {
		rc = report_write_pdf(r, out_path, err);
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
	if (!strcmp(fmt, "md"))
		rc = report_write_md(r, f, err);
	else if (!strcmp(fmt, "csv"))
		rc = report_write_csv(r, f, err);
	else
		rc = report_write_json(r, f, err);
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
