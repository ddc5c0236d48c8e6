/*
 * The irtt latency probe (latirtt.c, latprobe.h): its line parser on
 * recorded irtt 0.9.0 output (tests/data/irtt, README there), checked
 * against irtt's own statistics table at the end of each file; Go
 * durations in every unit irtt prints; hostile lines (bounded numbers);
 * the summary of the lab file's replies with two probes taken out (python3
 * statistics module for the expected quantiles); and a real irtt server
 * and client on loopback, started by the probe, the server on the next
 * port when 2112 is taken.
 *
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "host.h"
#include "latprobe.h"
#include "latprobe_int.h"
#include "plan.h"
#include "proc.h"
#include "tap.h"

struct replies {
	double rtt[128], sd[128], rd[128];
	long long seq[128];
	size_t n, other;
};

static int read_file(const char *name, struct replies *r)
{
	struct buf path = BUF_INIT, b = BUF_INIT;
	char *line, *save = NULL;
	int rc;
	buf_addf(&path, "%s/tests/data/irtt/%s", XRUN_SOURCE_DIR, name);
	rc = buf_read_file(&b, path.s, 0);
	buf_release(&path);
	memset(r, 0, sizeof *r);
	if (rc < 0)
		return rc;
	for (line = strtok_r(b.s, "\n", &save); line && r->n < 128;
	     line = strtok_r(NULL, "\n", &save)) {
		struct latprobe_reply x;
		if (!latprobe_parse_irtt_line(line, &x)) {
			r->other++;
			continue;
		}
		r->rtt[r->n] = x.rtt;
		r->sd[r->n] = x.send_delay;
		r->rd[r->n] = x.recv_delay;
		r->seq[r->n++] = x.seq;
	}
	buf_release(&b);
	return 0;
}

static double mean(const double *v, size_t n)
{
	double s = 0;
	for (size_t i = 0; i < n; i++)
		s += v[i];
	return s / (double)n;
}

static void test_recorded(void)
{
	struct replies r;
	double lo = INFINITY, hi = 0;
	size_t i;

	ok(read_file("loopback.txt", &r) == 0, "read loopback.txt");
	/* irtt's table: RTT min 119µs mean 148µs max 195µs; send delay
	 * mean 97.5µs; receive delay mean 50.8µs (the table and each line
	 * round to 3 significant digits, so the means agree within 0.5 µs) */
	is_int((long long)r.n, 10, "loopback: 10 replies (10/10 received)");
	for (i = 0; i < r.n; i++) {
		lo = r.rtt[i] < lo ? r.rtt[i] : lo;
		hi = r.rtt[i] > hi ? r.rtt[i] : hi;
	}
	is_near(lo, 119e-6, 1e-15, "min rtt");
	is_near(hi, 195e-6, 1e-15, "max rtt");
	is_near(mean(r.rtt, r.n), 148e-6, 0.5e-6, "mean rtt");
	is_near(mean(r.sd, r.n), 97.5e-6, 0.5e-6, "mean send delay");
	is_near(mean(r.rd, r.n), 50.8e-6, 0.5e-6, "mean receive delay");
	is_int(r.seq[0], 0, "first seq");
	is_int(r.seq[9], 9, "last seq");

	ok(read_file("lab-20mbit-cubic.txt", &r) == 0, "read the lab file");
	/* 60/60; RTT min 99.9µs mean 20.41ms max 51.49ms; send delay mean
	 * 20.25ms, receive delay mean 160µs */
	is_int((long long)r.n, 60, "lab: 60 replies");
	lo = INFINITY;
	hi = 0;
	for (i = 0; i < r.n; i++) {
		lo = r.rtt[i] < lo ? r.rtt[i] : lo;
		hi = r.rtt[i] > hi ? r.rtt[i] : hi;
	}
	is_near(lo, 99.9e-6, 1e-15, "lab min rtt (µs)");
	is_near(hi, 51.49e-3, 1e-15, "lab max rtt (ms)");
	is_near(mean(r.rtt, r.n), 20.41e-3, 0.005e-3, "lab mean rtt");
	is_near(mean(r.sd, r.n), 20.25e-3, 0.005e-3, "lab mean send delay");
	is_near(mean(r.rd, r.n), 160e-6, 1e-6, "lab mean receive delay");
	/* two banner lines, the blank and the table's lines */
	ok(r.other > 2, "the other lines are no replies: %zu", r.other);

	ok(read_file("no-server.txt", &r) == 0, "read no-server.txt");
	is_int((long long)r.n, 0, "no server: no reply");
}

static void test_lines(void)
{
	struct latprobe_reply x;
	ok(latprobe_parse_irtt_line("seq=7 rtt=1m2.5s rd=-3ms sd=1h ipdv=n/a "
				    "(LATE)",
				    &x) == 1 &&
	       x.seq == 7 && fabs(x.rtt - 62.5) < 1e-12 &&
	       fabs(x.recv_delay + 0.003) < 1e-15 &&
	       fabs(x.send_delay - 3600) < 1e-12 && x.ts == 0 && !x.dup,
	   "a late reply, minutes, hours, a negative one-way delay");
	ok(latprobe_parse_irtt_line("seq=4294967295 rtt=150ns ipdv=n/a", &x) ==
		   1 &&
	       x.seq == 4294967295U && fabs(x.rtt - 150e-9) < 1e-18 &&
	       isnan(x.send_delay) && isnan(x.recv_delay),
	   "no server timestamps: no one-way delays; the largest seq");
	ok(latprobe_parse_irtt_line(
	       "seq=1 rtt=2us rd=1\xce\xbcs sd=1us ipdv=0s", &x) == 1 &&
	       fabs(x.rtt - 2e-6) < 1e-18 && fabs(x.recv_delay - 1e-6) < 1e-18,
	   "us and the Greek mu");
	ok(!latprobe_parse_irtt_line("seq=4294967296 rtt=1ms ipdv=n/a", &x),
	   "a seq past irtt's uint32 is refused");
	ok(!latprobe_parse_irtt_line("DUP! seq=4", &x), "a duplicate");
	ok(!latprobe_parse_irtt_line("[Connecting] connecting to 1.2.3.4", &x),
	   "an event line");
	ok(!latprobe_parse_irtt_line("seq=1 rtt=1e300s ipdv=n/a", &x) &&
	       !latprobe_parse_irtt_line("seq=1 rtt=inf ipdv=n/a", &x) &&
	       !latprobe_parse_irtt_line("seq=1 rtt=nanms ipdv=n/a", &x) &&
	       !latprobe_parse_irtt_line("seq=1 rtt=-1ms ipdv=n/a", &x) &&
	       !latprobe_parse_irtt_line("seq=1 rtt=99999999999999999999h "
					 "ipdv=n/a",
					 &x) &&
	       !latprobe_parse_irtt_line("seq=1 rtt=1ms sd=1xs ipdv=n/a", &x) &&
	       !latprobe_parse_irtt_line("seq=1 rtt=1ms", &x) &&
	       !latprobe_parse_irtt_line("seq= rtt=1ms ipdv=n/a", &x),
	   "no time, a negative rtt, past 10^6 s, a bad unit, no ipdv, no "
	   "seq: refused");
}

/* The lab file's replies without seq 30 and 31, sent by the interval
 * (t = seq x 0.1 - 1.95 s), the load from t = 0 to 3: idle seq 0..19,
 * loaded 20..49 less the two; python3 statistics.median and
 * quantiles(n=100, method="inclusive") of the same values. Loss: the
 * probes sent in [0, 3 - 1] are seq 20..39, 2 of 20 lost. */
static void test_summary(void)
{
	struct replies r;
	double t[128], rtt[128];
	long long seq[128];
	struct latprobe_summary s;
	size_t n = 0;
	ok(read_file("lab-20mbit-cubic.txt", &r) == 0, "read the lab file");
	for (size_t i = 0; i < r.n; i++) {
		if (r.seq[i] == 30 || r.seq[i] == 31)
			continue;
		t[n] = (double)r.seq[i] * 0.1 - 1.95;
		rtt[n] = r.rtt[i];
		seq[n++] = r.seq[i];
	}
	latprobe_summarise(t, rtt, seq, n, 3.0, 0.1, &s);
	is_int((long long)s.n_idle, 20, "idle replies");
	is_int((long long)s.n_loaded, 28, "loaded replies");
	is_near(s.idle_p50, 0.000152, 1e-12, "idle p50");
	is_near(s.loaded_p50, 0.03923, 1e-12, "loaded p50");
	is_near(s.loaded_p90, 0.048809, 1e-12, "loaded p90");
	is_near(s.loaded_p99, 0.0507772, 1e-12, "loaded p99");
	is_int((long long)s.sent_loaded, 20, "probes in the loss window");
	is_int((long long)s.lost_loaded, 2, "lost");
	is_near(s.loss, 0.1, 1e-12, "loss");
}

static void test_live(void)
{
	struct plan_host ph;
	struct host *h = NULL;
	struct latprobe *p = NULL;
	struct proc *busy, *srv;
	struct series_set set = {0};
	struct latprobe_summary s;
	struct xr_err err = {0};
	const struct series *rtt, *sd, *rd;
	char target[64], first[64];

	if (!proc_which("irtt")) {
		tap_skip("no irtt (Debian: irtt)");
		return;
	}
	memset(&ph, 0, sizeof ph);
	ph.name = "client";
	ok(host_open(&ph, "/tmp", &h, &err) == 0, "open the local host");
	/* 2112 taken (by an irtt server of our own, or someone's): the
	 * probe's server goes to a later port */
	/* the busy one started as the probe's are, so that it listens
	 * before the next start (no sleep that a loaded machine outlasts) */
	busy =
	    latirtt_server_start(h, "127.0.0.1", 30, first, sizeof first, &err);
	ok(busy != NULL, "an irtt server of our own on %s", first);
	srv = latirtt_server_start(h, "127.0.0.1", 30, target, sizeof target,
				   &err);
	ok(srv && strncmp(target, "127.0.0.1:21", 12) == 0 &&
	       strcmp(target, "127.0.0.1:2112") != 0,
	   "2112 in use: the server is on %s (%s)", target, err.msg);
	proc_stop(srv);
	proc_stop(busy);
	/* the first free port now, which the probe's server takes */
	srv =
	    latirtt_server_start(h, "127.0.0.1", 30, first, sizeof first, &err);
	proc_stop(srv);

	ok(latprobe_start(h, h, "client", "irtt", "127.0.0.1", 0.05, 30, &p,
			  &err) == 0,
	   "start irtt with its server: %s", err.msg);
	proc_sleep(0.6);
	ok(latprobe_check(p, &err) == 0, "replies in the idle phase: %s",
	   err.msg);
	latprobe_mark(p);
	proc_sleep(0.5);
	latprobe_stop(p, &set, &s);
	rtt = series_set_find(&set, "client", "latency.rtt");
	sd = series_set_find(&set, "client", "latency.send_delay");
	rd = series_set_find(&set, "client", "latency.receive_delay");
	ok(rtt && rtt->n >= 10 && !strcmp(rtt->unit, "s"),
	   "latency.rtt with points: %zu", rtt ? rtt->n : 0);
	ok(sd && rd && sd->n == rtt->n && rd->n == rtt->n,
	   "one-way delays beside every rtt point");
	ok(s.n_idle >= 4 && s.n_loaded >= 4, "both phases: %zu + %zu", s.n_idle,
	   s.n_loaded);
	ok(s.loaded_p50 > 0 && s.loaded_p50 < 0.005, "loopback p50 %g s",
	   s.loaded_p50);
	is_near(s.loss, 0, 0, "no loss on loopback");
	series_set_release(&set);
	/* the probe's server is gone with it: its port is free again */
	srv = latirtt_server_start(h, "127.0.0.1", 30, target, sizeof target,
				   &err);
	is_str(target, first, "the probe's server stopped: its port is free");
	proc_stop(srv);

	/* an address with no server (none started: to is NULL): the check
	 * says what irtt said */
	ok(latprobe_start(h, NULL, "client", "irtt", "127.0.0.1:1", 0.05, 30,
			  &p, &err) == 0,
	   "start irtt toward a port with no server");
	proc_sleep(0.5);
	memset(&err, 0, sizeof err);
	ok(latprobe_check(p, &err) < 0 && strstr(err.msg, "ended before") &&
	       strstr(err.msg, "connection refused"),
	   "the check fails with irtt's words: %s", err.msg);
	latprobe_stop(p, &set, &s);
	series_set_release(&set);
	host_close(h);
}

int main(void)
{
	tap_plan(49);
	test_recorded();
	test_lines();
	test_summary();
	test_live();
	return tap_done();
}
