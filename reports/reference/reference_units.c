/*
 * The units of a reference's columns (schema/reference.md, "Units"): a
 * column's unit is declared (`unit,COLUMN,UNIT`) or read from its header
 * ("latency.loaded_p50 (ms)", "[ms]", "latency.loaded_p50 ms"), checked
 * against the unit its metric is stored in, and its values turned into
 * that base unit; a column without one is read in the base unit. Because
 * a number written in ms and read as s is a 1000x error no check of the
 * file alone can see, every published value is also held against its
 * measurement: a ratio near a power of 1000 warns with the column and
 * row and the unit that would fit. xrun's own metric names (latency.*,
 * the series names) are known here, so a reference read without a store
 * (`xrun plan --from-reference`) does not take them for factors.
 *
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "arena.h"
#include "buf.h"
#include "reference_int.h"
#include "series_name.h"
#include "units.h"
#include "banned.h"

/* The dotted namespaces of xrun's own metrics and series (schema/plan.md,
 * "latency"; schema/store.md, "series"): no factor name has a '.', so a
 * column named in one of them is a metric. */
static const char *const xrun_prefixes[] = {
    "latency.", SERIES_ENGINE, SERIES_NIC, SERIES_QDISC,
    SERIES_CPU, SERIES_TCP,    SERIES_UDP, NULL,
};

int ref_xrun_metric(const char *name)
{
	int i;
	for (i = 0; name && xrun_prefixes[i]; i++)
		if (!strncmp(name, xrun_prefixes[i],
			     strlen(xrun_prefixes[i])) &&
		    name[strlen(xrun_prefixes[i])])
			return 1;
	return 0;
}

int ref_unit_factor(const struct report *r, int mi, const char *unit,
		    double *factor)
{
	const char *base, *stored = r->met.metric_units[mi];
	double f;
	if (units_metric(unit, &f, &base) < 0)
		return -XR_EUSAGE;
	if (!stored || !*stored || !strcmp(stored, base)) {
		*factor = f;
		return 0;
	}
	/* units_metric folds every byte rate into bit/s (x 8): base is
	 * never "B/s", only a stored unit can be. */
	if (!strcmp(stored, "B/s") && !strcmp(base, "bit/s")) {
		*factor = f / 8;
		return 0;
	}
	return -XR_EUSAGE;
}

int ref_unit_setting(struct ref_read *rr, const struct ref_record *c)
{
	struct ref_col_unit *u;
	int i;
	if (c->n != 3 || strcmp(c->f[0].s, "unit"))
		return 0;
	for (i = 0; i < rr->ndunits; i++)
		if (!strcmp(rr->dunits[i].column, c->f[1].s)) {
			xr_diag_add(rr->d, 0, c->line, c->f[1].col,
				    "unit of column '%s' given twice (first "
				    "on line %d)",
				    c->f[1].s, rr->dunits[i].line);
			return 1;
		}
	if (units_metric(c->f[2].s, NULL, NULL) < 0) {
		xr_diag_add(rr->d, 0, c->line, c->f[2].col,
			    "unknown unit '%s' for column '%s' (known units: "
			    "bit/s, Mbit/s, Gbit/s, B/s, MB/s, GB/s, s, ms, "
			    "us, %%, count, ...)",
			    c->f[2].s, c->f[1].s);
		return 1;
	}
	if (rr->ndunits == rr->capdunits) {
		int cap = rr->capdunits ? 2 * rr->capdunits : 8;
		u = arena_alloc(rr->a, (size_t)cap * sizeof *u);
		if (!u)
			return 1;
		if (rr->ndunits)
			memcpy(u, rr->dunits, (size_t)rr->ndunits * sizeof *u);
		rr->dunits = u;
		rr->capdunits = cap;
	}
	u = &rr->dunits[rr->ndunits++];
	u->column = c->f[1].s;
	u->unit = c->f[2].s;
	u->line = c->line;
	u->col = c->f[2].col;
	u->used = 0;
	return 1;
}

/* Could name be a metric column of this reading (not a factor)? */
static int metric_name(const struct ref_read *rr, const char *name)
{
	int k;
	if (!strcmp(name, "value") || ref_xrun_metric(name))
		return 1;
	switch (rr->bind) {
	case REF_BIND_STORE:
		return report_metric_index(rr->r, name) >= 0;
	case REF_BIND_PLAN:
		return report_factor_index(rr->r, name) < 0;
	case REF_BIND_FREE:
		break;
	}
	for (k = 0; rr->free_metrics && rr->free_metrics[k]; k++)
		if (!strcmp(rr->free_metrics[k], name))
			return 1;
	return 0;
}

/* "NAME (UNIT)", "NAME [UNIT]" or "NAME UNIT" with a unit units_metric
 * knows: NAME's length, and the unit into u (arena); 0 when not. */
static size_t split_unit(struct arena *a, const char *h, const char **u)
{
	size_t n = strlen(h), open = 0, k;
	char close = n ? h[n - 1] : 0;
	const char *unit;
	if (close == ')' || close == ']') {
		char o = close == ')' ? '(' : '[';
		for (k = n - 1; k > 0 && h[k - 1] != o; k--)
			;
		if (!k)
			return 0;
		open = k - 1;
		unit = arena_strndup(a, h + k, n - 1 - k);
	} else {
		const char *sp = strrchr(h, ' ');
		if (!sp)
			return 0;
		open = (size_t)(sp - h);
		unit = arena_strdup(a, sp + 1);
	}
	while (open > 0 && h[open - 1] == ' ')
		open--;
	if (!unit || !open || units_metric(unit, NULL, NULL) < 0 ||
	    !strcmp(unit, ""))
		return 0;
	*u = unit;
	return open;
}

int ref_header_units(struct ref_read *rr, struct ref_record *hdr)
{
	int j, i;
	rr->col_unit =
	    arena_alloc(rr->a, ((size_t)hdr->n + 1) * sizeof *rr->col_unit);
	rr->col_unit_at =
	    arena_alloc(rr->a, ((size_t)hdr->n + 1) * sizeof *rr->col_unit_at);
	rr->col_scale =
	    arena_alloc(rr->a, ((size_t)hdr->n + 1) * sizeof *rr->col_scale);
	if (!rr->col_unit || !rr->col_unit_at || !rr->col_scale)
		return -XR_ENOMEM;
	for (j = 0; j < hdr->n; j++) {
		const char *unit = NULL, *name;
		size_t n;
		rr->col_unit[j] = NULL;
		rr->col_unit_at[2 * j] = rr->col_unit_at[2 * j + 1] = 0;
		rr->col_scale[j] = 1;
		if (report_factor_index(rr->r, hdr->f[j].s) >= 0)
			continue; /* a factor is named as it is */
		n = split_unit(rr->a, hdr->f[j].s, &unit);
		name = n ? arena_strndup(rr->a, hdr->f[j].s, n) : NULL;
		if (name && metric_name(rr, name)) {
			hdr->f[j].s = name;
			rr->col_unit[j] = unit;
			rr->col_unit_at[2 * j] = hdr->line;
			rr->col_unit_at[2 * j + 1] = hdr->f[j].col;
		}
		for (i = 0; i < rr->ndunits; i++)
			if (!strcmp(rr->dunits[i].column, hdr->f[j].s)) {
				if (rr->col_unit[j] &&
				    strcmp(rr->col_unit[j], rr->dunits[i].unit))
					xr_diag_add(
					    rr->d, 0, hdr->line, hdr->f[j].col,
					    "column '%s' is headed in "
					    "%s but line %d says %s",
					    hdr->f[j].s, rr->col_unit[j],
					    rr->dunits[i].line,
					    rr->dunits[i].unit);
				rr->col_unit[j] = rr->dunits[i].unit;
				rr->col_unit_at[2 * j] = rr->dunits[i].line;
				rr->col_unit_at[2 * j + 1] = rr->dunits[i].col;
				rr->dunits[i].used = 1;
			}
	}
	for (i = 0; i < rr->ndunits; i++)
		if (!rr->dunits[i].used)
			xr_diag_add(rr->d, 1, rr->dunits[i].line, 1,
				    "unit for column '%s', which the header "
				    "does not have",
				    rr->dunits[i].column);
	return 0;
}

void ref_col_scale(struct ref_read *rr, int j, int mi)
{
	const struct report *r = rr->r;
	const char *unit = rr->col_unit ? rr->col_unit[j] : NULL, *base;
	double f = 1;
	if (!unit)
		return;
	if (mi >= 0 && ref_unit_factor(r, mi, unit, &f) < 0) {
		xr_diag_add(rr->d, 0, rr->col_unit_at[2 * j],
			    rr->col_unit_at[2 * j + 1],
			    "column '%s' is in %s, which does not fit metric "
			    "'%s' (stored in %s)",
			    rr->hdr->f[j].s, unit, rr->hdr->f[j].s,
			    r->met.metric_units[mi] && *r->met.metric_units[mi]
				? r->met.metric_units[mi]
				: "1");
		return;
	}
	if (mi < 0)
		units_metric(unit, &f, &base);
	rr->col_scale[j] = f;
}

/* A unit of base whose factor is f: "ms" for s at 1e-3; NULL none. */
static const char *unit_named(const char *base, double f)
{
	static const char *const names[] = {
	    "us",     "ms",	"s",	"bit/s", "kbit/s", "Mbit/s",
	    "Gbit/s", "Tbit/s", "kB/s", "MB/s",	 "GB/s",   NULL,
	};
	int i;
	for (i = 0; names[i]; i++) {
		double g;
		const char *b;
		if (units_metric(names[i], &g, &b) == 0 && !strcmp(b, base) &&
		    fabs(g / f - 1) < 1e-9)
			return names[i];
	}
	return NULL;
}

/* The power of 1000 that ratio is near (within a factor of 2), 0 when
 * none or not finite. */
static int power_of_1000(double ratio)
{
	double e;
	int k;
	if (!(ratio > 0) || !isfinite(ratio))
		return 0;
	e = log10(ratio) / 3;
	k = (int)lround(e);
	return k && fabs(log10(ratio) - 3.0 * k) < log10(2.0) ? k : 0;
}

/* The warning of value column j: its first row off by 1000^k, how many
 * are, and the unit that would fit. */
static void warn_scale(const struct report *r, const struct report_ref *ref,
		       int j, const struct report_ref_row *w, int k, int n,
		       int of, struct xr_diag *d)
{
	int mi = ref->value_metric[j];
	const char *base = r->met.metric_units[mi] && *r->met.metric_units[mi]
			       ? r->met.metric_units[mi]
			       : "1";
	/* published = written * scale, measured ~ published * 1000^k: the
	 * unit that fits has scale * 1000^k */
	double f = ref->scale[j] * pow(1000.0, (double)k);
	const char *fit = unit_named(base, f);
	const char *name = j == 0 ? "value" : ref->values[j];
	struct buf b = BUF_INIT;
	if (fit && j == 0)
		buf_addf(&b,
			 "written in %s? say 'unit,%s' or head it 'value "
			 "(%s)'",
			 fit, fit, fit);
	else if (fit)
		buf_addf(&b,
			 "written in %s? declare 'unit,%s,%s' or head it "
			 "'%s (%s)'",
			 fit, name, fit, name, fit);
	else
		buf_adds(&b, "written in another unit?");
	xr_diag_add(d, 1, w->line, w->v[j].col,
		    "column '%s': published %g %s is 10^%d times the measured "
		    "median %g %s of %s (%d of %d published cells off by a "
		    "power of 1000): %s",
		    name, w->v[j].published, base, -3 * k,
		    w->v[j].published * w->v[j].ratio, base, w->label, n, of,
		    b.s ? b.s : "");
	buf_release(&b);
}

void ref_check_scale(const struct report *r, const struct report_ref *ref,
		     struct xr_diag *d)
{
	int j, k;
	for (j = 0; d && j < ref->nvalues; j++) {
		const struct report_ref_row *first = NULL;
		int n = 0, of = 0, p = 0;
		for (k = 0; k < ref->nrows; k++) {
			const struct report_ref_row *w = &ref->rows[k];
			int q;
			if (w->status != REPORT_REF_MATCHED ||
			    !isfinite(w->v[j].ratio))
				continue;
			of++;
			if (!(q = power_of_1000(w->v[j].ratio)))
				continue;
			if (!n++) {
				first = w;
				p = q;
			}
		}
		if (first)
			warn_scale(r, ref, j, first, p, n, of, d);
	}
}
