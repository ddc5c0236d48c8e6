/*
 * One helper that knows units: durations ("10s", "500ms", "2m", "1h"),
 * sizes and rates with SI or binary prefixes ("9.4G", "500M", "64K",
 * "1Gi"), and the unit strings metrics are declared in ("B/s", "bit/s",
 * "Mbit/s", "ms", "MB/s", ...), converted to SI base units.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef XR_UNITS_H
#define XR_UNITS_H

enum units_kind {
	UNITS_DURATION, /* -> seconds; bare number = seconds */
	UNITS_COUNT,	/* -> plain number with optional K/M/G/T (x1000) or
			   Ki/Mi/Gi (x1024) suffix: "9.4G", "500M", "1500" */
};

/* Parse s as kind. 0 on success; -XR_EPARSE and a reason in why (may be
 * NULL). */
int units_parse(const char *s, enum units_kind kind, double *out,
		const char **why);

/*
 * A metric unit: returns the factor that converts a value in `unit` to its
 * base unit and the base unit's name ("bit/s", "s", "B", "1", ...).
 * Known: bit/s kbit/s Mbit/s Gbit/s (and bps Kbps Mbps Gbps), B/s kB/s
 * KB/s MB/s GB/s KiB/s MiB/s GiB/s, s ms us ns, B kB MB GB KiB MiB GiB,
 * %, count / "" (dimensionless). -XR_EPARSE when unknown.
 */
int units_metric(const char *unit, double *factor, const char **base);

/* Format seconds as "1h02m03s" / "41s" into out. */
void units_fmt_duration(double s, char *out, unsigned outsz);

#endif
