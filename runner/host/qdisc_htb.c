/*
 * An htb root qdisc's ceiling for unclassified traffic (qdisc_htb.h):
 * the default class found in `tc class show` text, then its parents up
 * to the root, the lowest ceil kept. tc prints rates with sprint_rate():
 * bit, Kbit, Mbit, Gbit, Tbit (10^3 steps), or Kibit ... with -iec.
 *
 * SPDX-License-Identifier: MIT
 */
#include "qdisc_htb.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "banned.h"

double qdisc_rate_bits(const char *s, const char **end)
{
	static const struct {
		const char *unit;
		double scale;
	} units[] = {{"Tibit", 1099511627776.0},
		     {"Gibit", 1073741824.0},
		     {"Mibit", 1048576.0},
		     {"Kibit", 1024.0},
		     {"Tbit", 1e12},
		     {"Gbit", 1e9},
		     {"Mbit", 1e6},
		     {"Kbit", 1e3},
		     {"bit", 1}};
	char *e;
	double v = strtod(s, &e);
	if (e == s || !(v >= 0))
		return -1;
	for (size_t i = 0; i < sizeof units / sizeof *units; i++) {
		size_t n = strlen(units[i].unit);
		if (!strncmp(e, units[i].unit, n) &&
		    (e[n] == '\0' || e[n] == ' ' || e[n] == '\n')) {
			if (end)
				*end = e + n;
			return v * units[i].scale;
		}
	}
	return -1;
}

/* The line of class id ("1:10") in classes: its parent ("" for a root
 * class) into parent and its ceil in *ceil. 0, or -1 when absent. */
static int class_line(const char *classes, const char *id, char *parent,
		      size_t psz, double *ceil)
{
	size_t idn = strlen(id);
	for (const char *p = classes; p && *p;) {
		const char *nl = strchr(p, '\n'), *c;
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		char line[512];
		if (len < sizeof line) {
			memcpy(line, p, len);
			line[len] = '\0';
			if (!strncmp(line, "class htb ", 10) &&
			    !strncmp(line + 10, id, idn) &&
			    line[10 + idn] == ' ' &&
			    (c = strstr(line, " ceil ")) &&
			    (*ceil = qdisc_rate_bits(c + 6, NULL)) >= 0) {
				const char *q = strstr(line, " parent ");
				parent[0] = '\0';
				if (q && psz >= 32 &&
				    !strstr(line + 10 + idn, " root "))
					sscanf(q + 8, "%31s", parent);
				return 0;
			}
		}
		p = nl ? nl + 1 : NULL;
	}
	return -1;
}

int qdisc_htb_ceil(const char *classes, const char *handle, const char *deflt,
		   double *bps)
{
	char id[48], parent[32], major[16];
	unsigned long minor;
	char *e;
	double best = -1, c;
	int n;
	if (!classes || !handle || !deflt ||
	    sscanf(handle, "%15[0-9a-f]:", major) != 1)
		return -1;
	minor = strtoul(deflt, &e, 16); /* "0x10" */
	if (e == deflt || *e || minor == 0)
		return -1;
	snprintf(id, sizeof id, "%s:%lx", major, minor);
	for (n = 0; n < 64; n++) { /* a loop in the text is not followed */
		if (class_line(classes, id, parent, sizeof parent, &c) < 0)
			return -1;
		if (best < 0 || c < best)
			best = c;
		if (!parent[0] || !strchr(parent, ':') ||
		    parent[strlen(parent) - 1] == ':')
			break; /* a root class (its parent is the qdisc) */
		snprintf(id, sizeof id, "%s", parent);
	}
	if (n == 64 || !(best > 0))
		return -1;
	*bps = best;
	return 0;
}
