/*
 * Neutral charts: what a matrix table's chart shows (chart_matrix:
 * groups, series, medians, min-max whiskers, published markers, title,
 * unit, legend title and note) and where everything goes (the y axis with
 * "nice" ticks, the plot area, each bar, whisker, marker and value, the
 * legend), decided once for every format; chart_bars.c turns that into a
 * list of shapes (chart_fig), as chart_runs.c and chart_cmp.c build the
 * other charts. The PDF (pdf_chart.c) and SVG (svg_chart.c) drawers only
 * draw shapes. chart_frame geometry is in the caller's units with y
 * growing from py0 (the axis at ymin) to py1 (ymax).
 *
 * Ownership: chart_matrix allocates from the arena it is given.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef XR_CHART_H
#define XR_CHART_H

#include <stddef.h>

struct arena;
struct report;

/*
 * Grouped bar chart: one group per category along x, one bar per series in
 * each group, bar height = value, whiskers from lo to hi (NAN: no whisker;
 * NAN value: no bar), a published marker at ref (NAN or ref NULL: none):
 * a dark red line across the bar, in CHART_MARK_RGB.
 * Arrays are ngroups * nseries, group-major: value[g * nseries + s]. The
 * y axis starts at 0 and gets "nice" ticks and its label (the unit). A
 * legend names the series when nseries > 1, after its title (the factor
 * the series are levels of); the title says what the red line is when
 * there is one. Each bar carries its value (chart_bar_label), and the
 * note under the chart says that the axis starts at 0.
 */
struct chart {
	const char *title;  /* may be NULL */
	const char *ylabel; /* e.g. "Gbit/s" */
	const char *xlabel; /* may be NULL */
	int ngroups, nseries;
	const char *const *groups;     /* ngroups labels */
	const char *const *series;     /* nseries labels */
	const double *value, *lo, *hi; /* lo/hi may be NULL */
	const double *ref;	       /* published values; may be NULL */
	double height;		       /* plot height; 0 = 180 */
	const char *legend_title; /* "nic" before the legend; may be NULL */
	const char *note;	  /* under the chart; may be NULL */
	/* Not drawn, and why (ngroups 0): more than CHART_MAX_CELLS */
	const char *left_out;
};

/* The most cells one bar or box chart draws (issue 40: 10^5 cells made
 * charts of millions of shapes, 2.6 million points wide, most of the
 * report's time and memory): past it the figure says it was left out and
 * why; the table holds every value. */
#define CHART_MAX_CELLS 2000
/* The figure's one line then, in the report's language (ja). */
const char *chart_left_out(struct arena *a, size_t ncells, int ja);

/* The chart of matrix table ti of r, figure number no (1-based), titled
 * after the table's caption (rtable.title): groups =
 * rows, one bar per column (with a single row the columns become the
 * groups); bars are what the tables show, the geometric mean with its
 * 95% interval as whiskers (the median with its order-statistic interval
 * where a run is not > 0), markers
 * the published values of r->ref for the table's metric. Values are in
 * the display unit. 0 or -XR_ENOMEM. */
int chart_matrix(const struct report *r, int ti, int no, const char *caption,
		 struct arena *a, struct chart *c);

/* Does the chart hold at least one published marker? */
int chart_has_ref(const struct chart *c);

/* The published marker's colour: dark red (rgb 0..1 and as hex). */
#define CHART_MARK_RGB 0.55, 0.05, 0.05
#define CHART_MARK_HEX "#8c0d0d"
#define CHART_MARK_WIDTH 2.0

/* Text sizes and limits of a format, in its units. */
struct chart_style {
	double tick;	 /* tick labels */
	double label;	 /* group labels and legend */
	double max_bar;	 /* widest bar */
	double min_plot; /* narrowest plot when bars are few */
};

/* How a format measures text: width of len bytes of UTF-8 at size, the
 * number of lines text wraps to within width, and those lines (OUT:
 * start and length of each, at most max, the last taking the rest;
 * returns how many, >= 1). */
struct chart_text {
	void *ctx;
	double (*measure)(void *ctx, const char *s, size_t len, double size);
	int (*lines)(void *ctx, const char *s, double size, double width);
	int (*wrap)(void *ctx, const char *s, double size, double width,
		    const char **start, size_t *len, int max);
};

/* Where a chart's plot goes and how its y axis is scaled. */
struct chart_frame {
	double px0, px1, py0, py1; /* the plot area (py0 at ymin) */
	double ymin, ymax, step;   /* the axis, in ticks of step */
	int dec;		   /* decimals of the tick labels */
	int nticks;		   /* ticks from ymin to ymax */
	double gw, bw;		   /* group and bar width */
	int maxl;		   /* lines of the longest group label */
};

/* The y range over values, whiskers and markers, from 0, in nice ticks;
 * then the plot's x extent after the tick labels (x0, width), group and
 * bar widths and the lines group labels need. py0/py1 are left to the
 * caller, who knows where the plot goes vertically. */
void chart_layout(const struct chart *c, const struct chart_style *st,
		  const struct chart_text *tx, double x0, double width,
		  struct chart_frame *f);

/* Tick i (0..nticks-1) and its label ("2.5"). */
double chart_tick(const struct chart_frame *f, int i);
const char *chart_tick_label(const struct chart_frame *f, int i, char *out,
			     size_t n);
/* Position of value v on the y axis. */
double chart_ypos(const struct chart_frame *f, double v);
/* Centre of group g along x. */
double chart_group_x(const struct chart_frame *f, int g);

/* One bar of a group: its rectangle, whisker and marker, in frame units;
 * has_* say which parts to draw. */
struct chart_bar {
	int series;
	int has_bar, has_whisker, has_ref;
	double x, w;	   /* the rectangle's left edge and width */
	double y0, y1;	   /* from the axis to the value */
	double cx, cap;	   /* whisker centre line and half cap width */
	double ylo, yhi;   /* whisker ends */
	double yref, refw; /* marker position and half width (the bar's) */
	double ytop;	   /* the bar's, whisker's or marker's far end */
};
void chart_bar_at(const struct chart *c, const struct chart_frame *f, int g,
		  int s, struct chart_bar *b);

/* Between the far end of a bar, its whisker or marker (ytop) and its
 * value's baseline: digits have no descent, so this is the white space
 * a reader sees between the cap and the label. */
#define CHART_LABEL_GAP 4.5

/* The value printed on bar b of group g, series s: its text (decimals
 * as the tables print them, report_fmt_decimals) and size, at most
 * st->label - 1 and smaller until it fits the bar's width (and the gap
 * beside it); 0 when it does not fit even at 4.5 or there is no bar. The
 * text's baseline goes CHART_LABEL_GAP units beyond b->ytop, away from
 * the axis. */
int chart_bar_label(const struct chart *c, const struct chart_style *st,
		    const struct chart_text *tx, const struct chart_frame *f,
		    int g, int s, char *out, size_t n, double *size);

/* A legend entry: series s; where its swatch starts, on which row (0 =
 * top). */
struct chart_legend_item {
	int series;
	const char *text;
	double x;
	int row;
};
/* Lay out the legend across width from x0 with swatches of side sw,
 * after c->legend_title (drawn at x0 on row 0 by the caller, "nic:").
 * OUT: items (room for nseries), *n; returns the rows used (0: no
 * legend, with a single series). */
int chart_legend(const struct chart *c, const struct chart_style *st,
		 const struct chart_text *tx, double x0, double width,
		 double sw, struct chart_legend_item *items, int *n);

/* Colour of series s, muted and print-friendly: rgb 0..1, or "#4573b0"
 * into out. */
void chart_colour_rgb(int s, double rgb[3]);
const char *chart_colour_hex(int s, char out[8]);

/* A tick step of 1, 2, 2.5 or 5 times a power of ten giving about 5
 * ticks over span; OUT: the decimals its labels need. */
double chart_nice_step(double span, int *decimals);

/*
 * The charts of the runs (chart_runs.c), laid out as a list of shapes
 * that svg_chart.c and pdf_chart.c only draw: per cell a time series
 * (every ok run's engine.throughput over time, runs overlaid; under it a
 * strip of the busiest cores' cpu.N.busy, and a red tick at the top for
 * every sample where a drop or PAUSE series increased, when the runs have
 * those series), and per matrix table a distribution (a box from the
 * first to the third quartile with the median, whiskers min-max, and
 * every ok run as a dot; the y axis spans the runs, not from 0).
 * Coordinates are in the format's units (points), y growing down from
 * 0 at the top, x from 0 at the left.
 */
enum chart_op_kind {
	CHART_OP_PATH,
	CHART_OP_RECT,
	CHART_OP_DOT,
	CHART_OP_TEXT
};
#define CHART_INK (-1)	/* black */
#define CHART_GRID (-2) /* light grey */
#define CHART_MARK (-3) /* CHART_MARK_RGB */
#define CHART_BAND (-4) /* a light fill behind (the ±θ band) */
#define CHART_BAND_RGB 0.90, 0.93, 0.97
#define CHART_BAND_HEX "#e6edf7"
struct chart_op {
	enum chart_op_kind kind;
	int colour;	  /* palette index (chart_colour_rgb) or CHART_* */
	int fill;	  /* RECT, DOT: filled with colour, else outlined */
	double width;	  /* stroke width */
	double x, y;	  /* RECT: top left; DOT: centre; TEXT: baseline */
	double w, h;	  /* RECT: size; DOT: w = radius */
	const double *px; /* PATH: n points (px[i], py[i]) */
	const double *py;
	int n;
	const char *text; /* TEXT */
	double size;
	int anchor; /* TEXT: -1 start, 0 middle, 1 end; its colour too */
	int bold;   /* TEXT */
};
struct chart_fig {
	const char *kind;  /* its data-chart: "timeseries", "box", "forest" */
	const char *title; /* drawn above it (standalone SVG, PDF) */
	double w, h;	   /* extent of the shapes */
	struct chart_op *ops;
	int nops, cap;
	struct arena *a;
};
/* The bar chart c as shapes (chart_bars.c), laid out in width units with
 * the format's style and text metrics; kind "bar", titled c->title.
 * 0 or -XR_ENOMEM. */
int chart_bars_fig(const struct chart *c, const struct chart_style *st,
		   const struct chart_text *tx, double width, struct arena *a,
		   struct chart_fig *f);
/* The trend of one history cell (chart_history.c): sessions along x,
 * each one's estimate and interval, the segments' levels and the changes
 * marked with their effect and first cause. 0 or -XR_ENOMEM. */
struct history_cell;
int chart_history(const struct report *r, const struct history_cell *h,
		  double width, struct arena *a, struct chart_fig *f);
/* Cell ci's time series in width units; f->nops == 0 when its runs have
 * no engine.throughput series. 0 or -XR_ENOMEM. */
int chart_timeseries(const struct report *r, int ci, double width,
		     struct arena *a, struct chart_fig *f);
/* The distribution of matrix table ti's cells (the runs of chart_matrix's
 * bars), figure no; f->nops == 0 when no cell has a run. 0 or
 * -XR_ENOMEM. */
int chart_box(const struct report *r, int ti, int no, const char *caption,
	      double width, struct arena *a, struct chart_fig *f);
/* Latency under load (chart_latency.c). Cell ci's first ok run with a
 * latency.rtt series: its round-trip time (right axis, ms) and its
 * engine.throughput (left axis, when it has one) over seconds from the
 * engine's start, the idle phase (t < 0) shaded; kind "latency", f->nops
 * == 0 when no run of the cell has the series. 0 or -XR_ENOMEM. */
int chart_latency_ts(const struct report *r, int ci, double width,
		     struct arena *a, struct chart_fig *f);
/* The cumulative distribution of the loaded round-trip time (every
 * latency.rtt point with t >= 0 of every ok run, in ms) per cell, one
 * step line each, y from 0 to 1, x in ms from 0; kind "cdf", f->nops ==
 * 0 when no cell has such a point. 0 or -XR_ENOMEM. */
int chart_latency_cdf(const struct report *r, double width, struct arena *a,
		      struct chart_fig *f);
/* The comparisons (chart_cmp.c): per comparison its name and verdict,
 * its change with the 95% interval (thin) and the 90% equivalence
 * interval (thick), the verdict's mark at the change, over the ±θ band;
 * f->nops == 0 when the report has no comparison. 0 or -XR_ENOMEM. */
int chart_forest(const struct report *r, double width, struct arena *a,
		 struct chart_fig *f);

#endif
