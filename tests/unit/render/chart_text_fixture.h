/*
 * A text measurer for the chart unit tests that place nothing by a
 * font: every character 0.5 em wide, every text on one line
 * (test_chart_left_out.c, test_chart_matrix.c; test_chart.c keeps its
 * own, which wraps). fx_chart_tx and fx_chart_st: the chart_text and the
 * chart_style (7 pt, 7 pt, 30, 220) they lay out with.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef XR_CHART_TEXT_FIXTURE_H
#define XR_CHART_TEXT_FIXTURE_H

#include <string.h>

#include "chart.h"

static double fx_measure(void *ctx, const char *s, size_t len, double size)
{
	(void)ctx;
	(void)s;
	return 0.5 * size * (double)len;
}

static int fx_lines(void *ctx, const char *s, double size, double width)
{
	(void)ctx;
	(void)s;
	(void)size;
	(void)width;
	return 1;
}

static int fx_wrap(void *ctx, const char *s, double size, double width,
		   const char **start, size_t *len, int max)
{
	(void)ctx;
	(void)size;
	(void)width;
	if (max < 1)
		return 0;
	start[0] = s;
	len[0] = strlen(s);
	return 1;
}

static const struct chart_text fx_chart_tx = {NULL, fx_measure, fx_lines,
					      fx_wrap};
static const struct chart_style fx_chart_st = {7, 7, 30, 220};

#endif
