/*
 * A replaced ssh connection is seen (runner/host/host_ssh.c,
 * host_conn_changed through master_pid; issue 40: a run whose connection
 * was replaced carries half its far series, so it is not counted). With
 * a real sshd on loopback (sshd_fixture.h): the ControlMaster's pid is
 * what `ssh -O check` says ("Master running (pid=N)"); while the same
 * master serves, nothing changed; after the master is ended (`ssh -O
 * exit`, as a connection lost under a run) the next command opens a new
 * master with another pid, and host_conn_changed says so once. The pids
 * are read here from `ssh -O check` the same way, by hand.
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
#include "sshd_fixture.h"
#include "tap.h"

static char dir[64];

/* echo through h: 1 when it answered. */
static int echo(struct host *h)
{
	const char *argv[] = {"echo", "x", NULL};
	struct proc_opts o = {0};
	struct proc_result r;
	struct xr_err e = {0};
	int good;
	o.argv = argv;
	o.timeout = 20;
	if (host_run(h, &o, &r, &e) < 0)
		return 0;
	good = r.status == PROC_EXITED && r.exit_code == 0;
	proc_result_release(&r);
	return good;
}

/* The master's pid as `ssh -O check` prints it, 0 when none. */
static long check_pid(const char *ctl, int port)
{
	char cmd[400], out[256] = "";
	const char *m;
	FILE *f;
	snprintf(cmd, sizeof cmd,
		 "ssh -o ControlPath=%s/%%C -p %d -O check root@127.0.0.1 "
		 "2>&1",
		 ctl, port);
	if (!(f = popen(cmd, "r")))
		return 0;
	if (!fgets(out, sizeof out, f))
		out[0] = '\0';
	pclose(f);
	m = strstr(out, "(pid=");
	return m ? atol(m + 5) : 0;
}

int main(void)
{
	struct plan_host ph;
	struct host *h = NULL;
	struct xr_err e = {0};
	struct proc *sshd;
	char key[128], ctl[128], cmd[400];
	const char *opts[] = {"-o", "StrictHostKeyChecking=no", "-o",
			      "UserKnownHostsFile=/dev/null", NULL};
	long first, second;
	int port;

	if (getuid() != 0 || access("/usr/sbin/sshd", X_OK) != 0 ||
	    !proc_which("ssh"))
		tap_skip_all("needs root, /usr/sbin/sshd and ssh");
	tap_plan(6);
	snprintf(dir, sizeof dir, "/tmp/xr-connchg-XXXXXX");
	if (!mkdtemp(dir) || !(sshd = fx_sshd_start(dir, NULL, &port))) {
		ok(0, "start a test sshd on loopback");
		return tap_done();
	}
	snprintf(key, sizeof key, "%s/client_key", dir);
	snprintf(ctl, sizeof ctl, "%s/ctl", dir);
	memset(&ph, 0, sizeof ph);
	ph.name = "far";
	ph.ssh = "root@127.0.0.1";
	ph.port = port;
	ph.identity = key;
	ph.ssh_options.argv = opts;
	ph.ssh_options.argc = 4;
	ok(host_open(&ph, ctl, &h, &e) == 0, "open the ssh host: %s", e.msg);
	if (h) {
		host_conn_changed(h); /* its master, as a run starts */
		ok(echo(h) && host_conn_changed(h) == 0,
		   "the same master: not changed");
		first = check_pid(ctl, port);
		snprintf(cmd, sizeof cmd,
			 "ssh -o ControlPath=%s/%%C -p %d -O exit "
			 "root@127.0.0.1 2>/dev/null",
			 ctl, port);
		ok(first > 0 && fx_sh_ok(cmd), "master %ld ended", first);
		ok(echo(h), "the next command reconnects");
		second = check_pid(ctl, port);
		ok(second > 0 && second != first && host_conn_changed(h) == 1,
		   "master %ld replaced by %ld: changed", first, second);
		ok(host_conn_changed(h) == 0, "said once: then not changed");
		host_close(h);
	}
	proc_stop(sshd);
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "# cleanup failed: %s\n", cmd);
	return tap_done();
}
