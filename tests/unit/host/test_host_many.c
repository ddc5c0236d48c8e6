/*
 * Tests of host_run_many (runner/host/host_many.c) on the local host:
 * the commands run together (two that each wait for the other's file
 * finish, which one after the other could not), each keeps its own
 * stdout, stderr and exit status, a command past its deadline has its
 * group killed while the others finish, and a command that cannot be
 * started stops the whole set.
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "host.h"
#include "plan.h"
#include "proc.h"
#include "tap.h"

static char dir[64];

/* Two commands that each create their file and then wait for the
 * other's: both exit 0 only when they run at the same time. */
static void test_together(struct host *h)
{
	char a[128], b[128];
	const char *av0[8], *av1[8];
	struct proc_opts o[2];
	struct proc_result r[2];
	struct xr_err e = {0};
	const char *wait =
	    "touch \"$1\"; n=0; while [ ! -e \"$2\" ]; do n=$((n+1)); "
	    "[ $n -gt 3000 ] && exit 9; sleep 0.01; done; echo got \"$2\"; "
	    "echo side >&2; exit $3";
	snprintf(a, sizeof a, "%s/a", dir);
	snprintf(b, sizeof b, "%s/b", dir);
	av0[0] = av1[0] = "sh";
	av0[1] = av1[1] = "-c";
	av0[2] = av1[2] = wait;
	av0[3] = av1[3] = "w";
	av0[4] = a, av0[5] = b, av0[6] = "0", av0[7] = NULL;
	av1[4] = b, av1[5] = a, av1[6] = "3", av1[7] = NULL;
	memset(o, 0, sizeof o);
	o[0].argv = av0;
	o[1].argv = av1;
	o[0].timeout = o[1].timeout = 60;
	is_int(host_run_many(h, o, 2, r, &e), 0, "two commands run");
	is_int(r[0].status, PROC_EXITED, "first exited");
	is_int(r[0].exit_code, 0, "first saw the second's file");
	is_int(r[1].exit_code, 3, "second saw the first's file, own status");
	ok(r[0].out && strstr(r[0].out, "got ") && strstr(r[0].out, "/b"),
	   "first's own stdout: %s", r[0].out ? r[0].out : "(null)");
	ok(r[1].out && strstr(r[1].out, "/a\n"), "second's own stdout: %s",
	   r[1].out ? r[1].out : "(null)");
	is_str(r[1].err, "side\n", "stderr kept apart");
	proc_result_release(&r[0]);
	proc_result_release(&r[1]);
}

/* One command past its deadline is killed (TIMEOUT), the other ends on
 * its own. */
static void test_deadline(struct host *h)
{
	const char *sl[] = {"sleep", "600", NULL};
	const char *pf[] = {"printf", "%s", "done", NULL};
	struct proc_opts o[2];
	struct proc_result r[2];
	struct xr_err e = {0};
	memset(o, 0, sizeof o);
	o[0].argv = sl;
	o[0].timeout = 0.5;
	o[1].argv = pf;
	o[1].timeout = 60;
	is_int(host_run_many(h, o, 2, r, &e), 0, "run with a deadline");
	is_int(r[0].status, PROC_TIMEOUT, "sleep stopped at its deadline");
	is_int(r[1].status, PROC_EXITED, "printf exited");
	is_str(r[1].out, "done", "printf's output");
	proc_result_release(&r[0]);
	proc_result_release(&r[1]);
}

static void test_bad(struct host *h)
{
	const char *pf[] = {"printf", "x", NULL};
	struct proc_opts o[1];
	struct proc_result r[1];
	struct xr_err e = {0};
	memset(o, 0, sizeof o);
	o[0].argv = pf;
	ok(host_run_many(h, o, 0, r, &e) < 0, "no commands: %s", e.msg);
	ok(host_run_many(h, o, HOST_MANY_MAX + 1, r, &e) < 0,
	   "more than HOST_MANY_MAX: %s", e.msg);
}

int main(void)
{
	struct plan_host ph = {0};
	struct host *h = NULL;
	struct xr_err e = {0};
	char cmd[128];
	tap_plan(13);
	snprintf(dir, sizeof dir, "/tmp/xr-test-many-XXXXXX");
	if (!mkdtemp(dir))
		return 1;
	ph.name = "local";
	if (host_open(&ph, NULL, &h, &e) < 0) {
		ok(0, "open local: %s", e.msg);
		return tap_done();
	}
	test_together(h);
	test_deadline(h);
	test_bad(h);
	host_close(h);
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	if (system(cmd) != 0)
		ok(0, "cleanup %s", dir);
	return tap_done();
}
