/*
 * Far-side deadlines where there is no coreutils timeout (see farside.h).
 *
 * macOS: perl (in every macOS release: perlrun(1) in Apple's man pages)
 * forks the command into its own process group, and at the deadline sends
 * SIGTERM to the group, then SIGKILL after 2 s, and exits 124; otherwise
 * it exits with the command's status (128+N for signal N, as sh reports
 * it). Time::HiRes (a core module since perl 5.8) gives fractional
 * seconds.
 *
 * Windows: the command runs as a child started with Start-Process
 * -NoNewWindow -PassThru (it shares the ssh session's stdout and stderr);
 * $p.WaitForExit(ms) bounds it, and at the deadline taskkill /T /F /PID
 * ends the child and every process it started (Microsoft Learn,
 * "taskkill": /T ends the tree, /F forcefully), then the wrapper exits
 * 124. $p.Handle is read once so that ExitCode is kept after the exit (a
 * Process from Start-Process -PassThru otherwise loses it). A command
 * that is not powershell.exe itself runs in a child powershell.exe
 * -EncodedCommand with $ErrorActionPreference = 'Stop', so a cmdlet's
 * error fails it with PowerShell's message and a native command's exit
 * status is passed on.
 */
#include <string.h>

#include "farside.h"
#include "host.h"
#include "oswin.h"

#include "banned.h"

/* The grace between SIGTERM and SIGKILL, as host_ssh.c's timeout -k. */
const char farside_perl_prog[] =
    "use POSIX ();use Time::HiRes qw(alarm sleep);"
    "my $t=shift;my $p=fork;defined $p or die \"xrun watchdog: fork: $!\\n\";"
    "if(!$p){setpgrp(0,0);exec {$ARGV[0]} @ARGV;"
    "print STDERR \"xrun watchdog: $ARGV[0]: $!\\n\";POSIX::_exit(127)}"
    "$SIG{ALRM}=sub{kill 'TERM',-$p;sleep 2;kill 'KILL',-$p;"
    "print STDERR \"xrun watchdog: deadline of $t s reached: process group "
    "$p killed\\n\";exit 124};"
    "alarm $t;waitpid($p,0);my $s=$?;alarm 0;"
    "exit($s&127?128+($s&127):$s>>8)";

int farside_perl_prefix(double timeout, struct buf *cmd)
{
	buf_adds(cmd, "perl -e ");
	host_quote_sh(farside_perl_prog, cmd);
	buf_addf(cmd, " %.3f ", timeout);
	return cmd->truncated ? -XR_ENOMEM : 0;
}

int farside_any_prefix(double timeout, struct buf *cmd)
{
	/* sh -c 'if ...; then exec timeout ...; fi; exec perl ...' sh ARGV */
	struct buf s = BUF_INIT;
	buf_addf(&s,
		 "if command -v timeout >/dev/null 2>&1; then exec timeout -k "
		 "2 %.3f \"$@\"; fi; exec perl -e ",
		 timeout);
	host_quote_sh(farside_perl_prog, &s);
	buf_addf(&s, " %.3f \"$@\"", timeout);
	buf_adds(cmd, "sh -c ");
	host_quote_sh(s.s ? s.s : "", cmd);
	buf_adds(cmd, " sh ");
	if (s.truncated)
		cmd->truncated = 1;
	buf_release(&s);
	return cmd->truncated ? -XR_ENOMEM : 0;
}

/* One argument as CommandLineToArgvW reads it back: quoted when empty or
 * holding blanks or quotes; backslashes doubled before a quote and at the
 * end of a quoted argument. */
static void win_arg(const char *a, struct buf *out)
{
	size_t bs = 0;
	if (*a && !strpbrk(a, " \t\n\v\""))
		return (void)buf_adds(out, a);
	buf_addc(out, '"');
	for (const char *p = a;; p++) {
		if (*p == '\\') {
			bs++;
			continue;
		}
		if (*p == '"' || *p == '\0') {
			for (size_t i = 0; i < bs * 2; i++)
				buf_addc(out, '\\');
			if (*p == '\0')
				break;
			buf_adds(out, "\\\"");
		} else {
			for (size_t i = 0; i < bs; i++)
				buf_addc(out, '\\');
			buf_addc(out, *p);
		}
		bs = 0;
	}
	buf_addc(out, '"');
}

void farside_win_cmdline(const char *const *argv, struct buf *out)
{
	for (const char *const *p = argv; *p; p++) {
		if (p != argv)
			buf_addc(out, ' ');
		win_arg(*p, out);
	}
}

/* The child: argv itself when it is powershell.exe, else argv run by a
 * child powershell.exe that stops on a cmdlet error. */
static int child_cmdline(const char *const *argv, struct buf *file,
			 struct buf *args)
{
	struct buf inner = BUF_INIT, b64 = BUF_INIT;
	int rc = 0;
	if (strcmp(argv[0], "powershell.exe") == 0 ||
	    strcmp(argv[0], "powershell") == 0) {
		buf_adds(file, argv[0]);
		farside_win_cmdline(argv + 1, args);
		return file->truncated || args->truncated ? -XR_ENOMEM : 0;
	}
	buf_adds(&inner, "$ErrorActionPreference = 'Stop'\n& ");
	for (const char *const *p = argv; *p; p++) {
		if (p != argv)
			buf_addc(&inner, ' ');
		host_quote_powershell(*p, &inner);
	}
	buf_adds(&inner, "\nif ($LASTEXITCODE) { exit $LASTEXITCODE }\n");
	rc = inner.truncated ? -XR_ENOMEM : oswin_encode(inner.s, &b64);
	buf_adds(file, "powershell.exe");
	buf_addf(args, "-NoProfile -NonInteractive -EncodedCommand %s",
		 b64.s ? b64.s : "");
	buf_release(&inner);
	buf_release(&b64);
	if (rc == 0 && (file->truncated || args->truncated))
		rc = -XR_ENOMEM;
	return rc;
}

int farside_powershell(const char *const *argv, const char *const *env,
		       double timeout, struct buf *cmd)
{
	struct buf file = BUF_INIT, args = BUF_INIT;
	long long ms = (long long)(timeout * 1000.0 + 0.5);
	int rc = child_cmdline(argv, &file, &args);

	for (const char *const *p = env; rc == 0 && p && *p; p++) {
		const char *eq = strchr(*p, '=');
		if (!eq)
			continue;
		buf_addf(cmd, "$env:%.*s=", (int)(eq - *p), *p);
		host_quote_powershell(eq + 1, cmd);
		buf_adds(cmd, "; ");
	}
	buf_adds(cmd, "$p = Start-Process -FilePath ");
	host_quote_powershell(file.s ? file.s : "", cmd);
	if (args.len) {
		buf_adds(cmd, " -ArgumentList ");
		host_quote_powershell(args.s, cmd);
	}
	buf_addf(
	    cmd,
	    " -NoNewWindow -PassThru; $null = $p.Handle; "
	    "if (-not $p.WaitForExit(%lld)) { "
	    "taskkill.exe /T /F /PID $p.Id | Out-Null; "
	    "[Console]::Error.WriteLine('xrun: far-side deadline of %.3f s "
	    "reached: process tree ' + $p.Id + ' killed (taskkill /T /F)'); "
	    "exit 124 }; $p.WaitForExit(); exit $p.ExitCode",
	    ms, timeout);
	buf_release(&file);
	buf_release(&args);
	if (rc == 0 && cmd->truncated)
		rc = -XR_ENOMEM;
	return rc;
}
