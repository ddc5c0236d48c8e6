/* is_int() evaluates its arguments twice: calls go through rv_ first.
 *
 * SPDX-License-Identifier: MIT
 */
/* Unit tests for host transports: sh/PowerShell quoting checked through a
 * real sh, the local transport, netns against a real namespace and ssh
 * against a real sshd started here on a loopback port (root only). */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buf.h"
#include "host.h"
#include "plan.h"
#include "proc.h"
#include "tap.h"
#include "sshd_fixture.h"

static char pwned[256];

static const char *const nasty[] = {
    "$(touch PWNED)",
    "`touch PWNED`",
    "a;touch PWNED",
    "it's",
    "'",
    "''",
    "\"",
    "a\nb",
    "*",
    "~",
    "$HOME",
    "\\",
    "",
    " lead",
    "-n",
    "%s",
    "a b\tc",
    "&& touch PWNED",
    "| touch PWNED",
    "x'; touch PWNED; '",
    "\xe2\x80\x99quoted\xe2\x80\x98",
    "#",
    "!",
    "{a,b}",
    NULL,
};

/* The nasty word with PWNED replaced by the path of the canary file. */
static void expand(const char *w, struct buf *b)
{
	const char *p = strstr(w, "PWNED");
	buf_reset(b);
	if (!p) {
		buf_adds(b, w);
		return;
	}
	buf_add(b, w, (size_t)(p - w));
	buf_adds(b, pwned);
	buf_adds(b, p + 5);
}

static int pwned_exists(void)
{
	struct stat st;
	return stat(pwned, &st) == 0;
}

static int pid_gone(long pid)
{
	char path[64], st[512] = "";
	FILE *f;
	char *rp;
	if (kill((pid_t)pid, 0) < 0 && errno == ESRCH)
		return 1;
	snprintf(path, sizeof path, "/proc/%ld/stat", pid);
	f = fopen(path, "r");
	if (!f)
		return 1;
	if (!fgets(st, sizeof st, f))
		st[0] = 0;
	fclose(f);
	rp = strrchr(st, ')');
	return rp && rp[1] == ' ' && rp[2] == 'Z';
}

static int run_argv(const char *const *argv, struct proc_result *r)
{
	struct proc_opts o = {0};
	struct xr_err e = {0};
	o.argv = argv;
	o.timeout = 20;
	return proc_run(&o, r, &e);
}

static void test_quote_sh(void)
{
	struct buf w = BUF_INIT, cmd = BUF_INIT;
	int i;
	for (i = 0; nasty[i]; i++) {
		struct proc_result r;
		const char *argv[] = {"sh", "-c", NULL, NULL};
		expand(nasty[i], &w);
		buf_reset(&cmd);
		buf_adds(&cmd, "printf %s ");
		host_quote_sh(w.s, &cmd);
		argv[2] = cmd.s;
		run_argv(argv, &r);
		ok(r.out && !strcmp(r.out, w.s) && r.exit_code == 0,
		   "sh round trip of word %d", i);
		proc_result_release(&r);
	}
	ok(!pwned_exists(), "no quoted word ran a command through sh");
	buf_reset(&cmd);
	host_quote_sh("it's", &cmd);
	is_str(cmd.s, "'it'\\''s'", "sh quote form");
	buf_release(&w);
	buf_release(&cmd);
}

static void test_quote_powershell(void)
{
	struct buf b = BUF_INIT, w = BUF_INIT;
	int i;
	host_quote_powershell("it's", &b);
	is_str(b.s, "'it''s'", "powershell doubles '");
	buf_reset(&b);
	host_quote_powershell("$(touch x) `n \"a\"", &b);
	is_str(b.s, "'$(touch x) `n \"a\"'",
	       "powershell leaves $ ` \" literal");
	buf_reset(&b);
	host_quote_powershell("a\xe2\x80\x99z", &b);
	is_str(b.s, "'a\xe2\x80\x99\xe2\x80\x99z'",
	       "powershell doubles typographic quotes");
	/* With pwsh installed, round-trip every word through it. */
	if (proc_which("pwsh")) {
		for (i = 0; nasty[i]; i++) {
			struct proc_result r;
			const char *argv[] = {"pwsh", "-NoProfile", "-Command",
					      NULL, NULL};
			expand(nasty[i], &w);
			buf_reset(&b);
			buf_adds(&b, "[Console]::Out.Write(");
			host_quote_powershell(w.s, &b);
			buf_adds(&b, ")");
			argv[3] = b.s;
			run_argv(argv, &r);
			ok(r.out && !strcmp(r.out, w.s),
			   "pwsh round trip of word %d", i);
			proc_result_release(&r);
		}
		ok(!pwned_exists(), "no word ran a command through pwsh");
	}
	buf_release(&b);
	buf_release(&w);
}

static void test_local(void)
{
	struct plan_host ph = {0};
	struct host *h = NULL;
	struct xr_err e = {0};
	struct proc_result r;
	struct proc_opts o = {0};
	struct buf b = BUF_INIT;
	const char *argv[] = {"printf", "%s|%s", "$(x)", "a b", NULL};
	char **wa;
	ph.name = "local";
	{
		long rv_ = host_open(&ph, NULL, &h, &e);
		is_int(rv_, 0, "open local");
	}
	is_str(host_kind(h), "local", "kind local");
	is_str(host_address(h), "127.0.0.1", "local address");
	ok(host_is_local(h), "local is local");
	o.argv = argv;
	o.timeout = 5;
	{
		long rv_ = host_run(h, &o, &r, &e);
		is_int(rv_, 0, "run local");
	}
	is_str(r.out, "$(x)|a b", "local argv is literal");
	proc_result_release(&r);
	wa = host_wrap_argv(h, argv, 5);
	ok(wa && !strcmp(wa[0], "printf") && !strcmp(wa[2], "$(x)") && !wa[4],
	   "local wrap is the argv itself");
	host_argv_free(wa);
	{
		long rv_ = host_read_file(h, "/proc/self/status", &b, &e);
		is_int(rv_, 0, "read local file");
	}
	ok(strstr(b.s, "Name:") != NULL, "local file content");
	ok(host_read_file(h, "/nonexistent/x", &b, &e) < 0 &&
	       strstr(e.msg, "'/nonexistent/x'"),
	   "missing local file: %s", e.msg);
	buf_release(&b);
	host_close(h);
}

static void test_netns(void)
{
	char ns[64], cmd[512];
	struct plan_host ph = {0};
	struct host *h = NULL;
	struct xr_err e = {0};
	struct proc_result r;
	struct proc_opts o = {0};
	struct buf b = BUF_INIT;
	const char *argv[] = {"ip", "-o", "link", "show", "xrd0", NULL};
	char **wa;
	/* Directories under /run/netns are no namespaces (ip refuses them
	 * only at every run). Needs no namespace of its own. */
	ph.name = "server";
	ph.netns = "..";
	ok(host_open(&ph, NULL, &h, &e) == -XR_EHOST && strstr(e.msg, "'..'"),
	   "'..' is no namespace: %s", e.msg);
	ph.netns = ".";
	ok(host_open(&ph, NULL, &h, &e) == -XR_EHOST, "'.' is no namespace: %s",
	   e.msg);
	snprintf(ns, sizeof ns, "xr-test-host-%ld", (long)getpid());
	snprintf(cmd, sizeof cmd,
		 "ip netns add %s && ip -n %s link add xrd0 type veth peer "
		 "name xrd1 && "
		 "ip -n %s addr add 198.18.99.1/32 dev xrd0 && "
		 "ip -n %s link set xrd0 up",
		 ns, ns, ns, ns);
	if (!fx_sh_ok(cmd)) {
		tap_skip("netns: cannot create a namespace (ip netns add)");
		snprintf(cmd, sizeof cmd, "ip netns del %s", ns);
		fx_sh_ok(cmd);
		return;
	}
	ph.name = "server";
	ph.netns = ns;
	{
		long rv_ = host_open(&ph, NULL, &h, &e);
		is_int(rv_, 0, "open netns");
	}
	is_str(host_kind(h), "netns", "kind netns");
	is_str(host_address(h), "198.18.99.1", "netns address from ip -j addr");
	ok(!host_is_local(h), "netns is not local");
	o.argv = argv;
	o.timeout = 5;
	{
		long rv_ = host_run(h, &o, &r, &e);
		is_int(rv_, 0, "run in netns");
	}
	ok(r.exit_code == 0 && strstr(r.out, "xrd0"),
	   "command sees the namespace's link");
	proc_result_release(&r);
	{
		long rv_ = host_read_file(h, "/proc/net/dev", &b, &e);
		is_int(rv_, 0, "read in netns");
	}
	ok(strstr(b.s, "xrd0") != NULL, "file read inside the namespace");
	buf_release(&b);
	wa = host_wrap_argv(h, argv, 0);
	ok(wa && !strcmp(wa[0], "ip") && !strcmp(wa[3], ns) &&
	       !strcmp(wa[4], "ip"),
	   "netns wrap is ip netns exec NAME argv");
	host_argv_free(wa);
	host_close(h);
	snprintf(cmd, sizeof cmd, "ip netns del %s", ns);
	fx_sh_ok(cmd);
	ph.netns = "xr-no-such-ns";
	ok(host_open(&ph, NULL, &h, &e) == -XR_EHOST &&
	       strstr(e.msg, "'xr-no-such-ns'"),
	   "missing namespace: %s", e.msg);
}

/* ---- ssh against a real sshd ------------------------------------------ */

static char dir[128];

static int count_in_file(const char *path, const char *needle)
{
	struct buf b = BUF_INIT;
	const char *p;
	int n = 0;
	buf_read_file(&b, path, 0);
	for (p = b.s; (p = strstr(p, needle)) != NULL; p++)
		n++;
	buf_release(&b);
	return n;
}

static void test_ssh(void)
{
	char check[512];
	struct plan_host ph = {0};
	struct host *h = NULL;
	struct xr_err e = {0};
	struct proc_result r;
	struct proc_opts o = {0};
	struct buf w = BUF_INIT, b = BUF_INIT;
	struct proc *sshd, *bg;
	char key[256], log[256], ctl[256];
	const char *opts[] = {"-o", "StrictHostKeyChecking=no", "-o",
			      "UserKnownHostsFile=/dev/null", NULL};
	int port, i, all_ok = 1;
	char **wa;
	long rpid;
	char pbin[300], pexe[320];
	const char *paths[] = {pbin, NULL};

	if (getuid() != 0 || access("/usr/sbin/sshd", X_OK) != 0 ||
	    !proc_which("ssh")) {
		tap_skip("ssh: needs root, /usr/sbin/sshd and ssh");
		return;
	}
	sshd = fx_sshd_start(dir, NULL, &port);
	if (!sshd) {
		ok(0, "start a test sshd on loopback");
		return;
	}
	snprintf(key, sizeof key, "%s/client_key", dir);
	snprintf(log, sizeof log, "%s/sshd.log", dir);
	snprintf(ctl, sizeof ctl, "%s/ctl", dir);
	ph.name = "far";
	ph.ssh = "root@127.0.0.1";
	ph.port = port;
	ph.identity = key;
	ph.ssh_options.argv = opts;
	ph.ssh_options.argc = 4;
	/* path: a directory of its own holding the only xr-onpath */
	snprintf(pbin, sizeof pbin, "%s/pbin", dir);
	snprintf(pexe, sizeof pexe, "%s/xr-onpath", pbin);
	if (mkdir(pbin, 0755) == 0 || access(pbin, F_OK) == 0) {
		FILE *f = fopen(pexe, "w");
		if (f) {
			fputs("#!/bin/sh\necho \"on path\"\n", f);
			fclose(f);
			chmod(pexe, 0755);
		}
	}
	ph.path.argv = paths;
	ph.path.argc = 1;

	{
		long rv_ = host_open(&ph, ctl, &h, &e);
		is_int(rv_, 0, "open ssh");
	}
	if (!h) {
		fprintf(stderr, "# %s\n", e.msg);
		proc_stop(sshd);
		return;
	}
	is_str(host_kind(h), "ssh", "kind ssh");
	is_str(host_address(h), "127.0.0.1", "ssh address is the host part");

	/* Each nasty word arrives as one literal argument. */
	for (i = 0; nasty[i]; i++) {
		const char *argv[] = {"printf", "[%s]", NULL, NULL};
		expand(nasty[i], &w);
		argv[2] = w.s;
		o.argv = argv;
		o.timeout = 10;
		buf_reset(&b);
		buf_addf(&b, "[%s]", w.s);
		if (host_run(h, &o, &r, &e) != 0 || !r.out ||
		    strcmp(r.out, b.s)) {
			all_ok = 0;
			fprintf(stderr, "# word %d: got '%s' err '%s'\n", i,
				r.out ? r.out : "", r.err ? r.err : "");
		}
		proc_result_release(&r);
	}
	ok(all_ok, "every word reaches the remote command literally");
	ok(!pwned_exists(), "no remote command was injected");

	{
		const char *argv[] = {"sh", "-c", "cat; printf %s \"$XR_V\"",
				      NULL};
		const char *env[] = {"XR_V=v a;l", NULL};
		o.argv = argv;
		o.env = env;
		o.stdin_data = "in put\n";
		{
			long rv_ = host_run(h, &o, &r, &e);
			is_int(rv_, 0, "ssh run with stdin, env");
		}
		is_str(r.out, "in put\nv a;l", "stdin and env cross ssh");
		proc_result_release(&r);
		o.env = NULL;
		o.stdin_data = NULL;
	}
	{
		const char *argv[] = {"xr-onpath", NULL};
		o.argv = argv;
		host_run(h, &o, &r, &e);
		ok(r.status == PROC_EXITED && r.exit_code == 0 && r.out &&
		       !strcmp(r.out, "on path\n"),
		   "path: its directory is searched first on the far side");
		proc_result_release(&r);
	}
	{
		const char *argv[] = {"sh", "-c", "echo oops >&2; exit 7",
				      NULL};
		o.argv = argv;
		host_run(h, &o, &r, &e);
		ok(r.status == PROC_EXITED && r.exit_code == 7 &&
		       !strcmp(r.err, "oops\n"),
		   "remote exit code and stderr kept (%d '%s')", r.exit_code,
		   r.err);
		proc_result_release(&r);
	}
	{
		/* Under a deadline the far side says its pid first on
		 * stderr (host_ssh.c); the stored stderr is the command's. */
		const char *argv[] = {"sh", "-c", "echo oops >&2; exit 7",
				      NULL};
		double was = o.timeout;
		o.argv = argv;
		o.timeout = 10;
		host_run(h, &o, &r, &e);
		ok(r.status == PROC_EXITED && r.exit_code == 7 &&
		       !strcmp(r.err, "oops\n"),
		   "stderr byte-exact under a far-side deadline ('%s')", r.err);
		proc_result_release(&r);
		o.timeout = was;
	}
	is_int(count_in_file(log, "Accepted publickey"), 1,
	       "one ssh connection for all commands (ControlMaster reused)");

	/* A remote command past its deadline dies over there too. */
	{
		const char *argv[] = {
		    "sh", "-c", "trap '' TERM; echo $$; exec sleep 30", NULL};
		double t = proc_now_mono();
		o.argv = argv;
		o.timeout = 1;
		host_run(h, &o, &r, &e);
		t = proc_now_mono() - t;
		ok(r.status == PROC_TIMEOUT,
		   "remote deadline is a timeout (%d, exit %d, %.2f s)",
		   (int)r.status, r.exit_code, r.elapsed);
		ok(t < 8, "returned soon after the deadline (%.1f s)", t);
		rpid = atol(r.out);
		ok(rpid > 0, "remote pid reported");
		proc_sleep(0.3);
		ok(rpid > 0 && pid_gone(rpid), "nothing left on the far side");
		proc_result_release(&r);
	}
	/* What `xrun plan` shows: the real local argv. */
	wa = host_wrap_argv(
	    h, (const char *const[]){"iperf3", "-c", "x y", NULL}, 12);
	ok(wa && !strcmp(wa[0], "ssh"), "ssh wrap starts with ssh");
	if (wa) {
		for (i = 0; wa[i + 1]; i++)
			;
		buf_reset(&b);
		buf_addf(&b,
			 "PATH='%s:'\"$PATH\"; export PATH; timeout -k 2 "
			 "12.000 'iperf3' '-c' 'x y'",
			 pbin);
		is_str(wa[i], b.s,
		       "remote command: path:, quoted, its own deadline");
	}
	host_argv_free(wa);

	/* A background command stops on both sides. */
	{
		char pidf[256];
		const char *argv[] = {"sh", "-c", NULL, NULL};
		snprintf(pidf, sizeof pidf,
			 "echo $$ > %s/bg.pid; exec sleep 61", dir);
		argv[2] = pidf;
		o.argv = argv;
		o.timeout = 0;
		bg = host_spawn(h, &o, NULL, &e);
		ok(bg != NULL, "ssh spawn");
		snprintf(pidf, sizeof pidf, "%s/bg.pid", dir);
		for (i = 0; i < 50; i++) {
			buf_reset(&b);
			if (buf_read_file(&b, pidf, 0) == 0 && b.len)
				break;
			proc_sleep(0.1);
		}
		rpid = atol(b.s);
		ok(rpid > 0 && !pid_gone(rpid), "remote background running");
		proc_stop(bg);
		for (i = 0; i < 30 && rpid > 0 && !pid_gone(rpid); i++)
			proc_sleep(0.1);
		ok(rpid > 0 && pid_gone(rpid), "remote background stopped");
	}
	buf_reset(&b);
	{
		long rv_ = host_read_file(h, log, &b, &e);
		is_int(rv_, 0, "read a file over ssh");
	}
	ok(strstr(b.s, "Accepted publickey") != NULL, "file content over ssh");
	ok(host_read_file(h, "/nonexistent/y", &b, &e) < 0 &&
	       strstr(e.msg, "No such file"),
	   "missing remote file: %s", e.msg);

	/* The connection dropping under a command (here: the remote
	 * command kills the sshd process that serves the connection) is
	 * said in words, and the next command reconnects. */
	{
		const char *argv[] = {"sh", "-c", "kill -9 $PPID; sleep 5",
				      NULL};
		o.argv = argv;
		o.timeout = 10;
		host_run(h, &o, &r, &e);
		ok(r.status == PROC_EXITED && r.exit_code == 255 && r.err &&
		       strstr(r.err, "connection was lost") &&
		       strstr(r.err, "root@127.0.0.1"),
		   "lost connection said (%d, '%s')", r.exit_code, r.err);
		proc_result_release(&r);
		argv[2] = "echo back";
		host_run(h, &o, &r, &e);
		ok(r.status == PROC_EXITED && r.exit_code == 0 &&
		       !strcmp(r.out, "back\n"),
		   "next command reconnects ('%s')", r.err);
		proc_result_release(&r);
	}
	snprintf(check, sizeof check,
		 "ssh -o ControlPath=%s/%%C -p %d -O check "
		 "root@127.0.0.1 2>/dev/null",
		 ctl, port);
	ok(fx_sh_ok(check), "master running while open");
	host_close(h);
	ok(!fx_sh_ok(check), "master stopped by host_close");

	/* host_check: up while sshd serves, down (with ssh's words) once
	 * it and its connections are gone; the mark stays. */
	{
		struct buf why = BUF_INIT;
		long rv_ = host_open(&ph, ctl, &h, &e), rc_;
		is_int(rv_, 0, "open again for host_check");
		ok(rv_ == 0 && host_check(h, &why) == 0 && !host_is_down(h),
		   "host_check: up");
		proc_stop(sshd);
		/* and the master's connection too, however sshd's
		 * per-connection children fared */
		snprintf(check, sizeof check,
			 "ssh -o ControlPath=%s/%%C -p %d -O exit "
			 "root@127.0.0.1 2>/dev/null",
			 ctl, port);
		fx_sh_ok(check);
		rc_ = rv_ == 0 ? host_check(h, &why) : 0;
		ok(rc_ == -XR_EHOST && host_is_down(h) &&
		       host_down_since(h) > 0 &&
		       strstr(host_down_reason(h), "refused") && why.s &&
		       !strcmp(why.s, host_down_reason(h)),
		   "host_check: down ('%s')", h ? host_down_reason(h) : "");
		host_close(h);
		buf_release(&why);
	}
	/* Unreachable: a clear error quoting the host and ssh's words. */
	ph.name = "gone";
	{
		long rv_ = host_open(&ph, ctl, &h, &e);
		is_int(rv_, -XR_EHOST, "unreachable host");
	}
	ok(strstr(e.msg, "'gone'") && strstr(e.msg, "root@127.0.0.1") &&
	       strstr(e.msg, "refused"),
	   "unreachable message: %s", e.msg);
	buf_release(&w);
	buf_release(&b);
}

/* host_plan_address: what host_open would give, without opening (the dry
 * run's addresses). An ssh alias resolves to its HostName (ssh -G). */
static void test_plan_address(void)
{
	struct plan_host ph = {0};
	char cfg[300], *a;
	const char *opts[] = {"-F", cfg, NULL};
	FILE *f;
	ph.name = "local";
	a = host_plan_address(&ph);
	is_str(a, "127.0.0.1", "plan address: local");
	free(a);
	ok(host_plan_is_local(&ph), "plan host local");
	ph.address = "192.0.2.9";
	a = host_plan_address(&ph);
	is_str(a, "192.0.2.9", "plan address: address: wins");
	free(a);
	ph.address = NULL;
	snprintf(cfg, sizeof cfg, "%s/ssh_config", dir);
	f = fopen(cfg, "w");
	if (!f)
		return;
	fputs("Host lab-alias\n  HostName 192.0.2.77\n", f);
	fclose(f);
	ph.ssh = "me@lab-alias";
	ph.ssh_options.argv = opts;
	ph.ssh_options.argc = 2;
	a = host_plan_address(&ph);
	if (proc_which("ssh"))
		is_str(a, "192.0.2.77", "plan address: ssh alias -> HostName");
	else
		is_str(a, "lab-alias", "plan address: no ssh, the host part");
	free(a);
	ok(!host_plan_is_local(&ph), "plan host ssh is not local");
}

int main(void)
{
	tap_plan(89);
	char cmd[256];
	snprintf(dir, sizeof dir, "/tmp/xr-test-host-XXXXXX");
	if (!mkdtemp(dir))
		return 1;
	snprintf(pwned, sizeof pwned, "%s/pwned", dir);
	test_quote_sh();
	test_quote_powershell();
	test_local();
	test_plan_address();
	if (getuid() == 0)
		test_netns();
	else
		tap_skip("netns: needs root");
	test_ssh();
	ok(!pwned_exists(), "canary file never created");
	snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
	fx_sh_ok(cmd);
	return tap_done();
}
