/*
 * A series cut at the time axis's ends (reports/render/chart_fig.c,
 * chart_series_line; issue 35: nothing drawn outside a plot's axes): the
 * line starts on the y axis at the value where it crosses the axis's
 * start, and ends on the axis's far end where it crosses that, each
 * interpolated from the segment's own ends, not from the far one.
 *
 * Axes by hand: time 0..4 s drawn from x = 100 to 500 (100 units a
 * second), value 0..100 % drawn from y = 200 (0 %) to y = 0 (100 %,
 * 2 units a percent). The series: 0 % at t = -0.2 s (the sampler's
 * lead-in), 100 % at 0.8 s, 100 % at 3.5 s, 0 % at 4.5 s. Where it
 * crosses t = 0: 0 + 100 x (0 - (-0.2)) / (0.8 - (-0.2)) = 20 %
 * (y = 200 - 40 = 160), not 80 % (y = 40) as from the wrong end; where
 * it crosses t = 4: 100 + (0 - 100) x (4 - 3.5) / (4.5 - 3.5) = 50 %
 * (y = 100). So the path is (100, 160) (180, 0) (450, 0) (500, 100).
 *
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "arena.h"
#include "chart.h"
#include "chart_fig.h"
#include "report.h"
#include "tap.h"
#include "banned.h"

int main(void)
{
	static const double t[] = {-0.2, 0.8, 3.5, 4.5};
	static const double v[] = {0, 100, 100, 0};
	static const double want_x[] = {100, 180, 450, 500};
	static const double want_y[] = {160, 0, 0, 100};
	struct report_series s = {"client", "cpu.busy", "%", t, v, 4};
	struct chart_axis x = {0, 4, 1, 0, 100, 500};
	struct chart_axis y = {0, 100, 20, 0, 200, 0};
	struct chart_fig f;
	struct arena *a = arena_new();
	const struct chart_op *o = NULL;
	int i, k, off = 0;

	memset(&f, 0, sizeof f);
	f.a = a;
	ok(a && chart_series_line(&f, &s, &x, &y, 1, 10, 1) == 0,
	   "the series drawn");
	for (i = 0; i < f.nops; i++)
		if (f.ops[i].kind == CHART_OP_PATH)
			o = &f.ops[i];
	ok(o && o->n == 4, "one line of 4 points (%d)", o ? o->n : -1);
	for (k = 0; o && k < o->n && k < 4; k++)
		if (fabs(o->px[k] - want_x[k]) > 1e-9 ||
		    fabs(o->py[k] - want_y[k]) > 1e-9) {
			off++;
			printf("# point %d at (%g, %g), want (%g, %g)\n", k,
			       o->px[k], o->py[k], want_x[k], want_y[k]);
		}
	is_int(off, 0,
	       "it starts on the y axis at 20%% (y 160) and ends on the "
	       "axis's end at 50%% (y 100)");
	arena_free(a);
	return tap_done();
}
