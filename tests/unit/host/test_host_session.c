/*
 * The persistent far shell of the host readings (host_session.c, issue 20
 * item 4). The framing: an end line with the command's nonce cuts the
 * output, a line with the marker text but another nonce (or none, or not
 * at a line start) is data, a missing end line leaves the frame open, a
 * read split at every byte gives the same frame, CRLF (PowerShell) and a
 * cap. The script text: sh run for real by a local `sh -s` (two commands
 * in one shell, `exit 7` in the first); PowerShell as exact text (no
 * pwsh here). Then against a real sshd on loopback (root only): several
 * readings over one ssh session (sshd's "Starting session" lines
 * counted), a command past its local deadline (the session killed, the
 * next reading works in a new one), the far shell SIGKILLed from outside
 * (restarted once, the reading still answers), and session: false (a
 * session per reading).
 *
 * SPDX-License-Identifier: MIT
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buf.h"
#include "host.h"
#include "host_int.h"
#include "host_session.h"
#include "proc.h"
#include "tap.h"
#include "sshd_fixture.h"

static const char nonce[] = "0123456789abcdef0123456789abcdef";

/* Feed text in pieces of step bytes (0: all at once). */
static int feed(struct host_frame *f, const char *text, size_t step)
{
	size_t n = strlen(text), i;
	int r = 0;
	if (!step)
		return host_frame_feed(f, text, n);
	for (i = 0; i < n && r == 0; i += step)
		r = host_frame_feed(f, text + i, i + step > n ? n - i : step);
	return r;
}

static void test_frame(void)
{
	struct host_frame f;
	const char *fake = "a\n@@xrun-end ffffffffffffffffffffffffffffffff 0\n"
			   "b@@xrun-end 0123456789abcdef0123456789abcdef 0\n"
			   "@@xrun-end 0123456789abcdef0123456789abcdef x\n"
			   "@@xrun-end \n";
	struct buf all = BUF_INIT;
	int same = 1;

	host_frame_init(&f, nonce, 0);
	is_int(feed(&f,
		    "hello\nworld\n\n@@xrun-end "
		    "0123456789abcdef0123456789abcdef 3\n",
		    0),
	       1, "frame: the end line ends it");
	is_str(f.data.s, "hello\nworld\n",
	       "frame: output without the end line");
	is_int(f.status, 3, "frame: the status");
	host_frame_release(&f);

	host_frame_init(&f, nonce, 0);
	is_int(feed(&f,
		    "no newline\n@@xrun-end "
		    "0123456789abcdef0123456789abcdef -1\n",
		    0),
	       1, "frame: output without a final newline");
	is_str(f.data.s, "no newline",
	       "frame: the newline before the end line is ours");
	is_int(f.status, -1, "frame: a negative status");
	host_frame_release(&f);

	buf_adds(&all, fake);
	buf_adds(&all, "\n@@xrun-end 0123456789abcdef0123456789abcdef 0\n");
	host_frame_init(&f, nonce, 0);
	is_int(feed(&f, all.s, 0), 1, "frame: fake end lines pass");
	is_str(f.data.s, fake,
	       "frame: another nonce, the nonce not at a line start, a bad "
	       "status and a bare marker are all data");
	host_frame_release(&f);
	for (size_t step = 1; step <= 9; step++) {
		host_frame_init(&f, nonce, 0);
		if (feed(&f, all.s, step) != 1 || strcmp(f.data.s, fake) ||
		    f.status != 0)
			same = 0;
		host_frame_release(&f);
	}
	for (size_t k = 0; k <= all.len; k++) {
		host_frame_init(&f, nonce, 0);
		host_frame_feed(&f, all.s, k);
		if (host_frame_feed(&f, all.s + k, all.len - k) != 1 ||
		    strcmp(f.data.s, fake))
			same = 0;
		host_frame_release(&f);
	}
	ok(same, "frame: split at every byte and in pieces of 1..9: the same");
	buf_release(&all);

	host_frame_init(&f, nonce, 0);
	is_int(
	    feed(&f, "out\n@@xrun-end 0123456789abcdef0123456789abcdef 0", 0),
	    0, "frame: an end line without its newline is not yet one");
	is_int(feed(&f, "", 0), 0, "frame: missing end line: still open");
	is_int(f.done, 0, "frame: not done");
	is_int(feed(&f, "\r\n", 0), 1, "frame: CRLF ends it (PowerShell)");
	is_str(f.data.s, "out", "frame: CRLF output");
	host_frame_release(&f);

	{
		struct buf big = BUF_INIT;
		for (int i = 0; i < 1000; i++)
			buf_addc(&big, 'a');
		buf_adds(&big,
			 "\n@@xrun-end 0123456789abcdef0123456789abcdef 5\n");
		host_frame_init(&f, nonce, 10);
		is_int(feed(&f, big.s, 7), 1,
		       "cap: the end line past the cap is found");
		is_int((long long)f.data.len, 10, "cap: 10 bytes kept");
		is_int(f.cut, 1, "cap: cut");
		is_int(f.status, 5, "cap: status");
		host_frame_release(&f);
		buf_release(&big);
	}
}

static void test_script_text(void)
{
	struct buf b = BUF_INIT;
	host_session_script(PLAN_SHELL_POWERSHELL, "& 'Get-Date'", "N1", &b);
	is_str(b.s,
	       "$global:LASTEXITCODE = 0; $xs = 0; try { & 'Get-Date'; $xs = "
	       "$LASTEXITCODE } catch { [Console]::Error.WriteLine($_); $xs = "
	       "1 }; [Console]::Error.WriteLine(\"`n@@xrun-end N1 $xs\"); "
	       "[Console]::Out.WriteLine(\"`n@@xrun-end N1 $xs\"); "
	       "[Console]::Out.Flush()\n",
	       "powershell script, exact");
	buf_reset(&b);
	host_session_script(PLAN_SHELL_SH, "'true'", "N1", &b);
	is_str(b.s,
	       "(\n'true'\n) </dev/null; xs=$?; printf '\\n@@xrun-end %s "
	       "%d\\n' N1 \"$xs\" >&2; printf '\\n@@xrun-end %s %d\\n' N1 "
	       "\"$xs\"\n",
	       "sh script, exact");
	buf_release(&b);
}

/* The sh script run by a real local `sh -s`: two commands, one shell. */
static void test_script_sh(void)
{
	static const char *const argv[] = {"sh", "-s", NULL};
	struct buf in = BUF_INIT;
	struct proc_opts o = {0};
	struct proc_result r;
	struct xr_err e = {0};
	struct host_frame fo, fe;
	char *rest;
	host_session_script(PLAN_SHELL_SH,
			    "cat; printf 'a\\nb'; echo oops >&2; cd /; exit 7",
			    nonce, &in);
	host_session_script(PLAN_SHELL_SH, "pwd; cat", nonce, &in);
	o.argv = argv;
	o.stdin_data = in.s;
	o.timeout = 20;
	if (proc_run(&o, &r, &e) < 0) {
		ok(0, "sh -s runs");
		buf_release(&in);
		return;
	}
	host_frame_init(&fo, nonce, 0);
	host_frame_init(&fe, nonce, 0);
	is_int(host_frame_feed(&fo, r.out, r.out_len), 1, "sh: first frame");
	is_str(fo.data.s, "a\nb", "sh: first output");
	is_int(fo.status, 7, "sh: exit 7 is the status, the shell goes on");
	is_int(host_frame_feed(&fe, r.err, r.err_len), 1,
	       "sh: first stderr frame");
	is_str(fe.data.s, "oops\n", "sh: first stderr");
	/* the second command: after the first frame */
	rest = strstr(r.out, "\n@@xrun-end ");
	rest = rest ? strchr(rest + 1, '\n') : NULL;
	host_frame_release(&fo);
	host_frame_init(&fo, nonce, 0);
	is_int(rest ? host_frame_feed(&fo, rest + 1, strlen(rest + 1)) : 0, 1,
	       "sh: second frame");
	{
		char cwd[512], want[600];
		if (!getcwd(cwd, sizeof cwd))
			cwd[0] = 0;
		snprintf(want, sizeof want, "%s\n", cwd);
		is_str(fo.data.s, want,
		       "sh: cd stayed in the first subshell, cat read "
		       "/dev/null, not the session's stdin");
	}
	host_frame_release(&fo);
	host_frame_release(&fe);
	proc_result_release(&r);
	buf_release(&in);
}

/* ---- against a real sshd ----------------------------------------------- */

static char dir[128];

/* sshd's sessions so far: one "Starting session:" line each (VERBOSE). */
static int sessions(void)
{
	char path[256];
	struct buf b = BUF_INIT;
	const char *p;
	int n = 0;
	snprintf(path, sizeof path, "%s/sshd.log", dir);
	buf_read_file(&b, path, 0);
	for (p = b.s; p && (p = strstr(p, "Starting session:")) != NULL; p++)
		n++;
	buf_release(&b);
	return n;
}

static int reading(struct host *h, const char *const *argv, double timeout,
		   struct proc_result *r)
{
	struct proc_opts o = {0};
	struct xr_err e = {0};
	o.argv = argv;
	o.timeout = timeout;
	return host_read_run(h, &o, r, &e);
}

/* Kill every process whose cmdline holds tag (the stalled test command
 * and its stopped parent, on this machine: the sshd is loopback's). */
static void kill_tagged(const char *tag)
{
	char cmd[256];
	snprintf(
	    cmd, sizeof cmd,
	    "for d in /proc/[0-9]*; do tr '\\0' ' ' <$d/cmdline 2>/dev/null"
	    " | grep -q -- '%s' && kill -KILL ${d#/proc/} 2>/dev/null; "
	    "done; true",
	    tag);
	fx_sh_ok(cmd);
}

static void ssh_readings(struct host *h)
{
	static const char *const cat[] = {"cat", "/proc/loadavg", NULL};
	static const char *const mixed[] = {
	    "sh", "-c",
	    "echo out; echo err >&2; printf '@@xrun-end x 0\\n'; exit 3", NULL};
	struct proc_result r;
	int n0 = sessions(), good = 0;
	for (int i = 0; i < 5; i++) {
		if (reading(h, cat, 10, &r) == 0 && r.status == PROC_EXITED &&
		    r.exit_code == 0 && r.out_len > 10 && r.err_len == 0)
			good++;
		proc_result_release(&r);
	}
	is_int(good, 5, "ssh: 5 readings of /proc/loadavg answered");
	if (reading(h, mixed, 10, &r) == 0) {
		is_str(r.out, "out\n@@xrun-end x 0\n",
		       "ssh: stdout, a fake end line kept");
		is_str(r.err, "err\n", "ssh: stderr apart");
		is_int(r.exit_code, 3, "ssh: exit status 3");
		proc_result_release(&r);
	} else {
		ok(0, "ssh: mixed reading ran");
	}
	is_int(sessions() - n0, 1, "ssh: 6 readings, one ssh session");
}

static void ssh_deadline(struct host *h)
{
	/* The far-side timeout is stopped, so only the local deadline
	 * (1 s + the ssh margin, 5 s) can end it. The sleep's argument
	 * carries our pid: a test running beside this one (the mutation
	 * runs) kills only its own. */
	char script[96], tag[64];
	const char *stall[] = {"sh", "-c", script, NULL};
	static const char *const cat[] = {"cat", "/proc/loadavg", NULL};
	struct proc_result r;
	int n0 = sessions();
	/* the trailing space: 31.12 is not 31.123 (cmdline NULs read as
	 * spaces) */
	snprintf(tag, sizeof tag, "sleep 31.%ld ", (long)getpid());
	snprintf(script, sizeof script, "kill -STOP $PPID; %s", tag);
	if (reading(h, stall, 1, &r) == 0) {
		is_int(r.status, PROC_TIMEOUT, "deadline: timed out");
		ok(r.elapsed >= 6.0 - 0.05,
		   "deadline: the local one, 1 s + 5 s margin (%.2f s)",
		   r.elapsed);
		proc_result_release(&r);
	} else {
		ok(0, "deadline: ran");
		ok(0, "deadline: ran");
	}
	kill_tagged(tag);
	if (reading(h, cat, 10, &r) == 0) {
		ok(r.status == PROC_EXITED && r.exit_code == 0 &&
		       r.out_len > 10,
		   "deadline: the next reading works");
		proc_result_release(&r);
	} else {
		ok(0, "deadline: next reading ran");
	}
	is_int(sessions() - n0, 1,
	       "deadline: one new session after the killed one");
}

/* The topmost `sh -s` among the "PID CMDLINE" lines of out (a subshell
 * of it has that cmdline too), or 0. */
static long far_shell(const char *out)
{
	long shell = 0;
	for (const char *l = out; l && *l; l = strchr(l, '\n')) {
		long pid;
		char rest[64];
		if (*l == '\n')
			l++;
		if (sscanf(l, "%ld %63[^\n]", &pid, rest) == 2 &&
		    !strcmp(rest, "sh -s "))
			shell = pid;
	}
	return shell;
}

/* The far command walks up its own ancestors (they are alive while it
 * runs) and says "PID CMDLINE" for each. The far shell killed, the next
 * reading must run in a new far shell (restarted once), not as an ssh
 * process of its own: both cost one sshd session, so the reading itself
 * says where it ran (an `sh -s` above it, another pid), and the reading
 * after it needs no new session. */
static void ssh_far_death(struct host *h)
{
	static const char *const me[] = {
	    "sh", "-c",
	    "p=$$; while [ \"$p\" -gt 1 ]; do printf '%s %s\\n' \"$p\" "
	    "\"$(tr '\\0' ' ' </proc/$p/cmdline)\"; p=$(cut -d' ' -f4 "
	    "/proc/$p/stat); done",
	    NULL};
	static const char *const cat[] = {"cat", "/proc/loadavg", NULL};
	struct proc_result r;
	long shell = 0, again = 0;
	int n0;
	if (reading(h, me, 10, &r) == 0) {
		shell = far_shell(r.out);
		proc_result_release(&r);
	}
	n0 = sessions();
	ok(shell > 1, "far death: the far shell found (%ld)", shell);
	if (shell > 1)
		kill((pid_t)shell, SIGKILL);
	if (reading(h, me, 10, &r) == 0) {
		again = far_shell(r.out);
		ok(r.status == PROC_EXITED && r.exit_code == 0 && again > 1 &&
		       again != shell,
		   "far death: the reading ran in a restarted far shell (%ld, "
		   "the killed one %ld)",
		   again, shell);
		proc_result_release(&r);
	} else {
		ok(0, "far death: ran");
	}
	is_int(sessions() - n0, 1, "far death: one new session");
	if (reading(h, cat, 10, &r) == 0) {
		ok(r.status == PROC_EXITED && r.exit_code == 0 &&
		       r.out_len > 10,
		   "far death: the next reading answers");
		proc_result_release(&r);
	} else {
		ok(0, "far death: next ran");
	}
	is_int(sessions() - n0, 1,
	       "far death: the next reading in the restarted shell");
}

/* A command that kills its own session's shell: it dies in the session,
 * again in the restarted one, and then runs as a process of its own,
 * where no `sh -s` is above it. */
static void ssh_twice_dead(struct host *h)
{
	static const char *const killer[] = {
	    "sh", "-c",
	    "p=$$; s=; while [ \"$p\" -gt 1 ]; do [ \"$(tr '\\0' ' ' "
	    "</proc/$p/cmdline)\" = 'sh -s ' ] && s=$p; p=$(cut -d' ' -f4 "
	    "/proc/$p/stat); done; if [ -n \"$s\" ]; then kill -KILL $s; "
	    "exit 0; fi; echo process",
	    NULL};
	static const char *const cat[] = {"cat", "/proc/loadavg", NULL};
	struct proc_result r;
	int n0 = sessions();
	if (reading(h, killer, 10, &r) == 0) {
		is_str(r.out, "process\n",
		       "twice dead: the command ran as a process at last");
		is_int(r.exit_code, 0, "twice dead: exit 0");
		proc_result_release(&r);
	} else {
		ok(0, "twice dead: ran");
		ok(0, "twice dead: ran");
	}
	is_int(sessions() - n0, 2,
	       "twice dead: one restarted session and one process");
	if (reading(h, cat, 10, &r) == 0) {
		ok(r.status == PROC_EXITED && r.exit_code == 0 &&
		       r.out_len > 10,
		   "twice dead: the next reading answers");
		proc_result_release(&r);
	} else {
		ok(0, "twice dead: next ran");
	}
	is_int(sessions() - n0, 3, "twice dead: in a new session");
}

/* A host marked down gets a process per reading (no session starts
 * waiting on ssh); host_check clears the mark and the session is used
 * again. */
static void ssh_down(struct host *h)
{
	static const char *const cat[] = {"cat", "/proc/loadavg", NULL};
	struct proc_result r;
	int n0, good = 0;
	if (reading(h, cat, 10, &r) == 0) /* the session is up */
		proc_result_release(&r);
	host_mark_down(h, "test");
	n0 = sessions();
	for (int i = 0; i < 2; i++) {
		if (reading(h, cat, 10, &r) == 0 && r.status == PROC_EXITED &&
		    r.exit_code == 0)
			good++;
		proc_result_release(&r);
	}
	is_int(good, 2, "down: both readings answered");
	is_int(sessions() - n0, 2, "down: a process (an sshd session) each");
	is_int(host_check(h, NULL), 0, "down: host_check finds it up");
	n0 = sessions();
	if (reading(h, cat, 10, &r) == 0)
		proc_result_release(&r);
	is_int(sessions() - n0, 0, "down: up again, the kept session is used");
}

static void ssh_off(struct plan_host *ph, const char *ctl)
{
	static const char *const cat[] = {"cat", "/proc/loadavg", NULL};
	struct host *h = NULL;
	struct xr_err e = {0};
	struct proc_result r;
	int n0;
	ph->no_session = 1;
	if (host_open(ph, ctl, &h, &e) < 0) {
		ok(0, "session off: open: %s", e.msg);
		return;
	}
	n0 = sessions();
	for (int i = 0; i < 3; i++)
		if (reading(h, cat, 10, &r) == 0)
			proc_result_release(&r);
	is_int(sessions() - n0, 3, "session off: 3 readings, 3 ssh sessions");
	host_close(h);
}

static void test_ssh(void)
{
	const char *opts[] = {"-o", "StrictHostKeyChecking=no", "-o",
			      "UserKnownHostsFile=/dev/null", NULL};
	struct plan_host ph = {0};
	struct host *h = NULL;
	struct xr_err e = {0};
	struct proc *sshd;
	char key[256], ctl[256];
	int port;
	if (getuid() != 0 || access("/usr/sbin/sshd", X_OK) != 0 ||
	    !proc_which("ssh")) {
		tap_skip("ssh: needs root, /usr/sbin/sshd and ssh");
		return;
	}
	if (!(sshd = fx_sshd_start(dir, NULL, &port))) {
		ok(0, "start a test sshd on loopback");
		return;
	}
	snprintf(key, sizeof key, "%s/client_key", dir);
	snprintf(ctl, sizeof ctl, "%s/ctl", dir);
	ph.name = "far";
	ph.ssh = "root@127.0.0.1";
	ph.port = port;
	ph.identity = key;
	ph.ssh_options.argv = opts;
	ph.ssh_options.argc = 4;
	ph.os_given = 1; /* Linux: no uname -s */
	if (host_open(&ph, ctl, &h, &e) < 0) {
		ok(0, "open ssh: %s", e.msg);
	} else {
		ssh_readings(h);
		ssh_deadline(h);
		ssh_far_death(h);
		ssh_twice_dead(h);
		ssh_down(h);
		host_close(h);
		ssh_off(&ph, ctl);
	}
	proc_stop(sshd);
}

int main(void)
{
	tap_plan(51);
	test_frame();
	test_script_text();
	test_script_sh();
	snprintf(dir, sizeof dir, "/tmp/xr-test-session-XXXXXX");
	if (!mkdtemp(dir))
		return 1;
	test_ssh();
	{
		char cmd[256];
		snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
		fx_sh_ok(cmd);
	}
	return tap_done();
}
