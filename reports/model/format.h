/*
 * Numbers and verdicts of the model as text (format.c), the same in every
 * output format: values in the display unit, cells, marks, verdict
 * strings, the runs line, times.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef XR_FORMAT_H
#define XR_FORMAT_H

#include <stddef.h>

#include "buf.h"
#include "report.h"

/* A base-unit value in the report's display unit, 3 significant digits
 * ("9.41"); "–" for NaN. Returns out. */
/* Decimals giving three significant digits for numbers near x (0 to 4;
 * the bounds sit at the rounding points: 0.9996 prints as "1.00"). */
int report_fmt_decimals(double x);
/* The same for a value shown in unit: at most 3 decimals in "ms". */
int report_fmt_decimals_in(const char *unit, double x);
char *report_fmt_value(const struct report *r, double v, char *out, size_t n);
/* The scale metric mi is shown in (base value / scale = shown value) and
 * its unit: the display unit for the primary metric; for a metric in
 * seconds (latency.*) milliseconds unless a cell's median reaches 1 s;
 * else 1 and the stored base unit. */
double report_metric_scale(const struct report *r, int mi, const char **unit);
/* The same followed by the unit ("9.41 Gbit/s"). */
char *report_fmt_value_unit(const struct report *r, double v, char *out,
			    size_t n);
/* A value of metric index mi: display unit for the primary metric, else the
 * stored base unit with an SI prefix ("1.2k", "35 %"). */
char *report_fmt_metric(const struct report *r, int mi, double v, char *out,
			size_t n);
/* A cell for tables: the geometric mean with its 95% interval as a
 * factor, "9.41 ×/÷1.005" ([9.41/1.005, 9.41×1.005]); "9.41" when n == 1;
 * without a geometric mean (a value <= 0) "median 9.41 [9.38, 9.44]"
 * (order-statistic interval) or "median 9.41"; "–" when no data. */
char *report_fmt_cell(const struct report *r, const struct report_cell *c,
		      char *out, size_t n);
/* The value comparisons are computed on (geometric mean) of a cell, for
 * the A and B columns; "–" when none. */
char *report_fmt_estimate(const struct report *r, const struct report_cell *c,
			  char *out, size_t n);
/* Footnote marks of a cell's flags: "[1,3]"; "" when none. */
char *report_fmt_marks(const struct report *r, const struct report_cell *c,
		       char *out, size_t n);
/* The same for a comparison's warnings, and its reasons too when
 * with_reasons. */
char *report_fmt_cmp_marks(const struct report *r, const struct report_cmp *c,
			   int with_reasons, char *out, size_t n);
/* A comparison's verdict string: "▲ +9.3% [+6.1, +12.5] better",
 * "▼ -9.3% [...] worse", "≈ equivalent (-0.2%, 90% [-0.6, +0.3])",
 * "~ not significant (p=0.41, n=3+3)", "≠ +2.1% [+0.4, +3.9] different,
 * size uncertain", "— not comparable: <reasons>" (short reasons with
 * their details, in the report's language); then the warnings that
 * qualify it (configuration, accepted sequential design, outlier), the
 * robust estimate when it disagrees and the position model's sensitivity
 * line when there is one. */
char *report_fmt_verdict(const struct report *r, const struct report_cmp *c,
			 char *out, size_t n);
/* The levels of side c that differ from other ("nic=b, slot=x1"; c's
 * label when none differ) and the levels both share ("os=w11, streams=1";
 * "–" when none): how comparison tables name their two cells. */
char *report_fmt_side(const struct report *r, const struct report_cell *c,
		      const struct report_cell *other, char *out, size_t n);
char *report_fmt_common(const struct report *r, const struct report_cell *a,
			const struct report_cell *b, char *out, size_t n);
/* The header's runs line, the same in every format: "21: 20 ok, 1 failed
 * (1 timeout), 2 other; +1 warm-up" (scheduled non-warm-up runs first;
 * the parts after "failed" only when not zero). */
char *report_fmt_runs(const struct report *r, char *out, size_t n);
/* A comparison's effect "+9.3% [+6.1, +12.5]" and p value "0.041"
 * ("4.0e-04" below 0.001); "–" when refused or unknown. */
char *report_fmt_delta(const struct report_cmp *c, char *out, size_t n);
char *report_fmt_p(const struct report_cmp *c, char *out, size_t n);
/* What a comparison's Δ is, one sentence for its method (the position
 * model or Welch's t), in the report's language; NULL when refused. */
const char *report_delta_definition(const struct report *r,
				    const struct report_cmp *c);
/* The note under every comparisons table and chart: what Δ is for each
 * estimator (position model, Welch, Hodges-Lehmann), then how intervals
 * and verdicts are reached with the noise threshold. */
void report_method_note(const struct report *r, struct buf *b);
/* A unit for captions: "" for a dimensionless metric ("1") and NULL. */
const char *report_unit_label(const char *unit);
/* Epoch seconds as "2026-11-30 00:07 UTC"; "–" for NaN. */
char *report_fmt_time(double t, char *out, size_t n);

#endif
