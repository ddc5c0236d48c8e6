/*
 * Windows hosts: the PowerShell scripts run for probes, counters and facts
 * (sent as powershell.exe -EncodedCommand, so no quoting layer can alter
 * them), and the translators of their ConvertTo-Json output into the
 * documents the shared readers take. See hostos.h.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef XR_OSWIN_H
#define XR_OSWIN_H

#include "hostos.h"

/* The script text for what, with the interface and section letters set
 * as PowerShell literals in its first lines. Appends to out. One script
 * block `& { ... }` without `exit`, then OSWIN_STATUS_LINE: the same text
 * serves as a process (oswin_argv) and inside the host's persistent
 * session (oswin_session_command); see oswin.c. */
#define OSWIN_STATUS_LINE "$global:LASTEXITCODE = 0"
int oswin_script(enum hostos_what what, const char *iface, const char *letters,
		 struct buf *out);
/* powershell.exe -NoProfile -NonInteractive -EncodedCommand BASE64 of
 * script (UTF-8), pushed onto out; 0 or a negative XR_ code. */
int oswin_encoded_argv(const char *script, struct strv *out);
/* The same for oswin_script's text for what. */
int oswin_argv(enum hostos_what what, const char *iface, const char *letters,
	       struct strv *out);
/* The one-line statement that runs script inside the session's own
 * PowerShell (host_read_run_inline): a script block created from the
 * same base64 as -EncodedCommand, run with &, its output written through
 * [Console]::Out. Appends to out; 0 or -XR_ENOMEM. */
int oswin_session_command(const char *script, struct buf *out);
/* Base64 of the UTF-16LE form of a UTF-8 script (-EncodedCommand). */
int oswin_encode(const char *script, struct buf *out);

int oswin_nic_doc(const char *text, struct buf *doc);
int oswin_system_doc(const char *text, struct buf *doc);
int oswin_counters_doc(const char *text, struct buf *doc);

/* A processor instance name [p, e) of the Processor Information set
 * ("G,N") or the older Processor set ("N", group 0): 1 with group and
 * number, 2 for "_Total" (any case), 0 for a group's sum "G,_Total", -1
 * anything else. One reader for the before/after rows (oswin_doc.c) and
 * the sampler's frames (winctr.c), so both number a CPU alike. */
int oswin_cpu_instance(const char *p, const char *e, unsigned long *group,
		       unsigned long *number);

/* 1 when s[0..n) is well-formed UTF-8. */
int oswin_utf8_valid(const char *s, size_t n);
/*
 * A Windows host's output as UTF-8 (oswin_out.c): as it is when marked
 * "@@ xrun-codepage 65001" or unmarked and valid UTF-8, else converted
 * from the marked code page with iconv. -1 with why filled when it cannot
 * be decoded.
 */
int oswin_decode(const char *s, size_t n, struct buf *out, char *why,
		 size_t whylen);
/* The first framed cmdlet error "@@ xrun-error SECTION: MESSAGE" of text
 * ("SECTION: MESSAGE", *len bytes), or NULL. */
const char *oswin_failure(const char *text, size_t *len);

#endif
