/*
 * CSV fields holding a line break (RFC 4180: a field with CR or LF must
 * be quoted, or a spreadsheet reads a new record): esc_csv quotes them,
 * keeps the break itself, and still doubles a quote beside it.
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>
#include <string.h>

#include "escape.h"
#include "tap.h"

static const char *csv(const char *s)
{
	static struct buf b;
	buf_reset(&b);
	esc_csv(&b, s);
	return b.s ? b.s : "";
}

int main(void)
{
	tap_plan(7);
	is_str(csv("line 1\nline 2"), "\"line 1\nline 2\"", "csv: LF quoted");
	is_str(csv("line 1\rline 2"), "\"line 1\rline 2\"", "csv: CR quoted");
	is_str(csv("a\r\nb"), "\"a\r\nb\"", "csv: CRLF quoted");
	is_str(csv("\n"), "\"\n\"", "csv: a lone LF quoted");
	is_str(csv("end\n"), "\"end\n\"", "csv: a trailing LF quoted");
	is_str(csv("say \"x\"\nnext"), "\"say \"\"x\"\"\nnext\"",
	       "csv: LF quoted and the quote doubled");
	is_str(csv("no break"), "no break", "csv: no break, no quotes");
	return tap_done();
}
