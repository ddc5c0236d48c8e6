/*
 * Series bytes per run hour (bench/RESULTS.md, "Series storage"): fills a
 * fresh store through the store's own writer with one run of an hour of
 * 1 s samples, NSERIES series on each of two hosts, shaped like what the
 * sampler records (byte and packet counters that change every second,
 * counters that are mostly 0, cpu levels to 0.1%, t with the jitter of a
 * real clock), and prints the bytes of points and of the file.
 * Usage: series-size DIR [NSERIES] [SECONDS] [INTERVAL]
 *
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "buf.h"
#include "engine.h"
#include "series.h"
#include "store.h"

static double jitter(unsigned *seed)
{
	return (double)(rand_r(seed) % 2000) / 1e6; /* 0 .. 2 ms */
}

/* Point k of series j: j % 4 picks the kind. */
static double value(int j, int k, unsigned *seed)
{
	switch (j % 4) {
	case 0: /* bytes: ~1 Gbit/s */
		return 125000000.0 + (double)(rand_r(seed) % 200000);
	case 1: /* packets */
		return 82000.0 + (double)(rand_r(seed) % 500);
	case 2: /* drops, errors, pause: mostly 0 */
		return rand_r(seed) % 50 == 0 ? (double)(rand_r(seed) % 9) : 0;
	default: /* a cpu level, 0.1% */
		return round((20.0 + (double)(rand_r(seed) % 800) / 10.0) *
			     10.0) /
		       10.0;
	}
	(void)k;
}

int main(int argc, char **argv)
{
	static const char *const hosts[2] = {"client", "server"};
	int nseries = argc > 2 ? atoi(argv[2]) : 40;
	int secs = argc > 3 ? atoi(argv[3]) : 3600;
	double dt = argc > 4 ? atof(argv[4]) : 1.0;
	struct series_set ss = {0};
	struct store_run_record rec = {0};
	struct engine_result res = {0};
	struct store_pending row = {0};
	struct xr_err err = {0};
	struct store *st = NULL;
	struct buf path = BUF_INIT;
	struct stat sb;
	int64_t plan_id, sid, rid;
	unsigned seed = 1;
	long h, j, k, npts = (long)(secs / dt), points = 0;
	char name[SERIES_NAME_MAX];
	if (argc < 2) {
		fprintf(stderr, "usage: series-size DIR [NSERIES] [SECONDS] "
				"[INTERVAL]\n");
		return 2;
	}
	buf_addf(&path, "%s/series-size.db", argv[1]);
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
	    store_commit(st, &err) < 0)
		goto fail;
	for (h = 0; h < 2; h++)
		for (j = 0; j < nseries; j++) {
			snprintf(name, sizeof name, "bench.s%ld", j);
			for (k = 0; k < npts; k++)
				series_set_add(&ss, hosts[h], name, "1",
					       (double)(k + 1) * dt +
						   jitter(&seed),
					       value((int)j, (int)k, &seed));
			points += npts;
		}
	res.status = RUN_OK;
	rec.res = &res;
	rec.engine = "command";
	rec.series = &ss;
	if (store_run_finish(st, rid, &rec, &err) < 0)
		goto fail;
	store_close(st);
	if (stat(path.s, &sb) < 0)
		return 1;
	printf("%d series x 2 hosts, %d s at %g s: %ld points, store %lld "
	       "bytes (%.1f B/point, %.1f MB per run hour)\n",
	       nseries, secs, dt, points, (long long)sb.st_size,
	       (double)sb.st_size / (double)points,
	       (double)sb.st_size / 1e6 * 3600.0 / secs);
	series_set_release(&ss);
	buf_release(&path);
	return 0;
fail:
	fprintf(stderr, "series-size: %s\n", err.msg);
	return 1;
}
