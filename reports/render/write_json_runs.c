/*
 * The JSON report's "run_values" (schema/report.md), streamed: one object
 * per run, written as text in jansson's own layout (JSON_INDENT(1),
 * JSON_REAL_PRECISION(10)) instead of a jansson tree of 100,000 objects
 * that is built, dumped and freed (two thirds of the JSON report of
 * 100,000 runs, bench/RESULTS.md). The cells, labels, metric names and
 * units are encoded once by jansson; each run adds numbers.
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

/* jansson's jsonp_dtostr at precision 10 (jansson 2.14 strconv.c): %.10g,
 * ".0" when neither '.' nor 'e' is there, the exponent without '+' and
 * leading zeros; null for what is not finite (write_json.c num()). */
static void put_real(FILE *f, double v)
{
	char b[64], *e, *d;
	if (isnan(v) || isinf(v)) {
		fputs("null", f);
		return;
	}
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
	fputs(b, f);
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

static int put_run(FILE *f, const struct report *r, const struct report_run *u,
		   struct enc *e, json_t *(*str)(const char *))
{
	const char *st = enc_status(e, str, u->status ? u->status : "");
	int nm = 0;
	if (!st || u->cell < 0 || u->cell >= r->ncells)
		return -1;
	fprintf(f,
		"\n  {\n   \"id\": %lld,\n   \"session\": %lld,\n   "
		"\"cell_index\": %d,\n   \"cell\": %s,\n   \"label\": %s,\n   "
		"\"rep\": %d,\n   \"status\": %s,\n   \"started_at\": ",
		(long long)u->id, (long long)u->session, u->cell,
		e->cell[u->cell], e->label[u->cell], u->rep, st);
	put_real(f, u->started_at);
	fputs(",\n   \"ended_at\": ", f);
	put_real(f, u->ended_at);
	fputs(",\n   \"metrics\": {", f);
	for (int m = 0; m < r->met.nmetrics; m++) {
		if (isnan(u->vals[m]))
			continue;
		fprintf(f, "%s\n    %s: {\n     \"value\": ", nm++ ? "," : "",
			e->metric[m]);
		put_real(f, u->vals[m]);
		fprintf(f, ",\n     \"unit\": %s\n    }", e->unit[m]);
	}
	fputs(nm ? "\n   }\n  }" : "}\n  }", f);
	return 0;
}

int json_runs_write(const struct report *r, FILE *f,
		    json_t *(*str)(const char *))
{
	struct enc e;
	int rc;
	/* no runs: no encodings (a jansson string per cell for nothing) */
	memset(&e, 0, sizeof e);
	rc = r->nruns ? enc_init(r, str, &e) : 0;
	fputs(",\n \"run_values\": [", f);
	for (int i = 0; rc == 0 && i < r->nruns; i++) {
		if (i)
			fputc(',', f);
		rc = put_run(f, r, &r->runs[i], &e, str);
	}
	fputs(r->nruns ? "\n ]\n}" : "]\n}", f);
	enc_free(r, &e);
	return rc < 0 || ferror(f) ? -1 : 0;
}
