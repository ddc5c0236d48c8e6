/*
 * One persistent far-side shell per ssh host for the host readings
 * (probes, counters, facts: sysread_run and host_read_file), instead of a
 * new ssh session and shell per reading (issue 20 item 4). The framing and
 * script text are here for the unit tests; the session itself is used
 * through host_read_run (host.h) and host_read_run_inline (below).
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef XR_HOST_SESSION_H
#define XR_HOST_SESSION_H

#include <stddef.h>

#include "buf.h"
#include "plan.h"

/* The end line printed after each command on stdout and on stderr:
 * "\n@@xrun-end NONCE STATUS\n" (PowerShell: "\r\n" at the end). */
#define HOST_SESSION_MARK "@@xrun-end "
#define HOST_SESSION_NONCE_LEN 32 /* hex digits */

/* The script sent for one command: cmd is the command string the far
 * shell parses (host_ssh_remote), nonce HOST_SESSION_NONCE_LEN hex
 * digits. sh: the command in a subshell with stdin from /dev/null (so
 * that it cannot read the session's next script, and `exit` or `cd` in it
 * stay there), then the end line with $? on both streams. PowerShell:
 * one line ($LASTEXITCODE, 1 on a caught error). 0, or -XR_ENOMEM. */
int host_session_script(enum plan_shell shell, const char *cmd,
			const char *nonce, struct buf *out);

/* What a new session's shell is sent first, before any command (NULL:
 * nothing). PowerShell: the console output encoding set to UTF-8, once. */
const char *host_session_start_script(enum plan_shell shell);

struct host;
struct proc_opts;
struct proc_result;
struct xr_err;
/*
 * host_read_run with a second form of the same reading: inline_cmd, one
 * line in the session shell's own language (PowerShell only:
 * oswin_session_command), is what the session runs instead of o->argv as
 * a child. o->argv stays the process form, run as host_read_run runs it
 * (a child of the session's shell, else a process of its own) when
 * there is no session (not ssh, session: false, the host down), on an sh
 * shell, when the session died twice, when inline_cmd ended there with a
 * nonzero status, or when it timed out without a byte of output (framing
 * lost: the session is killed and the process form gets a new one and its
 * own full deadline). After a lost framing, or after the process form
 * succeeded where inline_cmd failed, that host's sessions run the process
 * form only. inline_cmd NULL: as host_read_run.
 */
int host_read_run_inline(struct host *h, const struct proc_opts *o,
			 const char *inline_cmd, struct proc_result *res,
			 struct xr_err *err);

/* Reading one stream of one command, cut at its end line only: a line
 * that holds the marker text without this nonce, or a nonce without the
 * newline before it, is data. Bytes past cap are dropped (cut set). */
struct host_frame {
	struct buf data;
	const char *nonce;
	size_t cap;  /* 0: no cap */
	size_t scan; /* where the next search for the end line starts */
	int done, status, cut;
};
void host_frame_init(struct host_frame *f, const char *nonce, size_t cap);
/* Add n bytes read; 1 once the end line has come (data then holds the
 * command's output only, status its exit status), 0 before, -XR_ENOMEM.
 * Bytes after the end line are ignored (none come: one command at a
 * time). */
int host_frame_feed(struct host_frame *f, const char *p, size_t n);
void host_frame_release(struct host_frame *f);

#endif
