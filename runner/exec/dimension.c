/*
 * Experiment dimensioning (dimension.h) after Kalibera & Jones, "Rigorous
 * Benchmarking in Reasonable Time" (ISMM 2013): the variance components
 * of the levels of an iperf3 experiment (intervals inside a run, runs),
 * with the corrected estimator T_i^2 = S_i^2 - S_{i-1}^2 / r_{i-1} that
 * later implementations use (softdevteam/libkalibera, pykalibera/data.py,
 * Ti2: "the expression ... was incorrectly shown ... corrected in a
 * revised version of the paper"), and the optimal repetitions per level
 * r_1 = sqrt(c_2 T_1^2 / (c_1 T_2^2)). Blocks (manual settings) are a
 * third level only across sessions: a cell sits in one block per session,
 * so this store-based estimate stops at runs and says so.
 *
 * SPDX-License-Identifier: MIT
 */
#include "dimension.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "plan.h"
#include "sizing.h"
#include "store.h"
#include "tdist.h"
#include "units.h"
#include "banned.h"

void dimension_components(double s1, double s2, int r1, struct dim_levels *o)
{
	o->t1 = s1 > 0 ? s1 : 0;
	o->t2 = r1 > 0 ? s2 - s1 / r1 : s2;
	if (!(o->t2 > 0))
		o->t2 = 0;
}

double dimension_optimal_r1(const struct dim_levels *l, double c1, double c2)
{
	if (!(l->t1 > 0))
		return 1;
	if (!(l->t2 > 0) || !(c1 > 0))
		return INFINITY;
	return sqrt(c2 / c1 * l->t1 / l->t2);
}

/* One cell's runs: log interval values run by run, run log means. */
struct dcell {
	char *cell;
	double *iv;  /* interval logs, run after run */
	int *niv;    /* per run */
	double *run; /* run value logs */
	int nrun, cap, ivn, ivcap;
	double ivlen; /* sum of interval lengths */
};

struct dscan {
	struct dcell *c;
	int n, cap;
	int64_t last_run;
};

static int grow(void **p, int *cap, int need, size_t sz)
{
	void *q;
	int nc;
	if (need <= *cap)
		return 0;
	nc = *cap ? *cap * 2 : 16;
	while (nc < need)
		nc *= 2;
	if (!(q = realloc(*p, (size_t)nc * sz)))
		return -XR_ENOMEM;
	*p = q;
	*cap = nc;
	return 0;
}

static int level_row(void *ctx, const struct store_level_row *r)
{
	struct dscan *s = ctx;
	struct dcell *c = s->n ? &s->c[s->n - 1] : NULL;
	if (!r->cell || !(r->run_value > 0))
		return 0;
	if (!c || strcmp(c->cell, r->cell)) {
		if (grow((void **)&s->c, &s->cap, s->n + 1, sizeof *s->c) < 0)
			return -XR_ENOMEM;
		c = &s->c[s->n++];
		memset(c, 0, sizeof *c);
		if (!(c->cell = strdup(r->cell)))
			return -XR_ENOMEM;
		s->last_run = -1;
	}
	if (r->run_id != s->last_run) {
		int cap = c->cap;
		if (grow((void **)&c->run, &cap, c->nrun + 1, sizeof *c->run) <
			0 ||
		    grow((void **)&c->niv, &c->cap, c->nrun + 1,
			 sizeof *c->niv) < 0)
			return -XR_ENOMEM;
		c->run[c->nrun] = log(r->run_value);
		c->niv[c->nrun++] = 0;
		s->last_run = r->run_id;
	}
	if (r->iv > 0) {
		if (grow((void **)&c->iv, &c->ivcap, c->ivn + 1,
			 sizeof *c->iv) < 0)
			return -XR_ENOMEM;
		c->iv[c->ivn++] = log(r->iv);
		c->niv[c->nrun - 1]++;
		c->ivlen += r->iv_len > 0 ? r->iv_len : 0;
	}
	return 0;
}

/* S_1^2 and S_2^2 of a cell over a balanced design: the first r1
 * intervals of every run, r1 the fewest any run has. */
static int cell_levels(const struct dcell *c, double *s1, double *s2, int *r1)
{
	double *m = malloc(((size_t)c->nrun + 1) * sizeof *m), sum = 0;
	int j, k, off = 0, n = INT32_MAX;
	for (j = 0; j < c->nrun; j++)
		if (c->niv[j] < n)
			n = c->niv[j];
	*r1 = n;
	*s1 = 0;
	if (!m)
		return -XR_ENOMEM;
	for (j = 0; j < c->nrun; j++) {
		const double *y = c->iv + off;
		double mj = 0;
		for (k = 0; k < n; k++)
			mj += y[k];
		mj = n ? mj / n : c->run[j];
		for (k = 0; k < n; k++)
			sum += (y[k] - mj) * (y[k] - mj);
		m[j] = mj;
		off += c->niv[j];
	}
	if (n >= 2)
		*s1 = sum / ((double)c->nrun * (n - 1));
	*s2 = tdist_sd(m, (size_t)c->nrun);
	*s2 *= *s2;
	free(m);
	return 0;
}

static void dscan_release(struct dscan *s)
{
	int i;
	for (i = 0; i < s->n; i++) {
		free(s->c[i].cell);
		free(s->c[i].iv);
		free(s->c[i].niv);
		free(s->c[i].run);
	}
	free(s->c);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* What each cell needs with r1 intervals a run, and the total time. */
static double print_cells(const struct plan *p, const struct dscan *s,
			  const struct dim_levels *lv, double r1, double c1,
			  double c2, double precision, FILE *out)
{
	double total = 0;
	int i, w = 28;
	/* The cell column as wide as its longest name: a cut name can be
	 * two cells at once (issue 23). */
	for (i = 0; i < s->n; i++)
		if ((int)strlen(s->c[i].cell) > w)
			w = (int)strlen(s->c[i].cell);
	fprintf(out, "  %-*s %5s %7s %10s %10s %8s %7s\n", w, "cell", "runs",
		"iv/run", "T1^2", "T2^2", "opt iv", "repeat");
	for (i = 0; i < s->n; i++) {
		double v = lv[i].t2 + (r1 > 0 ? lv[i].t1 / r1 : 0);
		double o = dimension_optimal_r1(&lv[i], c1, c2);
		int need = sizing_need(sqrt(v), precision);
		if (need < 3)
			need = 3;
		total += need * (r1 * c1 + c2);
		fprintf(out, "  %-*s %5d %7d %10.3g %10.3g %8.3g %7d\n", w,
			s->c[i].cell, s->c[i].nrun,
			s->c[i].nrun ? s->c[i].ivn / s->c[i].nrun : 0, lv[i].t1,
			lv[i].t2, o, need);
	}
	(void)p;
	return total;
}

int dimension_print(const struct plan *p, struct store *st, double overhead,
		    FILE *out, struct xr_err *err)
{
	struct dscan s;
	struct dim_levels *lv = NULL;
	double *opt = NULL, c1 = 0, c2, r1, total, precision;
	const char *metric = sizing_metric(p);
	char t[32], d[32];
	long ivs = 0;
	int i, r, n1 = 0;

	memset(&s, 0, sizeof s);
	precision = p->precision > 0 ? p->precision : 0.01;
	if (!metric)
		return xr_err_set(err, XR_EUSAGE, p->path, 0, 0,
				  "the plan declares no metric to dimension");
	if ((r = store_levels_each(st, metric, level_row, &s, err)) < 0)
		goto out;
	if (!s.n) {
		r = xr_err_set(err, XR_EUSAGE, store_path(st), 0, 0,
			       "no successful run of '%s' in this store",
			       metric);
		goto out;
	}
	lv = calloc((size_t)s.n, sizeof *lv);
	opt = calloc((size_t)s.n, sizeof *opt);
	if (!lv || !opt) {
		r = xr_err_set(err, XR_ENOMEM, NULL, 0, 0, "out of memory");
		goto out;
	}
	for (i = 0; i < s.n; i++) {
		double s1, s2;
		int rr1;
		if (cell_levels(&s.c[i], &s1, &s2, &rr1) < 0) {
			r = xr_err_set(err, XR_ENOMEM, NULL, 0, 0,
				       "out of memory");
			goto out;
		}
		dimension_components(s1, s2, rr1 >= 2 ? rr1 : 0, &lv[i]);
		ivs += s.c[i].ivn;
		c1 += s.c[i].ivlen;
		n1 += rr1 >= 2;
	}
	c1 = ivs ? c1 / (double)ivs : 0;
	c2 = overhead + p->engine.omit + p->settle;
	fprintf(out,
		"dimension from %s (metric %s, target: 95%% interval within "
		"±%g%% of each cell's geometric mean%s)\n",
		store_path(st), metric, precision * 100,
		p->precision > 0 ? "" : ", the default for a fixed repeat");
	if (!n1 || !(c1 > 0)) {
		/* No per-interval values (the command engine): one level. */
		fprintf(out, "levels: runs only (no per-interval values)\n");
		total = print_cells(p, &s, lv, 0, 0, p->engine.duration + c2,
				    precision, out);
		units_fmt_duration(total, t, sizeof t);
		fprintf(out,
			"recommendation: duration %gs as planned, repeat per "
			"cell as above; total %s\n",
			p->engine.duration, t);
		r = 0;
		goto out;
	}
	for (i = 0; i < s.n; i++)
		opt[i] = dimension_optimal_r1(&lv[i], c1, c2);
	qsort(opt, (size_t)s.n, sizeof *opt, cmp_double);
	/* One duration for the plan: the median cell's optimum, kept
	 * between one interval and ten times the current duration. */
	r1 = ceil(opt[s.n / 2]);
	if (!(r1 >= 1))
		r1 = 1;
	if (r1 * c1 > 10 * p->engine.duration && p->engine.duration > 0)
		r1 = ceil(10 * p->engine.duration / c1);
	fprintf(out,
		"levels: intervals in a run (cost %.3gs each), runs (cost "
		"%.3gs beyond their intervals: xrun's overhead %.3gs + omit "
		"%gs + settle %gs)\n",
		c1, c2, overhead, p->engine.omit, p->settle);
	total = print_cells(p, &s, lv, r1, c1, c2, precision, out);
	units_fmt_duration(total, t, sizeof t);
	units_fmt_duration(r1 * c1, d, sizeof d);
	fprintf(out,
		"%s: duration %s (%g intervals), repeat per cell as above; "
		"total %s\n",
		r1 * c1 > p->engine.duration * 1.25 ? "longer runs are cheaper"
		: r1 * c1 < p->engine.duration * 0.8
		    ? "more, shorter runs are cheaper"
		    : "the planned duration is about right",
		d, r1, t);
	fprintf(out, "blocks: each cell is in one block per session, so the "
		     "between-block variance needs several sessions; a manual "
		     "block adds its change time once per block\n");
	r = 0;
out:
	free(lv);
	free(opt);
	dscan_release(&s);
	return r;
}
