/*
 * Far-side deadlines without coreutils (issue 20 item 3). The sh watchdog
 * sent to macOS hosts is run here for real under a PATH holding only sh,
 * sleep, kill and ps (what macOS ships; no timeout, no perl), with dash and
 * with bash as sh (macOS ships both; its sh is bash in POSIX mode): a
 * command past its deadline exits 124 with its process tree gone, what is
 * left is counted from /proc (never timed), statuses and stdin pass
 * through. The fallback used while an OS is unknown is run with that
 * PATH too. The Windows wrapper is
 * checked as text (no PowerShell here): Start-Process -PassThru,
 * WaitForExit(ms), taskkill /T /F, exit 124, and CommandLineToArgvW
 * quoting as Microsoft Learn's "Parsing C command-line arguments" table
 * gives it (a"b -> "a\"b", a\\b unchanged, a trailing backslash doubled
 * inside quotes).
 *
 * SPDX-License-Identifier: MIT
 */
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "farside.h"
#include "host.h"
#include "oswin.h"
#include "proc.h"
#include "tap.h"

static int run_sh(const char *cmd, const char *const *env,
		  struct proc_result *r)
{
	const char *argv[] = {"sh", "-c", cmd, NULL};
	struct proc_opts o = {0};
	struct xr_err e = {0};
	o.argv = argv;
	o.env = env;
	o.timeout = 20;
	return proc_run(&o, r, &e);
}

/* Processes (not zombies) whose argv is exactly "sleep" ARG: counted from
 * /proc, so that what the watchdog leaves behind is counted, not timed. */
static int count_sleep(const char *arg)
{
	char want[64], path[64], got[128], st[256];
	size_t wl =
	    (size_t)snprintf(want, sizeof want, "sleep%c%s", 0, arg) + 1;
	int n = 0;
	DIR *d = opendir("/proc");
	struct dirent *de;
	while (d && (de = readdir(d))) {
		FILE *f;
		size_t len;
		long pid = strtol(de->d_name, NULL, 10);
		if (pid <= 1)
			continue;
		snprintf(path, sizeof path, "/proc/%ld/cmdline", pid);
		if (!(f = fopen(path, "r")))
			continue;
		len = fread(got, 1, sizeof got, f);
		fclose(f);
		if (len != wl || memcmp(got, want, wl) != 0)
			continue;
		snprintf(path, sizeof path, "/proc/%ld/stat", pid);
		if ((f = fopen(path, "r"))) {
			char *rp;
			len = fread(st, 1, sizeof st - 1, f);
			st[len] = 0;
			fclose(f);
			rp = strrchr(st, ')');
			if (rp && rp[1] == ' ' && rp[2] == 'Z')
				continue;
		}
		n++;
	}
	if (d)
		closedir(d);
	return d ? n : -1;
}

/* A pid that is gone or a zombie. */
static int gone(long pid)
{
	char path[64], st[256], *rp;
	FILE *f;
	size_t len;
	snprintf(path, sizeof path, "/proc/%ld/stat", pid);
	if (pid <= 0 || !(f = fopen(path, "r")))
		return pid > 0;
	len = fread(st, 1, sizeof st - 1, f);
	st[len] = 0;
	fclose(f);
	rp = strrchr(st, ')');
	return rp && rp[1] == ' ' && rp[2] == 'Z';
}

/* dir holding only sh (-> shell), sleep, kill and ps: what macOS ships
 * that the watchdog uses; no timeout, no perl. */
static int macos_path(char *dir, const char *shell)
{
	static const char *const tools[] = {"sleep", "kill", "ps"};
	char src[128], dst[300];
	if (!mkdtemp(dir))
		return 0;
	snprintf(dst, sizeof dst, "%s/sh", dir);
	if (symlink(shell, dst) != 0)
		return 0;
	for (size_t i = 0; i < sizeof tools / sizeof tools[0]; i++) {
		snprintf(src, sizeof src, "/usr/bin/%s", tools[i]);
		if (access(src, X_OK) != 0)
			snprintf(src, sizeof src, "/bin/%s", tools[i]);
		snprintf(dst, sizeof dst, "%s/%s", dir, tools[i]);
		if (symlink(src, dst) != 0)
			return 0;
	}
	return 1;
}

static void macos_path_rm(const char *dir)
{
	static const char *const tools[] = {"sh", "sleep", "kill", "ps"};
	char p[300];
	for (size_t i = 0; i < sizeof tools / sizeof tools[0]; i++) {
		snprintf(p, sizeof p, "%s/%s", dir, tools[i]);
		unlink(p);
	}
	rmdir(dir);
}

/* One case: PREFIX(timeout) + cmd under PATH=dir; exit code, or -1. */
static int wd(const char *pre, double timeout, const char *cmd,
	      const char *const *env, struct proc_result *r)
{
	struct buf c = BUF_INIT;
	int rc;
	if (pre)
		buf_adds(&c, pre);
	farside_sh_prefix(timeout, &c);
	buf_adds(&c, cmd);
	rc = run_sh(c.s, env, r);
	buf_release(&c);
	return rc == 0 ? r->exit_code : -1;
}

#define SH_CASES 8

/* The sh watchdog run for real under a macOS-like PATH, with shell as sh
 * (dash, as macOS also ships; bash in POSIX mode, macOS's default sh). */
static void test_sh(const char *shell, const char *name)
{
	char dir[] = "/tmp/xrun-farside-XXXXXX", env0[300], a1[32], a2[32],
	     a3[32], cmd[200];
	const char *env[] = {env0, NULL};
	struct proc_result r;
	int code, u = (int)(getpid() % 1000);
	long pid;

	if (access(shell, X_OK) != 0 || !macos_path(dir, shell)) {
		for (int i = 0; i < SH_CASES; i++)
			tap_skip(shell);
		return;
	}
	snprintf(env0, sizeof env0, "PATH=%s", dir);
	snprintf(a1, sizeof a1, "31.%03d", u);
	snprintf(a2, sizeof a2, "30.%03d", u);
	snprintf(a3, sizeof a3, "7.%03d", u);
	/* a child that leaves a grandchild behind, both past the deadline */
	snprintf(cmd, sizeof cmd, "sh -c 'sleep %s & echo $!; sleep %s'", a1,
		 a2);
	code = wd(NULL, 1.0, cmd, env, &r);
	ok(code == 124 && strstr(r.err ? r.err : "",
				 "xrun watchdog: deadline of 1.000 s reached: "
				 "process tree "),
	   "%s: past the deadline: exit 124 and says why (%d)", name, code);
	pid = code >= 0 ? strtol(r.out ? r.out : "0", NULL, 10) : 0;
	ok(gone(pid) && count_sleep(a1) == 0 && count_sleep(a2) == 0,
	   "%s: child and grandchild gone (%d, %d left)", name, count_sleep(a1),
	   count_sleep(a2));
	if (code >= 0)
		proc_result_release(&r);
	/* a command that ignores SIGTERM: SIGKILL after the grace */
	snprintf(cmd, sizeof cmd, "sh -c 'trap \"\" TERM; sleep %s'", a1);
	code = wd(NULL, 1.0, cmd, env, &r);
	ok(code == 124 && count_sleep(a1) == 0,
	   "%s: SIGTERM ignored: killed anyway (%d, %d left)", name, code,
	   count_sleep(a1));
	if (code >= 0)
		proc_result_release(&r);
	/* ends first: the watcher's sleep (of the deadline) is gone too */
	code = wd(NULL, 7.0 + u / 1000.0, "sh -c 'exit 3'", env, &r);
	ok(code == 3 && count_sleep(a3) == 0 && r.err_len == 0,
	   "%s: exit status passed, watcher gone, stderr clean (%d, %d left)",
	   name, code, count_sleep(a3));
	if (code >= 0)
		proc_result_release(&r);
	code = wd(NULL, 5.0, "sh -c 'kill -TERM $$'", env, &r);
	ok(code == 143, "%s: death by SIGTERM reads 128+15 (%d)", name, code);
	if (code >= 0)
		proc_result_release(&r);
	code = wd(NULL, 5.0, "no-such-command-xrun", env, &r);
	ok(code == 127, "%s: a command not found exits 127 (%d)", name, code);
	if (code >= 0)
		proc_result_release(&r);
	code =
	    wd("echo abc | ", 5.0, "sh -c 'read x; echo \"got $x\"'", env, &r);
	ok(code == 0 && r.out && strcmp(r.out, "got abc\n") == 0,
	   "%s: stdin reaches the command", name);
	if (code >= 0)
		proc_result_release(&r);
	/* the fallback while the OS is unknown: no timeout here, so sh */
	{
		struct buf c = BUF_INIT;
		farside_any_prefix(1.0, &c);
		snprintf(cmd, sizeof cmd, "sleep %s", a2);
		buf_adds(&c, cmd);
		code = run_sh(c.s, env, &r) == 0 ? r.exit_code : -1;
		ok(code == 124 && count_sleep(a2) == 0,
		   "%s: without timeout in PATH the sh watchdog stops it (%d)",
		   name, code);
		if (code >= 0)
			proc_result_release(&r);
		buf_release(&c);
	}
	macos_path_rm(dir);
}

static void test_windows(void)
{
	struct buf c = BUF_INIT, want = BUF_INIT, enc = BUF_INIT;
	const char *probe[] = {"powershell.exe", "-NoProfile",
			       "-EncodedCommand", "QUJD", NULL};
	const char *hook[] = {"Set-NetAdapterRss", "-Name", "Ethernet 2",
			      "-Enabled",	   "$true", NULL};
	const char *env[] = {"XRUN_RUN=7", NULL};

	farside_powershell(probe, NULL, 12.0, 0, &c);
	ok(strstr(c.s, "$p = Start-Process -FilePath 'powershell.exe' "
		       "-ArgumentList '-NoProfile -EncodedCommand QUJD' "
		       "-NoNewWindow -PassThru; $null = $p.Handle; "
		       "if (-not $p.WaitForExit(12000)) { taskkill.exe /T /F "
		       "/PID $p.Id | Out-Null;"),
	   "powershell.exe started directly, bounded, tree killed");
	ok(strstr(c.s, "exit 124 }; $p.WaitForExit(); exit $p.ExitCode"),
	   "124 at the deadline, else the child's status");
	buf_reset(&c);
	farside_powershell(hook, env, 5.0, 0, &c);
	buf_adds(&want, "$ErrorActionPreference = 'Stop'\n& "
			"'Set-NetAdapterRss' '-Name' 'Ethernet 2' '-Enabled' "
			"'$true'\nif ($LASTEXITCODE) { exit $LASTEXITCODE }\n");
	oswin_encode(want.s, &enc);
	buf_reset(&want);
	buf_addf(&want,
		 "$env:XRUN_RUN='7'; $p = Start-Process -FilePath "
		 "'powershell.exe' -ArgumentList '-NoProfile -NonInteractive "
		 "-EncodedCommand %s' -NoNewWindow",
		 enc.s);
	ok(strncmp(c.s, want.s, want.len) == 0,
	   "a cmdlet runs in a child powershell that stops on its error");
	buf_reset(&c);
	farside_win_cmdline(
	    (const char *const[]){"a\"b", "a\\\\b", "x y\\", "", "plain", NULL},
	    &c);
	is_str(c.s, "\"a\\\"b\" a\\\\b \"x y\\\\\" \"\" plain",
	       "CommandLineToArgvW quoting");
	buf_release(&c);
	buf_release(&want);
	buf_release(&enc);
}

/* The local deadline's kill on Windows: the mark the wrapper writes, read
 * back from CR LF output, and the exact kill script. */
static void test_windows_kill(void)
{
	struct buf c = BUF_INIT;
	const char *probe[] = {"powershell.exe", "-NoProfile", NULL};
	char err[] = "first\r\n@@xrun-far-pid 4242 133774512345678901\r\n"
		     "last\r\n";
	char sh[] = "@@xrun-far-pid 77\nx\n", bad[] = "@@xrun-far-pid 9x\n";
	size_t len = strlen(err);
	unsigned long long start = 1;

	farside_powershell(probe, NULL, 3.0, 1, &c);
	ok(strstr(c.s, "-NoNewWindow -PassThru; $null = $p.Handle; "
		       "[Console]::Error.WriteLine('@@xrun-far-pid ' + $p.Id + "
		       "' ' + $p.StartTime.ToFileTimeUtc()); if (-not "
		       "$p.WaitForExit(3000))") != NULL,
	   "the wrapper says the child's id and start time first");
	ok(farside_take_pid(err, &len, &start) == 4242 &&
	       start == 133774512345678901ULL && len == 13 &&
	       strcmp(err, "first\r\nlast\r\n") == 0,
	   "CR LF mark read and taken out of stderr");
	len = strlen(sh);
	ok(farside_take_pid(sh, &len, &start) == 77 && start == 0 &&
	       strcmp(sh, "x\n") == 0,
	   "sh mark: pid alone");
	len = strlen(bad);
	ok(farside_take_pid(bad, &len, &start) == 0 && len == 18,
	   "a malformed mark is left alone");
	buf_reset(&c);
	farside_win_kill(4242, 133774512345678901ULL, &c);
	is_str(c.s,
	       "try { $q = Get-Process -Id 4242 -ErrorAction Stop } catch { "
	       "'gone'; exit 0 }\n"
	       "if ($q.StartTime.ToFileTimeUtc() -ne 133774512345678901) { "
	       "'gone'; exit 0 }\n"
	       "taskkill.exe /T /F /PID 4242\nexit $LASTEXITCODE\n",
	       "the kill script: only that child (same start), its tree");
	buf_release(&c);
}

int main(void)
{
	tap_plan(2 * SH_CASES + 3 + 5);
	test_sh("/bin/dash", "dash");
	test_sh("/bin/bash", "bash");
	test_windows();
	test_windows_kill();
	return tap_done();
}
