/* Unit tests for units.c: durations, counts with prefixes, metric units.
 *
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <string.h>

#include "tap.h"
#include "units.h"

static double dur(const char *s)
{
	double v = -1;
	if (units_parse(s, UNITS_DURATION, &v, NULL) < 0)
		return -1;
	return v;
}

static double cnt(const char *s)
{
	double v = -1;
	if (units_parse(s, UNITS_COUNT, &v, NULL) < 0)
		return -1;
	return v;
}

int main(void)
{
	tap_plan(53);
	const char *why = NULL, *base = NULL;
	double f = 0;
	char out[32];
	const char *o = out;

	is_near(dur("10s"), 10, 1e-12, "10s");
	is_near(dur("500ms"), 0.5, 1e-12, "500ms");
	is_near(dur("2m"), 120, 1e-12, "2m");
	is_near(dur("1h"), 3600, 1e-12, "1h");
	is_near(dur("90"), 90, 1e-12, "bare number is seconds");
	is_near(dur("1.5s"), 1.5, 1e-12, "fraction");
	is_near(dur("1m30s"), 90, 1e-12, "compound 1m30s");
	is_near(dur("250us"), 250e-6, 1e-15, "us");
	is_near(dur("1d"), 86400, 1e-9, "1d");
	ok(dur("") < 0, "empty duration refused");
	ok(dur("10x") < 0, "unknown unit refused");
	ok(dur("s") < 0, "unit without number refused");
	ok(dur("-1s") < 0, "negative refused");
	ok(dur("inf") < 0, "inf refused");
	ok(dur("10 s") < 0, "blank inside refused");
	ok(dur("1s2") < 0, "trailing bare number after unit refused");
	/* qa: huge durations overflowed the estimate into negative hours */
	is_near(dur("365d"), 365 * 86400.0, 1e-6, "365d is the longest");
	ok(dur("366d") < 0, "366d refused");
	ok(dur("1e300h") < 0, "1e300h refused");
	ok(dur("99999999999999999999h") < 0, "20-digit hours refused");
	ok(units_parse("10 sec", UNITS_DURATION, &f, &why) < 0 && why &&
	       strstr(why, "blank"),
	   "'10 sec': the blank is named (%s)", why ? why : "");
	ok(units_parse("1.5.3G", UNITS_DURATION, &f, &why) < 0 && why &&
	       strstr(why, "not a number"),
	   "'1.5.3G': not a number (%s)", why ? why : "");
	ok(units_parse("10q", UNITS_DURATION, &f, &why) < 0 && why &&
	       strstr(why, "unit"),
	   "reason names the unit (%s)", why ? why : "");

	is_near(cnt("1500"), 1500, 0, "plain count");
	is_near(cnt("9.4G"), 9.4e9, 1, "9.4G");
	is_near(cnt("500M"), 500e6, 0, "500M");
	is_near(cnt("64K"), 64000, 0, "64K");
	is_near(cnt("64k"), 64000, 0, "64k");
	is_near(cnt("1Gi"), 1073741824.0, 0, "1Gi");
	is_near(cnt("2Mi"), 2097152.0, 0, "2Mi");
	is_near(cnt("1e3"), 1000, 0, "exponent");
	ok(cnt("9.4X") < 0, "unknown suffix refused");
	ok(cnt("G") < 0, "suffix alone refused");
	ok(cnt("1Gx") < 0, "junk after suffix refused");
	ok(cnt("0x10") < 0, "hex refused");
	ok(cnt("nan") < 0, "nan refused");

	ok(units_metric("B/s", &f, &base) == 0 && f == 8 &&
	       strcmp(base, "bit/s") == 0,
	   "B/s -> 8 bit/s");
	ok(units_metric("MB/s", &f, &base) == 0 && f == 8e6 &&
	       strcmp(base, "bit/s") == 0,
	   "MB/s -> 8e6 bit/s");
	ok(units_metric("Gbit/s", &f, &base) == 0 && f == 1e9, "Gbit/s -> 1e9");
	ok(units_metric("Mbps", &f, &base) == 0 && f == 1e6, "Mbps -> 1e6");
	ok(units_metric("MiB/s", &f, &base) == 0 && f == 8.0 * 1048576,
	   "MiB/s -> binary");
	ok(units_metric("ms", &f, &base) == 0 && f == 1e-3 &&
	       strcmp(base, "s") == 0,
	   "ms -> 1e-3 s");
	ok(units_metric("%", &f, &base) == 0 && f == 1 &&
	       strcmp(base, "%") == 0,
	   "%% -> 1 %%");
	ok(units_metric("GiB", &f, &base) == 0 && f == 1073741824.0 &&
	       strcmp(base, "B") == 0,
	   "GiB -> B");
	ok(units_metric("count", &f, &base) == 0 && strcmp(base, "1") == 0,
	   "count is dimensionless");
	ok(units_metric("", &f, &base) == 0 && strcmp(base, "1") == 0,
	   "empty is dimensionless");
	ok(units_metric("furlongs", &f, &base) < 0, "unknown unit");

	units_fmt_duration(41, out, sizeof out);
	is_str(o, "41s", "41s");
	units_fmt_duration(3723, out, sizeof out);
	is_str(o, "1h02m03s", "1h02m03s");
	units_fmt_duration(125, out, sizeof out);
	is_str(o, "2m05s", "2m05s");
	units_fmt_duration(0.5, out, sizeof out);
	is_str(o, "0.5s", "0.5s");
	units_fmt_duration(-3, out, sizeof out);
	is_str(o, "0s", "negative clamps to 0s");
	units_fmt_duration(1e300, out, sizeof out);
	is_str(o, "1e+300s", "huge stays positive");
	return tap_done();
}
