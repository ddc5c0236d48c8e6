/*
 * Windows readings inside the persistent PowerShell session (issue 20 item
 * 4; runner/host/host_session.c, oswin.c). There is no PowerShell on this
 * machine, so nothing here runs a PowerShell script: the scripts are
 * checked as text (no `exit` word in any of them, everything inside one
 * `& { ... }` scope with $ErrorActionPreference set in it, the status line
 * after it, the in-session statement one line that carries the same base64
 * as -EncodedCommand and decodes back to the script, the session's start
 * line and the framed line exact), and the choice of path is checked
 * against a real sshd on loopback whose powershell.exe is a sh stand-in
 * (root only). The stand-in logs what it was asked ("inline B64" for the
 * in-session statement, "child B64" for a child powershell.exe inside the
 * session, "process B64" for powershell.exe -EncodedCommand run by ssh)
 * and answers with tests/data/windows/counters_before.txt, framed as the
 * session's end lines say. Checked: a powershell host's counters take the
 * inline path (one sshd session, one start line, no child); an inline
 * statement the session refuses (status 1) is run as a child and the
 * session then stops trying inline; session: false starts a process per
 * reading (an sshd session each, the session's stand-in never started;
 * the process itself fails here: its deadline wrapper is PowerShell text
 * for a PowerShell login shell, and this sshd's is bash); an inline
 * script that prints its code-page line and then stalls is a timeout at
 * the local deadline and the host stays inline, one that prints nothing
 * (framing lost) is answered by a child in a new session and the host
 * then runs children only.
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buf.h"
#include "host.h"
#include "host_int.h"
#include "host_session.h"
#include "hostos.h"
#include "oswin.h"
#include "proc.h"
#include "ps_b64.h"
#include "tap.h"
#include "sshd_fixture.h"

/* ---- the scripts as text ---------------------------------------------- */

/* Is the word w (PowerShell keywords ignore case) anywhere in s as a word
 * of its own? LASTEXITCODE is not `exit`. */
static int has_word(const char *s, const char *w)
{
	size_t n = strlen(w);
	for (const char *p = s; *p; p++) {
		int before = p == s || !(p[-1] == '_' || p[-1] == '$' ||
					 (p[-1] >= 'a' && p[-1] <= 'z') ||
					 (p[-1] >= 'A' && p[-1] <= 'Z') ||
					 (p[-1] >= '0' && p[-1] <= '9'));
		char a = p[n];
		if (before && strncasecmp(p, w, n) == 0 &&
		    !(a == '_' || (a >= 'a' && a <= 'z') ||
		      (a >= 'A' && a <= 'Z') || (a >= '0' && a <= '9')))
			return 1;
	}
	return 0;
}

/*
 * Brace depth of s outside single-quoted strings ('' inside one is a
 * quote): where the depth first comes back to 0 (the end of the outer
 * script block; -1 if never), and the depth at which `needle` starts.
 */
static long outer_end(const char *s, const char *needle, int *depth_at)
{
	int depth = 0, quoted = 0;
	size_t nl = needle ? strlen(needle) : 0;
	*depth_at = -1;
	for (const char *p = s; *p; p++) {
		if (quoted) {
			if (*p == '\'' && p[1] == '\'')
				p++;
			else if (*p == '\'')
				quoted = 0;
			continue;
		}
		if (needle && *depth_at < 0 && strncmp(p, needle, nl) == 0)
			*depth_at = depth;
		if (*p == '\'')
			quoted = 1;
		else if (*p == '{')
			depth++;
		else if (*p == '}' && --depth == 0)
			return p - s;
	}
	return -1;
}

static void script_shape(enum hostos_what what, const char *name)
{
	static const char tail[] = "}\n" OSWIN_STATUS_LINE "\n";
	struct buf s = BUF_INIT;
	int d_eap = -1, d_xe = -1;
	long end;
	oswin_script(what, "Ethernet 2", "ntcp", &s);
	ok(!has_word(s.s, "exit"), "%s: no exit in the script", name);
	ok(strncmp(s.s, "& {\n", 4) == 0, "%s: opens the script block", name);
	end = outer_end(s.s, "$ErrorActionPreference = 'Stop'", &d_eap);
	ok(end >= 0 && (size_t)end == s.len - strlen(tail) &&
	       strcmp(s.s + end, tail) == 0,
	   "%s: the block closes only before the status line", name);
	ok(d_eap == 1, "%s: $ErrorActionPreference set inside the block (%d)",
	   name, d_eap);
	outer_end(s.s, "} catch { '@@ xrun-error script: '", &d_xe);
	ok(d_xe == 2, "%s: the whole body in one try, framed error (%d)", name,
	   d_xe);
	buf_release(&s);
}

static void test_text(void)
{
	struct buf s = BUF_INIT, line = BUF_INIT, framed = BUF_INIT,
		   b = BUF_INIT;
	const char *p, *q;
	char *back;

	script_shape(HOSTOS_NIC, "nic");
	script_shape(HOSTOS_SYSTEM, "system");
	script_shape(HOSTOS_COUNTERS, "counters");
	oswin_script(HOSTOS_NIC, "Ethernet 2", NULL, &s);
	ok(strstr(s.s, "if (-not $a) { '@@ noiface'; return }\n") != NULL,
	   "nic: no adapter leaves the block with return");
	buf_reset(&s);

	/* python3: base64.b64encode("exit".encode("utf-16-le")) */
	oswin_session_command("exit", &line);
	is_str(line.s,
	       "& ([scriptblock]::Create([Text.Encoding]::Unicode.GetString("
	       "[Convert]::FromBase64String('ZQB4AGkAdAA=')))) | "
	       "ForEach-Object { [Console]::Out.WriteLine([string]$_) }",
	       "session statement, exact");
	buf_reset(&line);

	oswin_script(HOSTOS_COUNTERS, "イーサネット 2", "ntcp", &s);
	oswin_session_command(s.s, &line);
	oswin_encode(s.s, &b);
	ok(!strchr(line.s, '\n'), "session statement: one line");
	p = strstr(line.s, "FromBase64String('");
	q = p ? strchr(p + 18, '\'') : NULL;
	ok(p && q && (size_t)(q - p - 18) == b.len &&
	       strncmp(p + 18, b.s, b.len) == 0,
	   "session statement: the -EncodedCommand base64");
	back = p && q ? ps_b64_decode(p + 18) : NULL;
	is_str(back ? back : "", s.s, "and it decodes back to the script");
	free(back);

	host_session_script(PLAN_SHELL_POWERSHELL, line.s,
			    "0123456789abcdef0123456789abcdef", &framed);
	ok(strchr(framed.s, '\n') == framed.s + framed.len - 1,
	   "framed: one line, its newline the last byte");
	ok(strstr(framed.s, "try { & ([scriptblock]::Create(") &&
	       strstr(framed.s, "[Console]::Out.WriteLine(\"`n@@xrun-end "
				"0123456789abcdef0123456789abcdef $xs\")"),
	   "framed: the statement in the try, the end line after it");

	is_str(host_session_start_script(PLAN_SHELL_POWERSHELL),
	       "try { [Console]::OutputEncoding = [Text.Encoding]::UTF8 } "
	       "catch { }; try { $global:OutputEncoding = "
	       "[Text.Encoding]::UTF8 } catch { }\n",
	       "session start: UTF-8 once, exact");
	ok(host_session_start_script(PLAN_SHELL_SH) == NULL,
	   "session start: nothing for sh");
	buf_release(&s);
	buf_release(&line);
	buf_release(&framed);
	buf_release(&b);
}

/* ---- the path taken, against a real sshd ------------------------------ */

static char dir[128];

/*
 * The stand-in powershell.exe: `-Command -` reads one statement a line;
 * the start line is logged as "start", a statement with the session's end
 * line is answered (the recording, then the end lines with status 0, or 1
 * for an inline one when DIR/refuse exists). -EncodedCommand B64 (argv:
 * -NoProfile -NonInteractive -EncodedCommand B64): the recording.
 */
static int write_standin(void)
{
	char path[256];
	FILE *f;
	snprintf(path, sizeof path, "%s/bin", dir);
	mkdir(path, 0755);
	snprintf(path, sizeof path, "%s/bin/powershell.exe", dir);
	if (!(f = fopen(path, "w")))
		return -1;
	fprintf(f,
		"#!/bin/sh\n"
		"d=%s\nrec=\"$XRUN_SOURCE_DIR/tests/data/windows/"
		"counters_before.txt\"\n"
		"if [ \"$3\" = -EncodedCommand ]; then\n"
		"  echo \"process $4\" >>$d/ps.log; cat \"$rec\"; exit 0\n"
		"fi\n"
		"echo session >>$d/ps.log\n"
		"while IFS= read -r l; do\n"
		"  n=$(printf '%%s\\n' \"$l\" | sed -n 's/.*@@xrun-end "
		"\\([0-9a-f]\\{32\\}\\) .*/\\1/p')\n"
		"  if [ -z \"$n\" ]; then echo \"start $l\" >>$d/ps.log; "
		"continue; fi\n"
		"  st=0\n"
		"  case \"$l\" in\n"
		"  *FromBase64String*) b=$(printf '%%s\\n' \"$l\" | sed "
		"\"s/.*FromBase64String('\\([^']*\\)').*/\\1/\")\n"
		"    echo \"inline $b\" >>$d/ps.log\n"
		"    [ -e $d/mute ] && continue\n"
		"    if [ -e $d/slow ]; then printf '@@ xrun-codepage "
		"65001\\r\\n'; "
		"continue; fi\n"
		"    if [ -e $d/refuse ]; then st=1; echo refused >&2; "
		"else cat \"$rec\"; fi;;\n"
		"  *-EncodedCommand*) b=$(printf '%%s\\n' \"$l\" | sed "
		"\"s/.*'-EncodedCommand' '\\([^']*\\)'.*/\\1/\")\n"
		"    echo \"child $b\" >>$d/ps.log; cat \"$rec\";;\n"
		"  esac\n"
		"  printf '\\n@@xrun-end %%s %%s\\r\\n' \"$n\" \"$st\" >&2\n"
		"  printf '\\n@@xrun-end %%s %%s\\r\\n' \"$n\" \"$st\"\n"
		"done\n",
		dir);
	fclose(f);
	return chmod(path, 0755);
}

/* The test sshd (sshd_fixture.h), with the stand-in's
 * directory first on the PATH of its sessions (SetEnv). */
static struct proc *start_sshd(int *port_out)
{
	char src[512], env[1024];
	/* the recording's folder: ctest sets XRUN_SOURCE_DIR, else the
	 * source root is the working directory */
	if (getenv("XRUN_SOURCE_DIR"))
		snprintf(src, sizeof src, "%s", getenv("XRUN_SOURCE_DIR"));
	else if (!getcwd(src, sizeof src))
		snprintf(src, sizeof src, ".");
	if (write_standin() < 0)
		return NULL;
	snprintf(env, sizeof env,
		 "PATH=%s/bin:/usr/bin:/bin XRUN_SOURCE_DIR=%s", dir, src);
	return fx_sshd_start(dir, env, port_out);
}

/* How many lines of DIR/NAME start with prefix (and, with b64, are
 * exactly "prefix b64"). */
static int count(const char *name, const char *prefix, const char *b64)
{
	char path[256];
	struct buf b = BUF_INIT;
	size_t pl = strlen(prefix);
	int n = 0;
	snprintf(path, sizeof path, "%s/%s", dir, name);
	buf_read_file(&b, path, 0);
	for (const char *p = b.s; p && *p;) {
		const char *e = strchr(p, '\n');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		if (len >= pl && strncmp(p, prefix, pl) == 0 &&
		    (!b64 || (len == pl + 1 + strlen(b64) &&
			      strncmp(p + pl + 1, b64, len - pl - 1) == 0)))
			n++;
		p = e ? e + 1 : NULL;
	}
	buf_release(&b);
	return n;
}

/* sshd's sessions so far: one "Starting session:" line each (VERBOSE). */
static int sshd_sessions(void)
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

/* n counters readings; how many answered with the recording's rx_bytes. */
static int read_counters(struct host *h, int n)
{
	int good = 0;
	for (int i = 0; i < n; i++) {
		struct buf doc = BUF_INIT;
		struct xr_err e = {0};
		if (hostos_read(h, HOSTOS_COUNTERS, "Ethernet 2", "ntcp", &doc,
				&e) == 0 &&
		    strstr(doc.s ? doc.s : "", "rx_bytes 1000000\n"))
			good++;
		else
			printf("# reading: %s\n", e.msg);
		buf_release(&doc);
	}
	return good;
}

static void ssh_paths(struct plan_host *ph, const char *ctl, const char *b64)
{
	struct host *h = NULL;
	struct xr_err e = {0};
	char refuse[256];
	int n0;

	if (host_open(ph, ctl, &h, &e) < 0) {
		ok(0, "open the powershell host: %s", e.msg);
		return;
	}
	n0 = sshd_sessions();
	is_int(read_counters(h, 3), 3, "session: 3 counters readings answer");
	is_int(sshd_sessions() - n0, 1, "session: one sshd session for 3");
	is_int(count("ps.log", "session", NULL), 1,
	       "session: one powershell started");
	is_int(count("ps.log", "start try { [Console]::OutputEncoding", NULL),
	       1, "session: its start line sent once");
	is_int(count("ps.log", "inline", b64), 3,
	       "session: each reading inline, oswin's base64");
	is_int(count("ps.log", "child", NULL) +
		   count("ps.log", "process", NULL),
	       0, "session: no powershell.exe child, no process");

	snprintf(refuse, sizeof refuse, "%s/refuse", dir);
	fclose(fopen(refuse, "w"));
	is_int(read_counters(h, 2), 2, "refused: both readings answer");
	is_int(count("ps.log", "inline", b64), 4,
	       "refused: inline tried once more, then no longer");
	is_int(count("ps.log", "child", b64), 2,
	       "refused: both ran as a child in the same session");
	is_int(count("ps.log", "session", NULL), 1,
	       "refused: still the one session");
	unlink(refuse);
	host_close(h);

	ph->no_session = 1;
	if (host_open(ph, ctl, &h, &e) < 0) {
		ok(0, "open the session: false host: %s", e.msg);
		return;
	}
	/* As a process the reading goes inside farside_powershell's
	 * deadline wrapper, PowerShell text for a PowerShell login shell;
	 * this sshd's is bash, which refuses it: only the path is
	 * checked. */
	n0 = sshd_sessions();
	for (int i = 0; i < 2; i++) {
		struct buf doc = BUF_INIT;
		struct xr_err re = {0};
		hostos_read(h, HOSTOS_COUNTERS, "Ethernet 2", "ntcp", &doc,
			    &re);
		ok(strncmp(re.msg, "'powershell.exe' failed on host 'win'",
			   37) == 0,
		   "session off: the process form was run (%s)", re.msg);
		buf_release(&doc);
	}
	is_int(sshd_sessions() - n0, 2, "session off: an sshd session each");
	is_int(count("ps.log", "session", NULL) +
		   count("ps.log", "inline", b64),
	       1 + 4, "session off: no session, nothing inline");
	host_close(h);
}

/* One counters reading with a 1 s deadline (6 s with the ssh margin),
 * both forms given as hostos.c gives them. */
static int short_reading(struct host *h, struct proc_result *r)
{
	struct strv av = {0};
	struct buf s = BUF_INIT, line = BUF_INIT;
	struct proc_opts o = {0};
	struct xr_err e = {0};
	int rc;
	hostos_argv(PLAN_OS_WINDOWS, HOSTOS_COUNTERS, "Ethernet 2", "ntcp",
		    &av);
	oswin_script(HOSTOS_COUNTERS, "Ethernet 2", "ntcp", &s);
	oswin_session_command(s.s, &line);
	o.argv = (const char *const *)av.v;
	o.timeout = 1;
	rc = host_read_run_inline(h, &o, line.s, r, &e);
	strv_release(&av);
	buf_release(&s);
	buf_release(&line);
	return rc;
}

static int answered(const struct proc_result *r)
{
	return r->status == PROC_EXITED && r->exit_code == 0 && r->out &&
	       strstr(r->out, "@@ adapterstats\n");
}

static void flag(const char *name, int on)
{
	char path[256];
	FILE *f;
	snprintf(path, sizeof path, "%s/%s", dir, name);
	if (on && (f = fopen(path, "w")) != NULL)
		fclose(f);
	if (!on)
		unlink(path);
}

/* A slow inline script (its code-page line, then nothing) is a timeout
 * and stays inline; a silent one (framing lost) is run again as a child
 * in a new session, and the host stays with children after. */
static void ssh_lost(struct plan_host *ph, const char *ctl, const char *b64)
{
	struct host *h = NULL;
	struct xr_err e = {0};
	struct proc_result r;
	int in0, ch0, se0;

	ph->no_session = 0;
	if (host_open(ph, ctl, &h, &e) < 0) {
		ok(0, "open the powershell host again: %s", e.msg);
		return;
	}
	in0 = count("ps.log", "inline", b64);
	ch0 = count("ps.log", "child", b64);
	se0 = count("ps.log", "session", NULL);
	flag("slow", 1);
	if (short_reading(h, &r) == 0) {
		ok(r.status == PROC_TIMEOUT && r.elapsed >= 6.0 - 0.05,
		   "slow: a timeout at the local deadline (%.2f s)", r.elapsed);
		proc_result_release(&r);
	} else {
		ok(0, "slow: ran");
	}
	flag("slow", 0);
	is_int(count("ps.log", "child", b64) - ch0, 0, "slow: not run again");
	ok(short_reading(h, &r) == 0 && answered(&r),
	   "slow: the next reading answers");
	proc_result_release(&r);
	is_int(count("ps.log", "inline", b64) - in0, 2,
	       "slow: and went inline again");
	is_int(count("ps.log", "session", NULL) - se0, 2,
	       "slow: in a new session");

	flag("mute", 1);
	if (short_reading(h, &r) == 0) {
		ok(answered(&r) && r.elapsed >= 6.0 - 0.05,
		   "lost: answered as a child after the deadline (%.2f s)",
		   r.elapsed);
		proc_result_release(&r);
	} else {
		ok(0, "lost: ran");
	}
	flag("mute", 0);
	is_int(count("ps.log", "child", b64) - ch0, 1, "lost: one child");
	is_int(count("ps.log", "session", NULL) - se0, 3,
	       "lost: the child in a new session");
	ok(short_reading(h, &r) == 0 && answered(&r),
	   "lost: the next reading answers");
	proc_result_release(&r);
	is_int(count("ps.log", "inline", b64) - in0, 3,
	       "lost: inline no more (3 tries in all)");
	is_int(count("ps.log", "child", b64) - ch0, 2,
	       "lost: a child straight");
	host_close(h);
}

static void test_ssh(void)
{
	const char *opts[] = {"-o", "StrictHostKeyChecking=no", "-o",
			      "UserKnownHostsFile=/dev/null", NULL};
	struct plan_host ph = {0};
	struct buf s = BUF_INIT, b64 = BUF_INIT;
	struct proc *sshd;
	char key[256], ctl[256];
	int port;
	if (getuid() != 0 || access("/usr/sbin/sshd", X_OK) != 0 ||
	    !proc_which("ssh")) {
		tap_skip("ssh: needs root, /usr/sbin/sshd and ssh");
		return;
	}
	if (!(sshd = start_sshd(&port))) {
		ok(0, "start a test sshd on loopback");
		return;
	}
	oswin_script(HOSTOS_COUNTERS, "Ethernet 2", "ntcp", &s);
	oswin_encode(s.s, &b64);
	snprintf(key, sizeof key, "%s/client_key", dir);
	snprintf(ctl, sizeof ctl, "%s/ctl", dir);
	ph.name = "win";
	ph.ssh = "root@127.0.0.1";
	ph.port = port;
	ph.identity = key;
	ph.ssh_options.argv = opts;
	ph.ssh_options.argc = 4;
	ph.shell = PLAN_SHELL_POWERSHELL;
	ph.os = PLAN_OS_WINDOWS;
	ph.os_given = 1;
	ssh_paths(&ph, ctl, b64.s);
	ssh_lost(&ph, ctl, b64.s);
	buf_release(&s);
	buf_release(&b64);
	proc_stop(sshd);
}

int main(void)
{
	tap_plan(49);
	test_text();
	snprintf(dir, sizeof dir, "/tmp/xr-test-sessps-XXXXXX");
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
