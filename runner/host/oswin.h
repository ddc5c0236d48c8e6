/*
 * Windows hosts: the PowerShell scripts run for probes, counters and facts
 * (sent as powershell.exe -EncodedCommand, so no quoting layer can alter
 * them), and the translators of their ConvertTo-Json output into the
 * documents the shared readers take. See hostos.h.
 */
#ifndef XR_OSWIN_H
#define XR_OSWIN_H

#include "hostos.h"

/* The script text for what, with the interface and section letters set
 * as PowerShell literals in its first lines. Appends to out. */
int oswin_script(enum hostos_what what, const char *iface, const char *letters,
		 struct buf *out);
/* powershell.exe -NoProfile -NonInteractive -EncodedCommand BASE64 */
int oswin_argv(enum hostos_what what, const char *iface, const char *letters,
	       struct strv *out);
/* Base64 of the UTF-16LE form of a UTF-8 script (-EncodedCommand). */
int oswin_encode(const char *script, struct buf *out);

int oswin_nic_doc(const char *text, struct buf *doc);
int oswin_system_doc(const char *text, struct buf *doc);
int oswin_counters_doc(const char *text, struct buf *doc);

#endif
