/* Report output formats: names, extensions with their case rule, the
 * plan loader judging report.output by the same table, and
 * schema/plan.schema.json's report.output pattern derived from it.
 *
 * SPDX-License-Identifier: MIT
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "catalog.h"
#include "output_format.h"
#include "plan.h"
#include "tap.h"

static void test_lookups(void)
{
	char list[128];
	is_int(output_format_find("pdf"), OUTPUT_FORMAT_PDF, "pdf");
	is_int(output_format_find("md"), OUTPUT_FORMAT_MD, "md");
	is_int(output_format_find("PDF"), -1, "--format is exact");
	is_int(output_format_find("markdown"), -1, "markdown is no name");
	is_int(output_format_of_path("r.pdf"), OUTPUT_FORMAT_PDF, "r.pdf");
	is_int(output_format_of_path("R.PDF"), OUTPUT_FORMAT_PDF, "R.PDF");
	is_int(output_format_of_path("r.Markdown"), OUTPUT_FORMAT_MD,
	       "r.Markdown");
	is_int(output_format_of_path("a.b/r.md"), OUTPUT_FORMAT_MD, "a.b/r.md");
	is_int(output_format_of_path("x.csv"), OUTPUT_FORMAT_CSV, "x.csv");
	is_int(output_format_of_path("x.json"), OUTPUT_FORMAT_JSON, "x.json");
	is_int(output_format_of_path("r.mdx"), -1, "r.mdx");
	is_int(output_format_of_path("r.m"), -1, "r.m");
	is_int(output_format_of_path("a.md/r"), -1, "a dot in a directory");
	is_int(output_format_of_path("r"), -1, "no extension");
	is_int(output_format_of_path("-"), -1, "stdout");
	ok(output_formats[OUTPUT_FORMAT_STDOUT].stream, "stdout default is "
							"a stream format");
	ok(!output_formats[OUTPUT_FORMAT_PDF].stream, "pdf needs a file");
	is_int(output_format_of_path("r.html"), OUTPUT_FORMAT_HTML, "r.html");
	is_int(output_format_of_path("r.HTM"), OUTPUT_FORMAT_HTML, "r.HTM");
	ok(output_formats[OUTPUT_FORMAT_HTML].stream, "html may go to stdout");
	is_int(output_format_of_path("results.XML"), OUTPUT_FORMAT_JUNIT,
	       "results.XML");
	ok(output_formats[OUTPUT_FORMAT_JUNIT].stream,
	   "junit may go to stdout");
	is_str(output_format_list(list, sizeof list, 0),
	       "pdf, md, html, csv, json, junit", "names");
	is_str(output_format_list(list, sizeof list, 1),
	       ".pdf, .md, .html, .csv, .json, .xml", "extensions");
}

/* The loader takes what the table takes, and only that. */
static void test_plan(void)
{
	static const char head[] =
	    "xrun: 1\nname: t\n"
	    "engine: { type: command, run: [echo, '1'], metrics: { "
	    "throughput: { regex: '([0-9]+)', unit: MB/s } } }\n"
	    "factors: { x: [1, 2] }\ncounters: none\n";
	static const struct {
		const char *out;
		int good;
	} cases[] = {{"r.markdown", 1}, {"R.PDF", 1},	{"r.Json", 1},
		     {"r.csv", 1},	{"r.txt", 0},	{"r", 0},
		     {"a.md/r", 0},	{"r.mdown", 0}, {"r.html", 1},
		     {"r.Htm", 1},	{"r.xhtml", 0}};
	size_t i;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct buf t = BUF_INIT;
		struct xr_diag d;
		struct plan *p = NULL;
		int rc;
		buf_addf(&t, "%sreport: { output: ['%s'] }\n", head,
			 cases[i].out);
		xr_diag_init(&d, "t.yaml");
		rc = plan_load_mem("t.yaml", t.s, t.len, catalog_builtin(), &p,
				   &d);
		ok((rc == 0) == cases[i].good, "report.output '%s' %s",
		   cases[i].out, cases[i].good ? "accepted" : "refused");
		plan_free(p);
		xr_diag_release(&d);
		buf_release(&t);
	}
}

/* "\\.(...)$" with each extension as [Xx] classes, as the schema has it. */
static void test_schema(void)
{
	const char *src = getenv("XRUN_SOURCE_DIR");
	struct buf path = BUF_INIT, doc = BUF_INIT, want = BUF_INIT;
	const char *p;
	int i, n = 0;

	buf_adds(&want, "\"pattern\": \"\\\\.(");
	for (i = 0; i < OUTPUT_FORMAT_COUNT; i++)
		for (p = output_formats[i].extensions; *p; p++) {
			if (*p == '.')
				buf_adds(&want, n++ ? "|" : "");
			else if (*p != ' ')
				buf_addf(&want, "[%c%c]", toupper(*p), *p);
		}
	buf_adds(&want, ")$\"");
	buf_addf(&path, "%s/schema/plan.schema.json",
		 src ? src : XRUN_SOURCE_DIR);
	ok(buf_read_file(&doc, path.s, 1 << 22) == 0, "read %s", path.s);
	for (i = 0, p = doc.s; p && (p = strstr(p, want.s)); p++)
		i++;
	is_int(i, 2,
	       "plan.schema.json: report.output pattern (string and "
	       "list) from the table");
	if (i != 2)
		printf("# want %s\n", want.s);
	buf_release(&path);
	buf_release(&doc);
	buf_release(&want);
}

int main(void)
{
	test_lookups();
	test_plan();
	test_schema();
	return tap_done();
}
