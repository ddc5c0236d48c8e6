/*
 * Report output formats: one row each. The plan loader checks
 * report.output names with it, `xrun report` its --format, and the
 * render layer (reports/render/output.c) maps each format to its writer.
 * It lives here, below both, because the plan is the lowest layer that
 * needs it. Adding a format: one row here, its writer in output.c's
 * table, a line in schema/report.md and plan.schema.json's pattern.
 *
 * Columns:
 *   id          OUTPUT_FORMAT_<id>, the enum value
 *   name        what --format says
 *   extensions  the file name endings that choose it, space-separated,
 *               lowercase; matched ignoring case (r.PDF, r.Markdown)
 *   stream      1: a text format that may go to stdout ("-o -")
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef XR_OUTPUT_FORMAT_H
#define XR_OUTPUT_FORMAT_H

#include <stddef.h>

/* X(id, name, extensions, stream) */
#define OUTPUT_FORMAT_MAP(X)                                                   \
	X(PDF, "pdf", ".pdf", 0)                                               \
	X(MD, "md", ".md .markdown", 1)                                        \
	X(HTML, "html", ".html .htm", 1)                                       \
	X(CSV, "csv", ".csv", 1)                                               \
	X(JSON, "json", ".json", 1)                                            \
	X(JUNIT, "junit", ".xml", 1)

enum output_format {
#define OUTPUT_FORMAT_ENUM(id, name, ext, stream) OUTPUT_FORMAT_##id,
	OUTPUT_FORMAT_MAP(OUTPUT_FORMAT_ENUM)
#undef OUTPUT_FORMAT_ENUM
	    OUTPUT_FORMAT_COUNT
};

/* What "-o -" writes without --format. */
#define OUTPUT_FORMAT_STDOUT OUTPUT_FORMAT_MD

struct output_format_row {
	const char *name;
	const char *extensions;
	int stream;
};
extern const struct output_format_row output_formats[OUTPUT_FORMAT_COUNT];

/* The format called name ("pdf", ...), or -1. */
int output_format_find(const char *name);
/* The format path's extension chooses, or -1 (none, or unknown). */
int output_format_of_path(const char *path);
/* "pdf, md, csv, json" (names) or ".pdf, .md, .csv, .json" (the first
 * extension of each) into out, for messages. Returns out. */
const char *output_format_list(char *out, size_t outsz, int extensions);

#endif
