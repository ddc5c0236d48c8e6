/*
 * A JSON document streamed a jansson tree at a time, as jansson's dump of
 * the whole tree would write it (JSON_INDENT(1), JSON_REAL_PRECISION(10)):
 * json_dump.c. Used by the JSON report (write_json.c).
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef XR_JSON_DUMP_H
#define XR_JSON_DUMP_H

#include <stdio.h>

#include <jansson.h>

/* The report as jansson's dump of one tree would write it, in 64 KiB pieces
 * (json_dumpf makes one fwrite per token: 7% of a 100,000-run report,
 * bench/RESULTS.md), and without the tree: "cells", "comparisons" and the
 * reference's "rows" are built, dumped and freed one element at a time, a row's
 * published runs in chunks (a tree of 100,000 cells was 1.5 GB and most of the
 * time of a 10^5-level report, bench/RESULTS.md, "A factor of 100,000
 * levels"). An element dumped alone starts at depth 0; inside the report it
 * is at depth 2, so each newline of its dump gets two more spaces of
 * indent (jansson writes a newline only as indentation: one inside a
 * string is escaped). */
struct jdump;

/* A dumper writing to f; NULL when out of memory. */
struct jdump *jdump_new(FILE *f);
void jdump_free(struct jdump *d);
/* What is buffered written out: 0, or -1 when f failed (then and since). */
int jdump_flush(struct jdump *d);
/* n bytes of p as they are: 0, or -1 when f failed. */
int jdump_raw(struct jdump *d, const char *p, size_t n);
/* Takes back end (at most 16 bytes), the close of what was just dumped:
 * 0, or -1 when the buffer does not end with it. */
int jdump_untail(struct jdump *d, const char *end);
/* o dumped with every newline followed by indent more spaces and its first
 * skip bytes dropped (o released); 0, -1 when it cannot be written, -2 when
 * o is NULL (out of memory building it). */
int jdump_tree(struct jdump *d, json_t *o, int indent, int skip);
/* Takes back the closing "\n}" of the object just dumped at depth 0. */
int jdump_unclose(struct jdump *d);

#endif
