/*
 * A persistent far-side shell per ssh host for the host readings (issue
 * 20 item 4): `ssh -T ... TARGET 'sh -s'` (or PowerShell reading its
 * stdin) started on first use over the ControlMaster, through the one
 * forking module (proc_spawn_pipes: own process group, PDEATHSIG). Each
 * reading is one framed script; its output is cut at an end line carrying
 * a random nonce, on stdout and on stderr. The deadline is the local
 * reader's: past it the session's group is killed, the command counts as
 * timed out and the next reading starts a new shell. A shell found dead
 * (EOF, a failed write) is restarted once per command; a second death
 * hands the command to a process of its own (host_run), which reports a
 * lost host as before.
 *
 * On a PowerShell host a Windows reading (oswin.c) is not a child
 * powershell.exe in the session but its script run by the session's own
 * PowerShell (host_read_run_inline): the caller passes both forms, the
 * process argv and the inline statement, so nothing here guesses from a
 * command's text. An inline run that ends with a nonzero status (the
 * script block could not be made or run there), or that times out
 * without a byte of output (framing lost), is run again as the process,
 * a child of the session's shell as before.
 *
 * SPDX-License-Identifier: MIT
 */
#include "host_session.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

#include "host_int.h"
#include "proc.h"
#include "strv.h"
#include "banned.h"

struct host_session {
	struct proc *p;
	int in, out, err; /* our ends of its stdin, stdout, stderr */
	/* An inline script failed here and then ran as a process, or lost
	 * its framing: this host's sessions cannot run them, the rest go as
	 * processes (children of the session's shell) straight. Kept across
	 * restarts (host_session_kill); p is NULL while no shell runs. */
	int inline_off;
};

/* ---- framing ----------------------------------------------------------- */

int host_session_script(enum plan_shell shell, const char *cmd,
			const char *nonce, struct buf *out)
{
	if (shell == PLAN_SHELL_POWERSHELL)
		/* One line: -Command - reads stdin like its prompt and
		 * runs each complete statement as its line arrives; a
		 * statement over several lines would need an extra empty
		 * line (PowerShell/PowerShell issues #3223 and #21644), and
		 * $ErrorActionPreference = 'Stop' is not honoured there
		 * (#21808): the try/catch only sees terminating errors. */
		buf_addf(out,
			 "$global:LASTEXITCODE = 0; $xs = 0; try { %s; $xs = "
			 "$LASTEXITCODE } catch { [Console]::Error.WriteLine("
			 "$_); $xs = 1 }; "
			 "[Console]::Error.WriteLine(\"`n" HOST_SESSION_MARK
			 "%s $xs\"); [Console]::Out.WriteLine("
			 "\"`n" HOST_SESSION_MARK "%s $xs\"); "
			 "[Console]::Out.Flush()\n",
			 cmd, nonce, nonce);
	else
		buf_addf(
		    out,
		    "(\n%s\n) </dev/null; xs=$?; printf '\\n" HOST_SESSION_MARK
		    "%%s %%d\\n' %s \"$xs\" >&2; printf '\\n" HOST_SESSION_MARK
		    "%%s %%d\\n' %s \"$xs\"\n",
		    cmd, nonce, nonce);
	return out->truncated ? -XR_ENOMEM : 0;
}

/*
 * PowerShell: the session's console output encoding, once (issue 20 item
 * 2): UTF-8 as each Windows script sets it (oswin.c), so that its
 * "@@ xrun-codepage" line says 65001 and oswin_decode takes the output as
 * it is; without a console the setting can throw, and then each script's
 * code-page line says what is in force instead. $OutputEncoding (what
 * PowerShell sends to native commands) the same, in the global scope.
 */
static const char ps_start[] =
    "try { [Console]::OutputEncoding = [Text.Encoding]::UTF8 } catch { }; "
    "try { $global:OutputEncoding = [Text.Encoding]::UTF8 } catch { }\n";

const char *host_session_start_script(enum plan_shell shell)
{
	return shell == PLAN_SHELL_POWERSHELL ? ps_start : NULL;
}

void host_frame_init(struct host_frame *f, const char *nonce, size_t cap)
{
	memset(f, 0, sizeof *f);
	f->nonce = nonce;
	f->cap = cap;
}

void host_frame_release(struct host_frame *f)
{
	buf_release(&f->data);
}

/* Is there an end line at s[0..n) (s[0] the newline before it)? 1 yes
 * (*status), 0 no, -1 not yet known (more bytes needed). */
static int end_line_at(const char *s, size_t n, const char *nonce, int *status)
{
	size_t ml = strlen(HOST_SESSION_MARK), nl = strlen(nonce), i, k;
	long v = 0;
	int neg = 0, digits = 0;
	for (i = 1; i < 1 + ml + nl + 1; i++) {
		char want = i <= ml	   ? HOST_SESSION_MARK[i - 1]
			    : i <= ml + nl ? nonce[i - 1 - ml]
					   : ' ';
		if (i >= n)
			return -1;
		if (s[i] != want)
			return 0;
	}
	if (i < n && s[i] == '-') {
		neg = 1;
		i++;
	}
	for (k = i; k < n && s[k] >= '0' && s[k] <= '9' && digits < 11; k++) {
		v = v * 10 + (s[k] - '0');
		digits++;
	}
	if (k >= n)
		return -1;
	if (!digits)
		return 0;
	if (s[k] == '\r') {
		if (++k >= n)
			return -1;
	}
	if (s[k] != '\n')
		return 0;
	*status = (int)(neg ? -v : v);
	return 1;
}

int host_frame_feed(struct host_frame *f, const char *p, size_t n)
{
	/* Longest end line: marker, nonce, space, sign, 11 digits, CR LF. */
	size_t w = 1 + strlen(HOST_SESSION_MARK) + strlen(f->nonce) + 16;
	size_t i;
	if (f->done)
		return 1;
	if (n && buf_add(&f->data, p, n) < 0)
		return -XR_ENOMEM;
	for (i = f->scan; i < f->data.len; i++) {
		int st = 0, r;
		if (f->data.s[i] != '\n')
			continue;
		r = end_line_at(f->data.s + i, f->data.len - i, f->nonce, &st);
		if (r < 0)
			break; /* wait for the rest of this line */
		if (r == 1) {
			f->data.len = f->cut && i > f->cap ? f->cap : i;
			f->data.s[f->data.len] = 0;
			f->status = st;
			f->done = 1;
			return 1;
		}
	}
	f->scan = i;
	if (f->cap && f->data.len > f->cap + w) {
		/* Keep the first cap bytes and the last w (where an end line
		 * may be starting). */
		size_t shift = f->data.len - (f->cap + w);
		memmove(f->data.s + f->cap, f->data.s + f->data.len - w, w);
		f->data.len = f->cap + w;
		f->data.s[f->data.len] = 0;
		f->scan = f->scan > f->cap + shift ? f->scan - shift : f->cap;
		f->cut = 1;
	}
	return 0;
}

/* ---- the session ------------------------------------------------------- */

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

/* End s's shell (closing its stdin, then its group); s itself stays, with
 * what was learnt about the host (inline_off), for the next start. */
static void host_session_kill(struct host_session *s)
{
	close_fd(&s->in); /* EOF: the far shell ends */
	close_fd(&s->out);
	close_fd(&s->err);
	proc_stop(s->p);
	s->p = NULL;
}

void host_session_stop(struct host *h)
{
	struct host_session *s = h ? h->session : NULL;
	if (!s)
		return;
	h->session = NULL;
	host_session_kill(s);
	free(s);
}

static int running(const struct host *h)
{
	return h->session && h->session->p;
}

static int host_session_start(struct host *h)
{
	struct strv av = {0};
	struct proc_opts o = {0};
	struct xr_err e = {0};
	struct host_session *s = h->session;
	const char *start;
	if (!s && (s = calloc(1, sizeof *s)) != NULL) {
		s->in = s->out = s->err = -1;
		h->session = s;
	}
	if (!s || host_ssh_shell_argv(h, &av) < 0) {
		strv_release(&av);
		return -XR_ENOMEM;
	}
	o.argv = (const char *const *)av.v;
	o.grace = 1;
	s->p = proc_spawn_pipes(&o, &s->in, &s->out, &s->err, &e);
	strv_release(&av);
	if (!s->p)
		return -XR_EEXEC;
	start = host_session_start_script(h->shell);
	/* No answer is read: what it prints (nothing, unless the setting
	 * fails loudly) goes to the first command's frame. */
	if (start && proc_write_all(s->in, start, strlen(start),
				    proc_now_mono() + 5) < 0) {
		host_session_kill(s);
		return -XR_EEXEC;
	}
	return 0;
}

static int new_nonce(char nonce[HOST_SESSION_NONCE_LEN + 1])
{
	unsigned char r[HOST_SESSION_NONCE_LEN / 2];
	if (getrandom(r, sizeof r, 0) != (ssize_t)sizeof r)
		return -XR_EIO;
	for (size_t i = 0; i < sizeof r; i++)
		snprintf(nonce + 2 * i, 3, "%02x", r[i]);
	return 0;
}

/* How one attempt ended. */
enum attempt { ATT_DONE, ATT_TIMEOUT, ATT_INTERRUPTED, ATT_DEAD };

/* Send script, read both frames until the end lines, the deadline or
 * EOF. */
static enum attempt attempt(struct host_session *s, const struct buf *script,
			    double until, struct host_frame *fo,
			    struct host_frame *fe)
{
	char chunk[16384];
	if (proc_write_all(s->in, script->s, script->len, until) < 0)
		return proc_interrupted			   ? ATT_INTERRUPTED
		       : until && proc_now_mono() >= until ? ATT_TIMEOUT
							   : ATT_DEAD;
	while (!fo->done || !fe->done) {
		struct pollfd pf[2] = {{.fd = s->out, .events = POLLIN},
				       {.fd = s->err, .events = POLLIN}};
		struct host_frame *fr[2] = {fo, fe};
		int r = proc_poll(pf, 2, until);
		if (proc_interrupted)
			return ATT_INTERRUPTED;
		if (r == 0)
			return ATT_TIMEOUT;
		if (r < 0)
			return ATT_DEAD;
		for (int k = 0; k < 2; k++) {
			ssize_t got;
			if (!pf[k].revents || fr[k]->done)
				continue;
			got = read(pf[k].fd, chunk, sizeof chunk);
			if (got < 0 && errno == EINTR)
				continue;
			if (got <= 0)
				return ATT_DEAD; /* EOF: the shell died */
			if (host_frame_feed(fr[k], chunk, (size_t)got) < 0)
				return ATT_DEAD;
		}
	}
	return ATT_DONE;
}

static void take(struct host_frame *f, char **s, size_t *len)
{
	*s = buf_detach(&f->data, len);
	if (!*s) {
		*s = strdup("");
		*len = 0;
	}
}

/* How host_session_command ended, besides a negative code. */
enum { SC_DONE, SC_PROCESS, SC_INLINE_FAILED, SC_INLINE_LOST };

/* One command through h's session: SC_DONE with res filled, SC_PROCESS
 * when it is to be run as a process of its own (no session, or it died
 * twice), SC_INLINE_FAILED when inline (the far shell's own statement
 * instead of argv) ran there but ended with a nonzero status,
 * SC_INLINE_LOST when it timed out without a byte of output (the session
 * was killed), negative on out of memory. */
static int host_session_command(struct host *h, const struct proc_opts *o,
				const char *inline_cmd, struct proc_result *res)
{
	struct buf cmd = BUF_INIT, script = BUF_INIT;
	struct host_frame fo, fe;
	char nonce[HOST_SESSION_NONCE_LEN + 1];
	size_t cap = o->max_output ? o->max_output : (size_t)16 << 20;
	double t0 = proc_now_mono(), until = 0;
	enum attempt a = ATT_DEAD;
	int tries;

	if ((inline_cmd
		 ? buf_adds(&cmd, inline_cmd)
		 : host_ssh_remote(h, o->argv, o->env, o->timeout, &cmd)) < 0 ||
	    cmd.truncated || new_nonce(nonce) < 0 ||
	    host_session_script(h->shell, cmd.s, nonce, &script) < 0) {
		buf_release(&cmd);
		buf_release(&script);
		return SC_PROCESS;
	}
	if (o->timeout > 0)
		until = t0 + o->timeout + h->ops->margin;
	memset(res, 0, sizeof *res);
	res->started_at = proc_now_wall();
	for (tries = 0; tries < 2 && a == ATT_DEAD; tries++) {
		if (!running(h) && host_session_start(h) < 0)
			break;
		host_frame_init(&fo, nonce, cap);
		host_frame_init(&fe, nonce, cap);
		a = attempt(h->session, &script, until, &fo, &fe);
		if (a != ATT_DONE) /* the next starts anew */
			host_session_kill(h->session);
		if (a != ATT_DEAD)
			break;
		host_frame_release(&fo);
		host_frame_release(&fe);
	}
	buf_release(&cmd);
	buf_release(&script);
	if (a == ATT_DEAD)
		return SC_PROCESS;
	/* Framing lost: past the deadline without one byte on either
	 * stream, where every Windows script prints its code-page line
	 * before any cmdlet runs (oswin.c): the session never ran it (the
	 * line not read whole, its output not reaching stdout), which a slow
	 * cmdlet would not explain. */
	if (inline_cmd &&
	    ((a == ATT_DONE && fo.status != 0) ||
	     (a == ATT_TIMEOUT && !fo.data.len && !fe.data.len))) {
		host_frame_release(&fo);
		host_frame_release(&fe);
		return a == ATT_DONE ? SC_INLINE_FAILED : SC_INLINE_LOST;
	}
	res->status = a == ATT_DONE	 ? PROC_EXITED
		      : a == ATT_TIMEOUT ? PROC_TIMEOUT
					 : PROC_INTERRUPTED;
	res->exit_code = a == ATT_DONE ? fo.status : 0;
	res->signo = a == ATT_TIMEOUT ? SIGKILL : 0;
	res->out_cut = fo.cut;
	res->err_cut = fe.cut;
	res->max_output = cap;
	take(&fo, &res->out, &res->out_len);
	take(&fe, &res->err, &res->err_len);
	host_frame_release(&fo);
	host_frame_release(&fe);
	res->elapsed = proc_now_mono() - t0;
	if (a == ATT_DONE)
		host_ssh_finish(h, o, res);
	return SC_DONE;
}

/* Can o run in h's session at all? A host marked down: a process, as
 * before, not two session starts waiting for ssh's ConnectTimeout first. */
static int host_session_usable(const struct host *h, const struct proc_opts *o)
{
	return h->ops == &host_ssh_ops && !h->session_off && !h->down &&
	       o->argv && o->argv[0] && !o->stdin_data && !o->tty_stdin &&
	       !o->stderr_to_stdout;
}

int host_read_run(struct host *h, const struct proc_opts *o,
		  struct proc_result *res, struct xr_err *err)
{
	return host_read_run_inline(h, o, NULL, res, err);
}

int host_read_run_inline(struct host *h, const struct proc_opts *o,
			 const char *inline_cmd, struct proc_result *res,
			 struct xr_err *err)
{
	double t0, wall0;
	int rc;
	if (!host_session_usable(h, o))
		return host_run(h, o, res, err);
	/* Inline text is the session shell's own language: PowerShell's
	 * here; an sh session runs argv. */
	if (inline_cmd && (h->shell != PLAN_SHELL_POWERSHELL ||
			   (h->session && h->session->inline_off)))
		inline_cmd = NULL;
	t0 = proc_now_mono();
	wall0 = proc_now_wall();
	rc = host_session_command(h, o, inline_cmd, res);
	if (rc == SC_INLINE_LOST && h->session)
		h->session->inline_off = 1; /* whatever the process says */
	if (rc == SC_INLINE_FAILED || rc == SC_INLINE_LOST) {
		/* The same reading as a process, as before inline scripts (a
		 * child of the session's shell, or of its own if the session
		 * dies): its answer, good or bad, is the reading's. Good
		 * there after a failed inline run, it is the session that
		 * cannot run inline scripts (a language mode, a parser): no
		 * more tries on this host. */
		rc = host_session_command(h, o, NULL, res);
		if (rc == SC_DONE && res->status == PROC_EXITED &&
		    res->exit_code == 0 && h->session)
			h->session->inline_off = 1;
		if (rc == SC_DONE) { /* the reading's time: both tries */
			res->started_at = wall0;
			res->elapsed = proc_now_mono() - t0;
		}
	}
	if (rc == SC_PROCESS)
		return host_run(h, o, res, err);
	if (rc < 0)
		return xr_err_set(err, XR_ENOMEM, NULL, 0, 0, "out of memory");
	return 0;
}
