/*
 * The error codes: one row each (code, name, the CLI's exit status) in
 * XR_ERRNO_MAP, everyone derives from it (the enum, `xrun help`'s exit
 * statuses, the man page). A leaf of runner/base: the error values
 * (xr_err.h) and the out-of-memory exit (oom.h) both read it, and neither
 * calls the other for it.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef XR_CODE_H
#define XR_CODE_H

/* X-macro: code, name, default exit status of the CLI. */
#define XR_ERRNO_MAP(X)                                                        \
	X(OK, "ok", 0)                                                         \
	X(USAGE, "usage", 2)                                                   \
	X(PLAN, "plan", 2)                                                     \
	X(YAML, "yaml", 2)                                                     \
	X(IO, "io", 3)                                                         \
	X(NOMEM, "nomem", 3)                                                   \
	X(ENV, "environment", 3)                                               \
	X(EXEC, "exec", 3)                                                     \
	X(TIMEOUT, "timeout", 1)                                               \
	X(INTR, "interrupted", 130)                                            \
	X(STORE, "store", 3)                                                   \
	X(LOCKED, "locked", 3)                                                 \
	X(PARSE, "parse", 1)                                                   \
	X(ENGINE, "engine", 1)                                                 \
	X(HOST, "host", 3)                                                     \
	X(REPORT, "report", 3)                                                 \
	X(FONT, "font", 3)                                                     \
	X(CHANGED, "plan-changed", 2)                                          \
	X(GATE, "fail-on", 4)                                                  \
	X(INTERNAL, "internal", 3)

enum xr_code {
#define XR_ENUM(c, n, x) XR_E##c,
	XR_ERRNO_MAP(XR_ENUM)
#undef XR_ENUM
	    XR_E_COUNT
};
/* Functions return -(code); XR_EOK is 0. */

/* "nomem", "usage", ...; "unknown" outside the table. code may be
 * negative (a return value). */
const char *xr_code_name(int code);
/* The CLI's exit status for code; 3 outside the table. */
int xr_code_exit(int code);

#endif
