/*
 * Internals of reports/explain shared by explain.c (measured cells) and
 * explain_ref.c (published cells of a reference). Not for writers.
 */
#ifndef XR_EXPLAIN_INT_H
#define XR_EXPLAIN_INT_H

#include <stddef.h>

#include "explain.h"

/* Append s to dst (size n), after sep when dst is not empty. */
void explain_cat(char *dst, size_t n, const char *sep, const char *s);

/* "V = 78% of C (NAME)" (digits decimals of the share v / ceiling), in
 * Japanese when ja, appended to dst (size n) after "; ". */
struct report;
void explain_share(const struct report *r, int ja, double v, double ceiling,
		   const char *name, int digits, char *dst, size_t n);

/* The published cells' limits and sentences of r->ref into x (x->cells
 * built first). 0, or -XR_ENOMEM. */
int explain_refs(const struct report *r, struct explain *x);

#endif
