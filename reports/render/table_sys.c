/*
 * The system table (rt_system, rtable.h): what was measured on, near the
 * top of a report as published comparison pages put it (Phoronix's
 * result pages open with the system table), from the host facts: one row
 * per key that has a label in the host facts' table (runner/desc
 * hostfact.c: OS, kernel, CPU, memory, NIC driver, link, PCIe link, MTU,
 * root qdisc, then each engine's version), one column per host. A fact the
 * runs held different values of (a hook set it per level: their fact
 * sets) shows its value per level of the factor that tells them apart,
 * "1500 (mtu=1500) / 9000 (mtu=9000)"; one that changed between sessions
 * shows each value ("6.1 / 6.18"); every fact with its sessions stays in
 * the appendix.
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "buf.h"
#include "hostfact.h"
#include "rtable.h"
#include "xr_err.h"

#include "banned.h"

#define T(id) report_text(r, REPORT_T_##id)

/* The k-th row of the table: the k-th labelled row of the host facts'
 * table (runner/desc/hostfact.c: OS to root qdisc, then each engine's
 * version under its program's name); NULL past the last. */
static const struct hostfact *sys_key(size_t k)
{
	const struct hostfact *f;
	for (int i = 0; (f = hostfact_at(i)); i++)
		if (f->en && k-- == 0)
			return f;
	return NULL;
}

/* "25275990016" -> "23.5 GiB"; anything else as it is. */
static void show_value(const char *key, const char *v, char *out, size_t n)
{
	char *end;
	double b;
	if (!strcmp(key, "mem_bytes")) {
		b = strtod(v, &end);
		if (end != v && !*end && b > 0) {
			snprintf(out, n, "%.1f GiB",
				 b / (1024.0 * 1024 * 1024));
			return;
		}
	}
	snprintf(out, n, "%s", v);
}

/* Every distinct value of (host, key), in session order, " / " between. */
static int values(const struct report *r, const char *host, const char *key,
		  struct buf *s)
{
	char one[256];
	int rc = 0;
	buf_reset(s);
	for (int k = 0; k < r->nfacts && rc == 0; k++) {
		const struct report_fact *f = &r->facts[k];
		if (strcmp(f->host, host) || strcmp(f->key, key) ||
		    !strcmp(f->value, "unknown") || !*f->value)
			continue;
		show_value(key, f->value, one, sizeof one);
		if (s->len && strstr(s->s, one))
			continue;
		rc = buf_addf(s, "%s%s", s->len ? " / " : "", one) < 0;
	}
	return rc ? -XR_ENOMEM : 0;
}

/* The value of (host, key) run u held under; its session's (the last
 * host fact of the session) when it names no set for the host. */
static const char *run_value(const struct report *r, const struct report_run *u,
			     const char *host, const char *key)
{
	const char *v = NULL;
	int known;
	v = report_run_fact(u, host, key, &known);
	if (known)
		return v;
	for (int k = 0; k < r->nfacts; k++)
		if (r->facts[k].session == u->session &&
		    !strcmp(r->facts[k].host, host) &&
		    !strcmp(r->facts[k].key, key))
			v = r->facts[k].value;
	return v;
}

/* A factor each of whose levels held one value of (host, key) in all its
 * runs, or -1; vals[level] its value then (the caller's, room for the
 * factor's levels: at most nlv). */
static int level_factor(const struct report *r, const char *host,
			const char *key, const char **vals, int nlv)
{
	for (int f = 0; f < r->nfactors; f++) {
		int fits = r->factors[f].nlevels <= nlv;
		char *set = calloc((size_t)nlv + 1, 1);
		if (!set)
			return -1;
		for (int i = 0; i < r->nruns && fits; i++) {
			const struct report_run *u = &r->runs[i];
			const char *v = run_value(r, u, host, key);
			int l = u->cell >= 0 ? r->cells[u->cell].lv[f] : -1;
			if (l < 0 || l >= r->factors[f].nlevels)
				continue;
			if (!set[l]) {
				set[l] = 1;
				vals[l] = v;
			} else if (v && vals[l] ? strcmp(v, vals[l]) != 0
						: v != vals[l]) {
				fits = 0;
			}
		}
		for (int l = 0; fits && l < r->factors[f].nlevels; l++)
			if (!set[l])
				vals[l] = NULL;
		free(set);
		if (fits)
			return f;
	}
	return -1;
}

/* Each value of (host, key) over the runs with how many held it: "1500
 * (2 runs) / 9000 (1 run)" (the first NVAL values). */
#define NVAL 8
static void value_counts(const struct report *r, const char *host,
			 const char *key, struct buf *s)
{
	const char *val[NVAL];
	int cnt[NVAL], nv = 0;
	char one[256];
	for (int i = 0; i < r->nruns; i++) {
		const char *v = run_value(r, &r->runs[i], host, key);
		int k;
		if (!v)
			continue;
		for (k = 0; k < nv && strcmp(val[k], v); k++)
			;
		if (k == nv && nv < NVAL) {
			val[nv] = v;
			cnt[nv++] = 0;
		}
		if (k < nv)
			cnt[k]++;
	}
	for (int k = 0; k < nv; k++) {
		show_value(key, val[k], one, sizeof one);
		buf_addf(s, "%s%s (%d run%s)", s->len ? " / " : "", one, cnt[k],
			 cnt[k] == 1 ? "" : "s");
	}
}

/*
 * Where the runs held different values of (host, key) (a hook set the
 * MTU per level; a card swapped between blocks), the value per level of
 * the factor that tells them apart: "1500 (mtu=1500) / 9000 (mtu=9000)";
 * with no such factor, each value with its runs. 1 when so (s filled),
 * 0 when the runs agree.
 */
static int per_level(const struct report *r, const char *host, const char *key,
		     struct buf *s)
{
	const char *first = NULL, *vals[64];
	char one[256];
	int differ = 0, f;
	for (int i = 0; i < r->nruns && !differ; i++) {
		const char *v = run_value(r, &r->runs[i], host, key);
		if (!v)
			continue;
		if (first && strcmp(first, v))
			differ = 1;
		first = v;
	}
	if (!differ)
		return 0;
	buf_reset(s);
	f = level_factor(r, host, key, vals, 64);
	if (f < 0) {
		value_counts(r, host, key, s);
		return 1;
	}
	for (int l = 0; l < r->factors[f].nlevels; l++) {
		if (!vals[l])
			continue;
		show_value(key, vals[l], one, sizeof one);
		buf_addf(s, "%s%s (%s=%s)", s->len ? " / " : "", one,
			 r->factors[f].name, r->factors[f].levels[l]);
	}
	return 1;
}

int rt_system(const struct report *r, struct arena *a, struct rtable *t)
{
	int nh = r->span.nhosts, ja = r->about.lang == REPORT_LANG_JA, rc = 0;
	int row = 0;
	size_t nkeys = 0;
	const struct hostfact *sk;
	struct buf s = BUF_INIT;

	while (sys_key(nkeys))
		nkeys++;

	memset(t, 0, sizeof *t);
	t->unit = "";
	t->ncols = nh + 1;
	t->col = arena_alloc(a, (size_t)(nh + 1) * sizeof *t->col);
	t->cell = arena_alloc(a, (size_t)(nh + 1) * nkeys * sizeof *t->cell);
	if (!t->col || !t->cell)
		return -XR_ENOMEM;
	t->title = T(SYSTEM);
	t->col[0] = (struct rt_col){"", RT_LEFT, 0};
	for (int h = 0; h < nh; h++)
		t->col[h + 1] = (struct rt_col){r->span.hosts[h], RT_LEFT, 1};
	for (size_t k = 0; rc == 0 && (sk = sys_key(k)); k++) {
		int any = 0;
		for (int h = 0; h < nh && rc == 0; h++) {
			const char *v;
			if (!per_level(r, r->span.hosts[h], sk->key, &s))
				rc = values(r, r->span.hosts[h], sk->key, &s);
			v = rc ? NULL : arena_strdup(a, s.len ? s.s : "");
			if (!v)
				rc = -XR_ENOMEM;
			else
				t->cell[row * t->ncols + h + 1] = v;
			any |= s.len > 0;
		}
		if (rc == 0 && any) {
			t->cell[row * t->ncols] = ja ? sk->ja : sk->en;
			row++;
		}
	}
	buf_release(&s);
	t->nrows = row;
	return rc ? -XR_ENOMEM : 0;
}
