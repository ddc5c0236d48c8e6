/* A far frame whose clock does not move is refused (runner/host/
 * sampler_remote.c, clock_ok; issue 40: a hostile far /proc giving a
 * constant uptime put points at one instant, with no note). Staged as
 * unit/test_sampler_offset is: a namespace host whose /run/netns entry is
 * a plain file (the sampler reads a far-side loop through `ip netns
 * exec`) and a stand-in `ip` first on PATH printing canned frames:
 *   frame A, far uptime 100.00 s, at once (before the mark);
 *   after the mark, B (100.10 s), C (100.10 s again: the far clock did
 *   not advance) and, 1.8 s later, D (101.90 s).
 * C is refused and counted in the run's note, "sampler on 'far' refused
 * 1 frames: the far uptime was not finite and rising"; cpu.0.busy has
 * B's and D's points only, by hand from the canned /proc/stat lines:
 * A -> B user +50, system +50, idle +100: 100 of 200 ticks busy, 50%;
 * B -> D user +100, idle +50: 100 of 150, 66.666...% (200 / 3). Taken,
 * C (user +25, idle +25 after B) would be a third point at B's instant.
 * The 1.8 s without a frame is no stall: the limit is three periods
 * (0.3 s), 2 s at least, plus 1 s: 3 s (schema/plan.md; sampler_remote.c
 * far_silence), so the note says nothing of a stall.
 *
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "host.h"
#include "plan.h"
#include "proc.h"
#include "sampler.h"
#include "series.h"
#include "tap.h"

static char dir[] = "/tmp/xr-farclk-XXXXXX";
static char ns[32], nspath[64];

static int write_fake(void)
{
	char path[256];
	FILE *f;
	snprintf(path, sizeof path, "%s/ip", dir);
	if (!(f = fopen(path, "w")))
		return -1;
	fprintf(
	    f,
	    "#!/bin/sh\n"
	    "# fake ip of unit/test_sampler_clock: canned far frames\n"
	    "d='%s'\n"
	    "[ \"$1 $2 $3 $4 $5\" = 'netns exec %s sh -c' ] || exit 1\n"
	    "case $6 in *xrun-sample-end*) ;; *) exit 1 ;; esac\n"
	    "frame() {\n"
	    "  printf '@@ xrun-sample %%s\\n@@ xrun-counters 1\\n@@ stat\\n'"
	    " \"$1\"\n"
	    "  printf 'cpu  %%s\\ncpu0 %%s\\n@@ xrun-sample-end\\n' \"$2\""
	    " \"$2\"\n"
	    "}\n"
	    "frame 100.00 '100 0 100 800 0 0 0 0 0 0'\n"
	    "while [ ! -e \"$d/go\" ]; do sleep 0.01; done\n"
	    "sleep 0.5\n"
	    "frame 100.10 '150 0 150 900 0 0 0 0 0 0'\n"
	    "frame 100.10 '175 0 150 925 0 0 0 0 0 0'\n"
	    "sleep 1.8\n"
	    "frame 101.90 '250 0 150 950 0 0 0 0 0 0'\n"
	    ": >\"$d/done\"\n"
	    "exec sleep 60\n",
	    dir, ns);
	fclose(f);
	return chmod(path, 0755);
}

static int exists(const char *name)
{
	char path[256];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	return access(path, F_OK) == 0;
}

static void run(struct host *h)
{
	struct sampler *s = NULL;
	struct series_set set = {0};
	struct xr_err err = {0};
	const struct series *se;
	double until;
	char go[256];
	FILE *f;

	ok(sampler_start(h, "far", NULL, PLAN_COUNTER_CPU, 0.1, 60, &s, &err) ==
	       0,
	   "start the sampler: %s", err.msg);
	if (!s)
		return;
	is_int(sampler_wait_first(s, proc_now_mono() + 30), 0, "frame A read");
	sampler_mark(s);
	snprintf(go, sizeof go, "%s/go", dir);
	if ((f = fopen(go, "w")))
		fclose(f);
	until = proc_now_mono() + 30;
	while (!exists("done") && proc_now_mono() < until)
		proc_sleep(0.02);
	proc_sleep(0.3); /* the reader takes B, C and D */
	sampler_stop(s, &set);

	ok(strstr(set.note, "sampler on 'far' refused 1 frames: the far "
			    "uptime was not finite and rising"),
	   "the frame of a clock that did not move is refused, and said: %s",
	   set.note);
	ok(!strstr(set.note, "stalled"),
	   "1.8 s between frames is under the 3 s stall limit: %s", set.note);
	se = series_set_find(&set, "far", "cpu.0.busy");
	ok(se && se->n == 2, "cpu.0.busy: B's and D's points (%zu)",
	   se ? se->n : 0);
	if (se && se->n == 2) {
		is_near(se->v[0], 50, 1e-9, "B: 100 of 200 ticks busy");
		is_near(se->v[1], 200.0 / 3, 1e-9, "D: 100 of 150 ticks busy");
		is_near(se->t[1] - se->t[0], 1.8, 1e-9,
			"D 1.8 s after B, as the far clock says");
	} else {
		for (int i = 0; i < 3; i++)
			ok(0, "no points to check");
	}
	series_set_release(&set);
}

int main(void)
{
	struct plan_host ph;
	struct host *h = NULL;
	struct xr_err err = {0};
	char path[600], cmd[700];
	const char *old = getenv("PATH");
	FILE *f;

	if (geteuid() != 0)
		tap_skip_all("needs root (an entry in /run/netns)");
	tap_plan(9);
	snprintf(ns, sizeof ns, "xrclk%d", (int)getpid() % 100000);
	snprintf(nspath, sizeof nspath, "/run/netns/%s", ns);
	if (!mkdtemp(dir) || write_fake() < 0 ||
	    (mkdir("/run/netns", 0755) < 0 && access("/run/netns", F_OK)) ||
	    !(f = fopen(nspath, "w"))) {
		ok(0, "set up the fake ip and %s", nspath);
		return tap_done();
	}
	fclose(f);
	snprintf(path, sizeof path, "%s:%s", dir, old ? old : "");
	setenv("PATH", path, 1);
	memset(&ph, 0, sizeof ph);
	ph.name = "far";
	ph.netns = ns;
	ok(host_open(&ph, NULL, &h, &err) == 0, "open the host: %s", err.msg);
	if (h)
		run(h);
	host_close(h);
	unlink(nspath);
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "# cleanup failed: %s\n", cmd);
	return tap_done();
}
