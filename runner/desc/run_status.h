/*
 * The statuses of a scheduled run, as the engine returns them, the store
 * keeps them (runs.status) and `xrun status`, resume and reports read
 * them back: one row each in RUN_STATUS_MAP, everyone derives from it.
 *
 * Columns:
 *   id      RUN_<id>, the enum value (stored in memory, never on disk)
 *   name    the text in runs.status
 *   done    finished for good: a resumed session does not run it again
 *   failed  counts as a failure (the session exits 1)
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef XR_RUN_STATUS_H
#define XR_RUN_STATUS_H

/* X(id, name, done, failed) */
#define RUN_STATUS_MAP(X)                                                      \
	X(PENDING, "pending", 0, 0)                                            \
	X(RUNNING, "running", 0, 0)                                            \
	X(OK, "ok", 1, 0)                                                      \
	X(FAILED, "failed", 1, 1)                                              \
	X(TIMEOUT, "timeout", 1, 1)                                            \
	X(INTERRUPTED, "interrupted", 0, 0)                                    \
	X(SKIPPED, "skipped", 1, 0)

enum run_status {
#define RUN_STATUS_ENUM(id, name, done, failed) RUN_##id,
	RUN_STATUS_MAP(RUN_STATUS_ENUM)
#undef RUN_STATUS_ENUM
	    RUN_STATUS_COUNT
};

/* "ok", "failed", ...; "unknown" outside the table. */
const char *run_status_name(enum run_status s);
/* The status named name, or -1. */
int run_status_parse(const char *name);
/* The done and failed columns; 0 outside the table. */
int run_status_done(int s);
int run_status_failed(int s);

#endif
