/*
 * Neutral report tables: the layout of every table a report shows (its
 * header rows, column alignment, the text of each cell with its footnote
 * marks), decided once from the model (report.h); the notes that explain
 * the flags are rnote.h's. The Markdown, HTML and PDF writers only render
 * them, so all show the same columns, texts and notes.
 *
 * Ownership: every string and array of a table belongs to the
 * arena passed to the builder; free it with arena_free().
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef XR_RTABLE_H
#define XR_RTABLE_H

#include "format.h"
#include "reference.h"
#include "rnote.h" /* the notes the writers list under the tables */

struct arena;

enum rt_align { RT_LEFT = 0, RT_RIGHT };

struct rt_col {
	const char *head;    /* the one-line header ("" for the stub) */
	enum rt_align align; /* of the body cells */
	int wrap;	     /* may wrap when the table is too wide */
};

/* A header cell spanning columns (grouped header rows). */
struct rt_span {
	const char *text;
	int span;
};

struct rtable {
	const char *title; /* "throughput by streams × cc"; NULL = none */
	const char *unit;  /* display unit of its values; "" = none */
	int ncols;
	struct rt_col *col; /* [ncols] */
	/* Grouped header rows for formats that can span columns (PDF,
	 * HTML), top row first, each row's spans adding up to ncols; when
	 * ngroup_rows is 0 the header is the one row of col[].head. A
	 * format that cannot span shows col[].head. */
	int ngroup_rows;
	struct rt_span **group; /* [ngroup_rows][ngroup_len[i]] */
	int *ngroup_len;
	int nrows;
	const char **cell; /* [nrows * ncols], row-major; never NULL */
	int plain;	   /* key/value block: no header, no rules */
};

static inline const char *rt_cell(const struct rtable *t, int row, int col)
{
	return t->cell[row * t->ncols + col];
}

/* Each fills *t from r with memory from a; 0 or -XR_ENOMEM. */
/* The header block: plan, sessions, first and last run, hosts, runs,
 * metric, threshold, generation time (plain, two columns). */
int rt_header(const struct report *r, struct arena *a, struct rtable *t);
/* Matrix table ti of r->tables: row labels, then one column per
 * combination of column levels; the groups are the column factors. */
int rt_matrix(const struct report *r, int ti, struct arena *a,
	      struct rtable *t);
/* Per-cell statistics of the report's metric. */
int rt_cells(const struct report *r, struct arena *a, struct rtable *t);
/* Medians of every metric per cell (only when r->nmetrics > 1). */
int rt_metrics(const struct report *r, struct arena *a, struct rtable *t);
/* The comparisons with their verdicts and footnote marks. */
int rt_cmps(const struct report *r, struct arena *a, struct rtable *t);
/* The head of c's verdict, as report_fmt_verdict starts it: the mark,
 * the change with its interval and the word ("▲ +3.9% [+1.2, +6.6]
 * better"); a refusal only its word. */
void rt_verdict_head(const struct report *r, const struct report_cmp *c,
		     char *out, size_t n);
/* The same with a short verdict per row (mark, change, word) for narrow
 * columns: a row whose full verdict says more ends in "(note k)" and
 * (*notes)[k-1] is that full text. OUT: *notes, *nnotes from a. */
int rt_cmps_short(const struct report *r, struct arena *a, struct rtable *t,
		  const char ***notes, int *nnotes);
/* The published reference next to the measured cells (r->ref). */
int rt_reference(const struct report *r, struct arena *a, struct rtable *t);
/* What the reference says about itself (plain, two columns): its source
 * (title, url, author, date), statistic, runs, tolerance and published
 * conditions; only the rows it has. */
int rt_reference_info(const struct report *r, struct arena *a,
		      struct rtable *t);
/* Host facts, and the verification summary. */
int rt_facts(const struct report *r, struct arena *a, struct rtable *t);
/* What was measured on, near the top: a row per known fact key (OS,
 * kernel, CPU, memory, NIC driver, link, PCIe link, MTU, root qdisc,
 * each engine's version), a column per host; nrows 0 when no host has
 * any of them. */
int rt_system(const struct report *r, struct arena *a, struct rtable *t);
int rt_verifs(const struct report *r, struct arena *a, struct rtable *t);
/* The conditions the runs ran under (r->conds): condition, values with
 * their run counts, a note (varies within a cell; the load above the CPU
 * count, with the flag's mark). */
int rt_conditions(const struct report *r, struct arena *a, struct rtable *t);
/* Every session: id, plan hash (12 digits), start, hosts. */
int rt_sessions(const struct report *r, struct arena *a, struct rtable *t);
/* Sized repetitions per cell; nrows 0 when no cell was sized. */
int rt_sizing(const struct report *r, struct arena *a, struct rtable *t);

#endif
