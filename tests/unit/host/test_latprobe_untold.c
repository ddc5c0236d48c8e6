/*
 * What a probe's output must tell before its loss is believed
 * (runner/host/latprobe.c, untrusted; issue 40), through stand-ins for
 * ping and irtt first on PATH (fault injection, as
 * unit/test_latprobe_fake: known lines at moments the test picks).
 *
 * ping: the fake prints, like iputils ping -O, a "no answer yet" line
 * for a probe not answered, but only when it was given -O (without it
 * ping tells nothing of a lost probe). After the mark it tells seq 2 to
 * on, one a 0.1 s until it is stopped, stamped (-D) as it prints:
 * replies but for seq 5 and 9 ("no answer yet") and seq 20, of which it
 * prints nothing (as of the probe in flight at a stop: the docs allow
 * one untold). By hand: of the N probes sent in the loss window (N >=
 * 20: seq 2 to 21 at least, as the test stops it 1.1 s after seq 21),
 * 3 have no reply (5, 9, 20): loss 3 / N, and N - 1 are told: the
 * latency is known.
 *
 * irtt: prints nothing for a lost packet (it tells only replies), so a
 * gap in its output is loss, not a stall. After the mark seq 2 to 6 a
 * 0.1 s, then nothing for 3 s (more than the 2 s a ping may stay
 * silent: 1 s + 3 x 0.1 s, 1 s at least), then seq 37 on until it is
 * stopped (1.1 s after seq 46): by hand, of the N probes sent in the
 * loss window (N >= 45: seq 2 to 46 at least), 30 are lost (7..36):
 * loss 30 / N.
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
#include "latprobe.h"
#include "plan.h"
#include "proc.h"
#include "series.h"
#include "tap.h"

static char dir[] = "/tmp/xr-untold-XXXXXX";

static const char ping_sh[] =
    "# fake ping of unit/test_latprobe_untold\n"
    "O=0\n"
    "for a; do [ \"$a\" = -O ] && O=1; done\n"
    "st() { date +%s.%N | cut -c1-17; }\n"
    "echo 'PING 127.0.0.1 (127.0.0.1) 56(84) bytes of data.'\n"
    "b='64 bytes from 127.0.0.1: icmp_seq='\n"
    "echo \"[$(st)] ${b}1 ttl=64 time=1.00 ms\"\n"
    "while [ ! -e \"$d/go\" ]; do sleep 0.01; done\n"
    "for k in $(seq 2 600); do\n"
    "  sleep 0.1\n"
    "  t=$(st)\n"
    "  case $k in\n"
    "  5|9) [ $O = 1 ] && echo \"[$t] no answer yet for icmp_seq=$k\" ;;\n"
    "  20) ;;\n"
    "  *) echo \"[$t] ${b}$k ttl=64 time=1.00 ms\" ;;\n"
    "  esac\n"
    "  [ $k = 21 ] && : >\"$d/done\"\n"
    "done\n";

static const char irtt_sh[] =
    "# fake irtt of unit/test_latprobe_untold\n"
    "echo '[Connecting] connecting to 127.0.0.1'\n"
    "echo 'seq=1 rtt=1ms rd=500µs sd=500µs ipdv=n/a'\n"
    "while [ ! -e \"$d/go\" ]; do sleep 0.01; done\n"
    "for k in 2 3 4 5 6; do sleep 0.1; "
    "echo \"seq=$k rtt=1ms rd=500µs sd=500µs ipdv=0s\"; done\n"
    "sleep 3\n"
    "for k in $(seq 37 600); do sleep 0.1; "
    "echo \"seq=$k rtt=1ms rd=500µs sd=500µs ipdv=0s\"; "
    "[ $k = 46 ] && : >\"$d/done\"; done\n";

static int write_fake(const char *name, const char *body)
{
	char path[256];
	FILE *f;
	snprintf(path, sizeof path, "%s/%s", dir, name);
	if (!(f = fopen(path, "w")))
		return -1;
	fprintf(f, "#!/bin/sh\nd='%s'\n", dir);
	fputs(body, f);
	fclose(f);
	return chmod(path, 0755);
}

static void file_op(const char *name, int make)
{
	char path[256];
	FILE *f;
	snprintf(path, sizeof path, "%s/%s", dir, name);
	if (!make)
		unlink(path);
	else if ((f = fopen(path, "w")))
		fclose(f);
}

static int exists(const char *name)
{
	char path[256];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	return access(path, F_OK) == 0;
}

/* Run probe through its idle phase, the fake's loaded lines and 1.1 s
 * more (less than the 2 s of silence that makes a ping stalled; more
 * than the 1 s reply wait, so that every probe the fake told was sent
 * inside the loss window [0, end - 1 s]). */
static int run(struct host *h, const char *probe, struct latprobe_summary *s)
{
	struct latprobe *p = NULL;
	struct series_set set = {0};
	struct xr_err err = {0};
	double until;
	file_op("go", 0);
	file_op("done", 0);
	if (latprobe_start(h, NULL, "client", probe, "127.0.0.1", 0.1, 60, &p,
			   &err) < 0 ||
	    !p) {
		fprintf(stderr, "# start %s: %s\n", probe, err.msg);
		return -1;
	}
	if (latprobe_wait_reply(p, 30) != 0)
		fprintf(stderr, "# no first reply from the fake %s\n", probe);
	proc_sleep(1.0); /* the idle phase */
	latprobe_mark(p);
	file_op("go", 1);
	until = proc_now_mono() + 60;
	while (!exists("done") && proc_now_mono() < until)
		proc_sleep(0.02);
	proc_sleep(1.1);
	latprobe_stop(p, &set, s);
	series_set_release(&set);
	return 0;
}

int main(void)
{
	struct plan_host ph;
	struct host *h = NULL;
	struct xr_err err = {0};
	struct latprobe_summary s;
	char path[600], cmd[700];
	const char *old = getenv("PATH");

	tap_plan(12);
	if (!mkdtemp(dir) || write_fake("ping", ping_sh) < 0 ||
	    write_fake("irtt", irtt_sh) < 0) {
		ok(0, "write the fakes in %s", dir);
		return tap_done();
	}
	snprintf(path, sizeof path, "%s:%s", dir, old ? old : "");
	setenv("PATH", path, 1);
	memset(&ph, 0, sizeof ph);
	ph.name = "client";
	ok(host_open(&ph, "/tmp", &h, &err) == 0, "open the local host");

	memset(&s, 0, sizeof s);
	ok(run(h, "ping", &s) == 0, "the fake ping ran");
	is_int(s.unknown, 0,
	       "ping: all but one probe told (in flight): latency known");
	ok(s.sent_loaded >= 20, "ping: at least 20 probes sent loaded (%zu)",
	   s.sent_loaded);
	is_int((long long)s.lost_loaded, 3, "ping: 3 lost (seq 5, 9, 20)");
	is_near(s.loss, 3.0 / (double)s.sent_loaded, 1e-12,
		"ping: latency.loss 3 / sent");
	is_int(s.seq_first, 2, "ping: the loaded window starts at seq 2");

	memset(&s, 0, sizeof s);
	ok(run(h, "irtt", &s) == 0, "the fake irtt ran");
	is_int(s.unknown, 0,
	       "irtt: 3 s without a line is loss, not a stall: known");
	ok(s.sent_loaded >= 45, "irtt: at least 45 probes sent loaded (%zu)",
	   s.sent_loaded);
	is_int((long long)s.lost_loaded, 30, "irtt: 30 lost (seq 7 to 36)");
	is_near(s.loss, 30.0 / (double)s.sent_loaded, 1e-12,
		"irtt: latency.loss 30 / sent");

	host_close(h);
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "# cleanup failed: %s\n", cmd);
	return tap_done();
}
