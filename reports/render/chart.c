/*
 * Neutral bar charts (chart.h): the data of a matrix table's chart, taken
 * once from the model, and the geometry every format draws it with (nice
 * y ticks, plot extent, bars, whiskers, published markers, legend rows).
 * The PDF and SVG drawers only turn these numbers into shapes.
 *
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "arena.h"
#include "chart.h"
#include "format.h"
#include "reference.h"
#include "xr_err.h"

#include "banned.h"

/* Muted, print-friendly colours that stay distinct in greyscale order. */
static const double palette[][3] = {
    {0.27, 0.45, 0.69}, {0.87, 0.52, 0.32}, {0.33, 0.66, 0.41},
    {0.77, 0.31, 0.32}, {0.51, 0.45, 0.70}, {0.58, 0.47, 0.38},
    {0.85, 0.55, 0.76}, {0.55, 0.55, 0.55}, {0.80, 0.73, 0.45},
    {0.39, 0.71, 0.80}, {0.20, 0.30, 0.45}, {0.65, 0.80, 0.45},
    {0.55, 0.20, 0.35}, {0.95, 0.75, 0.35}, {0.30, 0.50, 0.50},
    {0.75, 0.65, 0.85},
};
#define NPALETTE (sizeof(palette) / sizeof(palette[0]))

void chart_colour_rgb(int s, double rgb[3])
{
	const double *p = palette[(size_t)(s < 0 ? 0 : s) % NPALETTE];
	rgb[0] = p[0];
	rgb[1] = p[1];
	rgb[2] = p[2];
}

const char *chart_colour_hex(int s, char out[8])
{
	double c[3];
	chart_colour_rgb(s, c);
	snprintf(out, 8, "#%02x%02x%02x", (unsigned)lround(c[0] * 255),
		 (unsigned)lround(c[1] * 255), (unsigned)lround(c[2] * 255));
	return out;
}

static double at(const double *a, int i)
{
	return a ? a[i] : NAN;
}

/* --- the chart of a matrix table --------------------------------------- */

/* Display scale and unit of metric mi (the primary gets the display unit). */
static double metric_scale(const struct report *r, int mi, const char **unit)
{
	double scale = report_metric_scale(r, mi, unit);
	*unit = report_unit_label(*unit);
	return scale;
}

static const char *metric_name(const struct report *r, int mi)
{
	if (mi >= 0 && mi < r->met.nmetrics && r->met.metrics &&
	    r->met.metrics[mi])
		return r->met.metrics[mi];
	return r->met.metric ? r->met.metric : "";
}

/* The published value of cell ci in metric mi (base units), or NAN. */
static double published(const struct report *r, int ci, int mi)
{
	const struct report_ref *ref = r->ref;
	int k, j;
	if (!ref)
		return NAN;
	for (j = 0; j < ref->nvalues; j++) {
		if (ref->value_metric[j] != mi)
			continue;
		for (k = 0; k < ref->nrows; k++)
			if (ref->rows[k].status == REPORT_REF_MATCHED &&
			    ref->rows[k].cell == ci)
				return ref->rows[k].v[j].published;
	}
	return NAN;
}

/* "Figure 1. caption (geomean, whiskers = 95% interval)", then " (red
 * line = published)" when the chart marks published values. The bars
 * show what the tables show (report_fmt_cell): the geometric mean with
 * its interval, or the median where a run is not > 0 (median says so,
 * and mixed when some bars are each). */
static const char *chart_matrix_title(const struct report *r, int no,
				      const char *caption, int marks,
				      int median, int mixed, struct arena *a)
{
	int ja = r->about.lang == REPORT_LANG_JA;
	const char *open = ja ? "（赤線 = " : " (red line = ";
	const char *close = ja ? "）" : ")";
	const char *est = mixed
			      ? (ja ? "幾何平均、0 以下の値を含むセルは中央値"
				    : "geomean; median where a run is not > 0")
			  : median ? report_text(r, REPORT_T_MEDIAN)
				   : report_text(r, REPORT_T_GEOMEAN);
	return arena_printf(a,
			    ja ? "図 %d. %s（%s、ひげ = 95%% 区間）%s%s%s"
			       : "Figure %d. %s (%s, whiskers = 95%% "
				 "interval)%s%s%s",
			    no, caption ? caption : "", est, marks ? open : "",
			    marks ? report_text(r, REPORT_T_REF_PUBLISHED) : "",
			    marks ? close : "");
}

/* Bar k of a cell's statistics: the estimate the tables show and its
 * 95% interval (NaN ends: no whisker); returns 1 for the median. */
static int bar_values(const struct report_stats *st, double scale, double *v,
		      double *lo, double *hi)
{
	if (isfinite(st->gm)) {
		*v = st->gm / scale;
		*lo = st->gm_low / scale;
		*hi = st->gm_high / scale;
		return 0;
	}
	*v = st->median / scale;
	*lo = st->med_low / scale;
	*hi = st->med_high / scale;
	return 1;
}

/* The factors the columns are levels of ("nic", "nic × cc"): the
 * legend's title. */
static const char *col_factors(const struct report *r,
			       const struct report_table *tb, struct arena *a)
{
	const char *s = NULL;
	int k;
	for (k = 0; k < tb->ncol_factors; k++) {
		const char *name = r->factors[tb->col_factors[k]].name;
		s = s ? arena_printf(a, "%s × %s", s, name) : name;
		if (!s)
			return NULL;
	}
	return s;
}

/* Bars start at 0, so a difference of a few percent is a sliver: say so,
 * and where the differences are read (the comparisons chart, chart_cmp.c,
 * when there are comparisons). */
static const char *axis_note(const struct report *r, struct arena *a)
{
	int ja = r->about.lang == REPORT_LANG_JA;
	if (r->ncmps > 0)
		return arena_strdup(
		    a,
		    ja ? "縦軸は 0 から: 数 % の差は棒では見えにくいので、"
			 "棒の上の値と比較の図（変化率とその区間）で読む"
		       : "The y axis starts at 0, so a difference of a few "
			 "percent barely shows in the bars: read the values "
			 "on them, and the comparisons chart for each change "
			 "with its interval");
	return arena_strdup(a, ja ? "縦軸は 0 から: 棒の上の値で差を読む"
				  : "The y axis starts at 0: read small "
				    "differences from the values on the bars");
}

int chart_matrix(const struct report *r, int ti, int no, const char *caption,
		 struct arena *a, struct chart *c)
{
	const struct report_table *tb = &r->tables[ti];
	int swap = tb->nrows == 1, g, s, mi = tb->metric_index, nmed = 0;
	int ngm = 0;
	size_t n = (size_t)tb->nrows * (size_t)tb->ncols;
	double *v = arena_alloc(a, (n ? n : 1) * sizeof(double) * 4), scale;
	const char *unit, **series1 = arena_alloc(a, sizeof *series1);

	memset(c, 0, sizeof *c);
	if (n > CHART_MAX_CELLS) {
		c->title = chart_matrix_title(r, no, caption, 0, 0, 0, a);
		c->left_out =
		    chart_left_out(a, n, r->about.lang == REPORT_LANG_JA);
		return c->title && c->left_out ? 0 : -XR_ENOMEM;
	}
	if (!v || !series1)
		return -XR_ENOMEM;
	scale = metric_scale(r, mi, &unit);
	c->ngroups = swap ? tb->ncols : tb->nrows;
	c->nseries = swap ? 1 : tb->ncols;
	for (g = 0; g < c->ngroups; g++)
		for (s = 0; s < c->nseries; s++) {
			int row = swap ? 0 : g, col = swap ? g : s;
			int ci = tb->cell[row * tb->ncols + col];
			size_t k = (size_t)g * (size_t)c->nseries + (size_t)s;
			const struct report_stats *st;

			v[k] = v[n + k] = v[2 * n + k] = v[3 * n + k] = NAN;
			if (ci < 0 || ci >= r->ncells)
				continue;
			v[3 * n + k] = published(r, ci, mi) / scale;
			st = &r->cells[ci].st[mi];
			if (st->n < 1)
				continue;
			if (bar_values(st, scale, &v[k], &v[n + k],
				       &v[2 * n + k]))
				nmed++;
			else
				ngm++;
		}
	series1[0] = metric_name(r, mi);
	c->legend_title = swap ? NULL : col_factors(r, tb, a);
	c->note = axis_note(r, a);
	c->ref = r->ref ? v + 3 * n : NULL;
	c->title = chart_matrix_title(r, no, caption, chart_has_ref(c),
				      nmed && !ngm, nmed && ngm, a);
	c->ylabel = unit && *unit ? unit : metric_name(r, mi);
	c->xlabel = !swap && tb->row_factor >= 0
			? r->factors[tb->row_factor].name
			: NULL;
	c->groups = swap ? tb->col_label : tb->row_label;
	c->series = swap ? series1 : tb->col_label;
	c->value = v;
	c->lo = v + n;
	c->hi = v + 2 * n;
	c->height = 170;
	return c->title && c->note ? 0 : -XR_ENOMEM;
}

const char *chart_left_out(struct arena *a, size_t ncells, int ja)
{
	return arena_printf(
	    a,
	    ja ? "図は省略: %zu セル（一つの図は %d セルまで。値はすべて表に"
		 "ある）"
	       : "Not drawn: %zu cells (a chart draws at most %d; the table "
		 "holds every value)",
	    ncells, CHART_MAX_CELLS);
}

int chart_has_ref(const struct chart *c)
{
	int i;
	for (i = 0; c->ref && i < c->ngroups * c->nseries; i++)
		if (isfinite(c->ref[i]))
			return 1;
	return 0;
}

/* --- geometry ---------------------------------------------------------- */

/* A step of 1, 2, 2.5 or 5 times a power of ten giving about 5 ticks. */
double chart_nice_step(double span, int *decimals)
{
	double raw = span / 5, mag, norm, step;
	int d;

	if (!(raw > 0))
		raw = 0.2;
	mag = pow(10, floor(log10(raw)));
	norm = raw / mag;
	if (norm <= 1)
		step = 1;
	else if (norm <= 2)
		step = 2;
	else if (norm <= 2.5)
		step = 2.5;
	else if (norm <= 5)
		step = 5;
	else
		step = 10;
	d = (int)-floor(log10(mag * step) + 1e-9);
	if (step == 2.5)
		d++;
	*decimals = d < 0 ? 0 : d;
	return step * mag;
}

/* The y range over values, whiskers and markers, from 0, rounded to nice
 * ticks. */
static void chart_yrange(const struct chart *c, struct chart_frame *f)
{
	int i, k;

	f->ymin = f->ymax = 0;
	for (i = 0; i < c->ngroups * c->nseries; i++) {
		double vals[4] = {at(c->value, i), at(c->lo, i), at(c->hi, i),
				  at(c->ref, i)};

		for (k = 0; k < 4; k++)
			if (isfinite(vals[k])) {
				f->ymax = fmax(f->ymax, vals[k]);
				f->ymin = fmin(f->ymin, vals[k]);
			}
	}
	if (f->ymax <= f->ymin)
		f->ymax = f->ymin + 1;
	f->step = chart_nice_step(f->ymax - f->ymin, &f->dec);
	/* room above the tallest bar for its value */
	f->ymax = ceil(f->ymax / f->step + 0.3 - 1e-9) * f->step;
	f->ymin = floor(f->ymin / f->step + 1e-9) * f->step;
	f->nticks = (int)lround((f->ymax - f->ymin) / f->step) + 1;
}

double chart_tick(const struct chart_frame *f, int i)
{
	double v = f->ymin + i * f->step;
	return fabs(v) < f->step / 1e6 ? 0.0 : v;
}

const char *chart_tick_label(const struct chart_frame *f, int i, char *out,
			     size_t n)
{
	snprintf(out, n, "%.*f", f->dec, chart_tick(f, i));
	return out;
}

double chart_ypos(const struct chart_frame *f, double v)
{
	return f->py0 + (v - f->ymin) / (f->ymax - f->ymin) * (f->py1 - f->py0);
}

double chart_group_x(const struct chart_frame *f, int g)
{
	return f->px0 + g * f->gw + f->gw / 2;
}

void chart_layout(const struct chart *c, const struct chart_style *st,
		  const struct chart_text *tx, double x0, double width,
		  struct chart_frame *f)
{
	double axis_w = 0;
	char tick[64];
	int g, i, n, ng = c->ngroups, ns = c->nseries;

	memset(f, 0, sizeof *f);
	chart_yrange(c, f);
	for (i = 0; i < f->nticks; i++) {
		chart_tick_label(f, i, tick, sizeof tick);
		axis_w = fmax(
		    axis_w, tx->measure(tx->ctx, tick, strlen(tick), st->tick));
	}
	axis_w += 6;
	if (c->ylabel)
		axis_w = fmax(axis_w, tx->measure(tx->ctx, c->ylabel,
						  strlen(c->ylabel), st->tick) /
					  2);
	f->px0 = x0 + axis_w + 2;
	f->px1 = x0 + width;
	f->gw = (f->px1 - f->px0) / (ng > 0 ? ng : 1);
	f->bw = f->gw * 0.78 / (ns > 0 ? ns : 1);
	/* Few bars: narrower plot rather than slabs. */
	if (f->bw > st->max_bar) {
		f->bw = st->max_bar;
		f->gw = f->bw * ns / 0.78;
		f->px1 = fmax(f->px0 + f->gw * ng, f->px0 + st->min_plot);
		f->gw = (f->px1 - f->px0) / (ng > 0 ? ng : 1);
	}
	f->maxl = 1;
	for (g = 0; g < ng; g++) {
		n = tx->lines(tx->ctx, c->groups[g] ? c->groups[g] : "",
			      st->label, f->gw - 2);
		if (n > f->maxl)
			f->maxl = n;
	}
}

void chart_bar_at(const struct chart *c, const struct chart_frame *f, int g,
		  int s, struct chart_bar *b)
{
	int ns = c->nseries, k = g * ns + s;
	double gx = f->px0 + g * f->gw + (f->gw - f->bw * ns) / 2, bw = f->bw;
	double val = at(c->value, k), lo = at(c->lo, k), hi = at(c->hi, k);
	double ref = at(c->ref, k), bx = gx + s * bw;

	memset(b, 0, sizeof *b);
	b->series = s;
	b->has_bar = isfinite(val);
	b->x = bx + bw * 0.06;
	b->w = bw * 0.88;
	b->y0 = chart_ypos(f, 0);
	b->y1 = b->has_bar ? chart_ypos(f, val) : b->y0;
	b->cx = bx + bw / 2;
	b->cap = fmin(bw * 0.25, 4);
	b->has_whisker = isfinite(lo) && isfinite(hi) && hi > lo;
	if (b->has_whisker) {
		b->ylo = chart_ypos(f, lo);
		b->yhi = chart_ypos(f, hi);
	}
	b->has_ref = isfinite(ref);
	if (b->has_ref) {
		b->yref = chart_ypos(f, ref);
		b->refw = bw / 2;
	}
	b->ytop = chart_ypos(
	    f, fmax(fmax(isfinite(val) ? val : 0, b->has_whisker ? hi : 0),
		    b->has_ref ? ref : 0));
}

int chart_bar_label(const struct chart *c, const struct chart_style *st,
		    const struct chart_text *tx, const struct chart_frame *f,
		    int g, int s, char *out, size_t n, double *size)
{
	double v = at(c->value, g * c->nseries + s), room = f->bw * 1.1, w;
	if (!isfinite(v))
		return 0;
	snprintf(out, n, "%.*f", report_fmt_decimals(v), v);
	*size = st->label - 1;
	w = tx->measure(tx->ctx, out, strlen(out), *size);
	if (w > room)
		*size *= room / w;
	return *size >= 4.5;
}

int chart_legend(const struct chart *c, const struct chart_style *st,
		 const struct chart_text *tx, double x0, double width,
		 double sw, struct chart_legend_item *items, int *n)
{
	double x = x0;
	int s, row = 0;

	*n = 0;
	if (c->nseries < 2)
		return 0;
	if (c->legend_title) /* "nic:" then the swatches */
		x += tx->measure(tx->ctx, c->legend_title,
				 strlen(c->legend_title), st->label) +
		     tx->measure(tx->ctx, ": ", 2, st->label) + 4;
	for (s = 0; s < c->nseries; s++) {
		const char *lab = c->series[s] ? c->series[s] : "";
		double w = sw + 3 +
			   tx->measure(tx->ctx, lab, strlen(lab), st->label) +
			   12;
		if (x > x0 && x + w > x0 + width) {
			x = x0;
			row++;
		}
		items[*n].series = s;
		items[*n].text = lab;
		items[*n].x = x;
		items[(*n)++].row = row;
		x += w;
	}
	return row + 1;
}
