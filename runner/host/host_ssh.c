/*
 * The ssh transport: the system OpenSSH client, so that ~/.ssh/config,
 * agents and known_hosts work as the user expects. One ControlMaster
 * connection per host is opened in host_open (failing early and clearly
 * when the host is unreachable) and reused by every command of the session;
 * host_close stops it. ssh hands the remote side one command string that a
 * shell parses, so every word is quoted for that shell (POSIX sh or
 * PowerShell), and a command with a deadline is wrapped over there in
 * coreutils timeout, a sh watchdog (macOS) or a PowerShell wrapper that
 * kills the process tree (Windows; farside.c): killing the local ssh alone
 * would leave it running.
 *
 * SPDX-License-Identifier: MIT
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buf.h"
#include "counters_int.h"
#include "farside.h"
#include "host_int.h"
#include "oswin.h"
#include "banned.h"

#define SSH_OPEN_TIMEOUT 20.0
/* The far side's `timeout -k` grace before SIGKILL. */
#define SSH_REMOTE_KILL_AFTER 2
/* Idle time a master survives without clients: long enough between runs,
 * short enough that a crashed xrun leaves nothing for long. A client
 * started after it expired simply starts a new master (ControlMaster=auto). */
#define SSH_PERSIST "120"
/* The second connection that kills a stalled far side: its deadline. */
#define SSH_FAR_KILL_TIMEOUT 5.0

static int ssh_common(struct host *h, struct strv *out)
{
	size_t i;
	int rc = strv_push(out, "ssh");
	/* The user's options come first: for -o settings ssh keeps the first
	 * value it sees, so theirs win over our defaults. */
	for (i = 0; i < h->ssh_options.n && !rc; i++)
		rc = strv_push(out, h->ssh_options.v[i]);
	static const char *const defaults[] = {
	    "BatchMode=yes",	     "ConnectTimeout=5",
	    "ServerAliveInterval=5", "ServerAliveCountMax=3",
	    "ControlMaster=auto",    ("ControlPersist=" SSH_PERSIST),
	    "LogLevel=ERROR",
	};
	for (i = 0; i < sizeof defaults / sizeof defaults[0] && !rc; i++) {
		rc = strv_push(out, "-o");
		if (!rc)
			rc = strv_push(out, defaults[i]);
	}
	/* No control directory before host_open (ssh -G for an address). */
	if (!rc && h->control_dir)
		rc = strv_push(out, "-o");
	if (!rc && h->control_dir)
		rc = strv_pushf(out, "ControlPath=%s/%%C", h->control_dir);
	if (!rc && h->port > 0) {
		rc = strv_push(out, "-p");
		if (!rc)
			rc = strv_pushf(out, "%d", h->port);
	}
	if (!rc && h->identity) {
		rc = strv_push(out, "-i");
		if (!rc)
			rc = strv_push(out, h->identity);
	}
	return rc;
}

/* The far side's deadline before a sh command: coreutils timeout on
 * Linux, the sh watchdog on macOS (no coreutils there), either while the
 * OS is being asked (farside.c). */
static int far_prefix(struct host *h, double timeout, struct buf *cmd)
{
	if (h->detecting)
		return farside_any_prefix(timeout, cmd);
	if (h->os_known && h->os == PLAN_OS_MACOS)
		return farside_sh_prefix(timeout, cmd);
	return buf_addf(cmd, "timeout -k %d %.3f ", SSH_REMOTE_KILL_AFTER,
			timeout) < 0
		   ? -XR_ENOMEM
		   : 0;
}

/* Homebrew's bin (Apple silicon) and /usr/local/bin (Intel Homebrew,
 * hand installs): not on the PATH sshd gives a non-interactive macOS
 * session (/usr/bin:/bin:/usr/sbin:/sbin). */
static const char *const macos_path[] = {"/opt/homebrew/bin", "/usr/local/bin"};

/* PATH='DIR:DIR':"$PATH"; export PATH; -- the plan's path:, else
 * macos_path on a macOS host (known, not while asking uname). Every sh,
 * bash and zsh (macOS's login shell) reads it the same. */
static void far_path(struct host *h, struct buf *cmd)
{
	struct buf dirs = BUF_INIT;
	size_t n = h->path.n;
	int mac = !n && h->os_known && h->os == PLAN_OS_MACOS;
	if (mac)
		n = sizeof macos_path / sizeof macos_path[0];
	for (size_t i = 0; i < n; i++)
		buf_addf(&dirs, "%s:", mac ? macos_path[i] : h->path.v[i]);
	if (n) {
		buf_adds(cmd, "PATH=");
		host_quote_sh(dirs.s, cmd);
		buf_adds(cmd, "\"$PATH\"; export PATH; ");
	}
	if (dirs.truncated)
		cmd->truncated = 1;
	buf_release(&dirs);
}

/* The command string the remote shell parses. */
static int remote_command(struct host *h, const char *const *argv,
			  const char *const *env, double timeout,
			  unsigned flags, struct buf *cmd)
{
	const char *const *p;
	if (h->shell == PLAN_SHELL_POWERSHELL && timeout > 0)
		return farside_powershell(argv, env, timeout,
					  (flags & HOST_WRAP_FARPID) != 0, cmd);
	if (h->shell == PLAN_SHELL_POWERSHELL) {
		/* No deadline: the local side stops ssh, and the OpenSSH
		 * server ends the session's job. */
		for (p = env; p && *p; p++) {
			const char *eq = strchr(*p, '=');
			if (!eq)
				continue;
			buf_addf(cmd, "$env:%.*s=", (int)(eq - *p), *p);
			host_quote_powershell(eq + 1, cmd);
			buf_adds(cmd, "; ");
		}
		buf_adds(cmd, "& ");
		for (p = argv; *p; p++) {
			if (p != argv)
				buf_addc(cmd, ' ');
			host_quote_powershell(*p, cmd);
		}
		return cmd->truncated ? -XR_ENOMEM : 0;
	}
	far_path(h, cmd);
	/* The far shell says its pid, then becomes the deadline wrapper:
	 * the wrapper's process group has that id (coreutils timeout leads
	 * its own group; the sh watchdog is its parent's). */
	if (timeout > 0 && (flags & HOST_WRAP_FARPID)) {
		buf_adds(cmd, "sh -c ");
		host_quote_sh(
		    "echo \"" FARSIDE_PID_MARK "$$\" >&2; exec \"$@\"", cmd);
		buf_adds(cmd, " sh ");
	}
	if (timeout > 0 && far_prefix(h, timeout, cmd) < 0)
		return -XR_ENOMEM;
	/* Followed by the far sampler (host.h, HOST_WATCH_DIR_SH): this sh's
	 * pid is the command's, which it execs (env execs too). The token in
	 * its argv names the session's files and opens nothing: the watch
	 * directory admits no other user (counters_script.c). */
	if ((flags & HOST_WRAP_WATCH) && h->watch_token[0]) {
		buf_adds(cmd, "sh -c ");
		host_quote_sh(counters_watch_wrapper(), cmd);
		buf_addf(cmd, " %s ", h->watch_token);
		h->watch_used = 1;
	}
	if (env && *env) {
		buf_adds(cmd, "env ");
		for (p = env; *p; p++) {
			host_quote_sh(*p, cmd);
			buf_addc(cmd, ' ');
		}
	}
	for (p = argv; *p; p++) {
		if (p != argv)
			buf_addc(cmd, ' ');
		host_quote_sh(*p, cmd);
	}
	return cmd->truncated ? -XR_ENOMEM : 0;
}

static int ssh_wrap(struct host *h, const char *const *argv,
		    const char *const *env, double timeout, unsigned flags,
		    struct strv *out)
{
	struct buf cmd = BUF_INIT;
	int background = (flags & HOST_WRAP_BACKGROUND) != 0;
	int rc = ssh_common(h, out);
	/* A background command (a server) gets a pty so that the far side
	 * is hung up when we stop the local ssh; others get none, so that
	 * output is byte-exact. */
	if (!rc)
		rc = strv_push(out, background ? "-tt" : "-T");
	if (!rc)
		rc = strv_push(out, "--");
	if (!rc)
		rc = strv_push(out, h->target);
	if (!rc)
		rc = remote_command(h, argv, env, timeout, flags, &cmd);
	if (!rc)
		rc = strv_push(out, cmd.s);
	buf_release(&cmd);
	return rc;
}

static void trim(char *s, size_t *len)
{
	size_t n = *len;
	while (n && (s[n - 1] == '\n' || s[n - 1] == '\r' || s[n - 1] == ' '))
		s[--n] = 0;
	*len = n;
}

/* The host name ssh will really connect to (~/.ssh/config applied), from
 * `ssh -G`, which reads configuration only. */
static char *ssh_resolved_hostname(struct host *h, const char *target)
{
	struct strv av = {0};
	struct proc_opts o = {0};
	struct proc_result r;
	struct xr_err e = {0};
	char *name = NULL, *line, *save = NULL;
	if (ssh_common(h, &av) || strv_push(&av, "-G") ||
	    strv_push(&av, "--") || strv_push(&av, target))
		goto out;
	o.argv = (const char *const *)av.v;
	o.timeout = 10;
	if (proc_run(&o, &r, &e) < 0)
		goto out;
	if (r.status == PROC_EXITED && r.exit_code == 0)
		for (line = strtok_r(r.out, "\n", &save); line;
		     line = strtok_r(NULL, "\n", &save))
			if (!strncmp(line, "hostname ", 9)) {
				name = strdup(line + 9);
				break;
			}
	proc_result_release(&r);
out:
	strv_release(&av);
	return name;
}

char *host_ssh_address(struct host *h)
{
	const char *target = h->target ? h->target : h->ssh, *at;
	char *name = ssh_resolved_hostname(h, target);
	if (name)
		return name;
	at = strrchr(target, '@');
	return strdup(at ? at + 1 : target);
}

/* 16 random hex digits (host_watch_token). */
static int new_token(char out[17])
{
	unsigned char r[8];
	if (getrandom(r, sizeof r, GRND_NONBLOCK) != (ssize_t)sizeof r)
		return -1;
	for (size_t i = 0; i < sizeof r; i++)
		snprintf(out + 2 * i, 3, "%02x", r[i]);
	return 0;
}

static int ssh_open(struct host *h, const char *control_dir, struct xr_err *err)
{
	struct strv av = {0};
	struct proc_opts o = {0};
	struct proc_result r;
	char d[256];
	int rc;

	h->target = strdup(h->ssh);
	if (new_token(h->watch_token) < 0)
		h->watch_token[0] = '\0'; /* no following over there */
	/* sun_path holds 108 bytes and %C expands to 40. */
	if (control_dir && strlen(control_dir) < 60) {
		mkdir(control_dir, 0700);
		h->control_dir = strdup(control_dir);
	} else {
		char tmpl[] = "/tmp/xr-ssh-XXXXXX";
		if (!mkdtemp(tmpl))
			return xr_err_set(err, XR_EIO, NULL, 0, 0,
					  "cannot create a directory for the "
					  "ssh control socket: %s",
					  strerror(errno));
		h->control_dir = strdup(tmpl);
		h->own_control_dir = 1;
	}
	/* Start the master now: an unreachable host fails here, before any
	 * run, with ssh's own words. */
	rc = ssh_common(h, &av);
	if (!rc)
		rc = strv_push(&av, "-T");
	if (!rc)
		rc = strv_push(&av, "--");
	if (!rc)
		rc = strv_push(&av, h->target);
	if (!rc)
		rc = strv_push(&av, "true");
	if (rc < 0) {
		strv_release(&av);
		return xr_err_set(err, XR_ENOMEM, NULL, 0, 0, "out of memory");
	}
	o.argv = (const char *const *)av.v;
	o.timeout = SSH_OPEN_TIMEOUT;
	o.keep_daemons = 1; /* the ControlMaster stays for the session */
	rc = proc_run(&o, &r, err);
	strv_release(&av);
	if (rc < 0)
		return rc;
	if (r.status == PROC_EXEC_FAILED)
		rc = xr_err_set(err, XR_EHOST, NULL, 0, 0,
				"cannot reach host '%s': %s (install the "
				"OpenSSH client)",
				h->name, proc_describe(&r, d, sizeof d));
	else if (r.status != PROC_EXITED || r.exit_code != 0) {
		trim(r.err, &r.err_len);
		rc = xr_err_set(err, XR_EHOST, NULL, 0, 0,
				"cannot reach host '%s' by ssh to '%s': %s%s%s",
				h->name, h->target,
				proc_describe(&r, d, sizeof d),
				r.err_len ? ": " : "", r.err);
	}
	proc_result_release(&r);
	return rc;
}

/* The watch files of this session still over there (the processes that
 * outlived the last sampler loop's look): removed while the master is
 * up. A crash leaves them to the next session's loop (counters_script.c). */
static void remove_watch_files(struct host *h)
{
	const char *argv[] = {"sh", "-c",	    counters_watch_cleanup(),
			      "sh", h->watch_token, NULL};
	struct proc_opts o = {0};
	struct proc_result r;
	struct xr_err e = {0};
	if (!h->watch_used)
		return;
	o.argv = argv;
	o.timeout = 5;
	if (host_run(h, &o, &r, &e) == 0)
		proc_result_release(&r);
}

static void ssh_close(struct host *h)
{
	struct strv av = {0};
	struct proc_opts o = {0};
	struct proc_result r;
	struct xr_err e = {0};
	if (!h->control_dir)
		return;
	if (!h->down)
		remove_watch_files(h);
	if (h->target && !ssh_common(h, &av) && !strv_push(&av, "-O") &&
	    !strv_push(&av, "exit") && !strv_push(&av, "--") &&
	    !strv_push(&av, h->target)) {
		o.argv = (const char *const *)av.v;
		o.timeout = 10;
		if (proc_run(&o, &r, &e) == 0)
			proc_result_release(&r);
	}
	strv_release(&av);
	if (h->own_control_dir)
		rmdir(h->control_dir);
}

static void err_note(struct proc_result *res, const char *note)
{
	struct buf b = BUF_INIT;
	if (res->err_len)
		buf_add(&b, res->err, res->err_len);
	if (b.len && b.s[b.len - 1] != '\n')
		buf_addc(&b, '\n');
	buf_adds(&b, note);
	if (b.truncated || !b.s)
		return buf_release(&b);
	free(res->err);
	res->err = buf_detach(&b, &res->err_len);
}

/*
 * The local deadline fired: the far side neither finished nor honoured
 * its own deadline (a stopped process, a wrapper killed) while the
 * connection stayed up. The local ssh is gone already; a second,
 * short-lived connection kills the far wrapper's process group and
 * those of its children, best effort.
 */
static void far_kill(struct host *h, const struct proc_opts *o, long pid,
		     unsigned long long start, struct proc_result *res)
{
	/* kill -KILL -PGID: dash's kill takes neither -- nor -s with a
	 * negative pid. */
	static const char script[] =
	    "c=$(pgrep -P \"$1\" 2>/dev/null); kill -KILL \"-$1\" 2>/dev/null; "
	    "kill -KILL \"$1\" 2>/dev/null; for x in $c; do kill -KILL "
	    "\"-$x\" 2>/dev/null; kill -KILL \"$x\" 2>/dev/null; done; exit 0";
	char ps[32], d[128], note[512];
	const char *argv[] = {"sh", "-c", script, "sh", ps, NULL};
	const char *wargv[] = {
	    "powershell.exe",  "-NoProfile", "-NonInteractive",
	    "-EncodedCommand", NULL,	     NULL};
	struct buf ws = BUF_INIT, wb = BUF_INIT;
	struct strv av = {0};
	struct proc_opts ko = {0};
	struct proc_result kr;
	struct xr_err e = {0};
	int ok = 0, win = h->shell == PLAN_SHELL_POWERSHELL;
	snprintf(ps, sizeof ps, "%ld", pid);
	d[0] = 0;
	if (win && farside_win_kill(pid, start, &ws) == 0 &&
	    oswin_encode(ws.s, &wb) == 0)
		wargv[4] = wb.s;
	if ((!win || wargv[4]) &&
	    ssh_wrap(h, win ? wargv : argv, NULL, 0, 0, &av) == 0) {
		ko.argv = (const char *const *)av.v;
		ko.timeout = SSH_FAR_KILL_TIMEOUT;
		ko.keep_daemons = 1;
		if (proc_run(&ko, &kr, &e) == 0) {
			ok = kr.status == PROC_EXITED && kr.exit_code == 0;
			proc_describe(&kr, d, sizeof d);
			proc_result_release(&kr);
		}
	}
	strv_release(&av);
	buf_release(&ws);
	buf_release(&wb);
	snprintf(note, sizeof note,
		 "xrun: host '%s' did not end the command %.1f s past its "
		 "%.1f s deadline: the local ssh was stopped and the far-side "
		 "process %s %ld %s%s%s\n",
		 h->name, h->ops->margin, o->timeout, win ? "tree" : "group",
		 pid, ok ? "killed" : "could not be killed",
		 ok || !d[0] ? "" : ": ", ok ? "" : d);
	err_note(res, note);
}

static void ssh_finish(struct host *h, const struct proc_opts *o,
		       struct proc_result *res)
{
	unsigned long long start = 0;
	long far = o->timeout > 0
		       ? farside_take_pid(res->err, &res->err_len, &start)
		       : 0;
	if (res->status == PROC_TIMEOUT && far > 0)
		far_kill(h, o, far, start, res);
	/* The far side's deadline fired: coreutils timeout exits 124, or dies
	 * by its own SIGKILL after -k, which ssh reports as 255. Past the
	 * deadline either is the timeout it is. */
	if (h->shell == PLAN_SHELL_POWERSHELL && o->timeout > 0 &&
	    res->status == PROC_EXITED && res->exit_code == 124 &&
	    res->elapsed >= o->timeout - 0.05)
		res->status = PROC_TIMEOUT; /* farside_powershell's 124 */
	if (h->shell == PLAN_SHELL_SH && o->timeout > 0 &&
	    res->status == PROC_EXITED &&
	    (res->exit_code == 124 || res->exit_code == 137 ||
	     res->exit_code == 255) &&
	    res->elapsed >= o->timeout - 0.05)
		res->status = PROC_TIMEOUT;
	/* ssh says 255 and nothing else when the connection drops (its
	 * LogLevel=ERROR keeps even that quiet): a bare "exited with status
	 * 255" would leave the reader guessing. */
	if (res->status == PROC_EXITED && res->exit_code == 255 &&
	    res->err_len == 0) {
		struct buf m = BUF_INIT;
		buf_addf(&m,
			 "ssh to '%s' (host '%s') ended without a message: the "
			 "connection was lost, or the command itself exited "
			 "255",
			 h->target, h->name);
		if (!m.truncated && m.s) {
			free(res->err);
			res->err = strdup(m.s);
			res->err_len = res->err ? strlen(res->err) : 0;
		}
		buf_release(&m);
	}
}

/* `ssh ... true` through the ControlMaster when there is one, else a new
 * connection (ControlMaster=auto makes it the new master). */
static int ssh_check(struct host *h, struct buf *why)
{
	static const char *const argv[] = {"true", NULL};
	struct strv av = {0};
	struct proc_opts o = {0};
	struct proc_result r;
	struct xr_err e = {0};
	char d[128];
	int rc = -XR_EHOST;
	if (ssh_wrap(h, argv, NULL, 0, 0, &av) < 0) {
		strv_release(&av);
		host_mark_down(h, "out of memory");
		return rc;
	}
	o.argv = (const char *const *)av.v;
	o.timeout = HOST_CHECK_TIMEOUT;
	o.keep_daemons = 1;
	if (proc_run(&o, &r, &e) < 0) {
		host_mark_down(h, e.msg);
	} else {
		trim(r.err, &r.err_len);
		if (r.status == PROC_EXITED && r.exit_code == 0)
			rc = 0;
		else
			host_mark_down(h, r.err_len
					      ? r.err
					      : proc_describe(&r, d, sizeof d));
		proc_result_release(&r);
	}
	strv_release(&av);
	if (rc < 0 && why) {
		buf_reset(why);
		buf_adds(why, h->down_why);
	}
	return rc;
}

/* The ControlMaster's pid (`ssh -O check` says "Master running
 * (pid=N)"), 0 when there is none. */
static long master_pid(struct host *h)
{
	struct strv av = {0};
	struct proc_opts o = {0};
	struct proc_result r;
	struct xr_err e = {0};
	const char *m;
	long pid = 0;
	if (!h->target || ssh_common(h, &av) || strv_push(&av, "-O") ||
	    strv_push(&av, "check") || strv_push(&av, "--") ||
	    strv_push(&av, h->target)) {
		strv_release(&av);
		return 0;
	}
	o.argv = (const char *const *)av.v;
	o.timeout = 5;
	o.keep_daemons = 1;
	if (proc_run(&o, &r, &e) == 0) {
		if (r.status == PROC_EXITED && r.exit_code == 0 &&
		    (m = strstr(r.err, "(pid=")))
			pid = strtol(m + 5, NULL, 10);
		proc_result_release(&r);
	}
	strv_release(&av);
	return pid;
}

int host_conn_changed(struct host *h)
{
	long pid, was;
	if (!h || h->ops != &host_ssh_ops)
		return 0;
	pid = master_pid(h);
	was = h->master_pid;
	h->master_pid = pid;
	return was && pid != was;
}

int host_reap_token(struct host *h, const char *token)
{
	const char *argv[] = {"sh", "-c",  counters_watch_reap(),
			      "sh", token, NULL};
	struct proc_opts o = {0};
	struct proc_result r;
	struct xr_err e = {0};
	int n = 0;
	if (!h || h->ops != &host_ssh_ops || !token || !token[0])
		return 0;
	o.argv = argv;
	o.timeout = 10;
	if (host_run(h, &o, &r, &e) == 0) {
		if (r.status == PROC_EXITED && !strncmp(r.out, "ended:", 6))
			for (const char *q = r.out + 6; *q && *q != '\n'; q++)
				n += *q == ' ';
		proc_result_release(&r);
	}
	return n;
}

const struct host_ops host_ssh_ops = {
    .kind = "ssh",
    .open = ssh_open,
    .close = ssh_close,
    .wrap = ssh_wrap,
    .margin = 3.0 + SSH_REMOTE_KILL_AFTER,
    .finish = ssh_finish,
    .check = ssh_check,
};

int host_ssh_remote(struct host *h, const char *const *argv,
		    const char *const *env, double timeout, struct buf *cmd)
{
	/* PowerShell's deadline wrapper ends in `exit`, which would end a
	 * session's shell: there the local deadline alone kills it. */
	if (h->shell == PLAN_SHELL_POWERSHELL)
		timeout = 0;
	return remote_command(h, argv, env, timeout, 0, cmd);
}

int host_ssh_shell_argv(struct host *h, struct strv *out)
{
	int rc = ssh_common(h, out);
	if (!rc)
		rc = strv_push(out, "-T");
	if (!rc)
		rc = strv_push(out, "--");
	if (!rc)
		rc = strv_push(out, h->target);
	if (!rc && h->shell == PLAN_SHELL_POWERSHELL)
		rc = strv_push(out, "powershell.exe -NoProfile -NonInteractive "
				    "-Command -");
	else if (!rc)
		rc = strv_push(out, "sh -s");
	return rc;
}

void host_ssh_finish(struct host *h, const struct proc_opts *o,
		     struct proc_result *res)
{
	ssh_finish(h, o, res);
}
