/*
 * The trend chart of one history cell (`report --history`): the sessions
 * along x in time order, each one's geometric mean as a dot with its 95%
 * interval as a vertical line, the segments between changes as a
 * horizontal line at their level, and each change as a red line between
 * the two sessions with its effect and the first fact that changed
 * written at the top. Shapes only (chart_fig), drawn by svg_chart.c and
 * pdf_chart.c like the other figures.
 *
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "arena.h"
#include "chart_fig.h"
#include "history.h"
#include "render.h"
#include "report.h"
#include "banned.h"

#define HC_LEFT 52.0   /* room for the y tick labels */
#define HC_TOP 26.0    /* room for the change labels */
#define HC_PLOT 150.0  /* plot height */
#define HC_BOTTOM 34.0 /* session labels and the axis label */
#define HC_SIZE 8.0

/* The y range: every interval end and estimate. */
static void y_range(const struct history_cell *h, double scale, double *lo,
		    double *hi)
{
	int k;
	*lo = INFINITY;
	*hi = -INFINITY;
	for (k = 0; k < h->ns; k++) {
		const struct history_session *s = &h->s[k];
		double a = isnan(s->lo) ? s->value : s->lo;
		double b = isnan(s->hi) ? s->value : s->hi;
		if (a / scale < *lo)
			*lo = a / scale;
		if (b / scale > *hi)
			*hi = b / scale;
	}
}

/* The geometric mean of sessions [a, b): the segment's level. */
static double level(const struct history_cell *h, int a, int b)
{
	double s = 0;
	int k, n = 0;
	for (k = a; k < b; k++) {
		s += log(h->s[k].value) * h->s[k].n;
		n += h->s[k].n;
	}
	return n ? exp(s / n) : NAN;
}

static int change_marks(const struct history_cell *h, struct chart_fig *f,
			const struct chart_axis *y, double x0, double dx)
{
	int k, rc = 0;
	char t[160];
	for (k = 0; k < h->nch && !rc; k++) {
		const struct history_change *c = &h->ch[k];
		double x = x0 + dx * (double)c->at;
		snprintf(t, sizeof t, "%+.1f%%%s%s", c->effect_pct,
			 c->ncauses ? " " : "",
			 c->ncauses ? c->causes[0].key : "");
		rc = chart_fig_line(f, CHART_MARK, 1.2, x, y->p1 - 4, x, y->p0);
		if (!rc)
			rc = chart_fig_text(f, x, HC_TOP - 8, 0, HC_SIZE, t);
	}
	return rc;
}

int chart_history(const struct report *r, const struct history_cell *h,
		  double width, struct arena *a, struct chart_fig *f)
{
	struct chart_axis y;
	double lo, hi, dx, x0 = HC_LEFT, scale = 1;
	const char *unit = NULL;
	char lab[32];
	int k, seg = 0, rc = 0;
	memset(f, 0, sizeof *f);
	f->a = a;
	f->kind = "history";
	f->title = arena_printf(a, "%s%s%s", h->label,
				h->testbed[0] ? " @ " : "", h->testbed);
	f->w = width;
	f->h = HC_TOP + HC_PLOT + HC_BOTTOM;
	if (!f->title || h->ns < 1)
		return f->title ? 0 : -XR_ENOMEM;
	y_range(h, 1, &lo, &hi);
	scale = chart_rate_scale(r, hi, &unit);
	y_range(h, scale, &lo, &hi);
	chart_axis_fit(&y, lo, hi, 0);
	y.p0 = HC_TOP + HC_PLOT;
	y.p1 = HC_TOP;
	dx = (width - x0 - 10) / (double)h->ns;
	rc = chart_fig_yaxis(f, &y, x0, width - 10, HC_SIZE);
	if (!rc && unit)
		rc = chart_fig_text(f, 4, HC_TOP - 8, -1, HC_SIZE, unit);
	for (k = 0; k < h->ns && !rc; k++) {
		const struct history_session *s = &h->s[k];
		double x = x0 + dx * ((double)k + 0.5);
		struct chart_op *o;
		if (!isnan(s->lo))
			rc = chart_fig_line(
			    f, 0, 1.0, x, chart_axis_pos(&y, s->lo / scale), x,
			    chart_axis_pos(&y, s->hi / scale));
		if (!rc && !(o = chart_fig_op(f, CHART_OP_DOT, 0)))
			rc = -XR_ENOMEM;
		if (!rc) {
			o->fill = 1;
			o->x = x;
			o->y = chart_axis_pos(&y, s->value / scale);
			o->w = 2.5;
			snprintf(lab, sizeof lab, "#%lld",
				 (long long)s->session);
			rc = chart_fig_text(f, x, y.p0 + 12, 0, HC_SIZE, lab);
		}
	}
	/* the segments' levels between the changes */
	for (k = 0; k <= h->nch && !rc; k++) {
		int b = k < h->nch ? h->ch[k].at : h->ns;
		double v = level(h, seg, b) / scale;
		rc = chart_fig_line(f, CHART_GRID, 1.5, x0 + dx * seg,
				    chart_axis_pos(&y, v), x0 + dx * b,
				    chart_axis_pos(&y, v));
		seg = b;
	}
	if (!rc)
		rc = change_marks(h, f, &y, x0, dx);
	if (!rc)
		rc = chart_fig_text(
		    f, x0 + (width - x0) / 2, y.p0 + 26, 0, HC_SIZE,
		    r->about.lang == REPORT_LANG_JA ? "セッション（古い順）"
						    : "session (oldest first)");
	return rc;
}
