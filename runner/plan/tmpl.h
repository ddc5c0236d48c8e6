/*
 * {{placeholder}} templates. A name is [A-Za-z0-9_.-]+ with optional
 * spaces inside the braces. Used for hook argv, engine argv, manual
 * instructions and expected values.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef XR_TMPL_H
#define XR_TMPL_H

#include <stddef.h>

struct buf;

/* Returns the value for name, or NULL when it names nothing. */
typedef const char *(*tmpl_lookup_fn)(void *ctx, const char *name);

/* What tmpl_expand returns for a name its lookup does not know: not an
 * error code; the caller says what it means (a plan error, a report
 * warning). */
#define TMPL_UNKNOWN (-1)

/*
 * Expand t into out. 0 on success; on an unknown name returns TMPL_UNKNOWN
 * and, when bad_name is non-NULL, copies the name there (bad_name_sz
 * bytes). An unterminated "{{" is copied literally.
 */
int tmpl_expand(const char *t, tmpl_lookup_fn lookup, void *ctx,
		struct buf *out, char *bad_name, size_t bad_name_sz);

/*
 * Call fn for every placeholder name in t with its byte offset (for
 * column arithmetic). Stops and returns fn's value when non-zero.
 */
typedef int (*tmpl_each_fn)(void *ctx, const char *name, size_t offset);
int tmpl_each(const char *t, tmpl_each_fn fn, void *ctx);

#endif
