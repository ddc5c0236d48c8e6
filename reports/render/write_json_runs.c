/*
 * The JSON report's "run_values" (schema/report.md), streamed: one object
 * per run, written as text in jansson's own layout (JSON_INDENT(1),
 * JSON_REAL_PRECISION(10)) instead of a jansson tree of 100,000 objects
 * that is built, dumped and freed (two thirds of the JSON report of
 * 100,000 runs, bench/RESULTS.md). The cells, labels, metric names and
 * units are encoded once by jansson; each run adds numbers.
 *
 * SPDX-License-Identifier: MIT
 */
#include "json_runs.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "banned.h"

#define STATUS_CACHE 8

struct enc {
	char **cell, **label, **metric, **unit;
	const char *status_raw[STATUS_CACHE];
	char *status[STATUS_CACHE];
	int nstatus;
};

/* s as jansson writes it (through str, which escapes bad UTF-8), in
 * malloc'd memory; NULL out of memory. */
static char *enc_str(json_t *(*str)(const char *), const char *s)
{
	json_t *j = str(s);
	char *t = j ? json_dumps(j, JSON_ENCODE_ANY) : NULL;
	json_decref(j);
	return t;
}

/* The run objects are put together in a buffer of their own and handed
 * to stdio in pieces: fprintf's parsing of the format and its %.10g were
 * two thirds of writing 100,000 runs (bench/RESULTS.md). */
struct out {
	FILE *f;
	size_t n;
	char b[16384];
};

static void out_flush(struct out *o)
{
	if (o->n)
		fwrite(o->b, 1, o->n, o->f);
	o->n = 0;
}

static void out_mem(struct out *o, const char *s, size_t n)
{
	if (o->n + n > sizeof o->b) {
		out_flush(o);
		if (n > sizeof o->b) {
			fwrite(s, 1, n, o->f);
			return;
		}
	}
	memcpy(o->b + o->n, s, n);
	o->n += n;
}

#define OUT_LIT(o, s) out_mem((o), (s), sizeof(s) - 1)

static void out_str(struct out *o, const char *s)
{
	out_mem(o, s, strlen(s));
}

static void out_int(struct out *o, long long v)
{
	char b[24], *p = b + sizeof b;
	unsigned long long u =
	    v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;
	do
		*--p = (char)('0' + u % 10);
	while (u /= 10);
	if (v < 0)
		*--p = '-';
	out_mem(o, p, (size_t)(b + sizeof b - p));
}

/* jansson's jsonp_dtostr at precision 10 (jansson 2.14 strconv.c): %.10g,
 * ".0" when neither '.' nor 'e' is there, the exponent without '+' and
 * leading zeros; null for what is not finite (write_json.c num()). */
static void put_real_slow(struct out *o, double v)
{
	char b[64], *e, *d;
	int n = snprintf(b, sizeof b - 2, "%.10g", v);
	if (n < 0 || (size_t)n >= sizeof b - 2)
		n = 0;
	b[n] = '\0';
	if (!strchr(b, '.') && !strchr(b, 'e'))
		memcpy(b + n, ".0", 3);
	if ((e = strchr(b, 'e'))) {
		e++;
		d = e + 1;
		if (*e == '-')
			e++;
		while (*d == '0')
			d++;
		if (d != e)
			memmove(e, d, strlen(d) + 1);
	}
	out_str(o, b);
}

/* The same bytes. Where %.10g writes an integer's digits it is done here:
 * a whole v below 1e10 has at most 10 digits, and from 1e9 to 1e10 the
 * ten significant digits are those of v rounded to an integer, which
 * nearbyint does as printf does (to nearest, ties to even, the default
 * rounding mode; unit/test_json_runs checks ties against jansson); one
 * that rounds to 1e10 has an exponent and is left to printf. Times and
 * throughputs in bit/s are all of this kind. */
static void put_real(struct out *o, double v)
{
	double a = fabs(v), w;
	if (isnan(v) || isinf(v)) {
		OUT_LIT(o, "null");
		return;
	}
	w = a >= 1e9 ? nearbyint(v) : v;
	if (v != 0 && a < 1e10 && w == trunc(w) && fabs(w) < 1e10) {
		out_int(o, (long long)w);
		OUT_LIT(o, ".0");
		return;
	}
	put_real_slow(o, v);
}

/* A cell object dumped alone, re-indented for depth 3. */
static char *enc_cell(const char *json)
{
	json_t *j = json ? json_loads(json, 0, NULL) : NULL;
	char *t;
	size_t n = 0, k = 0;
	char *o;
	if (!j) /* a cell without its JSON is written {} */
		j = json_object();
	t = j ? json_dumps(j, JSON_INDENT(1) | JSON_REAL_PRECISION(10)) : NULL;
	json_decref(j);
	for (size_t i = 0; t && t[i]; i++)
		n += t[i] == '\n' ? 4 : 1;
	o = t ? malloc(n + 1) : NULL;
	for (size_t i = 0; o && t[i]; i++) {
		o[k++] = t[i];
		if (t[i] == '\n')
			memcpy(o + k, "   ", 3), k += 3;
	}
	if (o)
		o[k] = '\0';
	free(t);
	return o;
}

static void enc_free(const struct report *r, struct enc *e)
{
	for (int i = 0; e->cell && i < r->ncells; i++) {
		free(e->cell[i]);
		free(e->label[i]);
	}
	for (int i = 0; e->metric && i < r->met.nmetrics; i++) {
		free(e->metric[i]);
		free(e->unit[i]);
	}
	for (int i = 0; i < e->nstatus; i++)
		free(e->status[i]);
	free(e->cell);
	free(e->label);
	free(e->metric);
	free(e->unit);
}

static int enc_init(const struct report *r, json_t *(*str)(const char *),
		    struct enc *e)
{
	size_t nc = (size_t)r->ncells + 1, nm = (size_t)r->met.nmetrics + 1;
	memset(e, 0, sizeof *e);
	e->cell = calloc(nc, sizeof *e->cell);
	e->label = calloc(nc, sizeof *e->label);
	e->metric = calloc(nm, sizeof *e->metric);
	e->unit = calloc(nm, sizeof *e->unit);
	if (!e->cell || !e->label || !e->metric || !e->unit)
		return -1;
	for (int i = 0; i < r->ncells; i++) {
		const struct report_cell *c = &r->cells[i];
		e->cell[i] = enc_cell(c->json);
		e->label[i] = enc_str(str, c->label ? c->label : "");
		if (!e->cell[i] || !e->label[i])
			return -1;
	}
	for (int m = 0; m < r->met.nmetrics; m++) {
		e->metric[m] = enc_str(str, r->met.metrics[m]);
		e->unit[m] = enc_str(str, r->met.metric_units[m]);
		if (!e->metric[m] || !e->unit[m])
			return -1;
	}
	return 0;
}

/* The status s encoded, from a small cache (a store has a few). */
static const char *enc_status(struct enc *e, json_t *(*str)(const char *),
			      const char *s)
{
	int i;
	for (i = 0; i < e->nstatus; i++)
		if (!strcmp(e->status_raw[i], s))
			return e->status[i];
	if (e->nstatus == STATUS_CACHE) {
		free(e->status[--e->nstatus]);
		i = e->nstatus;
	}
	if (!(e->status[i] = enc_str(str, s)))
		return NULL;
	e->status_raw[i] = s;
	e->nstatus++;
	return e->status[i];
}

static int put_run(struct out *o, const struct report *r,
		   const struct report_run *u, struct enc *e,
		   json_t *(*str)(const char *))
{
	const char *st = enc_status(e, str, u->status ? u->status : "");
	int nm = 0;
	if (!st || u->cell < 0 || u->cell >= r->ncells)
		return -1;
	OUT_LIT(o, "\n  {\n   \"id\": ");
	out_int(o, (long long)u->id);
	OUT_LIT(o, ",\n   \"session\": ");
	out_int(o, (long long)u->session);
	OUT_LIT(o, ",\n   \"cell_index\": ");
	out_int(o, u->cell);
	OUT_LIT(o, ",\n   \"cell\": ");
	out_str(o, e->cell[u->cell]);
	OUT_LIT(o, ",\n   \"label\": ");
	out_str(o, e->label[u->cell]);
	OUT_LIT(o, ",\n   \"rep\": ");
	out_int(o, u->rep);
	OUT_LIT(o, ",\n   \"status\": ");
	out_str(o, st);
	OUT_LIT(o, ",\n   \"reason\": ");
	if (!u->reason) {
		OUT_LIT(o, "null");
	} else { /* rare (a failed run's): encoded once each */
		char *rs = enc_str(str, u->reason);
		if (!rs)
			return -1;
		out_str(o, rs);
		free(rs);
	}
	OUT_LIT(o, ",\n   \"started_at\": ");
	put_real(o, u->started_at);
	OUT_LIT(o, ",\n   \"ended_at\": ");
	put_real(o, u->ended_at);
	OUT_LIT(o, ",\n   \"metrics\": {");
	for (int m = 0; m < r->met.nmetrics; m++) {
		if (isnan(u->vals[m]))
			continue;
		if (nm++)
			OUT_LIT(o, ",");
		OUT_LIT(o, "\n    ");
		out_str(o, e->metric[m]);
		OUT_LIT(o, ": {\n     \"value\": ");
		put_real(o, u->vals[m]);
		OUT_LIT(o, ",\n     \"unit\": ");
		out_str(o, e->unit[m]);
		OUT_LIT(o, "\n    }");
	}
	if (nm)
		OUT_LIT(o, "\n   }\n  }");
	else
		OUT_LIT(o, "}\n  }");
	return 0;
}

int json_runs_write(const struct report *r, FILE *f,
		    json_t *(*str)(const char *))
{
	struct enc e;
	struct out *o = malloc(sizeof *o);
	int rc;
	if (!o)
		return -1;
	o->f = f;
	o->n = 0;
	/* no runs: no encodings (a jansson string per cell for nothing) */
	memset(&e, 0, sizeof e);
	rc = r->nruns ? enc_init(r, str, &e) : 0;
	OUT_LIT(o, ",\n \"run_values\": [");
	for (int i = 0; rc == 0 && i < r->nruns; i++) {
		if (i)
			OUT_LIT(o, ",");
		rc = put_run(o, r, &r->runs[i], &e, str);
	}
	if (r->nruns)
		OUT_LIT(o, "\n ]\n}");
	else
		OUT_LIT(o, "]\n}");
	out_flush(o);
	free(o);
	enc_free(r, &e);
	return rc < 0 || ferror(f) ? -1 : 0;
}
