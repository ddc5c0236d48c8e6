/*
 * The pieces of the explanations' sentences (explain_text.c), which
 * explain.c and the rules' files write with: fixed buffers, cut at their
 * size, never allocating.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef XR_EXPLAIN_TEXT_H
#define XR_EXPLAIN_TEXT_H

#include <stddef.h>

struct report;

/* Append s to dst (size n), after sep when dst is not empty. */
void explain_cat(char *dst, size_t n, const char *sep, const char *s);
/* Appends "KEY of HOST: VALUE" (Japanese: "HOST の KEY: VALUE") to dst,
 * after ", " ("、") when dst is not empty; value NULL: no ": VALUE". */
void explain_fact_text(char *dst, size_t n, int ja, const char *host,
		       const char *key, const char *value);
/* "V = 78% of C (NAME)" (digits decimals of the share v / ceiling), in
 * Japanese when ja, appended to dst (size n) after "; ". */
void explain_share(const struct report *r, int ja, double v, double ceiling,
		   const char *name, int digits, char *dst, size_t n);

#endif
