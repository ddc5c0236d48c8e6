/*
 * Errors with a position. Every fallible function returns 0 or a negative
 * XR_E* code and fills a struct xr_err. Validation collects many errors in
 * a struct xr_diag so that every problem in a file is reported at once.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef XR_ERR_H
#define XR_ERR_H

#include <stdarg.h>
#include <stddef.h>

#include "xr_code.h"

struct xr_err {
	int code;	/* enum xr_code, 0 when no error */
	char file[256]; /* file the error is about, "" when none */
	int line, col;	/* 1-based; 0 when unknown */
	char msg[1024];
};

/* Fill err (if non-NULL) and return -code. */
int xr_err_set(struct xr_err *err, int code, const char *file, int line,
	       int col, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));
void xr_err_clear(struct xr_err *err);
/* "file:line:col: error: msg" (parts that are unknown are omitted). */
void xr_err_print(const struct xr_err *err, const char *prog);

/* A list of positioned messages (errors and warnings). */
struct xr_diag_item {
	int is_warning;
	int line, col;
	char *msg; /* owned */
};
struct xr_diag {
	const char *file; /* borrowed; used as prefix when printing */
	struct xr_diag_item *items;
	size_t n, cap;
	size_t nerr; /* items that are errors */
	/* Messages that found no memory: the first is kept here (printed
	 * after the items), the others counted; lost errors count in nerr,
	 * so a plan never passes because its error could not be kept. */
	size_t nlost;
	struct {
		int is_warning, line, col;
		char msg[512];
	} lost;
	/* Kept at most XR_DIAG_MAX messages (the first, in the order found);
	 * the others only counted, errors in nerr too (issue 40: a 16 MiB
	 * reference printed 574 MB of errors). */
	size_t nover, nover_err;
};
#define XR_DIAG_MAX 200
void xr_diag_init(struct xr_diag *d, const char *file);
void xr_diag_add(struct xr_diag *d, int is_warning, int line, int col,
		 const char *fmt, ...) __attribute__((format(printf, 5, 6)));
void xr_diag_vadd(struct xr_diag *d, int is_warning, int line, int col,
		  const char *fmt, va_list ap);
/* Sort by position and print "file:line:col: error: msg" to stream;
 * then, past XR_DIAG_MAX, "file: error: N more errors and M warnings not
 * shown (the first 200 messages are)". */
void xr_diag_print(struct xr_diag *d, void *stream);
void xr_diag_release(struct xr_diag *d);

#endif
