/*
 * Formatting helpers shared by every writer: values in the report's display
 * unit, a cell's "geometric mean ×/÷factor" with footnote marks, verdict
 * strings and times. Only formatting: the numbers come from the model.
 *
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "buf.h"
#include "format.h"
#include "banned.h"

/* Decimals giving three significant digits for numbers near x; the
 * bounds sit at the rounding points so that 0.9996 prints as "1.00", not
 * "1.000". */
int report_fmt_decimals(double x)
{
	x = fabs(x);
	if (x >= 99.95 || x == 0)
		return 0;
	if (x >= 9.995)
		return 1;
	if (x >= 0.9995)
		return 2;
	if (x >= 0.09995)
		return 3;
	return 4;
}

/* Milliseconds keep three significant digits but no more than three
 * decimals: a microsecond is what ping prints and what a probe resolves
 * ("0.052 ms", "38.4 ms"). */
int report_fmt_decimals_in(const char *unit, double x)
{
	int d = report_fmt_decimals(x);
	return unit && !strcmp(unit, "ms") && d > 3 ? 3 : d;
}

char *report_fmt_value(const struct report *r, double v, char *out, size_t n)
{
	double x;
	if (isnan(v)) {
		snprintf(out, n, "–");
		return out;
	}
	x = v / (r->met.display_scale > 0 ? r->met.display_scale : 1);
	snprintf(out, n, "%.*f", report_fmt_decimals_in(r->met.display_unit, x),
		 x);
	return out;
}

double report_metric_scale(const struct report *r, int mi, const char **unit)
{
	const char *base =
	    (mi >= 0 && mi < r->met.nmetrics && r->met.metric_units)
		? r->met.metric_units[mi]
		: "";
	double top = 0;
	int i;
	*unit = base ? base : "";
	if (mi == r->met.primary && r->met.display_scale > 0) {
		*unit = r->met.display_unit ? r->met.display_unit : "";
		return r->met.display_scale;
	}
	if (!base || strcmp(base, "s"))
		return 1;
	/* seconds (latencies, times): ms unless a cell's median reaches a
	 * second, one choice per metric so that a column reads alike */
	for (i = 0; i < r->ncells; i++)
		if (r->cells[i].st && isfinite(r->cells[i].st[mi].median))
			top = fmax(top, fabs(r->cells[i].st[mi].median));
	if (top >= 1)
		return 1;
	*unit = "ms";
	return 1e-3;
}

char *report_fmt_value_unit(const struct report *r, double v, char *out,
			    size_t n)
{
	char tmp[64];
	if (isnan(v))
		snprintf(out, n, "–");
	else
		snprintf(out, n, "%s %s",
			 report_fmt_value(r, v, tmp, sizeof tmp),
			 r->met.display_unit ? r->met.display_unit : "");
	return out;
}

char *report_fmt_metric(const struct report *r, int mi, double v, char *out,
			size_t n)
{
	static const char *const pfx[] = {"", "k", "M", "G", "T", "P"};
	const char *unit =
	    (mi >= 0 && mi < r->met.nmetrics && r->met.metric_units)
		? r->met.metric_units[mi]
		: "";
	int k = 0;
	double scale;
	if (mi == r->met.primary)
		return report_fmt_value(r, v, out, n);
	if (isnan(v)) {
		snprintf(out, n, "–");
		return out;
	}
	scale = report_metric_scale(r, mi, &unit);
	if (scale != 1) {
		v /= scale;
		snprintf(out, n, "%.*f %s", report_fmt_decimals_in(unit, v), v,
			 unit);
		return out;
	}
	if (unit && (!strcmp(unit, "bit/s") || !strcmp(unit, "B/s") ||
		     !strcmp(unit, "B")))
		while (fabs(v) >= 1000 && k < 5) {
			v /= 1000;
			k++;
		}
	{
		int shown = unit && *unit && strcmp(unit, "1");
		/* Counts (retransmits) print as integers. */
		int d = k == 0 && v == floor(v) && fabs(v) < 1e15
			    ? 0
			    : report_fmt_decimals(v);
		snprintf(out, n, "%.*f%s%s%s", d, v, shown ? " " : "", pfx[k],
			 shown ? unit : "");
	}
	return out;
}

/* The interval factor of a geometric mean: "1.005", with digits enough
 * that it does not read as 1. */
static void fmt_factor(double f, char *out, size_t n)
{
	int d = f < 1.1 ? 3 : 2;
	while (d < 6 && round((f - 1) * pow(10, d)) == 0)
		d++;
	snprintf(out, n, "%.*f", d, f);
}

char *report_fmt_cell(const struct report *r, const struct report_cell *c,
		      char *out, size_t n)
{
	const struct report_stats *s = &c->st[r->met.primary];
	double scale = r->met.display_scale > 0 ? r->met.display_scale : 1;
	const char *du = r->met.display_unit;
	char f[32];
	if (s->n == 0 || isnan(s->median)) {
		snprintf(out, n, "–");
		return out;
	}
	if (s->gm > 0 && s->gm_high > s->gm) {
		double x = s->gm / scale;
		fmt_factor(s->gm_high / s->gm, f, sizeof f);
		snprintf(out, n, "%.*f ×/÷%s", report_fmt_decimals_in(du, x), x,
			 f);
	} else if (s->gm > 0) {
		double x = s->gm / scale;
		snprintf(out, n, "%.*f", report_fmt_decimals_in(du, x), x);
	} else if (s->med_high > s->med_low) {
		/* no geometric mean (a value <= 0): the median with its
		 * order-statistic interval */
		char lo[64], hi[64];
		double x = s->median / scale;
		report_fmt_value(r, s->med_low, lo, sizeof lo);
		report_fmt_value(r, s->med_high, hi, sizeof hi);
		snprintf(out, n, "%s %.*f [%s, %s]",
			 report_text(r, REPORT_T_MEDIAN),
			 report_fmt_decimals_in(du, x), x, lo, hi);
	} else {
		double x = s->median / scale;
		snprintf(out, n, "%s %.*f", report_text(r, REPORT_T_MEDIAN),
			 report_fmt_decimals_in(du, x), x);
	}
	return out;
}

char *report_fmt_estimate(const struct report *r, const struct report_cell *c,
			  char *out, size_t n)
{
	const struct report_stats *s = &c->st[r->met.primary];
	return report_fmt_value(r, s->gm > 0 ? s->gm : NAN, out, n);
}

/* Marks in note order, each once, of the flags in lists a and b. */
static char *fmt_marks(const struct report *r, const struct report_flag *a,
		       int na, const struct report_flag *b, int nb, char *out,
		       size_t n)
{
	struct buf s = BUF_INIT;
	int i, j, first = 1;
	for (j = 0; j < r->nnotes; j++) {
		int has = 0;
		for (i = 0; i < na && !has; i++)
			has = a[i].code == r->notes[j];
		for (i = 0; i < nb && !has; i++)
			has = b[i].code == r->notes[j];
		if (has) {
			buf_addf(&s, "%s%d", first ? "[" : ",", j + 1);
			first = 0;
		}
	}
	if (!first)
		buf_addc(&s, ']');
	snprintf(out, n, "%s", s.s ? s.s : "");
	buf_release(&s);
	return out;
}

char *report_fmt_marks(const struct report *r, const struct report_cell *c,
		       char *out, size_t n)
{
	return fmt_marks(r, c->flags, c->nflags, NULL, 0, out, n);
}

char *report_fmt_cmp_marks(const struct report *r, const struct report_cmp *c,
			   int with_reasons, char *out, size_t n)
{
	return fmt_marks(r, c->warnings, c->nwarnings, c->reasons,
			 with_reasons ? c->nreasons : 0, out, n);
}

static void add_reasons(const struct report *r, const struct report_cmp *c,
			struct buf *b)
{
	int i;
	for (i = 0; i < c->nreasons; i++) {
		const struct report_flag *f = &c->reasons[i];
		buf_addf(b, "%s%s", i ? "; " : "",
			 report_flag_short(f->code, r->about.lang));
		if (f->detail && *f->detail)
			buf_addf(b, " %s", f->detail);
	}
}

/* Warnings that qualify the verdict, written in its cell. */
static void add_in_cell(const struct report *r, const struct report_cmp *c,
			struct buf *b)
{
	int i;
	for (i = 0; i < c->nwarnings; i++) {
		const struct report_flag *f = &c->warnings[i];
		if (!report_flag_in_cell(f->code))
			continue;
		buf_addf(b, "; %s", report_flag_short(f->code, r->about.lang));
		if (f->detail && *f->detail)
			buf_addf(b, " %s", f->detail);
	}
}

/* The robust estimate beside the parametric one, when they disagree. */
static void add_robust(const struct report *r, const struct report_cmp *c,
		       struct buf *b)
{
	char hl[96], p[32];
	if (!c->robust_shown)
		return;
	if (isnan(c->hl_low_pct))
		snprintf(hl, sizeof hl, "%+.1f%%", c->hl_pct);
	else
		snprintf(hl, sizeof hl, "%+.1f%% [%+.1f, %+.1f]", c->hl_pct,
			 c->hl_low_pct, c->hl_high_pct);
	snprintf(p, sizeof p, c->mw_p < 0.001 ? "%.1e" : "%.3f", c->mw_p);
	buf_adds(b, "; ");
	buf_addf(b, report_text(r, REPORT_T_ROBUST), hl, p);
}

/* The position model's estimate when Welch decided (or refusal). */
static void add_sensitivity(const struct report *r, const struct report_cmp *c,
			    struct buf *b)
{
	if (!(c->sens_high_pct > c->sens_low_pct))
		return;
	buf_addf(b, "; %s %+.1f%% [%+.1f, %+.1f]",
		 report_text(r, REPORT_T_SENSITIVITY), c->sens_pct,
		 c->sens_low_pct, c->sens_high_pct);
}

char *report_fmt_verdict(const struct report *r, const struct report_cmp *c,
			 char *out, size_t n)
{
	struct buf b = BUF_INIT;
	switch (c->verdict) {
	case REPORT_BETTER:
	case REPORT_WORSE:
		buf_addf(&b, "%s %+.1f%% [%+.1f, %+.1f] %s",
			 c->verdict == REPORT_BETTER ? "▲" : "▼", c->delta_pct,
			 c->ci_low_pct, c->ci_high_pct,
			 report_text(r, c->verdict == REPORT_BETTER
					    ? REPORT_T_BETTER
					    : REPORT_T_WORSE));
		break;
	case REPORT_EQUIVALENT:
		buf_addf(&b, "≈ %s (%+.1f%%, 90%% [%+.1f, %+.1f])",
			 report_text(r, REPORT_T_EQUIVALENT), c->delta_pct,
			 c->eq_low_pct, c->eq_high_pct);
		break;
	case REPORT_NOT_SIGNIFICANT:
		buf_addf(&b, "~ %s (p=%.2g, n=%d+%d)",
			 report_text(r, REPORT_T_NOT_SIGNIFICANT), c->p, c->n_a,
			 c->n_b);
		break;
	case REPORT_DIFFERENT:
		buf_addf(&b, "≠ %+.1f%% [%+.1f, %+.1f] %s", c->delta_pct,
			 c->ci_low_pct, c->ci_high_pct,
			 report_text(r, REPORT_T_DIFFERENT));
		break;
	case REPORT_NOT_VERIFIED:
		/* the reasons start "not verified:" */
		buf_adds(&b, "— ");
		add_reasons(r, c, &b);
		break;
	default:
		buf_addf(&b, "— %s: ", report_text(r, REPORT_T_NOT_COMPARABLE));
		add_reasons(r, c, &b);
		break;
	}
	add_in_cell(r, c, &b);
	add_robust(r, c, &b);
	add_sensitivity(r, c, &b);
	snprintf(out, n, "%s", b.s ? b.s : "");
	buf_release(&b);
	return out;
}

char *report_fmt_runs(const struct report *r, char *out, size_t n)
{
	struct buf b = BUF_INIT;
	buf_addf(&b, "%d: %d %s, %d %s", r->counts.total, r->counts.ok,
		 report_text(r, REPORT_T_RUNS_OK),
		 r->counts.failed + r->counts.timeout,
		 report_text(r, REPORT_T_RUNS_FAILED));
	if (r->counts.timeout)
		buf_addf(&b, " (%d %s)", r->counts.timeout,
			 report_text(r, REPORT_T_RUNS_TIMEOUT));
	if (r->counts.other)
		buf_addf(&b, ", %d %s", r->counts.other,
			 report_text(r, REPORT_T_RUNS_OTHER));
	if (r->counts.warmup)
		buf_addf(&b, "; +%d %s", r->counts.warmup,
			 report_text(r, REPORT_T_RUNS_WARMUP));
	snprintf(out, n, "%s", b.s ? b.s : "");
	buf_release(&b);
	return out;
}

char *report_fmt_delta(const struct report_cmp *c, char *out, size_t n)
{
	if (c->verdict == REPORT_NOT_COMPARABLE || isnan(c->delta_pct))
		snprintf(out, n, "–");
	else
		snprintf(out, n, "%+.1f%% [%+.1f, %+.1f]", c->delta_pct,
			 c->ci_low_pct, c->ci_high_pct);
	return out;
}

char *report_fmt_p(const struct report_cmp *c, char *out, size_t n)
{
	if (isnan(c->p))
		snprintf(out, n, "–");
	else
		snprintf(out, n, c->p < 0.001 ? "%.1e" : "%.3f", c->p);
	return out;
}

const char *report_unit_label(const char *unit)
{
	return unit && strcmp(unit, "1") ? unit : "";
}

char *report_fmt_time(double t, char *out, size_t n)
{
	struct tm tm;
	time_t tt;
	if (isnan(t) || t <= 0) {
		snprintf(out, n, "–");
		return out;
	}
	tt = (time_t)t;
	if (!gmtime_r(&tt, &tm)) {
		snprintf(out, n, "–");
		return out;
	}
	strftime(out, n, "%Y-%m-%d %H:%M UTC", &tm);
	return out;
}

/* The levels of c that differ from other, as "f=l, g=m". */
char *report_fmt_side(const struct report *r, const struct report_cell *c,
		      const struct report_cell *other, char *out, size_t n)
{
	struct buf b = BUF_INIT;
	int f;
	for (f = 0; f < r->nfactors; f++)
		if (c->lv[f] != other->lv[f] && c->lv[f] >= 0)
			buf_addf(&b, "%s%s=%s", b.len ? ", " : "",
				 r->factors[f].name,
				 r->factors[f].levels[c->lv[f]]);
	snprintf(out, n, "%s", b.len ? b.s : c->label);
	buf_release(&b);
	return out;
}

/* The levels shared by both sides: the context of the comparison. */
char *report_fmt_common(const struct report *r, const struct report_cell *a,
			const struct report_cell *b, char *out, size_t n)
{
	struct buf s = BUF_INIT;
	int f;
	for (f = 0; f < r->nfactors; f++)
		if (a->lv[f] == b->lv[f] && a->lv[f] >= 0)
			buf_addf(&s, "%s%s=%s", s.len ? ", " : "",
				 r->factors[f].name,
				 r->factors[f].levels[a->lv[f]]);
	snprintf(out, n, "%s", s.len ? s.s : "–");
	buf_release(&s);
	return out;
}

const char *report_delta_definition(const struct report *r,
				    const struct report_cmp *c)
{
	switch (c->method) {
	case REPORT_METHOD_POSITION:
		return report_text(r, REPORT_T_DELTA_DEF_POSITION);
	case REPORT_METHOD_WELCH:
		return report_text(r, REPORT_T_DELTA_DEF_WELCH);
	default:
		return NULL;
	}
}

void report_method_note(const struct report *r, struct buf *b)
{
	buf_adds(b, report_text(r, REPORT_T_DELTA_DEF_POSITION));
	buf_adds(b, " ");
	buf_adds(b, report_text(r, REPORT_T_DELTA_DEF_WELCH));
	buf_adds(b, " ");
	buf_adds(b, report_text(r, REPORT_T_DELTA_DEF_HL));
	buf_adds(b, " ");
	buf_addf(b, report_text(r, REPORT_T_METHOD_NOTE),
		 100 * r->met.threshold);
}
