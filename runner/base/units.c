/*
 * Units (see units.h): the one place that turns "10s", "500ms", "9.4G",
 * "1Gi" into numbers and declared metric units into SI base units, so that
 * every stored value is in base units (throughput always in bit/s).
 *
 * SPDX-License-Identifier: MIT
 */
#include "units.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xr_code.h"

#include "banned.h"

/*
 * A plain decimal number: digits, optional fraction, optional exponent.
 * strtod alone would also take "inf", "nan", hex and leading blanks, none
 * of which belong in a plan. Returns the length consumed, 0 when none.
 */
static size_t scan_number(const char *s, double *out)
{
	size_t i = 0, digits = 0;
	char tmp[64];
	while (s[i] >= '0' && s[i] <= '9')
		i++, digits++;
	if (s[i] == '.') {
		i++;
		while (s[i] >= '0' && s[i] <= '9')
			i++, digits++;
	}
	if (!digits)
		return 0;
	if ((s[i] == 'e' || s[i] == 'E') &&
	    ((s[i + 1] >= '0' && s[i + 1] <= '9') ||
	     ((s[i + 1] == '+' || s[i + 1] == '-') && s[i + 2] >= '0' &&
	      s[i + 2] <= '9'))) {
		i += 2;
		while (s[i] >= '0' && s[i] <= '9')
			i++;
	}
	if (i >= sizeof tmp)
		return 0;
	memcpy(tmp, s, i);
	tmp[i] = 0;
	*out = strtod(tmp, NULL);
	return i;
}

static const struct {
	const char *suffix;
	double mult;
} dur_units[] = {
    {"ns", 1e-9}, {"us", 1e-6}, {"\xc2\xb5s", 1e-6}, {"ms", 1e-3}, {"s", 1},
    {"sec", 1},	  {"m", 60},	{"min", 60},	     {"h", 3600},  {"d", 86400},
};

#define UNITS_MAX_DURATION (365.0 * 86400)

static int parse_duration(const char *s, double *out, const char **why)
{
	double total = 0, v;
	size_t n;
	int parts = 0;
	if (!*s) {
		*why = "empty duration";
		return -XR_EPARSE;
	}
	/* "90" = seconds; "1m30s" = compound */
	while (*s) {
		size_t best = 0, k, i;
		double mult = 0;
		n = scan_number(s, &v);
		if (!n) {
			*why =
			    "expected a number with a unit (e.g. 10s, 500ms, "
			    "2m, 1h)";
			return -XR_EPARSE;
		}
		s += n;
		for (i = 0; i < sizeof dur_units / sizeof dur_units[0]; i++) {
			k = strlen(dur_units[i].suffix);
			if (k > best &&
			    strncmp(s, dur_units[i].suffix, k) == 0 &&
			    !(s[k] >= 'a' && s[k] <= 'z')) {
				best = k;
				mult = dur_units[i].mult;
			}
		}
		if (!best) {
			if (*s == ' ' || *s == '\t') {
				*why = "a blank between the number and its "
				       "unit (write 10s, not 10 s)";
				return -XR_EPARSE;
			}
			if (*s == '.' || *s == ',') {
				*why = "not a number (one decimal point at "
				       "most, e.g. 1.5s)";
				return -XR_EPARSE;
			}
			if (*s || parts) {
				*why = "unknown duration unit (valid: ns, us, "
				       "ms, s, m, h, d)";
				return -XR_EPARSE;
			}
			mult = 1;
		}
		s += best;
		total += v * mult;
		parts++;
	}
	/* beyond this it is a typo, and estimates would overflow */
	if (total > UNITS_MAX_DURATION) {
		*why = "too long (at most 365d)";
		return -XR_EPARSE;
	}
	*out = total;
	return 0;
}

static int parse_count(const char *s, double *out, const char **why)
{
	double v, mult = 1;
	size_t n = scan_number(s, &v);
	if (!n) {
		*why = "expected a number with an optional K, M, G, T "
		       "(x1000) or Ki, Mi, Gi, Ti (x1024) suffix";
		return -XR_EPARSE;
	}
	s += n;
	if (*s) {
		const char *pfx = "KMGTP";
		const char *q = strchr(pfx, s[0] == 'k' ? 'K' : s[0]);
		int e;
		if (!q || !s[0]) {
			*why = "unknown suffix (valid: K, M, G, T, Ki, Mi, "
			       "Gi, Ti)";
			return -XR_EPARSE;
		}
		e = (int)(q - pfx) + 1;
		if (s[1] == 'i' && s[2] == 0)
			mult = pow(1024, e);
		else if (s[1] == 0)
			mult = pow(1000, e);
		else {
			*why = "unknown suffix (valid: K, M, G, T, Ki, Mi, "
			       "Gi, Ti)";
			return -XR_EPARSE;
		}
	}
	*out = v * mult;
	return 0;
}

int units_parse(const char *s, enum units_kind kind, double *out,
		const char **why)
{
	const char *dummy;
	double v = 0;
	int rc;
	if (!why)
		why = &dummy;
	*why = NULL;
	if (!s) {
		*why = "missing value";
		return -XR_EPARSE;
	}
	if (kind == UNITS_DURATION)
		rc = parse_duration(s, &v, why);
	else
		rc = parse_count(s, &v, why);
	if (rc == 0 && !isfinite(v)) {
		*why = "number out of range";
		return -XR_EPARSE;
	}
	if (rc == 0 && out)
		*out = v;
	return rc;
}

static const struct {
	const char *unit;
	double factor;
	const char *base;
} metric_units[] = {
    {"bit/s", 1, "bit/s"},
    {"kbit/s", 1e3, "bit/s"},
    {"Kbit/s", 1e3, "bit/s"},
    {"Mbit/s", 1e6, "bit/s"},
    {"Gbit/s", 1e9, "bit/s"},
    {"Tbit/s", 1e12, "bit/s"},
    {"bps", 1, "bit/s"},
    {"kbps", 1e3, "bit/s"},
    {"Kbps", 1e3, "bit/s"},
    {"Mbps", 1e6, "bit/s"},
    {"Gbps", 1e9, "bit/s"},
    {"B/s", 8, "bit/s"},
    {"kB/s", 8e3, "bit/s"},
    {"KB/s", 8e3, "bit/s"},
    {"MB/s", 8e6, "bit/s"},
    {"GB/s", 8e9, "bit/s"},
    {"KiB/s", 8.0 * 1024, "bit/s"},
    {"MiB/s", 8.0 * 1024 * 1024, "bit/s"},
    {"GiB/s", 8.0 * 1024 * 1024 * 1024, "bit/s"},
    {"s", 1, "s"},
    {"ms", 1e-3, "s"},
    {"us", 1e-6, "s"},
    {"\xc2\xb5s", 1e-6, "s"},
    {"ns", 1e-9, "s"},
    {"B", 1, "B"},
    {"kB", 1e3, "B"},
    {"KB", 1e3, "B"},
    {"MB", 1e6, "B"},
    {"GB", 1e9, "B"},
    {"TB", 1e12, "B"},
    {"KiB", 1024, "B"},
    {"MiB", 1024.0 * 1024, "B"},
    {"GiB", 1024.0 * 1024 * 1024, "B"},
    {"%", 1, "%"},
    {"1", 1, "1"},
    {"count", 1, "1"},
    {"", 1, "1"},
};

int units_metric(const char *unit, double *factor, const char **base)
{
	size_t i;
	if (!unit)
		unit = "";
	for (i = 0; i < sizeof metric_units / sizeof metric_units[0]; i++)
		if (strcmp(metric_units[i].unit, unit) == 0) {
			if (factor)
				*factor = metric_units[i].factor;
			if (base)
				*base = metric_units[i].base;
			return 0;
		}
	return -XR_EPARSE;
}

void units_fmt_duration(double s, char *out, unsigned outsz)
{
	long long t, h, m;
	if (!outsz)
		return;
	if (!isfinite(s) || s < 0)
		s = 0;
	if (s >= 1e15) { /* past what llround() can hold in hours */
		snprintf(out, outsz, "%.3gs", s);
		return;
	}
	if (s < 10 && s != floor(s)) {
		snprintf(out, outsz, "%.1fs", s);
		return;
	}
	t = llround(s);
	h = t / 3600;
	m = t / 60 % 60;
	if (h)
		snprintf(out, outsz, "%lldh%02lldm%02llds", h, m, t % 60);
	else if (m)
		snprintf(out, outsz, "%lldm%02llds", m, t % 60);
	else
		snprintf(out, outsz, "%llds", t);
}
