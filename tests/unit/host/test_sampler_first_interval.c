/*
 * The far sampler loop's lead-in (counters_script.c, issue 35): its
 * second frame comes the lead-in's first interval ($5) after its first,
 * then every period ($3). Read off the frames' own clock ("@@
 * xrun-sample UPTIME", the far side's /proc/uptime), so the machine's
 * load moves no figure but the script's own run time: with a period of
 * 3 s and a first interval of 0.2 s, frames at about 0, 0.2 and 3.2 s.
 * Were the first sleep a whole period, an ssh host's series would have no
 * point before its engine starts and each run would wait a period for
 * one (the blind mutation b35r-remote-first-interval).
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "counters_int.h"
#include "proc.h"
#include "tap.h"

int main(void)
{
	/* $1 no interface, $2 the CPU group, $3 the period, $4 no watch
	 * token, $5 the first interval */
	const char *loop[] = {
	    "sh",  "-c", counters_sampler_script(), "sh", "", "c", "3", "",
	    "0.2", NULL};
	struct proc_opts o = {0};
	struct proc_result r;
	struct xr_err err = {0};
	double up[8];
	int n = 0;

	tap_plan(4);
	o.argv = loop;
	o.timeout = 4.5; /* frames at ~0, ~0.2, ~3.2 s; the next at ~6.2 */
	o.grace = 0.1;
	if (proc_run(&o, &r, &err) != 0) {
		ok(0, "the loop ran: %s", err.msg);
		return tap_done();
	}
	for (const char *q = r.out; n < 8 && (q = strstr(q, "@@ xrun-sample "));
	     q++) {
		char *end;
		double v = strtod(q + strlen("@@ xrun-sample "), &end);
		if (end != q + strlen("@@ xrun-sample "))
			up[n++] = v;
	}
	ok(r.status == PROC_TIMEOUT, "the loop ran to the deadline");
	ok(n == 3, "three frames in 4.5 s (got %d)", n);
	/* 0.2 s and the first frame's own run time (tens of ms; the bound
	 * leaves a loaded machine a second), far below the 3 s period */
	ok(n >= 2 && up[1] - up[0] >= 0.15 && up[1] - up[0] < 1.2,
	   "the second frame the first interval after the first (%.2f s, "
	   "want 0.2)",
	   n >= 2 ? up[1] - up[0] : -1.0);
	ok(n >= 3 && up[2] - up[1] > 2.5 && up[2] - up[1] < 3.8,
	   "then a period (%.2f s, want 3)", n >= 3 ? up[2] - up[1] : -1.0);
	proc_result_release(&r);
	return tap_done();
}
