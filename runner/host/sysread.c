/*
 * Readings of a host's state for probes, counters and facts. The local
 * host is read with plain open/read (no subprocess: counters are taken
 * around every run and must be cheap); every other host, a network
 * namespace included (`ip netns exec` remounts /sys), goes through the
 * host transport, which only ever receives argv arrays.
 *
 * SPDX-License-Identifier: MIT
 */
#include <errno.h>
#include <string.h>

#include "buf.h"
#include "host.h"
#include "host_session.h"
#include "proc.h"
#include "sysread.h"

#include "banned.h"

int sysread_is_local(struct host *h)
{
	return h == NULL || host_is_local(h);
}

const char *sysread_host_name(struct host *h)
{
	return h ? host_name(h) : "local";
}

int sysread_file(struct host *h, const char *path, struct buf *out,
		 struct xr_err *err)
{
	if (sysread_is_local(h)) {
		size_t before = out->len;
		int rc = buf_read_file(out, path, 1 << 20);
		if (rc == -XR_EIO) {
			int e = errno;
			if (out->cap) {
				out->len = before;
				out->s[before] = '\0';
			}
			return xr_err_set(err, XR_EIO, NULL, 0, 0,
					  "cannot read '%s' on host '%s': %s",
					  path, sysread_host_name(h),
					  strerror(e));
		}
		return rc;
	}
	return host_read_file(h, path, out, err);
}

int sysread_run(struct host *h, const char *const *argv, double timeout,
		struct buf *out, struct xr_err *err)
{
	return sysread_run_inline(h, argv, NULL, timeout, out, err);
}

int sysread_run_inline(struct host *h, const char *const *argv,
		       const char *inline_cmd, double timeout, struct buf *out,
		       struct xr_err *err)
{
	struct proc_opts o = {0};
	struct proc_result res = {0};
	char why[256];
	int rc;

	o.argv = argv;
	o.timeout = timeout;
	o.max_output = 4 << 20;
	if (h == NULL) {
		rc = proc_run(&o, &res, err);
	} else {
		rc = host_read_run_inline(h, &o, inline_cmd, &res, err);
	}
	if (rc < 0)
		return rc;
	if (res.status != PROC_EXITED || res.exit_code != 0) {
		struct buf e = BUF_INIT;
		buf_add(&e, res.err ? res.err : "", res.err ? res.err_len : 0);
		sysread_trim_line(&e);
		rc = xr_err_set(err, XR_EEXEC, NULL, 0, 0,
				"'%s' failed on host '%s': %s%s%s", argv[0],
				sysread_host_name(h),
				proc_describe(&res, why, sizeof why),
				e.len ? ": " : "", e.s);
		buf_release(&e);
		proc_result_release(&res);
		return rc;
	}
	rc = buf_add(out, res.out ? res.out : "", res.out ? res.out_len : 0);
	proc_result_release(&res);
	return rc;
}

int sysread_iface_ok(const char *iface, struct xr_err *err)
{
	size_t n = iface ? strlen(iface) : 0;
	int bad = n == 0 || n > 15 || strcmp(iface, ".") == 0 ||
		  strcmp(iface, "..") == 0;
	for (size_t i = 0; !bad && i < n; i++) {
		unsigned char c = (unsigned char)iface[i];
		if (c <= ' ' || c == '/' || c == ':' || c == '\'' || c == '"' ||
		    c == '\\' || c == 0x7f)
			bad = 1;
	}
	if (!bad)
		return 0;
	return xr_err_set(err, XR_EUSAGE, NULL, 0, 0,
			  "invalid interface name '%s' (valid: 1 to 15 "
			  "characters without '/', ':', quotes or spaces)",
			  iface ? iface : "");
}

void sysread_trim_line(struct buf *b)
{
	size_t start = 0, end;
	char *nl;

	if (!b->len)
		return;
	while (start < b->len && (b->s[start] == ' ' || b->s[start] == '\t' ||
				  b->s[start] == '\n' || b->s[start] == '\r'))
		start++;
	memmove(b->s, b->s + start, b->len - start + 1);
	b->len -= start;
	nl = memchr(b->s, '\n', b->len);
	end = nl ? (size_t)(nl - b->s) : b->len;
	while (end > 0 && (b->s[end - 1] == ' ' || b->s[end - 1] == '\t' ||
			   b->s[end - 1] == '\r'))
		end--;
	b->len = end;
	b->s[end] = '\0';
}
