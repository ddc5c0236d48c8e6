/*
 * number_text.c: numbers read whole from a tool's text output (the
 * command engine's metrics and interval lines): a strict number parser,
 * one that knows a thousands separator and a decimal mark, the test for
 * a capture that sits inside a longer number, and exit-status sets.
 *
 * SPDX-License-Identifier: MIT
 */
#include "number_text.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xr_err.h"
#include "banned.h"

/*
 * "0-7" or "0,1,3-7": the exit statuses that count as success, into
 * ok[256]. 0, or -XR_EPLAN with the offending text in why.
 */
int number_exit_set(const char *s, unsigned char ok[256], char *why,
		    size_t whysz)
{
	const char *t = s;
	memset(ok, 0, 256);
	while (*t) {
		char *end;
		long a, b;
		while (*t == ' ')
			t++;
		if (!isdigit((unsigned char)*t))
			goto bad;
		a = strtol(t, &end, 10);
		b = a;
		t = end;
		if (*t == '-') {
			if (!isdigit((unsigned char)t[1]))
				goto bad;
			b = strtol(t + 1, &end, 10);
			t = end;
		}
		while (*t == ' ')
			t++;
		if (a < 0 || b > 255 || a > b || (*t && *t != ','))
			goto bad;
		if (*t == ',')
			t++;
		while (a <= b)
			ok[a++] = 1;
	}
	return 0;
bad:
	snprintf(why, whysz,
		 "bad ok_exit '%s' near '%.20s' (exit statuses 0-255 as "
		 "a list of numbers and ranges, e.g. \"0-7\" or \"0,2\")",
		 s, t);
	return -XR_EPLAN;
}

/* Whole-string number, surrounding spaces allowed; no NaN/inf. */
int number_parse(const char *s, size_t n, double *out)
{
	char tmp[128], *end;
	double v;
	while (n && isspace((unsigned char)*s)) {
		s++;
		n--;
	}
	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	if (!n || n >= sizeof tmp)
		return -XR_EPARSE;
	memcpy(tmp, s, n);
	tmp[n] = '\0';
	errno = 0;
	v = strtod(tmp, &end);
	if (*end || errno == ERANGE || !isfinite(v) ||
	    strpbrk(tmp, "xXnNiI")) /* no hex floats, nan, inf */
		return -XR_EPARSE;
	*out = v;
	return 0;
}

/*
 * A number as the metric's format writes it: thousands separators only in
 * groups of three (78,258,213), the decimal mark as declared; then the
 * whole text must be a number. 0, or -XR_EPARSE.
 */
int number_parse_fmt(const char *thousands, const char *decimal, const char *s,
		     size_t n, double *out)
{
	char tmp[128];
	char th = thousands && thousands[0] ? thousands[0] : 0;
	char dm = decimal && decimal[0] ? decimal[0] : '.';
	size_t i, k = 0;
	int digits = 0, groups = 0, seen_dec = 0;

	while (n && isspace((unsigned char)*s) && *s != th) {
		s++;
		n--;
	}
	while (n && isspace((unsigned char)s[n - 1]) && s[n - 1] != th)
		n--;
	if (!n || n >= sizeof tmp)
		return -XR_EPARSE;
	for (i = 0; i < n; i++) {
		char ch = s[i];
		if (th && ch == th && !seen_dec) {
			/* a group opens after 1-3 digits, then exactly 3 */
			if (!digits || (groups && digits != 3) || digits > 3)
				return -XR_EPARSE;
			groups++;
			digits = 0;
			continue;
		}
		if (ch == dm && !seen_dec) {
			if (groups && digits != 3)
				return -XR_EPARSE;
			seen_dec = 1;
			tmp[k++] = '.';
			continue;
		}
		if (ch == '.' || ch == ',') /* a mark the format did not name */
			return -XR_EPARSE;
		if (isdigit((unsigned char)ch) && !seen_dec)
			digits++;
		tmp[k++] = ch;
	}
	if (groups && !seen_dec && digits != 3)
		return -XR_EPARSE;
	return number_parse(tmp, k, out);
}

static int is_mark(const char *thousands, char c)
{
	return c == ',' || c == '.' ||
	       (thousands && thousands[0] && c == thousands[0]);
}

/* Does the number text at out[so..eo) continue outside it? */
int number_inside_longer(const char *thousands, const char *out, size_t len,
			 size_t so, size_t eo, int look_before, int look_after)
{
	if (look_before && so > 0) {
		char c = out[so - 1];
		if (isdigit((unsigned char)c) ||
		    (is_mark(thousands, c) && so > 1 &&
		     isdigit((unsigned char)out[so - 2])))
			return 1;
	}
	if (look_after && eo < len) {
		char c = out[eo];
		if (isdigit((unsigned char)c) ||
		    (is_mark(thousands, c) && eo + 1 < len &&
		     isdigit((unsigned char)out[eo + 1])))
			return 1;
	}
	return 0;
}

/* The whole number around out[so..eo), for the message. */
void number_around(const char *thousands, const char *out, size_t len,
		   size_t *so, size_t *eo)
{
	while (*so > 0 && (isdigit((unsigned char)out[*so - 1]) ||
			   (is_mark(thousands, out[*so - 1]) && *so > 1 &&
			    isdigit((unsigned char)out[*so - 2]))))
		(*so)--;
	while (*eo < len && (isdigit((unsigned char)out[*eo]) ||
			     (is_mark(thousands, out[*eo]) && *eo + 1 < len &&
			      isdigit((unsigned char)out[*eo + 1]))))
		(*eo)++;
}
