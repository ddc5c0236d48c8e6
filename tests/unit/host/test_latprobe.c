/*
 * The latency probe (latprobe.h): its parser on recorded iputils ping
 * output (tests/data/ping, README there), checked against ping's own
 * statistics lines; the summary's quantiles, phases and loss on replies
 * whose answers were worked out by hand and with python3's statistics
 * module; the unwrapping of icmp_seq; and a real ping on this machine's
 * loopback, started, marked and stopped like a run.
 *
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "host.h"
#include "latprobe.h"
#include "proc.h"
#include "tap.h"

struct replies {
	double ts[256], rtt[256];
	long long seq[256];
	size_t n, other;
};

static int read_file(const char *name, struct replies *r)
{
	struct buf path = BUF_INIT, b = BUF_INIT;
	char *line, *save = NULL;
	int rc;
	buf_addf(&path, "%s/tests/data/ping/%s", XRUN_SOURCE_DIR, name);
	rc = buf_read_file(&b, path.s, 0);
	buf_release(&path);
	memset(r, 0, sizeof *r);
	if (rc < 0)
		return rc;
	for (line = strtok_r(b.s, "\n", &save); line && r->n < 256;
	     line = strtok_r(NULL, "\n", &save)) {
		struct latprobe_reply x;
		if (!latprobe_parse_ping_line(line, &x)) {
			r->other++;
			continue;
		}
		r->ts[r->n] = x.ts;
		r->rtt[r->n] = x.rtt;
		r->seq[r->n] =
		    latprobe_unwrap(r->n ? r->seq[r->n - 1] : -1, x.seq);
		r->n++;
	}
	buf_release(&b);
	return 0;
}

static void test_recorded(void)
{
	struct replies r;
	struct latprobe_summary s;
	double sum = 0, lo = INFINITY, hi = 0, t[256], t0 = 0, end = 0;
	size_t i;

	ok(read_file("lab-20mbit-cubic.txt", &r) == 0, "read the lab file");
	/* ping's statistics: 59 received, min/avg/max 0.031/21.522/56.995;
	 * its reply lines round to 3 digits (57.0 ms, 0.044 ms), so the
	 * mean and max of the lines agree within 0.05 ms */
	is_int((long long)r.n, 59, "replies in the lab file");
	for (i = 0; i < r.n; i++) {
		sum += r.rtt[i];
		lo = r.rtt[i] < lo ? r.rtt[i] : lo;
		hi = r.rtt[i] > hi ? r.rtt[i] : hi;
	}
	is_near(sum / (double)r.n * 1e3, 21.522, 0.05, "mean rtt, ms");
	is_near(lo * 1e3, 0.031, 1e-9, "min rtt, ms");
	is_near(hi * 1e3, 56.995, 0.05, "max rtt, ms");
	is_int(r.seq[0], 1, "first icmp_seq");
	is_int(r.seq[58], 59, "last icmp_seq");
	is_near(r.ts[0], 1796173229.812598, 1e-6, "the -D stamp");
	/* banner, blank line, 2 statistics lines: not replies */
	is_int((long long)r.other, 4, "other lines");

	/* The load from the send time of seq 21 to that of seq 51; expected
	 * values from python3: statistics.median, statistics.quantiles(
	 * n=100, method="inclusive") (type 7) of the same replies. */
	for (i = 0; i < r.n; i++) {
		t[i] = r.ts[i] - r.rtt[i];
		if (r.seq[i] == 21)
			t0 = t[i];
		if (r.seq[i] == 51)
			end = t[i];
	}
	end -= t0;
	for (i = 0; i < r.n; i++)
		t[i] -= t0;
	latprobe_summarise(t, r.rtt, r.seq, r.n, end, 0.1, &s);
	is_int((long long)s.n_idle, 20, "idle replies");
	is_int((long long)s.n_loaded, 31, "loaded replies");
	is_near(s.idle_p50, 4.95e-05, 1e-12, "idle p50");
	is_near(s.loaded_p50, 0.0419, 1e-12, "loaded p50");
	is_near(s.loaded_p90, 0.0529, 1e-12, "loaded p90");
	is_near(s.loaded_p99, 0.05607, 1e-12, "loaded p99");
	is_near(s.increase_p50, 0.0419 - 4.95e-05, 1e-12, "increase p50");
	is_near(s.loss, 0, 0, "no loss (59 of 59 received)");
	ok(s.sent_loaded >= 18 && s.sent_loaded <= 21,
	   "probes of the loaded phase's first 2.03 s: %zu", s.sent_loaded);

	ok(read_file("unreachable.txt", &r) == 0, "read unreachable.txt");
	is_int((long long)r.n, 0, "no reply in unreachable.txt");
	is_int((long long)r.other, 10, "its lines: banner, 6 errors, stats");
	ok(read_file("loopback.txt", &r) == 0, "read loopback.txt");
	is_int((long long)r.n, 10, "loopback: 10 received (its statistics)");
}

static void test_lines(void)
{
	struct latprobe_reply x;
	ok(latprobe_parse_ping_line("[1796173229.916968] 64 bytes from "
				    "198.18.0.2: icmp_seq=2 ttl=64 "
				    "time=0.056 ms (DUP!)",
				    &x) == 1 &&
	       x.dup && x.seq == 2,
	   "a duplicate is a reply marked dup");
	ok(latprobe_parse_ping_line("64 bytes from 127.0.0.1: icmp_seq=7 "
				    "ttl=64 time=12.5 ms",
				    &x) == 1 &&
	       x.ts == 0 && fabs(x.rtt - 0.0125) < 1e-15 && !x.dup,
	   "a reply without -D: ts 0");
	ok(!latprobe_parse_ping_line("[1796173238.989434] From 10.99.0.1 "
				     "icmp_seq=1 Destination Host "
				     "Unreachable",
				     &x),
	   "an error line is no reply");
	ok(!latprobe_parse_ping_line("64 bytes from 1.2.3.4: icmp_seq=70000 "
				     "ttl=1 time=1 ms",
				     &x),
	   "icmp_seq above 65535 is refused");
	ok(!latprobe_parse_ping_line("[12x] 64 bytes from 1.2.3.4: "
				     "icmp_seq=1 ttl=1 time=1 ms",
				     &x),
	   "a broken stamp is refused");
	ok(!latprobe_parse_ping_line("[1e300] 64 bytes from 1.2.3.4: "
				     "icmp_seq=1 ttl=1 time=1 ms",
				     &x) &&
	       !latprobe_parse_ping_line("[inf] 64 bytes from 1.2.3.4: "
					 "icmp_seq=1 ttl=1 time=1 ms",
					 &x) &&
	       !latprobe_parse_ping_line("64 bytes from 1.2.3.4: "
					 "icmp_seq=1 ttl=1 time=nan ms",
					 &x),
	   "a stamp or time that is no time (1e300, inf, nan) is refused");
}

/* 20 probes 0.1 s apart from t = -0.55, seq 65530.. (wrapping after 5),
 * rtt k+1 ms; replies 2, 8 and 9 lost. By hand: idle 1,2,4,5,6 ms ->
 * p50 4; loaded 7,8,11..20 ms -> type-7 p50 14.5, p90 18.9, p99 19.89
 * (python3 statistics.quantiles, inclusive, agrees); end 1.6 s -> the
 * wait is 0.8 s, the probes sent in [0, 0.8] are k = 6..13: 2 of 8
 * lost. */
static void test_summary(void)
{
	double t[20], rtt[20];
	long long seq[20], prev = -1;
	struct latprobe_summary s;
	size_t n = 0;
	for (int k = 0; k < 20; k++) {
		long long u =
		    latprobe_unwrap(prev, (unsigned)((65530 + k) % 65536));
		prev = u;
		if (k == 2 || k == 8 || k == 9)
			continue;
		t[n] = -0.55 + 0.1 * k;
		rtt[n] = (k + 1) / 1e3;
		seq[n++] = u;
	}
	is_int(seq[n - 1], 65530 + 19, "seq unwrapped past 65535");
	is_int(latprobe_unwrap(65536, 65535), 65535, "a late reply");
	is_int(latprobe_unwrap(-1, 3), 3, "the first");
	latprobe_summarise(t, rtt, seq, n, 1.6, 0.1, &s);
	is_int((long long)s.n_idle, 5, "idle replies");
	is_int((long long)s.n_loaded, 12, "loaded replies");
	is_near(s.idle_p50, 0.004, 1e-12, "idle p50");
	is_near(s.loaded_p50, 0.0145, 1e-12, "loaded p50");
	is_near(s.loaded_p90, 0.0189, 1e-12, "loaded p90");
	is_near(s.loaded_p99, 0.01989, 1e-12, "loaded p99");
	is_near(s.increase_p50, 0.0105, 1e-12, "increase");
	is_int((long long)s.sent_loaded, 8, "probes sent in the loss window");
	is_int((long long)s.lost_loaded, 2, "lost");
	is_near(s.loss, 0.25, 1e-12, "loss");
	latprobe_summarise(t, rtt, seq, 0, 1.6, 0.1, &s);
	ok(isnan(s.idle_p50) && isnan(s.loaded_p50) && isnan(s.loss),
	   "no reply: no value");
}

static void test_live(void)
{
	struct plan_host ph;
	struct host *h = NULL;
	struct latprobe *p = NULL;
	struct series_set set = {0};
	struct latprobe_summary s;
	struct xr_err err = {0};
	const struct series *rtt;

	if (!proc_which("ping")) {
		tap_skip("no ping (Debian: iputils-ping)");
		return;
	}
	memset(&ph, 0, sizeof ph);
	ph.name = "client";
	ok(host_open(&ph, "/tmp", &h, &err) == 0, "open the local host");
	ok(latprobe_start(h, NULL, "client", "ping", "127.0.0.1", 0.05, 30, &p,
			  &err) == 0,
	   "start ping: %s", err.msg);
	proc_sleep(0.5);
	ok(latprobe_check(p, &err) == 0, "replies in the idle phase: %s",
	   err.msg);
	latprobe_mark(p);
	proc_sleep(0.5);
	latprobe_stop(p, &set, &s);
	rtt = series_set_find(&set, "client", "latency.rtt");
	ok(rtt && rtt->n >= 10 && !strcmp(rtt->unit, "s"),
	   "latency.rtt series with points: %zu", rtt ? rtt->n : 0);
	ok(s.n_idle >= 4 && s.n_loaded >= 4, "both phases: %zu + %zu", s.n_idle,
	   s.n_loaded);
	ok(s.loaded_p50 > 0 && s.loaded_p50 < 0.005, "loopback p50 %g s",
	   s.loaded_p50);
	is_near(s.loss, 0, 0, "no loss on loopback");
	series_set_release(&set);

	/* ping exits at once: the check says why */
	ok(latprobe_start(h, NULL, "client", "ping", "nosuch.invalid", 0.05, 30,
			  &p, &err) == 0,
	   "start ping to a name that does not resolve");
	proc_sleep(0.3);
	memset(&err, 0, sizeof err);
	ok(latprobe_check(p, &err) < 0 && strstr(err.msg, "ended before") &&
	       strstr(err.msg, "nosuch.invalid"),
	   "the check fails with ping's words: %s", err.msg);
	latprobe_stop(p, &set, &s);
	series_set_release(&set);
	ok(latprobe_start(h, NULL, "client", "udp", "127.0.0.1", 0.05, 30, &p,
			  &err) < 0,
	   "an unknown probe is refused");
	{
		/* no ping on PATH: the start says so, naming the probe */
		char *path = strdup(getenv("PATH") ? getenv("PATH") : "");
		setenv("PATH", "/nonexistent", 1);
		memset(&err, 0, sizeof err);
		ok(latprobe_start(h, NULL, "client", "ping", "127.0.0.1", 0.05,
				  30, &p, &err) < 0 &&
		       strstr(err.msg, "latency probe 'ping' from 'client' "
				       "to 127.0.0.1: cannot execute 'ping'"),
		   "no ping: %s", err.msg);
		setenv("PATH", path, 1);
		free(path);
	}
	host_close(h);
}

int main(void)
{
	tap_plan(53);
	test_recorded();
	test_lines();
	test_summary();
	test_live();
	return tap_done();
}
