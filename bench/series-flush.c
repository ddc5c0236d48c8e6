/*
 * What keeping a run's series during the run costs (bench/RESULTS.md,
 * "Series kept during the run"): one run in flight in a fresh store, the
 * store's flusher thread (store_flusher_*) handed, at every call, what
 * NSERIES series on each of two hosts gather in one flush period at
 * INTERVAL sampling (the period is STORE_FLUSH_PERIOD, 2 s: 2 points at
 * 1 s, 20 at 100 ms); the thread is run back to back (period 1 us) for
 * NFLUSH flushes, so wall time / NFLUSH is the cost of one flush, and the
 * process's CPU time / NFLUSH its CPU. Then the run is stored whole
 * (store_run_finish replacing the chunks) and that is timed too.
 * A sixth argument (any) is the baseline: the same points, no flusher,
 * the run stored whole over no chunk.
 * Usage: series-flush DIR [NSERIES] [INTERVAL] [NFLUSH] [baseline]
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>

#include "buf.h"
#include "engine.h"
#include "series.h"
#include "store.h"

struct src {
	int nseries, per, calls, max;
	double dt;
	struct series_set all; /* every point handed out, for the finish */
};

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double cpu(void)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
	       (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
}

static int collect(void *ctx, struct series_set *dst)
{
	static const char *const hosts[2] = {"client", "server"};
	struct src *s = ctx;
	char name[SERIES_NAME_MAX];
	int h, j, k;
	if (s->calls >= s->max)
		return 0;
	for (h = 0; h < 2; h++)
		for (j = 0; j < s->nseries; j++) {
			snprintf(name, sizeof name, "bench.s%d", j);
			for (k = 0; k < s->per; k++) {
				double t = (s->calls * s->per + k + 1) * s->dt;
				double v = j % 4 == 2 ? 0 : 125000000.0 + k;
				if (series_set_add(dst, hosts[h], name, "1", t,
						   v) < 0 ||
				    series_set_add(&s->all, hosts[h], name, "1",
						   t, v) < 0)
					return -XR_ENOMEM;
			}
		}
	s->calls++;
	return 0;
}

int main(int argc, char **argv)
{
	struct src s = {0};
	struct store_run_record rec = {0};
	struct engine_result res = {0};
	struct store_pending row = {0};
	struct xr_err err = {0};
	struct store *st = NULL;
	struct store_flusher *fl;
	struct buf path = BUF_INIT;
	int64_t plan_id, sid, rid, chunks;
	double w0, c0, w1, c1, w2;
	char why[256];
	if (argc < 2) {
		fprintf(stderr, "usage: series-flush DIR [NSERIES] [INTERVAL] "
				"[NFLUSH]\n");
		return 2;
	}
	s.nseries = argc > 2 ? atoi(argv[2]) : 40;
	s.dt = argc > 3 ? atof(argv[3]) : 1.0;
	s.max = argc > 4 ? atoi(argv[4]) : 1800;
	s.per = (int)(STORE_FLUSH_PERIOD / s.dt + 0.5);
	buf_addf(&path, "%s/series-flush.db", argv[1]);
	remove(path.s);
	if (store_open(path.s, STORE_CREATE | STORE_LOCK, &st, &err) < 0 ||
	    store_plan_put(st, "b", NULL, "b.yaml", "h", "t", &plan_id, &err) <
		0 ||
	    store_session_create(st, plan_id, "c", "{}", "[]", &sid, &err) < 0)
		goto fail;
	row.rep = 1;
	row.cell = "{}";
	if (store_begin(st, &err) < 0 ||
	    store_runs_pending_make(st, sid, &row, 1, &rid, &err) < 0 ||
	    store_commit(st, &err) < 0 || store_run_start(st, rid, 0, &err) < 0)
		goto fail;
	w0 = now();
	c0 = cpu();
	if (argc > 5) { /* the baseline: the same points, no chunk */
		struct series_set tmp = {0};
		while (s.calls < s.max)
			if (collect(&s, &tmp) < 0)
				return 1;
		series_set_release(&tmp);
		chunks = 0;
		why[0] = '\0';
	} else {
		fl = store_flusher_start(st, rid, 1e-6, collect, &s);
		if (!fl)
			return 1;
		while (s.calls < s.max)
			nanosleep(&(struct timespec){0, 1000000}, NULL);
		chunks = store_flusher_stop(fl, why, sizeof why);
	}
	w1 = now();
	c1 = cpu();
	if (why[0]) {
		fprintf(stderr, "series-flush: %s\n", why);
		return 1;
	}
	res.status = RUN_OK;
	rec.res = &res;
	rec.engine = "command";
	rec.series = &s.all;
	if (store_run_finish(st, rid, &rec, &err) < 0)
		goto fail;
	w2 = now();
	printf("%d series x 2 hosts at %g s, %d points a flush: %lld flushes, "
	       "%.2f ms wall and %.2f ms CPU a flush; the run stored whole "
	       "over %lld chunks in %.0f ms\n",
	       s.nseries, s.dt, 2 * s.nseries * s.per, (long long)chunks,
	       chunks ? (w1 - w0) * 1e3 / (double)chunks : 0,
	       chunks ? (c1 - c0) * 1e3 / (double)chunks : 0, (long long)chunks,
	       (w2 - w1) * 1e3);
	store_close(st);
	series_set_release(&s.all);
	buf_release(&path);
	return 0;
fail:
	fprintf(stderr, "series-flush: %s\n", err.msg);
	return 1;
}
