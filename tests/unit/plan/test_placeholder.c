/* The built-in placeholder table: lookups, and schema/plan.md's table of
 * built-ins row for row against PLACEHOLDER_MAP (name, value, whether a
 * var may set it, where it has a value).
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "placeholder.h"
#include "tap.h"

/* The docs' words for a row's sites. */
static const char *sites_text(unsigned sites)
{
	if (sites == PH_SITES_ALL)
		return "everywhere";
	if (sites == PH_SITE_RESTORE)
		return "restore only";
	if (sites == (PH_SITES_ALL & ~(unsigned)PH_SITE_MANUAL))
		return "not in manual";
	return "?";
}

/* Copy a table cell without backticks and surrounding blanks. */
static void cell(const char *s, const char *e, char *out, size_t outsz)
{
	size_t n = 0;
	while (s < e && *s == ' ')
		s++;
	while (e > s && e[-1] == ' ')
		e--;
	for (; s < e && n + 1 < outsz; s++)
		if (*s != '`')
			out[n++] = *s;
	out[n] = 0;
}

/* Rows "| `name` | value | yes/no | where |" of the Placeholders section. */
static void test_docs(void)
{
	const char *src = getenv("XRUN_SOURCE_DIR");
	struct buf path = BUF_INIT, doc = BUF_INIT;
	const char *sec, *end, *line;
	int seen[PH_COUNT] = {0}, rows = 0, i;

	buf_addf(&path, "%s/schema/plan.md", src ? src : XRUN_SOURCE_DIR);
	if (!ok(buf_read_file(&doc, path.s, 1 << 20) == 0, "read %s", path.s))
		return;
	sec = strstr(doc.s, "\n## Placeholders\n");
	if (!ok(sec != NULL, "plan.md has a Placeholders section"))
		goto out;
	end = strstr(sec + 1, "\n## ");
	if (!end)
		end = doc.s + doc.len;
	for (line = sec; line && line < end; line = strchr(line + 1, '\n')) {
		const char *s = line + 1, *eol = strchr(s, '\n'), *bar[6];
		char f[4][256];
		int nb = 0, k;
		while (*s == ' ')
			s++;
		if (strncmp(s, "| `", 3) != 0)
			continue;
		if (!eol)
			eol = end;
		for (const char *q = s; q < eol && nb < 6; q++)
			if (*q == '|')
				bar[nb++] = q;
		if (!ok(nb == 5, "row has 4 cells: %.*s", (int)(eol - s), s))
			continue;
		for (k = 0; k < 4; k++)
			cell(bar[k] + 1, bar[k + 1], f[k], sizeof f[k]);
		rows++;
		i = placeholder_find(f[0]);
		if (!ok(i >= 0, "docs built-in '%s' is in the table", f[0]))
			continue;
		seen[i]++;
		is_str(f[1], placeholders[i].meaning, f[0]);
		is_str(f[2], placeholders[i].set == PH_BY_PLAN ? "yes" : "no",
		       f[0]);
		is_str(f[3], sites_text(placeholders[i].sites), f[0]);
	}
	is_int(rows, PH_COUNT, "one docs row per built-in");
	for (i = 0; i < PH_COUNT; i++)
		ok(seen[i] == 1, "'%s' documented once", placeholders[i].name);
out:
	buf_release(&path);
	buf_release(&doc);
}

static void test_table(void)
{
	int i;
	is_int(placeholder_find("rep"), PH_REP, "rep");
	is_int(placeholder_find("iface"), PH_IFACE, "iface");
	is_int(placeholder_find("cc"), -1, "a factor name is no built-in");
	ok(placeholder_per_run("session"), "session varies per run");
	ok(!placeholder_per_run("original"), "original is not per run");
	ok(!placeholder_per_run("target"), "target is per plan");
	for (i = 0; i < PH_COUNT; i++) {
		const struct placeholder *p = &placeholders[i];
		ok(p->name && p->meaning && p->unset, "row %d complete", i);
		/* a built-in with no value somewhere says why */
		ok((p->sites == PH_SITES_ALL) == (p->off == NULL),
		   "'%s': off text iff restricted", p->name);
	}
}

int main(void)
{
	test_table();
	test_docs();
	return tap_done();
}
