/* Unit tests for reports/render/escape.c: per-format escaping of hostile
 * report text.
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>
#include <string.h>

#include "escape.h"
#include "tap.h"

static const char *md(const char *s, unsigned flags, int *bad)
{
	static struct buf b;
	buf_reset(&b);
	*bad = esc_md(&b, s, flags);
	return b.s ? b.s : "";
}

static const char *html(const char *s, int *bad)
{
	static struct buf b;
	buf_reset(&b);
	*bad = esc_html(&b, s);
	return b.s ? b.s : "";
}

static const char *csv(const char *s)
{
	static struct buf b;
	buf_reset(&b);
	esc_csv(&b, s);
	return b.s ? b.s : "";
}

int main(void)
{
	int bad;
	struct esc_count c = {0};

	is_str(md("<script>alert(1)</script>", 0, &bad),
	       "&lt;script&gt;alert(1)&lt;/script&gt;", "md: raw html");
	is_str(md("need >= 3 runs", 0, &bad), "need >= 3 runs",
	       "md: a '>' without a '<' is plain text (no &gt;=)");
	is_str(md("a <b> c > d", 0, &bad), "a &lt;b&gt; c &gt; d",
	       "md: with a '<', every '>' an entity");
	is_str(md(">quote", ESC_MD_CELL, &bad), "\\>quote",
	       "md: a leading '>' cannot open a quote");
	is_str(md("x\n> q", ESC_MD_BLOCK, &bad), "x\n> q",
	       "md block: the text's own quote kept");
	is_str(md("t\n# injected\r\nx", 0, &bad), "t # injected  x",
	       "md: a line break cannot start a heading");
	is_str(md("a|b", ESC_MD_CELL, &bad), "a\\|b", "md: pipe in a cell");
	is_str(md("a|b", 0, &bad), "a|b", "md: pipe outside a cell");
	is_str(md("[x](javascript:alert(1))", 0, &bad),
	       "[x\\](javascript:alert(1))", "md: no link");
	is_str(md("![i][r] [95% CI]", 0, &bad), "![i\\][r] [95% CI]",
	       "md: no image, brackets kept");
	is_str(md("line 1\n\n*b* <i>", ESC_MD_BLOCK, &bad),
	       "line 1\n\n*b* &lt;i&gt;", "md block: markdown kept, html not");
	is_str(md("a\xe2\x80\xa8"
		  "b",
		  0, &bad),
	       "a b", "md: U+2028 flattened");
	is_str(md("bell\x07", 0, &bad), "bell", "md: control dropped");
	is_str(md("caf\xc3\xa9 \xe6\x97\xa5", 0, &bad),
	       "caf\xc3\xa9 \xe6\x97\xa5", "md: UTF-8 kept");
	is_int(bad, 0, "md: nothing replaced");
	is_str(md("x\xff\xc3y", 0, &bad), "x\xef\xbf\xbd\xef\xbf\xbdy",
	       "md: ill-formed bytes replaced by U+FFFD");
	is_int(bad, 2, "md: two bytes replaced");
	esc_count_add(&c, bad);
	esc_count_add(&c, -1);
	is_int(c.bad_utf8, 2, "count adds replacements only");

	is_str(html("a&b<c>\"d'", &bad), "a&amp;b&lt;c&gt;&quot;d&#39;",
	       "html: entities");
	is_str(html("\xed\xa0\x80", &bad),
	       "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd",
	       "html: a surrogate is ill-formed");
	is_int(bad, 3, "html: three bytes replaced");

	is_str(csv("plain"), "plain", "csv: plain");
	is_str(csv("a,b"), "\"a,b\"", "csv: comma quoted");
	is_str(csv("say \"x\""), "\"say \"\"x\"\"\"", "csv: quote doubled");
	is_str(csv("=HYPERLINK(\"http://x\",\"y\")"),
	       "\"'=HYPERLINK(\"\"http://x\"\",\"\"y\"\")\"",
	       "csv: formula prefixed and quoted");
	is_str(csv("@SUM(A1)"), "'@SUM(A1)", "csv: @ prefixed");
	is_str(csv("+cmd"), "'+cmd", "csv: + prefixed");
	is_str(csv("-3"), "-3", "csv: negative number kept");
	is_str(csv("+1e5"), "+1e5", "csv: signed number kept");
	is_str(csv("-"), "'-", "csv: a lone dash is text");
	is_str(csv("\tx"), "'\tx", "csv: tab prefixed");
	ok(!esc_csv_is_formula("1=1"), "csv: '=' inside is data");
	return tap_done();
}
