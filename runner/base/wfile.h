/*
 * The one writer of every file xrun writes for the user (reports, chart
 * images, plans from references): the whole content is handed over at once
 * and replaces the target through a temporary beside it (random name,
 * O_CREAT|O_EXCL|O_NOFOLLOW), written, fsynced and renamed, so that the
 * previous file stays intact on any failure or kill.
 *
 * A target is refused when it is a protected path (the store with its
 * -wal, -shm, -journal and .lock files; the input of a command), any
 * SQLite database or WAL file, a symbolic link, or anything that exists
 * and is not a regular file (a FIFO, a device, a directory, a socket).
 * Refusals are -XR_EUSAGE; failures to write are -XR_EIO.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef XR_WFILE_H
#define XR_WFILE_H

#include <stddef.h>
#include <stdio.h>

#include "xr_err.h"

/* Never write path (nor, with sidecars, path-wal, -shm, -journal and
 * .lock); what names it in the refusal ("the store"). Both are copied;
 * kept for the life of the process. 0 or -XR_ENOMEM. */
int wfile_protect(const char *path, const char *what, int sidecars);

/* The checks alone, e.g. before the work of building what will be written:
 * 0, or -XR_EUSAGE / -XR_EIO with err naming path. */
int wfile_check(const char *path, struct xr_err *err);

/* Replace path with data[0, len). 0, or the code of wfile_check, or
 * -XR_EIO with err naming path ("no space left on device writing 'r.pdf'");
 * on failure the previous file is untouched and no temporary is left. */
int wfile_write(const char *path, const void *data, size_t len,
		struct xr_err *err);

/*
 * The same written as a stream, for content too large to hold whole (a
 * JSON report of 10^6 published runs is 67 MB, bench/RESULTS.md,
 * "Reference reading"): wfile_open checks path and opens the temporary,
 * *f writes into it; wfile_commit flushes, fsyncs and renames (its code
 * as wfile_write's); wfile_abort removes the temporary and returns rc,
 * or when a write into it had failed, that failure named as wfile_write
 * names it ("no space left on device writing 'r.json'"). Either frees w
 * and closes *f. A kill before the commit leaves the previous file and a
 * hidden temporary ".NAME.RANDOM.tmp".
 */
struct wfile;
int wfile_open(const char *path, struct wfile **w, FILE **f,
	       struct xr_err *err);
int wfile_commit(struct wfile *w, struct xr_err *err);
int wfile_abort(struct wfile *w, int rc, struct xr_err *err);

#endif
