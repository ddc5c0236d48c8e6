/*
 * One persistent far-side shell per ssh host for the host readings
 * (probes, counters, facts: sysread_run and host_read_file), instead of a
 * new ssh session and shell per reading (issue 20 item 4). The framing and
 * script text are here for the unit tests; the session itself is used
 * through host_read_run (host.h).
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
