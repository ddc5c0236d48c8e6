/*
 * A real OpenSSH server on a loopback port for the host unit tests
 * (test_host.c, test_host_session.c, test_host_session_ps.c): sshd -D
 * through the one forking module, with keys generated into the test's
 * directory, its log there (-E, LogLevel VERBOSE, so that tests count
 * "Accepted" and "Starting session:" lines) and an empty home of its own
 * for the sessions. The e2e scripts' twin is tests/e2e/lib/sshd.sh.
 *
 * The home: an ssh command runs in the login user's shell and Debian's
 * bash reads ~/.bashrc for it. Root's .bashrc on the development VM runs
 * `pyenv init`, whose rehash takes a lock file; a login killed by a fault
 * test left it behind and every later login waited 60 s for it (CI of
 * 2026-12-06: "cannot reach host 'far' by ssh: timed out after 20.2 s").
 * sshd's SetEnv overrides the default environment, HOME included
 * (sshd_config(5)), so no start-up file of the machine's runs.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef XR_SSHD_FIXTURE_H
#define XR_SSHD_FIXTURE_H

#include <stdio.h>
#include <unistd.h>

#include "proc.h"
#include "tap.h"

/* sh -c CMD (a test's own fixed text, never a plan value): 1 when it
 * exits 0 within 30 s. */
static inline int fx_sh_ok(const char *cmd)
{
	const char *argv[] = {"sh", "-c", cmd, NULL};
	struct proc_opts o = {0};
	struct proc_result r;
	struct xr_err e = {0};
	int good;
	o.argv = argv;
	o.timeout = 30;
	if (proc_run(&o, &r, &e) < 0)
		return 0;
	good = r.status == PROC_EXITED && r.exit_code == 0;
	proc_result_release(&r);
	return good;
}

static inline int fx_port_listening(int port)
{
	char cmd[128];
	snprintf(cmd, sizeof cmd, "ss -ltnH 'sport = :%d' | grep -q LISTEN",
		 port);
	return fx_sh_ok(cmd);
}

/* Start sshd for DIR (keys DIR/host_key, DIR/client_key, its config
 * DIR/sshd_config, log DIR/sshd.log, sessions' home DIR/home); setenv,
 * when not NULL, adds "NAME=VALUE ..." to the sessions' environment.
 * Tries 8 free ports; the listener's process or NULL, its port in
 * *port_out. */
static inline struct proc *fx_sshd_start(const char *dir, const char *setenv,
					 int *port_out)
{
	char path[256], cmd[1024], log[256];
	struct proc *p = NULL;
	struct xr_err e = {0};
	FILE *f;
	int tries, port = 0, i;
	snprintf(cmd, sizeof cmd,
		 "mkdir -p /run/sshd %s/home && "
		 "ssh-keygen -q -t ed25519 -N '' -f %s/host_key </dev/null && "
		 "ssh-keygen -q -t ed25519 -N '' -f %s/client_key </dev/null "
		 "&& cp %s/client_key.pub %s/authorized_keys",
		 dir, dir, dir, dir, dir);
	if (!fx_sh_ok(cmd))
		return NULL;
	snprintf(path, sizeof path, "%s/sshd_config", dir);
	snprintf(log, sizeof log, "%s/sshd.log", dir);
	for (tries = 0; tries < 8 && !p; tries++) {
		const char *argv[] = {
		    "/usr/sbin/sshd", "-D", "-f", path, "-E", log, NULL};
		struct proc_opts o = {0};
		port = tap_free_port();
		if (!(f = fopen(path, "w")))
			return NULL;
		fprintf(
		    f,
		    "Port %d\nListenAddress 127.0.0.1\nHostKey %s/host_key\n"
		    "PidFile none\nAuthorizedKeysFile %s/authorized_keys\n"
		    "PermitRootLogin prohibit-password\n"
		    "PasswordAuthentication no\nStrictModes no\nUsePAM no\n"
		    "MaxSessions 50\nMaxStartups 50\nLogLevel VERBOSE\n"
		    "SetEnv HOME=%s/home%s%s\n",
		    port, dir, dir, dir, setenv ? " " : "",
		    setenv ? setenv : "");
		fclose(f);
		unlink(log);
		o.argv = argv;
		o.grace = 1;
		p = proc_spawn(&o, NULL, &e);
		for (i = 0; p && i < 50 && proc_alive(p); i++) {
			if (fx_port_listening(port))
				break;
			proc_sleep(0.1);
		}
		if (p && (!proc_alive(p) || !fx_port_listening(port))) {
			proc_stop(p);
			p = NULL;
		}
	}
	*port_out = port;
	return p;
}

#endif
