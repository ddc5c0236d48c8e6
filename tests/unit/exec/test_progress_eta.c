/* Unit tests for progress_eta (progress.c), the ETA of the progress line
 * and of every log line (issue 35 item 5): the engine seconds of the runs
 * left (each its own duration) plus, for each run left, what a run has
 * cost so far beyond its engine seconds (wall time per run less its
 * engine seconds, averaged). Values by hand, in the comments.
 *
 * SPDX-License-Identifier: MIT
 */
#include <string.h>

#include "runctx.h"
#include "tap.h"

int main(void)
{
	struct runctx rc;

	tap_plan(3);
	memset(&rc, 0, sizeof rc);
	rc.n_todo = 6;
	ok(progress_eta(&rc) < 0, "no run yet: no ETA (--:--:--)");

	/* 6 runs of 10 s; the first took 10.3 s of wall time (0.3 s beyond
	 * its engine): 5 x 10 s left + 5 x 0.3 s = 51.5 s, the line's ETA
	 * 00:00:52 (counting each run's 10.3 s twice: 101.5 s, 00:01:42) */
	rc.n_run = 1;
	rc.est_todo = 60;
	rc.est_done = 10;
	rc.t_runs = 10.3;
	is_near(progress_eta(&rc), 51.5, 1e-9,
		"5 runs of 10 s left, 0.3 s beyond each: 51.5 s");

	/* levels of 1 s and 2 s (params: duration), 4 runs: 1 + 2 + 1 + 2
	 * = 6 s of engine time; the first two took 1.4 s and 2.5 s, 0.9 s
	 * beyond their 3 s: (6 - 3) + 2 x 0.9 / 2 = 3.9 s */
	rc.n_todo = 4;
	rc.n_run = 2;
	rc.est_todo = 6;
	rc.est_done = 3;
	rc.t_runs = 3.9;
	is_near(progress_eta(&rc), 3.9, 1e-9,
		"3 s of engine time left, 0.45 s beyond each of 2 runs: 3.9 s");
	return tap_done();
}
