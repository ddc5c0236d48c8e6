/*
 * Tests of runner/engine/number_text.c: numbers read whole in a format
 * (thousands separator, decimal mark), a capture inside a longer number
 * found, exit-status sets. Values are the literal numbers of the text.
 *
 * SPDX-License-Identifier: MIT
 */
#include <string.h>

#include "number_text.h"
#include "tap.h"

static int fmt(const char *th, const char *dm, const char *s, double *v)
{
	return number_parse_fmt(th, dm, s, strlen(s), v);
}

int main(void)
{
	const char *out = "Speed :  78,258,213 Bytes/sec.";
	size_t so = (size_t)(strstr(out, "213") - out), eo = so + 3;
	unsigned char ok[256];
	char why[200];
	double v = 0;

	tap_plan(14);
	ok(fmt(",", NULL, "78,258,213", &v) == 0 && v == 78258213.0,
	   "78,258,213 with ',' is 78258213");
	ok(fmt(NULL, NULL, "78,258,213", &v) < 0, "no separator: not a number");
	ok(fmt(",", NULL, "7,8258,213", &v) < 0, "groups of three only");
	ok(fmt(",", NULL, "78,258,21", &v) < 0, "a short last group");
	ok(fmt(".", ",", "4.477,973", &v) == 0 && v == 4477.973,
	   "4.477,973 with '.' and ',' is 4477.973");
	ok(fmt(NULL, ",", "1.5", &v) < 0, "a '.' where the mark is ','");
	ok(fmt(" ", NULL, "78 258 213", &v) == 0 && v == 78258213.0,
	   "a space separator");
	ok(number_inside_longer(NULL, out, strlen(out), so, eo, 1, 1),
	   "213 is inside 78,258,213");
	ok(!number_inside_longer(",", out, strlen(out),
				 (size_t)(strstr(out, "78") - out), eo, 1, 1),
	   "the whole number is not");
	{
		size_t a = so, b = eo;
		number_around(NULL, out, strlen(out), &a, &b);
		ok(b - a == 10 && !memcmp(out + a, "78,258,213", 10),
		   "the number around 213");
	}
	ok(number_exit_set("0-7", ok, why, sizeof why) == 0 && ok[0] && ok[7] &&
	       !ok[8],
	   "0-7: 0 and 7 succeed, 8 fails");
	ok(number_exit_set("0, 2,4-5", ok, why, sizeof why) == 0 && ok[2] &&
	       !ok[3] && ok[5],
	   "a list with ranges");
	ok(number_exit_set("0-300", ok, why, sizeof why) < 0 &&
	       strstr(why, "'0-300'"),
	   "past 255 refused, quoting it");
	ok(number_exit_set("7-0", ok, why, sizeof why) < 0, "a reversed range");
	return tap_done();
}
