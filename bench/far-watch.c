/*
 * The far side's cost of following the engine's processes (bench/
 * far-watch.sh, bench/RESULTS.md "The engine's process over ssh"): the
 * sampler loop an ssh host runs (counters_sampler_script, section `c`:
 * /proc/stat and /proc/softirqs), run here by sh as sshd would run it,
 * for SECONDS at PERIOD, with XDG_RUNTIME_DIR a fresh directory holding
 * a watch file of each PID under the token (watch) or no token (plain).
 * Prints one line:
 *   MODE FRAMES CPU_MS_PER_FRAME POINTS ENGINE_CPU_MEAN
 * CPU: the loop's sh and its sleeps (RUSAGE_CHILDREN around the block);
 * POINTS and ENGINE_CPU_MEAN: the engine.cpu points its frames give
 * (sampler_far_engine) and their mean, % of a core.
 * Usage: far-watch-bench watch|plain SECONDS PERIOD PID...
 *
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "counters_int.h"
#include "proc.h"
#include "sampler.h"
#include "series.h"

#define TOKEN "0badc0ffee0ddf00"

static double cpu_children(void)
{
	struct rusage r;
	getrusage(RUSAGE_CHILDREN, &r);
	return (double)r.ru_utime.tv_sec + (double)r.ru_utime.tv_usec / 1e6 +
	       (double)r.ru_stime.tv_sec + (double)r.ru_stime.tv_usec / 1e6;
}

int main(int argc, char **argv)
{
	char dir[] = "/tmp/xr-farw-XXXXXX", env[64], path[256];
	const char *envv[] = {env, NULL};
	const char *loop[9];
	struct proc_opts o = {0};
	struct proc_result r;
	struct xr_err e = {0};
	struct series_set set = {0};
	const struct series *c;
	double before, used, sum = 0;
	int watch, frames = 0, n = 0;

	if (argc < 4 ||
	    (strcmp(argv[1], "watch") && strcmp(argv[1], "plain"))) {
		fprintf(stderr, "usage: far-watch-bench watch|plain SECONDS "
				"PERIOD PID...\n");
		return 2;
	}
	watch = !strcmp(argv[1], "watch");
	if (!mkdtemp(dir))
		return 1;
	snprintf(env, sizeof env, "XDG_RUNTIME_DIR=%s", dir);
	for (int i = 4; i < argc; i++) {
		FILE *f;
		snprintf(path, sizeof path, "%s/.xrun-w.%s.%s", dir, TOKEN,
			 argv[i]);
		if ((f = fopen(path, "w")))
			fclose(f);
	}
	loop[0] = "sh";
	loop[1] = "-c";
	loop[2] = counters_sampler_script();
	loop[3] = "sh";
	loop[4] = "";
	loop[5] = "c";
	loop[6] = argv[3];
	loop[7] = watch ? TOKEN : "";
	loop[8] = NULL;
	o.argv = loop;
	o.env = envv;
	o.timeout = atof(argv[2]);
	o.grace = 0.5;
	before = cpu_children();
	if (proc_run(&o, &r, &e) < 0) {
		fprintf(stderr, "run: %s\n", e.msg);
		return 1;
	}
	used = cpu_children() - before;
	for (const char *p = r.out; p && (p = strstr(p, "@@ xrun-sample-end"));
	     p++)
		frames++;
	if (r.out && sampler_far_engine("far", r.out, &set) == 0 &&
	    (c = series_set_find(&set, "far", "engine.cpu")))
		for (size_t i = 0; i < c->n; i++)
			if (isfinite(c->v[i])) {
				sum += c->v[i];
				n++;
			}
	printf("%s %d %.3f %d %.1f\n", argv[1], frames,
	       frames ? used * 1e3 / frames : NAN, n, n ? sum / n : NAN);
	proc_result_release(&r);
	series_set_release(&set);
	for (int i = 4; i < argc; i++) {
		snprintf(path, sizeof path, "%s/.xrun-w.%s.%s", dir, TOKEN,
			 argv[i]);
		unlink(path);
	}
	rmdir(dir);
	return 0;
}
