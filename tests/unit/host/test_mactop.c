/* macOS top's lines (mactop.h) against tests/data/macos/top_l0_s1.txt,
 * which top_gen.py builds from Apple's top source (see the README there):
 * the unpadded hundredths read as hundredths, malformed CPU lines
 * refused, the load average line; then the sampler's macOS path end to
 * end: a host with os: macos in a network namespace whose stand-in `top`
 * (first on our PATH) checks its arguments and prints the recording, so
 * that cpu.all.busy is the recording's samples after the first.
 *
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buf.h"
#include "host.h"
#include "mactop.h"
#include "plan.h"
#include "proc.h"
#include "sampler.h"
#include "series.h"
#include "tap.h"

/* python3 tests/data/macos/top_gen.py --expect */
static const double busy_want[] = {8.24, 74.38, 0.98};

static const char *src_dir(void)
{
	const char *src = getenv("XRUN_SOURCE_DIR");
	return src ? src : XRUN_SOURCE_DIR;
}

static void test_recording(void)
{
	char path[512];
	struct buf b = BUF_INIT;
	size_t ncpu = 0, nload = 0, bad = 0;
	double la[3] = {0, 0, 0};
	char *line, *save = NULL;

	snprintf(path, sizeof path, "%s/tests/data/macos/top_l0_s1.txt",
		 src_dir());
	ok(buf_read_file(&b, path, 0) == 0, "read %s", path);
	for (line = b.s ? strtok_r(b.s, "\n", &save) : NULL; line;
	     line = strtok_r(NULL, "\n", &save)) {
		struct mactop_cpu c;
		int r = mactop_cpu_line(line, strlen(line), &c);
		bad += r < 0;
		if (r == 1 && ncpu >= 1 && ncpu <= 3)
			is_near(c.busy, busy_want[ncpu - 1], 1e-9,
				"a sample's busy (user + sys)");
		if (r == 1 && ncpu == 1) {
			is_near(c.user, 5.04, 1e-9, "\"5.4%\" user is 5.04");
			is_near(c.sys, 3.20, 1e-9, "sys 3.20");
			is_near(c.idle, 91.74, 1e-9, "idle 91.74");
		}
		ncpu += r == 1;
		if (mactop_load_line(line, strlen(line), la) == 1 &&
		    nload++ == 2) {
			is_near(la[0], 2.01, 1e-9, "third load 1 min");
			is_near(la[2], 1.56, 1e-9, "third load 15 min");
		}
	}
	is_int((long long)ncpu, 4, "four CPU usage lines");
	is_int((long long)nload, 4, "four Load Avg lines");
	is_int((long long)bad, 0, "no line refused");
	buf_release(&b);
}

static void test_lines(void)
{
	static const struct {
		const char *line;
		int want;
		double busy;
	} c[] = {
	    /* hvwait on: "; W.P% ivw " after idle (globalstats.c) */
	    {"CPU usage: 5.4% user, 3.20% sys, 91.74% idle; 0.0% ivw ", 1,
	     8.24},
	    {"CPU usage: 100.0% user, 0.0% sys, 0.0% idle ", 1, 100},
	    {"CPU usage: 0.0% user, 0.0% sys, 100.0% idle", 1, 0},
	    /* read as decimals "5.5"+"3.2"+"91.3" is 100.0; as top prints
	     * them it is 5.05+3.02+91.03 = 99.10: not top's line */
	    {"CPU usage: 5.5% user, 3.2% sys, 91.3% idle ", -1, 0},
	    {"CPU usage: 5.4% user, 3.20% sys ", -1, 0},
	    {"CPU usage: 5.100% user, 3.20% sys, 91.74% idle ", -1, 0},
	    {"CPU usage: 101.0% user, 0.0% sys, 0.0% idle ", -1, 0},
	    {"CPU usage: 5% user, 3.20% sys, 91.74% idle ", -1, 0},
	    {"CPU usage: 99999999999999999999999.0% user, 0.0% sys, 0.0% "
	     "idle ",
	     -1, 0},
	    {"CPU usage:", -1, 0},
	    {"Processes: 512 total, 3 running, 509 sleeping, 2417 threads ", 0,
	     0},
	    {"", 0, 0},
	};
	for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
		struct mactop_cpu m = {0};
		int r = mactop_cpu_line(c[i].line, strlen(c[i].line), &m);
		is_int(r, c[i].want, c[i].line);
		if (r == 1)
			is_near(m.busy, c[i].busy, 1e-9, c[i].line);
	}
	{
		double la[3];
		const char *l = "Load Avg: 1.84, 1.62 ";
		is_int(mactop_load_line(l, strlen(l), la), -1,
		       "two load averages refused");
		l = "Load Avg: 1.8, 1.62, 1.55 ";
		is_int(mactop_load_line(l, strlen(l), la), -1,
		       "one decimal refused (%.2f)");
	}
}

/* The stand-in top: its arguments must be the sampler's; it waits for
 * DIR/go (made after the mark) so that every point falls after it, prints
 * the recording and waits to be stopped. */
static int write_fake_top(const char *dir)
{
	char fake[600];
	FILE *f;
	snprintf(fake, sizeof fake, "%s/top", dir);
	f = fopen(fake, "w");
	if (!f)
		return -1;
	fprintf(f,
		"#!/bin/sh\n"
		"[ \"$*\" = '-l 0 -s 1 -n 0' ] || { echo \"args: $*\" >&2; "
		"exit 9; }\n"
		"while [ ! -e '%s/go' ]; do sleep 0.05; done\n"
		"cat '%s/tests/data/macos/top_l0_s1.txt'\n"
		"exec sleep 300\n",
		dir, src_dir());
	fclose(f);
	return chmod(fake, 0755);
}

/* Peek until n points of cpu.all.busy came (or 60 s: a failure). */
static size_t wait_points(struct sampler *s, size_t n, struct series_set *got)
{
	double end = proc_now_mono() + 60;
	const struct series *se = NULL;
	while (proc_now_mono() < end) {
		struct series_set one = {0};
		if (sampler_peek_new(s, &one) < 0 ||
		    series_set_take(got, &one) < 0)
			break;
		series_set_release(&one);
		se = series_set_find(got, "mac", "cpu.all.busy");
		if (se && se->n >= n)
			break;
		proc_sleep(0.05);
	}
	return se ? se->n : 0;
}

static void sample_mac(const char *ns, const char *dir)
{
	struct plan_host ph = {0};
	struct host *h = NULL;
	struct sampler *s = NULL;
	struct series_set got = {0}, all = {0};
	struct xr_err err = {0};
	const struct series *se;
	char go[600];
	FILE *f;

	ph.name = "mac";
	ph.netns = (char *)ns;
	ph.os = PLAN_OS_MACOS;
	ok(host_open(&ph, NULL, &h, &err) == 0, "open the macOS host: %s",
	   err.msg);
	if (!h)
		return;
	ok(sampler_start(h, "mac", "en0", PLAN_COUNTER_NIC, 0.4, 60, &s, &err) <
		   0 &&
	       strstr(err.msg, "CPU busy only"),
	   "no cpu in counters: refused (%s)", err.msg);
	memset(&err, 0, sizeof err);
	ok(sampler_start(h, "mac", "en0", PLAN_COUNTER_NIC | PLAN_COUNTER_CPU,
			 0.4, 60, &s, &err) == 0,
	   "start the macOS sampler: %s", err.msg);
	sampler_mark(s);
	snprintf(go, sizeof go, "%s/go", dir);
	if ((f = fopen(go, "w")))
		fclose(f);
	is_int((long long)wait_points(s, 3, &got), 3,
	       "three points: the first line dropped");
	sampler_stop(s, &all);
	se = series_set_find(&all, "mac", "cpu.all.busy");
	ok(se && se->n == 3 && !strcmp(se->unit, "%"), "cpu.all.busy in %%");
	for (size_t k = 0; se && k < se->n && k < 3; k++) {
		is_near(se->v[k], busy_want[k], 1e-9, "a point's value");
		ok(se->t[k] >= 0, "point %zu after the mark (t %.3f)", k,
		   se->t[k]);
	}
	ok(all.n == 1, "no other series (%zu)", all.n);
	ok(strstr(all.note, "host-wide cpu.all.busy only, from top every 1 s"),
	   "the note says so: %s", all.note);
	ok(strstr(all.note, "nic and tcp are read before and after"),
	   "and what is not sampled");
	series_set_release(&got);
	series_set_release(&all);
	host_close(h);
	/* A Windows host samples with Get-Counter (test_winctr.c), never
	 * with the sh loop: with tcp alone there is nothing it reads. */
	h = NULL;
	ph.name = "win";
	ph.os = PLAN_OS_WINDOWS;
	memset(&err, 0, sizeof err);
	ok(host_open(&ph, NULL, &h, &err) == 0, "open the Windows host: %s",
	   err.msg);
	s = NULL;
	ok(h &&
	       sampler_start(h, "win", "Ethernet", PLAN_COUNTER_TCP, 0.4, 60,
			     &s, &err) < 0 &&
	       strstr(err.msg, "host 'win' (Windows): the sampler reads CPU "
			       "time") &&
	       !s,
	   "a Windows host with tcp only: no sampler, and why (%s)", err.msg);
	host_close(h);
}

static void test_sampler_netns(void)
{
	char dir[256], ns[32], cmd[1400];
	const char *old_path = getenv("PATH");

	if (geteuid() != 0) {
		tap_skip("the macOS sampler test needs root (a namespace)");
		return;
	}
	snprintf(dir, sizeof dir, "/tmp/xr-mactop-XXXXXX");
	snprintf(ns, sizeof ns, "xrmac%d", (int)getpid() % 100000);
	snprintf(cmd, sizeof cmd, "ip netns add %s", ns);
	if (!mkdtemp(dir) || system(cmd) != 0) {
		tap_skip("cannot create a namespace");
		return;
	}
	if (write_fake_top(dir) == 0) {
		snprintf(cmd, sizeof cmd, "%s:%s", dir,
			 old_path ? old_path : "");
		setenv("PATH", cmd, 1);
		sample_mac(ns, dir);
	} else {
		ok(0, "write the stand-in top in %s", dir);
	}
	snprintf(cmd, sizeof cmd, "ip netns del %s; rm -rf '%s'", ns, dir);
	if (system(cmd) != 0)
		fprintf(stderr, "# cleanup failed: %s\n", cmd);
}

int main(void)
{
	test_recording();
	test_lines();
	test_sampler_netns();
	return tap_done();
}
