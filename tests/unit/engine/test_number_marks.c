/*
 * number_parse_fmt (runner/engine/number_text.c) where a thousands
 * separator meets the decimal mark: the group before the mark must hold
 * exactly three digits (1,234.5), else the text is not a number of the
 * format (1,23.5 is no 123.5). Values are the literal numbers of the text.
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
	double v = 0;
	tap_plan(7);
	ok(fmt(",", NULL, "1,234.5", &v) == 0 && v == 1234.5,
	   "1,234.5 is 1234.5");
	ok(fmt(",", NULL, "1,23.5", &v) < 0, "1,23.5: a short group");
	ok(fmt(",", NULL, "1,2345.5", &v) < 0, "1,2345.5: a long group");
	ok(fmt(".", ",", "12.345,5", &v) == 0 && v == 12345.5,
	   "12.345,5 with '.' and ',' is 12345.5");
	ok(fmt(".", ",", "12.34,5", &v) < 0, "12.34,5: a short group");
	ok(fmt(",", NULL, "123.25", &v) == 0 && v == 123.25,
	   "no separator used: 123.25");
	ok(fmt(",", NULL, "0.5", &v) == 0 && v == 0.5, "0.5");
	return tap_done();
}
