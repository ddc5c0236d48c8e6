/*
 * Cost per counters snapshot on an ssh host (issue 20 item 4,
 * bench/session.sh): N snapshots of interface lo (nic, tcp, cpu) through
 * one persistent far shell (session) or a new ssh session and far shell
 * per snapshot (process: plan session: false). Prints one line:
 * MODE N WALL_S USER_S SYS_S CHILD_USER_S CHILD_SYS_S FAILED
 * : wall and CPU of the whole block, ours (RUSAGE_SELF) and of our
 * reaped children (RUSAGE_CHILDREN: the local ssh clients, counted once
 * the host is closed), from after host_open to after host_close.
 * Usage: session-bench session|process N PORT KEY
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "counters.h"
#include "host.h"
#include "plan.h"
#include "proc.h"

static double tv(struct timeval t)
{
	return (double)t.tv_sec + (double)t.tv_usec / 1e6;
}

int main(int argc, char **argv)
{
	const char *opts[] = {"-o", "StrictHostKeyChecking=no", "-o",
			      "UserKnownHostsFile=/dev/null", NULL};
	struct plan_host ph = {0};
	struct host *h = NULL;
	struct xr_err e = {0};
	struct rusage s0, s1, c0, c1;
	double t0, t1;
	int n, i, bad = 0;
	if (argc != 5) {
		fprintf(stderr,
			"usage: session-bench session|process N PORT KEY\n");
		return 2;
	}
	n = atoi(argv[2]);
	ph.name = "far";
	ph.ssh = "root@127.0.0.1";
	ph.port = atoi(argv[3]);
	ph.identity = argv[4];
	ph.ssh_options.argv = opts;
	ph.ssh_options.argc = 4;
	ph.os_given = 1;
	ph.no_session = strcmp(argv[1], "session") != 0;
	if (host_open(&ph, NULL, &h, &e) < 0) {
		fprintf(stderr, "open: %s\n", e.msg);
		return 1;
	}
	/* after the open: its `ssh true` (the master's key exchange) is the
	 * same in both modes; the master itself is a daemon, not counted */
	getrusage(RUSAGE_SELF, &s0);
	getrusage(RUSAGE_CHILDREN, &c0);
	/* the first snapshot starts the session: timed with the rest */
	t0 = proc_now_mono();
	for (i = 0; i < n; i++) {
		struct counters_snap *s = NULL;
		if (counters_snapshot(h, "lo",
				      PLAN_COUNTER_NIC | PLAN_COUNTER_TCP |
					  PLAN_COUNTER_CPU,
				      &s, &e) < 0)
			bad++;
		counters_snap_free(s);
	}
	t1 = proc_now_mono();
	host_close(h);
	getrusage(RUSAGE_SELF, &s1);
	getrusage(RUSAGE_CHILDREN, &c1);
	printf("%s %d %.4f %.4f %.4f %.4f %.4f %d\n", argv[1], n, t1 - t0,
	       tv(s1.ru_utime) - tv(s0.ru_utime),
	       tv(s1.ru_stime) - tv(s0.ru_stime),
	       tv(c1.ru_utime) - tv(c0.ru_utime),
	       tv(c1.ru_stime) - tv(c0.ru_stime), bad);
	return bad ? 1 : 0;
}
