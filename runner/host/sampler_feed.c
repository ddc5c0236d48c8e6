/*
 * What every reader of the sampler hands its snapshots to (sampler_int.h):
 * the interval since the previous snapshot becomes one point per series,
 * named from the counter row (nic.*, tcp.*, cpu.*, qdisc.*, softirq.*),
 * and the lead-in's latch fires once its points are in. The local and
 * netns thread (sampler.c) and the far stream (sampler_remote.c) both
 * feed it; it calls neither.
 *
 * SPDX-License-Identifier: MIT
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "counter_group.h"
#include "counters.h"
#include "counters_int.h"
#include "proc.h"
#include "sampler.h"
#include "sampler_int.h"
#include "series_name.h"

#include "banned.h"

/* ---- rows to series ---------------------------------------------------- */

/* "RcvbufErrors" -> "rcvbuf_errors"; a leading "TCP" of TcpExt goes. */
static void snake(const char *in, char *out, size_t outsz)
{
	size_t k = 0;
	if (!strncmp(in, "TCP", 3) && in[3])
		in += 3;
	for (size_t i = 0; in[i] && k + 2 < outsz; i++) {
		char c = in[i];
		int up = c >= 'A' && c <= 'Z';
		if (up && i > 0 &&
		    ((in[i - 1] >= 'a' && in[i - 1] <= 'z') ||
		     (in[i + 1] >= 'a' && in[i + 1] <= 'z' &&
		      in[i - 1] >= 'A' && in[i - 1] <= 'Z')))
			out[k++] = '_';
		out[k++] = up ? (char)(c - 'A' + 'a') : c;
	}
	out[k] = '\0';
}

/* A cpu row's series: the named ones, a core's %, or 0 for a summary. */
static int cpu_series(const struct counter_row *r, char *name, size_t sz,
		      const char **unit)
{
	int idx, n;
	char kind[16];
	size_t len = strlen(r->name);

	*unit = "%";
	if (!strcmp(r->name, "procs_running")) {
		snprintf(name, sz, SERIES_CPU_RUNNING);
		*unit = "1";
	} else if (!strcmp(r->name, "busy_avg_pct"))
		snprintf(name, sz, SERIES_CPU_ALL_BUSY);
	else if (!strcmp(r->name, "softirq_avg_pct"))
		snprintf(name, sz, SERIES_CPU_ALL_SOFTIRQ);
	else if (sscanf(r->name, "cpu%d_%15[a-z]_pct%n", &idx, kind, &n) == 2 &&
		 (size_t)n == len)
		snprintf(name, sz, SERIES_CPU "%d.%s", idx, kind);
	else
		return 0; /* busy_max_*: a summary, not a series */
	return 1;
}

/* The series of a counter row: 1 with name (its scope's prefix, from
 * COUNTER_SCOPE_MAP, and the counter), unit and whether it is a level,
 * or 0 for rows that are not sampled. */
int sampler_series_name(const struct counter_row *r, char *name, size_t sz,
			const char **unit, int *level)
{
	char sn[64];
	size_t len = strlen(r->name);
	int sc = counter_scope_find(r->scope);
	const char *prefix = counter_scope_series(sc);

	*unit = "1";
	*level = 0;
	if (!prefix)
		return 0;
	switch ((enum counter_scope)sc) {
	case COUNTER_SCOPE_NIC:
		if (len > 6 && !strcmp(r->name + len - 6, "_bytes"))
			*unit = "B";
		break;
	case COUNTER_SCOPE_QDISC:
		*level =
		    !strcmp(r->name, "backlog") || !strcmp(r->name, "qlen");
		if (!strcmp(r->name, "backlog"))
			*unit = "B";
		break;
	case COUNTER_SCOPE_TCP:
	case COUNTER_SCOPE_UDP:
		snake(r->name, sn, sizeof sn);
		snprintf(name, sz, "%s%s", prefix,
			 !strcmp(r->name, "RetransSegs") ? "retrans" : sn);
		return 1;
	case COUNTER_SCOPE_SOFTIRQ:
		snake(r->name, sn, sizeof sn);
		snprintf(name, sz, "%s%s", prefix, sn);
		return 1;
	case COUNTER_SCOPE_CPU:
		*level = 1;
		return cpu_series(r, name, sz, unit);
	default:
		break;
	}
	snprintf(name, sz, "%s%s", prefix, r->name);
	return 1;
}

static int is_level_name(const char *name)
{
	size_t n = strlen(name);
	return !strncmp(name, SERIES_CPU, strlen(SERIES_CPU)) ||
	       !strncmp(name, SERIES_ENGINE, strlen(SERIES_ENGINE)) ||
	       (n > 8 && !strcmp(name + n - 8, ".backlog")) ||
	       (n > 5 && !strcmp(name + n - 5, ".qlen"));
}

/* One point per row at t; a counter seen for the first time gets zeros
 * at the earlier sample times (ethtool and TcpExt rows only come when
 * they moved), and a counter without a row now gets a zero. */
static int add_rows(struct sampler *s, const struct counter_row *rows, size_t n,
		    double t)
{
	char name[SERIES_NAME_MAX];
	const char *unit;
	int level, rc = 0;

	for (size_t i = 0; rc == 0 && i < n; i++) {
		struct series *se;
		if (!sampler_series_name(&rows[i], name, sizeof name, &unit,
					 &level))
			continue;
		se = series_set_get(&s->set, s->label, name, unit);
		if (!se)
			return -XR_ENOMEM;
		if (se->n == 0 && !level) /* seen for the first time */
			for (size_t k = 0; rc == 0 && k < s->ntimes; k++)
				rc = series_add(se, s->times[k], 0);
		if (rc == 0)
			rc = series_add(se, t, rows[i].value);
	}
	for (size_t i = 0; rc == 0 && i < s->set.n; i++) {
		struct series *se = &s->set.s[i];
		if ((se->n == 0 || se->t[se->n - 1] != t) &&
		    !is_level_name(se->name))
			rc = series_add(se, t, 0);
	}
	return rc;
}

/* A snapshot taken at t (the reader's clock): the interval since the
 * previous one becomes points. Takes snap. */
int sampler_feed(struct sampler *s, struct counters_snap *snap, double t)
{
	struct counter_row *rows = NULL;
	size_t n = 0;
	int rc = 0;

	pthread_mutex_lock(&s->lock);
	if (s->prev) {
		rc = counters_interval(s->prev, snap, &rows, &n);
		if (rc == 0)
			rc = add_rows(s, rows, n, t);
		free(rows);
		if (rc == 0 && s->ntimes == s->captimes) {
			size_t nc = s->captimes ? s->captimes * 2 : 64;
			double *nt = realloc(s->times, nc * sizeof *nt);
			if (!nt)
				rc = -XR_ENOMEM;
			else {
				s->times = nt;
				s->captimes = nc;
			}
		}
		if (rc == 0)
			s->times[s->ntimes++] = t;
	}
	counters_snap_free(s->prev);
	s->prev = snap;
	pthread_mutex_unlock(&s->lock);
	return rc;
}

/* ---- the lead-in ------------------------------------------------------- */

void sampler_lead_check(struct sampler *s, int all)
{
	if (all || s->ntimes >= s->lead_points)
		proc_latch_fire(&s->lead);
}
