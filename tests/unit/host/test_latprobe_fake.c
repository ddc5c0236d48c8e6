/* The latency probe's own reading of replies (runner/host/latprobe.c:
 * take_lines, send_times) through a stand-in for ping, first on PATH
 * (fault injection: known replies at moments the test picks; named
 * "fake ping" wherever it shows). It prints, with ping -D's stamps from
 * `date` (logged in its folder, so that this test knows them):
 *   seq 1, 0.1 ms, at once (the idle phase: the test waits 1 s, then
 *     marks the engine's start and lets it go on);
 *   seq 2, 800 ms, right after the mark: its probe was sent 0.8 s before
 *     the reply came, before the mark: an idle probe whose reply arrived
 *     under load;
 *   0.1 s later seq 3 at 2 ms, a duplicate of seq 3 at 900 ms "(DUP!)",
 *     and seq 4 at 4 ms.
 * By hand: idle replies 0.1 and 800 ms, p50 (0.1 + 800) / 2 = 400.05 ms;
 * loaded 2 and 4 ms (the duplicate left out), type-7 p50 3 ms, p90 2 +
 * 0.9 * 2 = 3.8 ms, p99 2 + 0.99 * 2 = 3.98 ms; increase 3 - 400.05 =
 * -397.05 ms. Each latency.rtt point is at its probe's send time: the
 * differences between points are the stamps' minus the RTTs' (one
 * offset moves every stamp to our clock), computed here from the log.
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
#include "latprobe.h"
#include "plan.h"
#include "proc.h"
#include "series.h"
#include "tap.h"

static char dir[] = "/tmp/xr-fakeping-XXXXXX";

static int write_fake(void)
{
	char path[256];
	FILE *f;
	snprintf(path, sizeof path, "%s/ping", dir);
	if (!(f = fopen(path, "w")))
		return -1;
	fprintf(f,
		"#!/bin/sh\n"
		"# fake ping of unit/test_latprobe_fake: known replies\n"
		"d='%s'\n"
		"st() { date +%%s.%%N | cut -c1-17; }\n"
		"say() { echo \"$1\"; echo \"$1\" >>\"$d/log\"; }\n"
		"say 'PING 127.0.0.1 (127.0.0.1) 56(84) bytes of data.'\n"
		"b='64 bytes from 127.0.0.1: icmp_seq='\n"
		"say \"[$(st)] ${b}1 ttl=64 time=0.100 ms\"\n"
		"while [ ! -e \"$d/go\" ]; do sleep 0.01; done\n"
		"say \"[$(st)] ${b}2 ttl=64 time=800 ms\"\n"
		"sleep 0.1\n"
		"say \"[$(st)] ${b}3 ttl=64 time=2.00 ms\"\n"
		"say \"[$(st)] ${b}3 ttl=64 time=900 ms (DUP!)\"\n"
		"say \"[$(st)] ${b}4 ttl=64 time=4.00 ms\"\n"
		": >\"$d/done\"\n"
		"exec sleep 60\n",
		dir);
	fclose(f);
	return chmod(path, 0755);
}

static void touch(const char *name)
{
	char path[256];
	FILE *f;
	snprintf(path, sizeof path, "%s/%s", dir, name);
	if ((f = fopen(path, "w")))
		fclose(f);
}

static int exists(const char *name)
{
	char path[256];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	return access(path, F_OK) == 0;
}

/* The replies the fake printed (its log), duplicates left out: their
 * stamps and RTTs. */
static size_t logged(double *ts, double *rtt, size_t cap)
{
	struct buf path = BUF_INIT, b = BUF_INIT;
	size_t n = 0;
	char *line, *save = NULL;
	buf_addf(&path, "%s/log", dir);
	if (buf_read_file(&b, path.s, 0) == 0)
		for (line = strtok_r(b.s, "\n", &save); line && n < cap;
		     line = strtok_r(NULL, "\n", &save)) {
			struct latprobe_reply r;
			if (latprobe_parse_ping_line(line, &r) && !r.dup) {
				ts[n] = r.ts;
				rtt[n++] = r.rtt;
			}
		}
	buf_release(&path);
	buf_release(&b);
	return n;
}

static void run(struct host *h)
{
	struct latprobe *p = NULL;
	struct series_set set = {0};
	struct latprobe_summary s;
	struct xr_err err = {0};
	const struct series *se;
	double ts[8], rtt[8], until;
	size_t n;

	ok(latprobe_start(h, NULL, "client", "ping", "127.0.0.1", 0.1, 60, &p,
			  &err) == 0,
	   "start the fake ping: %s", err.msg);
	if (!p)
		return;
	is_int(latprobe_wait_reply(p, 30), 0, "its first reply");
	proc_sleep(1.0); /* the idle phase */
	latprobe_mark(p);
	touch("go");
	until = proc_now_mono() + 30;
	while (!exists("done") && proc_now_mono() < until)
		proc_sleep(0.02);
	proc_sleep(0.3); /* the reader takes the last lines */
	latprobe_stop(p, &set, &s);

	is_int((long long)s.n_idle, 2,
	       "idle replies: seq 1 and seq 2 (its "
	       "probe sent before the mark)");
	is_int((long long)s.n_loaded, 2,
	       "loaded replies: seq 3 and 4, the "
	       "duplicate left out");
	is_near(s.idle_p50, 0.40005, 1e-12, "idle p50 (0.1 + 800) / 2 ms");
	is_near(s.loaded_p50, 0.003, 1e-12, "loaded p50 3 ms");
	is_near(s.loaded_p90, 0.0038, 1e-12, "loaded p90 3.8 ms");
	is_near(s.loaded_p99, 0.00398, 1e-12, "loaded p99 3.98 ms");
	is_near(s.increase_p50, 0.003 - 0.40005, 1e-12, "increase p50");

	se = series_set_find(&set, "client", "latency.rtt");
	n = logged(ts, rtt, 8);
	is_int((long long)n, 4, "the fake logged 4 replies and a duplicate");
	ok(se && se->n == 4, "latency.rtt: 4 points, no duplicate (%zu)",
	   se ? se->n : 0);
	for (size_t i = 1; se && se->n == 4 && n == 4 && i < 4; i++) {
		double want = (ts[i] - rtt[i]) - (ts[0] - rtt[0]);
		ok(fabs(se->t[i] - se->t[0] - want) <= 2e-6,
		   "point %zu at its send time, stamp - rtt: %.6f s after "
		   "point 1 (got %.6f)",
		   i + 1, want, se->t[i] - se->t[0]);
		ok(se->v[i] == rtt[i], "point %zu's value %g s", i + 1, rtt[i]);
	}
	ok(se && se->n == 4 && se->t[1] < 0,
	   "seq 2's point before the mark (t %.3f s)",
	   se && se->n == 4 ? se->t[1] : NAN);
	series_set_release(&set);
}

int main(void)
{
	struct plan_host ph;
	struct host *h = NULL;
	struct xr_err err = {0};
	char path[600], cmd[700];
	const char *old = getenv("PATH");

	tap_plan(19);
	if (!mkdtemp(dir) || write_fake() < 0) {
		ok(0, "write the fake ping in %s", dir);
		return tap_done();
	}
	snprintf(path, sizeof path, "%s:%s", dir, old ? old : "");
	setenv("PATH", path, 1);
	memset(&ph, 0, sizeof ph);
	ph.name = "client";
	ok(host_open(&ph, "/tmp", &h, &err) == 0, "open the local host");
	run(h);
	host_close(h);
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "# cleanup failed: %s\n", cmd);
	return tap_done();
}
