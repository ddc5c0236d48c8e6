/*
 * Far-side deadlines where there is no coreutils timeout (see farside.h).
 *
 * macOS: a POSIX sh watchdog that needs only sh, sleep, kill and ps, all
 * in the base system (Apple's man pages sh(1), sleep(1) with fractional
 * seconds, ps(1)); not perl: the macOS 10.15 release notes say scripting
 * runtimes (Python, Ruby, Perl) will not be included by default in future
 * versions. At the deadline it kills the command's process tree with
 * SIGTERM, then SIGKILL, and exits 124; otherwise it exits with the
 * command's status (128+N for signal N, as sh reports it).
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
 *
 * SPDX-License-Identifier: MIT
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "farside.h"
#include "host.h"
#include "oswin.h"

#include "banned.h"

/* The sh watchdog (see farside.h). Background commands of a shell without
 * job control share its process group and get /dev/null as stdin (POSIX
 * 2.9.3), so stdin is handed over on fd 3, and the tree is found from
 * ps's pid/ppid table (ps(1): -A, -o pid= -o ppid=) rather than a group.
 * The watcher tells the main shell with SIGUSR1 that the deadline fired
 * (a trapped signal ends `wait` at once, POSIX wait(1)), sends the tree
 * SIGTERM, then SIGKILL once 2 s have passed with any of it left (as
 * host_ssh.c's timeout -k). When the command ends first, the main shell
 * kills the watcher's sleep and the watcher: nothing is left. */
const char farside_sh_prog[] =
    "t=$1; shift; f=0; trap 'f=1' USR1; exec 3<&0\n"
    "\"$@\" <&3 3<&- &\n"
    "c=$!; exec 3<&-\n"
    "(sleep \"$t\" & s=$!; trap 'kill \"$s\" 2>/dev/null; exit 0' TERM\n"
    "wait \"$s\" 2>/dev/null || exit 0\n"
    "T=$(ps -A -o pid= -o ppid=)\n"
    "d() { for q in $(echo \"$T\" | while read -r a b; do "
    "[ \"$b\" = \"$1\" ] && echo \"$a\"; done); do echo \"$q\"; "
    "d \"$q\"; done; }\n"
    "k=\"$c $(d \"$c\")\"; kill -USR1 $$; kill -TERM $k 2>/dev/null; n=0\n"
    "l() { for q in $k; do kill -0 \"$q\" 2>/dev/null && return 0; done; "
    "return 1; }\n"
    "while [ $n -lt 20 ] && l; do sleep 0.1; n=$((n+1)); done\n"
    "kill -KILL $k 2>/dev/null\n"
    "echo \"xrun watchdog: deadline of $t s reached: process tree $c "
    "killed\" >&2) &\n"
    "w=$!; wait \"$c\" 2>/dev/null; r=$?\n"
    "if [ \"$f\" = 1 ]; then wait \"$c\" 2>/dev/null; wait \"$w\"; "
    "exit 124; fi\n"
    "for q in $(ps -A -o pid= -o ppid= | while read -r a b; do "
    "[ \"$b\" = \"$w\" ] && echo \"$a\"; done); do kill \"$q\" 2>/dev/null; "
    "done\n"
    "kill \"$w\" 2>/dev/null; wait \"$w\" 2>/dev/null; exit \"$r\"\n";

int farside_sh_prefix(double timeout, struct buf *cmd)
{
	buf_adds(cmd, "sh -c ");
	host_quote_sh(farside_sh_prog, cmd);
	buf_addf(cmd, " sh %.3f ", timeout);
	return cmd->truncated ? -XR_ENOMEM : 0;
}

int farside_any_prefix(double timeout, struct buf *cmd)
{
	/* sh -c 'if ...; then exec timeout ...; fi; exec sh -c ...' sh ARGV */
	struct buf s = BUF_INIT;
	buf_addf(&s,
		 "if command -v timeout >/dev/null 2>&1; then exec timeout -k "
		 "2 %.3f \"$@\"; fi; exec ",
		 timeout);
	farside_sh_prefix(timeout, &s);
	buf_adds(&s, "\"$@\"");
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
		       double timeout, int say_pid, struct buf *cmd)
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
	buf_addf(cmd, " -NoNewWindow -PassThru; $null = $p.Handle; ");
	/* The child's id and start time (FILETIME, UTC) for a kill from a
	 * second connection: Windows reuses ids soon, the pair it does not. */
	if (say_pid)
		buf_adds(cmd, "[Console]::Error.WriteLine('" FARSIDE_PID_MARK
			      "' + $p.Id + ' ' + "
			      "$p.StartTime.ToFileTimeUtc()); ");
	buf_addf(
	    cmd,
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

/* A child gone (or its id reused: another start time) is nothing to kill;
 * else taskkill ends it and its tree and says so, and its status is the
 * script's. Get-Process -ErrorAction Stop: a missing id throws. */
int farside_win_kill(long pid, unsigned long long start, struct buf *script)
{
	buf_addf(script,
		 "try { $q = Get-Process -Id %ld -ErrorAction Stop } "
		 "catch { 'gone'; exit 0 }\n"
		 "if ($q.StartTime.ToFileTimeUtc() -ne %llu) { 'gone'; exit 0 "
		 "}\n"
		 "taskkill.exe /T /F /PID %ld\n"
		 "exit $LASTEXITCODE\n",
		 pid, start, pid);
	return script->truncated ? -XR_ENOMEM : 0;
}

/* On Windows the line ends in CR LF ([Console]::Error.NewLine). */
long farside_take_pid(char *err, size_t *err_len, unsigned long long *start)
{
	const size_t ml = sizeof FARSIDE_PID_MARK - 1;
	char *at = err, *end, *eol, *stop;
	long pid;
	*start = 0;
	while (at && (size_t)(err + *err_len - at) >= ml &&
	       strncmp(at, FARSIDE_PID_MARK, ml) != 0) {
		at = memchr(at, '\n', (size_t)(err + *err_len - at));
		at = at ? at + 1 : NULL;
	}
	if (!at || (size_t)(err + *err_len - at) < ml || at[ml] < '0' ||
	    at[ml] > '9')
		return 0;
	errno = 0;
	pid = strtol(at + ml, &end, 10);
	eol = memchr(at, '\n', (size_t)(err + *err_len - at));
	stop = eol ? eol : err + *err_len;
	if (stop > end && stop[-1] == '\r')
		stop--;
	if (*end == ' ' && end[1] >= '0' && end[1] <= '9')
		*start = strtoull(end + 1, &end, 10);
	if (errno || pid <= 1 || end != stop)
		return 0;
	eol = eol ? eol + 1 : err + *err_len;
	memmove(at, eol, (size_t)(err + *err_len - eol) + 1);
	*err_len -= (size_t)(eol - at);
	return pid;
}
