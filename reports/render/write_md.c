/*
 * The Markdown writer: a header block, the matrix tables, per-cell
 * statistics, the comparison table with verdicts, notes explaining every
 * flag that appears, host facts and the verification summary, as pipe
 * tables that paste into GitHub, Zenn, Qiita or note. Formats the model
 * only; nothing is computed here.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "buf.h"
#include "render.h"
#include "banned.h"

/* Table cell text: pipes escaped, line breaks flattened. */
static void cell(FILE *f, const char *s)
{
	fputs("| ", f);
	for (; s && *s; s++) {
		if (*s == '|')
			fputs("\\|", f);
		else if (*s == '\n' || *s == '\r')
			fputc(' ', f);
		else
			fputc(*s, f);
	}
	fputc(' ', f);
}

static void row_end(FILE *f)
{
	fputs("|\n", f);
}

static void sep(FILE *f, int n, int first_left)
{
	int i;
	for (i = 0; i < n; i++)
		fputs(i == 0 && first_left ? "|---" : "|---:", f);
	fputs("|\n", f);
}

static const char *T(const struct report *r, enum report_text_id id)
{
	return report_text(r, id);
}

static void other_metrics(const struct report *r, FILE *f);

static void header(const struct report *r, FILE *f)
{
	char t0[64], t1[64], gen[64], runs[256];
	const char *unit = report_unit_label(r->display_unit);
	int i;
	fprintf(f, "# %s\n\n", r->title ? r->title : "xrun report");
	/* The plan's description, as written (Markdown passes through). */
	if (r->description && *r->description)
		fprintf(f, "%s\n\n", r->description);
	fputs("| | |\n|---|---|\n", f);
	fprintf(f, "| %s | %s (%.12s) |\n", T(r, REPORT_T_PLAN),
		r->plan_name ? r->plan_name : "",
		r->plan_hash ? r->plan_hash : "");
	fprintf(f, "| %s | ", T(r, REPORT_T_SESSIONS));
	for (i = 0; i < r->nsessions; i++)
		fprintf(f, "%s%lld", i ? ", " : "", (long long)r->sessions[i]);
	fputs(" |\n", f);
	fprintf(f, "| %s | %s |\n", T(r, REPORT_T_FIRST_RUN),
		report_fmt_time(r->first_run, t0, sizeof t0));
	fprintf(f, "| %s | %s |\n", T(r, REPORT_T_LAST_RUN),
		report_fmt_time(r->last_run, t1, sizeof t1));
	fprintf(f, "| %s | ", T(r, REPORT_T_HOSTS));
	for (i = 0; i < r->nhosts; i++)
		fprintf(f, "%s%s", i ? ", " : "", r->hosts[i]);
	fputs(" |\n", f);
	fprintf(f, "| %s | %s |\n", T(r, REPORT_T_RUNS),
		report_fmt_runs(r, runs, sizeof runs));
	fprintf(f, "| %s | %s%s%s%s |\n", T(r, REPORT_T_METRIC), r->metric,
		*unit ? " (" : "", unit, *unit ? ")" : "");
	fprintf(f, "| %s | ±%g%% |\n", T(r, REPORT_T_THRESHOLD),
		100 * r->threshold);
	fprintf(f, "| %s | %s |\n\n", T(r, REPORT_T_GENERATED),
		report_fmt_time(r->generated_at, gen, sizeof gen));
}

static void cell_text(const struct report *r, int ci, char *out, size_t n)
{
	char v[96], mk[96];
	if (ci < 0) {
		snprintf(out, n, "–");
		return;
	}
	report_fmt_cell(r, &r->cells[ci], v, sizeof v);
	report_fmt_marks(r, &r->cells[ci], mk, sizeof mk);
	snprintf(out, n, "%s%s%s", v, *mk ? " " : "", mk);
}

static void tables(const struct report *r, FILE *f)
{
	const char *unit;
	int t, i, c;
	fprintf(f, "## %s\n\n", T(r, REPORT_T_TABLES));
	for (t = 0; t < r->ntables; t++) {
		const struct report_table *tb = &r->tables[t];
		struct buf by = BUF_INIT, cap = BUF_INIT;
		char txt[256];
		if (tb->row_factor >= 0)
			buf_adds(&by, r->factors[tb->row_factor].name);
		for (i = 0; i < tb->ncol_factors; i++)
			buf_addf(&by, "%s%s", by.len ? " × " : "",
				 r->factors[tb->col_factors[i]].name);
		buf_addf(&cap, T(r, REPORT_T_TABLE_CAPTION), tb->metric,
			 by.len ? by.s : "-");
		unit =
		    report_unit_label(tb->metric_index == r->primary
					  ? r->display_unit
					  : r->metric_units[tb->metric_index]);
		/* A dimensionless metric (unit "1") gets no unit. */
		if (*unit)
			fprintf(f, "### %s (%s)\n\n", cap.s, unit);
		else
			fprintf(f, "### %s\n\n", cap.s);
		buf_release(&cap);
		buf_release(&by);
		/* Header: row factor \ column factors. */
		{
			struct buf h = BUF_INIT;
			if (tb->row_factor >= 0)
				buf_adds(&h, r->factors[tb->row_factor].name);
			if (tb->ncol_factors) {
				buf_adds(&h, " \\ ");
				for (i = 0; i < tb->ncol_factors; i++)
					buf_addf(&h, "%s%s", i ? " / " : "",
						 r->factors[tb->col_factors[i]]
						     .name);
			}
			cell(f, h.s ? h.s : "");
			buf_release(&h);
		}
		for (c = 0; c < tb->ncols; c++)
			cell(f, tb->col_label[c][0] ? tb->col_label[c]
						    : r->metric);
		row_end(f);
		sep(f, tb->ncols + 1, 1);
		for (i = 0; i < tb->nrows; i++) {
			cell(f, tb->row_label[i]);
			for (c = 0; c < tb->ncols; c++) {
				int ci = tb->cell[i * tb->ncols + c];
				if (tb->metric_index != r->primary && ci >= 0) {
					report_fmt_metric(
					    r, tb->metric_index,
					    r->cells[ci]
						.st[tb->metric_index]
						.median,
					    txt, sizeof txt);
				} else {
					cell_text(r, ci, txt, sizeof txt);
				}
				cell(f, txt);
			}
			row_end(f);
		}
		fputc('\n', f);
	}
	fprintf(f, "%s\n\n", T(r, REPORT_T_SPREAD_NOTE));
}

static void cells(const struct report *r, FILE *f)
{
	static const enum report_text_id cols[] = {
	    REPORT_T_CELL,	    REPORT_T_N,
	    REPORT_T_MEDIAN,	    REPORT_T_MEAN,
	    REPORT_T_STDEV,	    REPORT_T_CV,
	    REPORT_T_MIN,	    REPORT_T_MAX,
	    REPORT_T_CI95,	    REPORT_T_INTERVAL_P95,
	    REPORT_T_INTERVAL_PEAK,
	};
	const int p = r->primary;
	size_t i;
	int k;
	if (*report_unit_label(r->display_unit))
		fprintf(f, "## %s (%s, %s)\n\n", T(r, REPORT_T_CELLS),
			r->metric, r->display_unit);
	else
		fprintf(f, "## %s (%s)\n\n", T(r, REPORT_T_CELLS), r->metric);
	for (i = 0; i < sizeof cols / sizeof *cols; i++)
		cell(f, T(r, cols[i]));
	row_end(f);
	sep(f, (int)(sizeof cols / sizeof *cols), 1);
	for (k = 0; k < r->ncells; k++) {
		const struct report_cell *c = &r->cells[k];
		const struct report_stats *s = &c->st[p];
		char a[64], b[64], mk[96], lab[512];
		report_fmt_marks(r, c, mk, sizeof mk);
		snprintf(lab, sizeof lab, "%s%s%s", c->label, *mk ? " " : "",
			 mk);
		cell(f, lab);
		snprintf(a, sizeof a, "%d/%d", s->n, c->n_runs);
		cell(f, a);
		cell(f, report_fmt_value(r, s->median, a, sizeof a));
		cell(f, report_fmt_value(r, s->mean, a, sizeof a));
		cell(f, report_fmt_value(r, s->sd, a, sizeof a));
		if (isnan(s->cv_pct))
			snprintf(a, sizeof a, "–");
		else
			snprintf(a, sizeof a, "%.1f", s->cv_pct);
		cell(f, a);
		cell(f, report_fmt_value(r, s->min, a, sizeof a));
		cell(f, report_fmt_value(r, s->max, a, sizeof a));
		if (isnan(s->ci_low)) {
			cell(f, "–");
		} else {
			char ci[160];
			report_fmt_value(r, s->ci_low, a, sizeof a);
			report_fmt_value(r, s->ci_high, b, sizeof b);
			snprintf(ci, sizeof ci, "%s – %s", a, b);
			cell(f, ci);
		}
		cell(f, report_fmt_value(r, s->iv_p95, a, sizeof a));
		cell(f, report_fmt_value(r, s->iv_peak, a, sizeof a));
		row_end(f);
	}
	fprintf(f, "\n%s\n\n", T(r, REPORT_T_INTERVAL_NOTE));
	other_metrics(r, f);
}

/* Medians of every other metric per cell (retransmits, CPU, loss ...),
 * the way before/after tables show them side by side. */
static void other_metrics(const struct report *r, FILE *f)
{
	int k, m;
	if (r->nmetrics < 2)
		return;
	fprintf(f, "### %s (%s)\n\n", T(r, REPORT_T_METRIC),
		T(r, REPORT_T_MEDIAN));
	cell(f, T(r, REPORT_T_CELL));
	for (m = 0; m < r->nmetrics; m++)
		cell(f, r->metrics[m]);
	row_end(f);
	sep(f, r->nmetrics + 1, 1);
	for (k = 0; k < r->ncells; k++) {
		char v[96];
		cell(f, r->cells[k].label);
		for (m = 0; m < r->nmetrics; m++) {
			if (m == r->primary)
				report_fmt_value_unit(
				    r, r->cells[k].st[m].median, v, sizeof v);
			else
				report_fmt_metric(r, m,
						  r->cells[k].st[m].median, v,
						  sizeof v);
			cell(f, v);
		}
		row_end(f);
	}
	fputc('\n', f);
}

static void comparisons(const struct report *r, FILE *f)
{
	char hd[128];
	int k;
	fprintf(f, "## %s\n\n", T(r, REPORT_T_COMPARISONS));
	if (!r->ncmps) {
		fprintf(f, "%s\n\n", T(r, REPORT_T_NO_COMPARISONS));
		return;
	}
	/* The columns of the PDF's comparison table. */
	cell(f, T(r, REPORT_T_FACTOR));
	cell(f, T(r, REPORT_T_CELL));
	cell(f, T(r, REPORT_T_A));
	cell(f, T(r, REPORT_T_B));
	snprintf(hd, sizeof hd, "A %s", T(r, REPORT_T_MEDIAN));
	cell(f, hd);
	snprintf(hd, sizeof hd, "B %s", T(r, REPORT_T_MEDIAN));
	cell(f, hd);
	cell(f, T(r, REPORT_T_DELTA));
	cell(f, T(r, REPORT_T_P));
	cell(f, T(r, REPORT_T_N));
	cell(f, T(r, REPORT_T_VERDICT));
	row_end(f);
	fputs("|---|---|---|---|---:|---:|---:|---:|---:|---|\n", f);
	for (k = 0; k < r->ncmps; k++) {
		const struct report_cmp *c = &r->cmps[k];
		const struct report_cell *A = &r->cells[c->a],
					 *B = &r->cells[c->b];
		char a[512], b[512], v[2048], mk[96], x[64];
		char both[2400];
		cell(f, c->factor >= 0 ? r->factors[c->factor].name
				       : T(r, REPORT_T_EXPLICIT_PAIR));
		report_fmt_common(r, A, B, both, sizeof both);
		cell(f, both);
		report_fmt_side(r, A, B, a, sizeof a);
		report_fmt_side(r, B, A, b, sizeof b);
		cell(f, a);
		cell(f, b);
		cell(f, report_fmt_value(r, A->st[r->primary].median, x,
					 sizeof x));
		cell(f, report_fmt_value(r, B->st[r->primary].median, x,
					 sizeof x));
		cell(f, report_fmt_delta(c, x, sizeof x));
		cell(f, report_fmt_p(c, x, sizeof x));
		snprintf(x, sizeof x, "%d+%d", c->n_a, c->n_b);
		cell(f, x);
		report_fmt_verdict(r, c, v, sizeof v);
		report_fmt_cmp_marks(r, c, 1, mk, sizeof mk);
		snprintf(both, sizeof both, "%s%s%s", v, *mk ? " " : "", mk);
		cell(f, both);
		row_end(f);
	}
	fputc('\n', f);
	{
		struct buf m = BUF_INIT;
		buf_addf(&m, T(r, REPORT_T_METHOD_NOTE), 100 * r->threshold);
		fprintf(f, "%s\n\n", m.s);
		buf_release(&m);
	}
}

/* Up to max details of flag code, from cells and comparisons. */
static void note_details(const struct report *r, FILE *f,
			 enum report_flag_code code)
{
	const int max = 12;
	int shown = 0, more = 0, k, j;
	for (k = 0; k < r->ncells; k++)
		for (j = 0; j < r->cells[k].nflags; j++)
			if (r->cells[k].flags[j].code == code &&
			    r->cells[k].flags[j].detail[0]) {
				if (shown++ < max)
					fprintf(f, "   - %s: %s\n",
						r->cells[k].label,
						r->cells[k].flags[j].detail);
				else
					more++;
			}
	for (k = 0; k < r->ncmps; k++) {
		const struct report_cmp *c = &r->cmps[k];
		/* Cell flags already listed above; only comparison ones. */
		for (j = 0; j < c->nreasons + c->nwarnings; j++) {
			const struct report_flag *fl =
			    j < c->nreasons ? &c->reasons[j]
					    : &c->warnings[j - c->nreasons];
			if (fl->code != code || !fl->detail[0])
				continue;
			if (code != REPORT_FLAG_FACTORS_DIFFER &&
			    code != REPORT_FLAG_ENGINE_DIFFERS &&
			    code != REPORT_FLAG_UNIT_DIFFERS &&
			    code != REPORT_FLAG_NOT_INTERLEAVED &&
			    code != REPORT_FLAG_NOT_VERIFIED &&
			    code != REPORT_FLAG_FACTS_CHANGED &&
			    code != REPORT_FLAG_NONPOSITIVE &&
			    !(code == REPORT_FLAG_VERIFY_FAILED &&
			      j < c->nreasons))
				continue;
			if (shown++ < max)
				fprintf(f, "   - %s vs %s: %s\n",
					r->cells[c->a].label,
					r->cells[c->b].label, fl->detail);
			else
				more++;
		}
	}
	if (more)
		fprintf(f, "   - (+%d)\n", more);
}

static void notes(const struct report *r, FILE *f)
{
	int k;
	if (!r->nnotes)
		return;
	fprintf(f, "## %s\n\n", T(r, REPORT_T_NOTES));
	for (k = 0; k < r->nnotes; k++) {
		fprintf(f, "%d. **%s**: %s\n", k + 1,
			report_flag_code_name(r->notes[k]),
			report_flag_text(r->notes[k], r->lang));
		note_details(r, f, r->notes[k]);
	}
	fputc('\n', f);
}

static void facts(const struct report *r, FILE *f)
{
	int k;
	if (!r->nfacts)
		return;
	fprintf(f, "## %s\n\n", T(r, REPORT_T_HOST_FACTS));
	cell(f, T(r, REPORT_T_HOST));
	cell(f, T(r, REPORT_T_KEY));
	cell(f, T(r, REPORT_T_VALUE));
	cell(f, T(r, REPORT_T_SESSION));
	row_end(f);
	fputs("|---|---|---|---:|\n", f);
	for (k = 0; k < r->nfacts; k++) {
		char s[32];
		cell(f, r->facts[k].host);
		cell(f, r->facts[k].key);
		cell(f, r->facts[k].value ? r->facts[k].value : "");
		snprintf(s, sizeof s, "%lld", (long long)r->facts[k].session);
		cell(f, s);
		row_end(f);
	}
	fputc('\n', f);
}

static void verifs(const struct report *r, FILE *f)
{
	int k;
	if (!r->nverifs)
		return;
	fprintf(f, "## %s\n\n", T(r, REPORT_T_VERIFICATION));
	cell(f, T(r, REPORT_T_FACTOR));
	cell(f, T(r, REPORT_T_HOST));
	cell(f, T(r, REPORT_T_METHOD));
	cell(f, T(r, REPORT_T_EXPECTED));
	cell(f, T(r, REPORT_T_ACTUAL));
	cell(f, T(r, REPORT_T_VERIFY_RESULT));
	cell(f, T(r, REPORT_T_RUN_COUNT));
	row_end(f);
	fputs("|---|---|---|---|---|---|---:|\n", f);
	for (k = 0; k < r->nverifs; k++) {
		const struct report_verif *v = &r->verifs[k];
		char s[32];
		cell(f, v->factor);
		cell(f, v->host);
		cell(f, v->method);
		cell(f, v->expected ? v->expected : "");
		cell(f, v->actual ? v->actual : "");
		cell(f, T(r, v->ok ? REPORT_T_OK : REPORT_T_MISMATCH));
		snprintf(s, sizeof s, "%d", v->count);
		cell(f, s);
		row_end(f);
	}
	fputc('\n', f);
}

/* The published matrix next to the measured cells (--reference), laid out
 * like the published table: one column per factor it names. */
static void reference(const struct report *r, FILE *f)
{
	static const enum report_text_id head[] = {
	    REPORT_T_REF_PUBLISHED, REPORT_T_REF_MEASURED,
	    REPORT_T_CI95,	    REPORT_T_REF_RANGE,
	    REPORT_T_REF_RATIO,	    REPORT_T_REF_IN_RANGE,
	};
	const struct report_ref *ref = r->ref;
	int multi, k, j, c;
	struct buf m = BUF_INIT;
	size_t h;
	if (!ref)
		return;
	multi = ref->nvalues > 1;
	fprintf(f, "## %s\n\n", T(r, REPORT_T_REFERENCE));
	fprintf(f, "%s (%s)\n\n", ref->values[0], r->display_unit);
	for (j = 0; j < ref->nfactors; j++)
		cell(f, ref->factors[j]);
	if (multi)
		cell(f, T(r, REPORT_T_METRIC));
	for (h = 0; h < sizeof head / sizeof *head; h++)
		cell(f, T(r, head[h]));
	row_end(f);
	for (j = 0; j < ref->nfactors + multi; j++)
		fputs("|---", f);
	fputs("|---:|---:|---:|---:|---:|---|\n", f);
	for (k = 0; k < ref->nrows; k++) {
		const struct report_ref_row *w = &ref->rows[k];
		for (j = 0; j < ref->nvalues; j++) {
			char col[REPORT_REF_NCOLS][192];
			int x;
			if (isnan(w->v[j].published))
				continue;
			report_ref_fmt(r, w, j, col);
			for (x = 0; x < ref->nfactors; x++)
				cell(f, w->levels[x]);
			if (multi)
				cell(f, col[REPORT_REF_COL_METRIC]);
			for (c = REPORT_REF_COL_PUBLISHED; c < REPORT_REF_NCOLS;
			     c++)
				cell(f, col[c]);
			row_end(f);
		}
	}
	fputc('\n', f);
	buf_addf(&m, T(r, REPORT_T_REF_NOTE), ref->path);
	fprintf(f, "%s\n\n", m.s);
	buf_release(&m);
}

int report_write_md(const struct report *r, FILE *f, struct xr_err *err)
{
	header(r, f);
	tables(r, f);
	comparisons(r, f);
	reference(r, f);
	notes(r, f);
	cells(r, f);
	facts(r, f);
	verifs(r, f);
	if (fflush(f) != 0 || ferror(f))
		return xr_err_set(err, XR_EIO, NULL, 0, 0,
				  "cannot write the markdown report");
	return 0;
}
