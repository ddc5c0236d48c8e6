/*
 * Far-side deadlines without coreutils (issue 20 item 3). The perl
 * watchdog sent to macOS hosts is run here for real, with this machine's
 * perl (not macOS's: same language, so the logic is checked, the host is
 * not): a command past its deadline exits 124 with its process group
 * gone, statuses pass through. The sh fallback used while an OS is
 * unknown is run with a PATH that has no `timeout`. The Windows wrapper is
 * checked as text (no PowerShell here): Start-Process -PassThru,
 * WaitForExit(ms), taskkill /T /F, exit 124, and CommandLineToArgvW
 * quoting as Microsoft Learn's "Parsing C command-line arguments" table
 * gives it (a"b -> "a\"b", a\\b unchanged, a trailing backslash doubled
 * inside quotes).
 */
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

static void test_perl(void)
{
	struct buf c = BUF_INIT;
	struct proc_result r;
	long pid;

	farside_perl_prefix(1.0, &c);
	/* a child that leaves a grandchild behind, both past the deadline */
	buf_adds(&c, "sh -c 'sleep 30 & echo $!; sleep 30'");
	if (run_sh(c.s, NULL, &r) == 0) {
		ok(r.status == PROC_EXITED && r.exit_code == 124,
		   "past the deadline: exit 124 (%d)", r.exit_code);
		ok(r.elapsed < 5.0, "ended near the 1 s deadline (%.2f s)",
		   r.elapsed);
		ok(strstr(r.err ? r.err : "", "deadline of 1.000 s reached"),
		   "says why on stderr");
		pid = strtol(r.out ? r.out : "0", NULL, 10);
		usleep(200000);
		ok(pid > 0 && kill((pid_t)pid, 0) < 0,
		   "the grandchild went with its group");
		proc_result_release(&r);
	} else {
		for (int i = 0; i < 4; i++)
			ok(0, "perl watchdog ran");
	}
	buf_reset(&c);
	farside_perl_prefix(5.0, &c);
	buf_adds(&c, "sh -c 'exit 3'");
	ok(run_sh(c.s, NULL, &r) == 0 && r.exit_code == 3,
	   "exit status passed through");
	proc_result_release(&r);
	buf_reset(&c);
	farside_perl_prefix(5.0, &c);
	buf_adds(&c, "sh -c 'kill -TERM $$'");
	ok(run_sh(c.s, NULL, &r) == 0 && r.exit_code == 143,
	   "death by SIGTERM reads 128+15 as sh says");
	proc_result_release(&r);
	buf_reset(&c);
	farside_perl_prefix(5.0, &c);
	buf_adds(&c, "no-such-command-xrun");
	ok(run_sh(c.s, NULL, &r) == 0 && r.exit_code == 127,
	   "a command not found exits 127");
	proc_result_release(&r);
	buf_release(&c);
}

/* The fallback with PATH holding sh, perl and sleep but no timeout. */
static void test_any(void)
{
	char dir[] = "/tmp/xrun-farside-XXXXXX";
	static const char *const tools[] = {"sh", "perl", "sleep", "echo"};
	char env0[300], path[400];
	struct buf c = BUF_INIT;
	struct proc_result r;
	int okdir = mkdtemp(dir) != NULL;

	for (size_t i = 0; okdir && i < sizeof tools / sizeof tools[0]; i++) {
		char src[64];
		snprintf(src, sizeof src, "/usr/bin/%s", tools[i]);
		if (access(src, X_OK) != 0)
			snprintf(src, sizeof src, "/bin/%s", tools[i]);
		snprintf(path, sizeof path, "%s/%s", dir, tools[i]);
		okdir = symlink(src, path) == 0;
	}
	snprintf(env0, sizeof env0, "PATH=%s", dir);
	farside_any_prefix(1.0, &c);
	buf_adds(&c, "sleep 30");
	{
		const char *env[] = {env0, NULL};
		int rc = okdir ? run_sh(c.s, env, &r) : -1;
		ok(rc == 0 && r.exit_code == 124 && r.elapsed < 5.0,
		   "without timeout in PATH the perl watchdog stops it (%d)",
		   rc == 0 ? r.exit_code : -1);
		if (rc == 0)
			proc_result_release(&r);
	}
	ok(strncmp(c.s, "sh -c 'if command -v timeout", 28) == 0,
	   "coreutils timeout first where there is one");
	for (size_t i = 0; i < sizeof tools / sizeof tools[0]; i++) {
		snprintf(path, sizeof path, "%s/%s", dir, tools[i]);
		unlink(path);
	}
	rmdir(dir);
	buf_release(&c);
}

static void test_windows(void)
{
	struct buf c = BUF_INIT, want = BUF_INIT, enc = BUF_INIT;
	const char *probe[] = {"powershell.exe", "-NoProfile",
			       "-EncodedCommand", "QUJD", NULL};
	const char *hook[] = {"Set-NetAdapterRss", "-Name", "Ethernet 2",
			      "-Enabled",	   "$true", NULL};
	const char *env[] = {"XRUN_RUN=7", NULL};

	farside_powershell(probe, NULL, 12.0, &c);
	ok(strstr(c.s, "$p = Start-Process -FilePath 'powershell.exe' "
		       "-ArgumentList '-NoProfile -EncodedCommand QUJD' "
		       "-NoNewWindow -PassThru; $null = $p.Handle; "
		       "if (-not $p.WaitForExit(12000)) { taskkill.exe /T /F "
		       "/PID $p.Id | Out-Null;"),
	   "powershell.exe started directly, bounded, tree killed");
	ok(strstr(c.s, "exit 124 }; $p.WaitForExit(); exit $p.ExitCode"),
	   "124 at the deadline, else the child's status");
	buf_reset(&c);
	farside_powershell(hook, env, 5.0, &c);
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

int main(void)
{
	tap_plan(13);
	test_perl();
	test_any();
	test_windows();
	return tap_done();
}
