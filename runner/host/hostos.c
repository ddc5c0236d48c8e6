/*
 * The per-OS dispatch of probes, counters and facts: which command a host
 * of each OS runs for a reading (hostos_argv, one row per OS in os_tab)
 * and how its output becomes the document the shared readers take
 * (hostos_translate). Linux stays in probe.c and counters.c, which read
 * sysfs and /proc directly on this machine; this module serves Windows
 * and macOS hosts, which are always reached through a transport.
 *
 * SPDX-License-Identifier: MIT
 */
#include <string.h>

#include "buf.h"
#include "host.h"
#include "kv.h"
#include "hostos.h"
#include "osmac.h"
#include "oswin.h"
#include "proc.h"
#include "strv.h"
#include "sysread.h"

#include "banned.h"

static int win_argv(enum hostos_what what, const char *iface,
		    const char *letters, struct strv *out)
{
	return oswin_argv(what, iface, letters, out);
}

/* The fixed sh script for what: run as sh -c SCRIPT sh IFACE LETTERS. */
static const char *mac_script(enum hostos_what what)
{
	if (what == HOSTOS_NIC)
		return osmac_nic_script;
	if (what == HOSTOS_SYSTEM)
		return osmac_system_script;
	return osmac_counters_script;
}

static int mac_argv(enum hostos_what what, const char *iface,
		    const char *letters, struct strv *out)
{
	const char *argv[] = {"sh",
			      "-c",
			      mac_script(what),
			      "sh",
			      iface ? iface : "",
			      letters ? letters : "",
			      NULL};
	int rc = 0;
	for (int i = 0; rc == 0 && argv[i]; i++)
		rc = strv_push(out, argv[i]);
	return rc;
}

static int win_translate(enum hostos_what what, const char *text,
			 const char *iface, struct buf *doc)
{
	(void)iface;
	if (what == HOSTOS_NIC)
		return oswin_nic_doc(text, doc);
	if (what == HOSTOS_SYSTEM)
		return oswin_system_doc(text, doc);
	return oswin_counters_doc(text, doc);
}

static int mac_translate(enum hostos_what what, const char *text,
			 const char *iface, struct buf *doc)
{
	if (what == HOSTOS_NIC)
		return osmac_nic_doc(text, iface ? iface : "", doc);
	if (what == HOSTOS_SYSTEM)
		return osmac_system_doc(text, doc);
	return osmac_counters_doc(text, doc);
}

static const struct {
	const char *name;
	int (*argv)(enum hostos_what, const char *, const char *,
		    struct strv *);
	int (*translate)(enum hostos_what, const char *, const char *,
			 struct buf *);
	double timeout; /* seconds: powershell.exe and system_profiler
			   take a while to start */
} os_tab[] = {
    [PLAN_OS_LINUX] = {"linux", NULL, NULL, 0},
    [PLAN_OS_WINDOWS] = {"windows", win_argv, win_translate, 60.0},
    [PLAN_OS_MACOS] = {"macos", mac_argv, mac_translate, 40.0},
};

const char *hostos_name(enum plan_os os)
{
	return (unsigned)os < sizeof os_tab / sizeof os_tab[0] ? os_tab[os].name
							       : "?";
}

int hostos_argv(enum plan_os os, enum hostos_what what, const char *iface,
		const char *letters, struct strv *out)
{
	if ((unsigned)os >= sizeof os_tab / sizeof os_tab[0] ||
	    !os_tab[os].argv)
		return -XR_EUSAGE;
	return os_tab[os].argv(what, iface, letters, out) < 0 ? -XR_ENOMEM : 0;
}

int hostos_translate(enum plan_os os, enum hostos_what what, const char *text,
		     const char *iface, struct buf *doc)
{
	if ((unsigned)os >= sizeof os_tab / sizeof os_tab[0] ||
	    !os_tab[os].translate)
		return -XR_EUSAGE;
	return os_tab[os].translate(what, text ? text : "", iface, doc);
}

/* A Windows host's output decoded to UTF-8 in place, and its first framed
 * cmdlet error as the reading's failure (oswin_out.c). */
static int win_output(struct host *h, struct buf *out, struct xr_err *err)
{
	struct buf dec = BUF_INIT;
	char why[160];
	const char *fail;
	size_t flen;
	int rc = 0;

	if (oswin_decode(out->s ? out->s : "", out->len, &dec, why,
			 sizeof why) < 0)
		rc = xr_err_set(err, XR_EHOST, NULL, 0, 0,
				"unreadable output from windows host '%s': %s",
				sysread_host_name(h), why);
	else if ((fail = oswin_failure(dec.s ? dec.s : "", &flen)) != NULL)
		rc = xr_err_set(err, XR_EHOST, NULL, 0, 0,
				"powershell error on host '%s' in %.*s",
				sysread_host_name(h), (int)flen, fail);
	if (rc == 0) {
		buf_release(out);
		*out = dec;
	} else {
		buf_release(&dec);
	}
	return rc;
}

/*
 * A Windows reading: as a process (powershell.exe -EncodedCommand, argv)
 * or, in the host's persistent session, the same script run by the
 * session's own PowerShell (oswin_session_command; host_session.c picks
 * the form).
 */
static int win_run(struct host *h, const char *const *argv, const char *script,
		   double timeout, struct buf *out, struct xr_err *err)
{
	struct buf line = BUF_INIT;
	int rc = oswin_session_command(script, &line) < 0
		     ? xr_err_set(err, XR_ENOMEM, NULL, 0, 0, "out of memory")
		     : sysread_run_inline(h, argv, line.s, timeout, out, err);
	buf_release(&line);
	return rc;
}

/* A macOS nic output: the kept system_profiler lines added when the script
 * skipped it, else its lines kept under the adapter's MAC address. */
static void mac_cache(struct host *h, struct buf *out)
{
	const char *text = out->s ? out->s : "";
	char mac[64];
	if (kv_section(text, "profiler-cached", NULL)) {
		const char *kept = host_cache_get(h, host_cache_key(h));
		if (kept)
			buf_adds(out, kept);
	} else if (osmac_ether(text, mac, sizeof mac)) {
		struct buf t = BUF_INIT;
		osmac_profiler_text(text, &t);
		if (!t.truncated)
			host_cache_set(h, mac, t.s ? t.s : "");
		buf_release(&t);
	}
}

int hostos_read(struct host *h, enum hostos_what what, const char *iface,
		const char *letters, struct buf *doc, struct xr_err *err)
{
	enum plan_os os = host_os(h);
	struct strv av = {0};
	struct buf out = BUF_INIT;
	int mac_nic = os == PLAN_OS_MACOS && what == HOSTOS_NIC;
	int rc;

	/* macOS: system_profiler once per adapter and session ($2: the MAC
	 * whose lines are kept; the script skips it when it still matches) */
	if (mac_nic)
		letters = host_cache_key(h) ? host_cache_key(h) : "";
	rc = hostos_argv(os, what, iface, letters, &av);

	if (rc < 0) {
		strv_release(&av);
		return xr_err_set(err,
				  rc == -XR_EUSAGE ? XR_EINTERNAL : XR_ENOMEM,
				  NULL, 0, 0, "no %s command set for host '%s'",
				  hostos_name(os), sysread_host_name(h));
	}
	if (os == PLAN_OS_WINDOWS) {
		struct buf script = BUF_INIT;
		rc = oswin_script(what, iface, letters, &script) < 0
			 ? xr_err_set(err, XR_ENOMEM, NULL, 0, 0,
				      "out of memory")
			 : win_run(h, (const char *const *)av.v, script.s,
				   os_tab[os].timeout, &out, err);
		buf_release(&script);
		if (rc == 0)
			rc = win_output(h, &out, err);
	} else {
		rc = sysread_run(h, (const char *const *)av.v,
				 os_tab[os].timeout, &out, err);
	}
	if (rc == 0 && mac_nic)
		mac_cache(h, &out);
	if (rc == 0 &&
	    hostos_translate(os, what, out.s ? out.s : "", iface, doc) < 0)
		rc = xr_err_set(err, XR_ENOMEM, NULL, 0, 0,
				"out of memory reading host '%s'",
				sysread_host_name(h));
	strv_release(&av);
	buf_release(&out);
	return rc;
}

int hostos_iface_ok(enum plan_os os, const char *iface, struct xr_err *err)
{
	size_t n = iface ? strlen(iface) : 0;
	int bad = n == 0 || n > 255;
	if (os != PLAN_OS_WINDOWS)
		return sysread_iface_ok(iface, err);
	/* Quoted as a PowerShell literal: only control characters and
	 * wildcards (Get-NetAdapter -Name matches patterns) are refused. */
	for (size_t i = 0; !bad && i < n; i++) {
		unsigned char c = (unsigned char)iface[i];
		if (c < ' ' || c == 0x7f || c == '*' || c == '?' || c == '[' ||
		    c == ']')
			bad = 1;
	}
	if (!bad)
		return 0;
	return xr_err_set(err, XR_EUSAGE, NULL, 0, 0,
			  "invalid adapter name '%s' (valid: 1 to 255 "
			  "characters without control characters or "
			  "wildcards * ? [ ])",
			  iface ? iface : "");
}
