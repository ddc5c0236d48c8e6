/*
 * Running out of memory, said once and plainly (issue 24): the places that
 * find an allocation failed mark it (xr_oom_mark), the commands name what
 * they are doing (xr_oom_stage), and the entry point ends a command that
 * ran out with "xrun: out of memory while STAGE (FILE line N)" and exit 3,
 * STAGE and the position those of the first failure.
 * Nothing here allocates: the message must get out when malloc cannot.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef XR_OOM_H
#define XR_OOM_H

/* What the command is doing now, e.g. "reading plans/a.yaml"; printf
 * format, kept in a fixed buffer (cut when longer). */
void xr_oom_stage(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* An allocation failed. file/line: where in the input (NULL/0 when not
 * known); the first position marked is the one reported. */
void xr_oom_mark(const char *file, int line);
/* The stage now (a fixed buffer: copy it to set it back later). */
const char *xr_oom_stage_now(void);
int xr_oom_seen(void);
/* Exit status of a command that returned rc: rc unchanged when no
 * allocation failed; otherwise the message on stderr and the exit status
 * of XR_ENOMEM (3). */
int xr_oom_exit(int rc);
/* Forget marks and stage (unit tests). */
void xr_oom_reset(void);

#endif
