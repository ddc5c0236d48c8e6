/*
 * Numbers read whole from text (runner/engine/number_text.c). A format is
 * a thousands separator (NULL or "": none; ",", ".", " ", "'") and a
 * decimal mark (NULL: "."; "." or ",").
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef XR_NUMBER_TEXT_H
#define XR_NUMBER_TEXT_H

#include <stddef.h>

/* s[0..n) as a whole number, surrounding spaces allowed; no NaN, inf or
 * hex. 0 or -XR_EPARSE. */
int number_parse(const char *s, size_t n, double *out);
/* The same in a format: separators only in groups of three (78,258,213),
 * no mark the format does not name. 0 or -XR_EPARSE. */
int number_parse_fmt(const char *thousands, const char *decimal, const char *s,
		     size_t n, double *out);
/* 1 when the number at out[so..eo) continues before it (look_before) or
 * after it (look_after) with a digit or a mark followed by a digit:
 * "213" in "78,258,213". */
int number_inside_longer(const char *thousands, const char *out, size_t len,
			 size_t so, size_t eo, int look_before, int look_after);
/* Widen [*so, *eo) to the whole number around it. */
void number_around(const char *thousands, const char *out, size_t len,
		   size_t *so, size_t *eo);
/* "0-7" or "0,1,3-7" into ok[256] (1: success). 0, or -XR_EPLAN with the
 * offending text in why. */
int number_exit_set(const char *s, unsigned char ok[256], char *why,
		    size_t whysz);

#endif
