/*
 * SVG bar charts: the chart chart.c lays out (chart.h), drawn as an <svg>
 * element, inline in the HTML report or as a file of its own beside a
 * Markdown report. No scripts, no external references: the image is the
 * file.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef XR_SVG_CHART_H
#define XR_SVG_CHART_H

#include <stdio.h>

#include "format.h"
#include "reference.h"

struct chart;

/*
 * Write c as one <svg> element. standalone: a file of its own (an XML
 * declaration, the title drawn in the image, a white background, the
 * font stack of lang); else for inline HTML (the title is the page's
 * figure caption and stays in <title> for screen readers; fonts come from
 * the page). 0, or -XR_EIO when f has an error.
 */
int svg_chart_write(FILE *f, const struct chart *c, int standalone,
		    enum report_lang lang);

/* Write a chart of the runs (chart.h's chart_fig: time series, box) as
 * one <svg data-chart="KIND"> element, standalone or inline as above;
 * nothing when it has no shapes. 0, or -XR_EIO. */
struct chart_fig;
int svg_fig_write(FILE *f, const struct chart_fig *c, int standalone,
		  enum report_lang lang);

/* The CSS font-family list for lang: IPAex Gothic or Noto Sans CJK first
 * for Japanese, so that kana and kanji get a real font wherever one is
 * installed. */
const char *svg_font_family(enum report_lang lang);

/*
 * Write s as XML/HTML text or attribute value: & < > " ' as entities,
 * control characters other than tab and newline dropped (XML forbids
 * them). A small escaper of its own until the shared one
 * (reports/render/escape.h) lands.
 */
void svg_escape(FILE *f, const char *s);

#endif
