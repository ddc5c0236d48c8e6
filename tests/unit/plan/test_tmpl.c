/* Unit tests for tmpl.c: placeholder scanning and expansion.
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>
#include <string.h>

#include "buf.h"
#include "tap.h"
#include "tmpl.h"

static const char *lookup(void *ctx, const char *name)
{
	(void)ctx;
	if (strcmp(name, "cc") == 0)
		return "cubic";
	if (strcmp(name, "iface") == 0)
		return "eth0";
	if (strcmp(name, "evil") == 0)
		return "{{cc}} $(touch /tmp/x)";
	if (strcmp(name, "a.b") == 0)
		return "dot";
	return NULL;
}

static char got[1024];
static int ncalls;

static int collect(void *ctx, const char *name, size_t off)
{
	struct buf *b = ctx;
	buf_addf(b, "%s@%zu;", name, off);
	ncalls++;
	return 0;
}

static int stop_at_first(void *ctx, const char *name, size_t off)
{
	(void)ctx;
	(void)name;
	(void)off;
	return 7;
}

static const char *expand(const char *t, int *rc, char *bad, size_t badsz)
{
	struct buf b;
	buf_init(&b, 0);
	*rc = tmpl_expand(t, lookup, NULL, &b, bad, badsz);
	snprintf(got, sizeof got, "%s", b.s);
	buf_release(&b);
	return got;
}

int main(void)
{
	tap_plan(19);
	char bad[64];
	const char *bp = bad;
	int rc;
	struct buf b;

	is_str(expand("net.ipv4.tcp_congestion_control={{cc}}", &rc, bad,
		      sizeof bad),
	       "net.ipv4.tcp_congestion_control=cubic", "simple expansion");
	is_int(rc, 0, "rc 0");
	is_str(expand("{{ cc }}-{{iface}}", &rc, bad, sizeof bad), "cubic-eth0",
	       "spaces inside braces, two names");
	is_str(expand("no placeholders", &rc, bad, sizeof bad),
	       "no placeholders", "plain text");
	is_str(expand("", &rc, bad, sizeof bad), "", "empty");
	is_str(expand("open {{cc", &rc, bad, sizeof bad), "open {{cc",
	       "unterminated copied literally");
	is_int(rc, 0, "unterminated is not an error");
	is_str(expand("{{bad name}}", &rc, bad, sizeof bad), "{{bad name}}",
	       "malformed copied literally");
	is_str(expand("{{evil}}", &rc, bad, sizeof bad),
	       "{{cc}} $(touch /tmp/x)", "values are not re-scanned");
	is_str(expand("{{a.b}}", &rc, bad, sizeof bad), "dot", "dots in names");
	is_str(expand("{{{cc}}}", &rc, bad, sizeof bad), "{cubic}",
	       "extra braces around");
	bad[0] = 0;
	expand("x {{nope}} y", &rc, bad, sizeof bad);
	is_int(rc, -1, "unknown name fails");
	is_str(bp, "nope", "bad name reported");
	expand("{{averyveryverylongname}}", &rc, bad, 5);
	is_str(bp, "aver", "bad name truncated to its buffer");

	buf_init(&b, 0);
	ncalls = 0;
	rc = tmpl_each("a {{x}} b {{ y.z }} {{}} {{w", collect, &b);
	is_int(rc, 0, "each returns 0");
	is_str(b.s, "x@2;y.z@10;", "names and byte offsets");
	is_int(ncalls, 2, "two placeholders");
	buf_release(&b);
	is_int(tmpl_each("{{a}} {{b}}", stop_at_first, NULL), 7,
	       "each stops with the callback's value");
	is_int(tmpl_each(NULL, stop_at_first, NULL), 0, "NULL template");
	return tap_done();
}
