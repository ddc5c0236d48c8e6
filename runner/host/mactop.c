/*
 * The macOS top line readers (mactop.h). Format, from Apple's top
 * (apple-oss-distributions/top, tag top-144, commit 1e3b6ca, globalstats.c):
 *
 *   cpu_percent: whole = 100 * ticks / total;
 *                part = ((100 * ticks - whole * total) * 100) / total;
 *   "CPU usage: %" PRIu64 ".%" PRIu64 "%% user, " ... "%% sys, " ...
 *   "%% idle "   (then, with the hvwait preference, "; W.P% ivw ")
 *   "Load Avg: %.2f, %.2f, %.2f "
 *
 * The part after the dot is hundredths printed WITHOUT zero padding:
 * 5.05% comes out "5.5%" and 5.50% "5.50%". So the digits after the dot
 * are read as an integer count of hundredths (0..99), never as a
 * decimal fraction.
 *
 * SPDX-License-Identifier: MIT
 */
#include <string.h>

#include "mactop.h"

#include "banned.h"

struct cur {
	const char *p, *e;
};

static int lit(struct cur *c, const char *s)
{
	size_t n = strlen(s);
	if ((size_t)(c->e - c->p) < n || memcmp(c->p, s, n))
		return 0;
	c->p += n;
	return 1;
}

/* Up to 20 decimal digits (a u64), at least one. */
static int digits(struct cur *c, unsigned long long *v, int *nd)
{
	*v = 0;
	*nd = 0;
	while (c->p < c->e && *c->p >= '0' && *c->p <= '9') {
		if (++*nd > 20)
			return 0;
		*v = *v * 10 + (unsigned long long)(*c->p++ - '0');
	}
	return *nd > 0;
}

/* "W.P%": W whole percent (0..100), P hundredths (0..99, unpadded). */
static int pct(struct cur *c, double *out)
{
	unsigned long long w, p;
	int nw, np;
	if (!digits(c, &w, &nw) || !lit(c, ".") || !digits(c, &p, &np) ||
	    !lit(c, "%") || w > 100 || p > 99 || (w == 100 && p))
		return 0;
	*out = (double)w + (double)p / 100.0;
	return 1;
}

int mactop_cpu_line(const char *line, size_t len, struct mactop_cpu *c)
{
	struct cur k = {line, line + len};
	double sum;

	if (!lit(&k, "CPU usage:"))
		return 0;
	if (!lit(&k, " ") || !pct(&k, &c->user) || !lit(&k, " user, ") ||
	    !pct(&k, &c->sys) || !lit(&k, " sys, ") || !pct(&k, &c->idle) ||
	    !lit(&k, " idle"))
		return -1;
	/* each of the three loses under 0.01 to truncation: the sum is in
	 * (99.97, 100] for top's own line */
	sum = c->user + c->sys + c->idle;
	if (sum > 100.0 + 1e-9 || sum < 99.97 - 1e-9)
		return -1;
	c->busy = c->user + c->sys;
	return 1;
}

/* "%.2f" of a load average: digits, a dot, two digits. */
static int load(struct cur *c, double *out)
{
	unsigned long long w, f;
	int nw, nf;
	if (!digits(c, &w, &nw) || nw > 9 || !lit(c, ".") ||
	    !digits(c, &f, &nf) || nf != 2)
		return 0;
	*out = (double)w + (double)f / 100.0;
	return 1;
}

int mactop_load_line(const char *line, size_t len, double la[3])
{
	struct cur k = {line, line + len};

	if (!lit(&k, "Load Avg:"))
		return 0;
	if (!lit(&k, " ") || !load(&k, &la[0]) || !lit(&k, ", ") ||
	    !load(&k, &la[1]) || !lit(&k, ", ") || !load(&k, &la[2]))
		return -1;
	return 1;
}
