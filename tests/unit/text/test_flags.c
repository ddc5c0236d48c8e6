/*
 * The flag table of reports/text/flags.c against schema/report.md's
 * "Comparability flags" table: the same codes in the same order, where each
 * is raised (cell, comparison, both) and whether it refuses; and every row
 * of the code's table complete (a sentence and a short form in every
 * language); the sentence that names the engines' version facts.
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "flags.h"
#include "tap.h"
#include "banned.h"

struct doc_row {
	char code[64], scope[32], refuses[64];
};

/* Trim spaces and backquotes around a table field. */
static void field(const char *s, size_t n, char *out, size_t outsz)
{
	while (n && (*s == ' ' || *s == '`')) {
		s++;
		n--;
	}
	while (n && (s[n - 1] == ' ' || s[n - 1] == '`'))
		n--;
	if (n >= outsz)
		n = outsz - 1;
	memcpy(out, s, n);
	out[n] = 0;
}

/* The rows of the table under "## Comparability flags". */
static int read_doc(struct doc_row *rows, int max)
{
	char path[1024], line[2048];
	const char *src = getenv("XRUN_SOURCE_DIR");
	int in = 0, n = 0;
	FILE *f;

	snprintf(path, sizeof path, "%s/schema/report.md",
		 src ? src : XRUN_SOURCE_DIR);
	f = fopen(path, "r");
	if (!f) {
		ok(0, "open %s", path);
		return 0;
	}
	while (fgets(line, sizeof line, f)) {
		const char *p = line, *q;
		char *cols[3];
		int k;
		if (!strncmp(line, "## ", 3))
			in = !strncmp(line, "## Comparability flags", 22);
		if (!in || strncmp(line, "| `", 3) || n >= max)
			continue;
		cols[0] = rows[n].code;
		cols[1] = rows[n].scope;
		cols[2] = rows[n].refuses;
		p = line + 1;
		for (k = 0; k < 3; k++) {
			q = strchr(p, '|');
			if (!q)
				break;
			field(p, (size_t)(q - p), cols[k],
			      k == 0   ? sizeof rows[n].code
			      : k == 1 ? sizeof rows[n].scope
				       : sizeof rows[n].refuses);
			p = q + 1;
		}
		if (k == 3)
			n++;
	}
	fclose(f);
	return n;
}

static const char *scope_word(enum report_flag_scope s)
{
	switch (s) {
	case REPORT_SCOPE_CELL:
		return "cell";
	case REPORT_SCOPE_CMP:
		return "comparison";
	default:
		return "both";
	}
}

int main(void)
{
	struct doc_row rows[REPORT_FLAG_COUNT + 8];
	int n = read_doc(rows, REPORT_FLAG_COUNT + 8), c, l;

	is_int(n, REPORT_FLAG_COUNT, "schema/report.md lists every flag once");
	for (c = 0; c < REPORT_FLAG_COUNT && c < n; c++) {
		const char *code = report_flag_code_name(c);
		is_str(rows[c].code, code, "flag code in note order");
		is_int(report_flag_by_name(rows[c].code), c, rows[c].code);
		is_str(rows[c].scope, scope_word(report_flag_scope(c)),
		       "where it is raised");
		ok(!strncmp(rows[c].refuses,
			    report_flag_refuses(c) ? "yes" : "no",
			    report_flag_refuses(c) ? 3 : 2),
		   "%s refuses: doc '%s', code %d", code, rows[c].refuses,
		   report_flag_refuses(c));
	}
	for (c = 0; c < REPORT_FLAG_COUNT; c++)
		for (l = 0; l < REPORT_LANG_COUNT; l++) {
			ok(strcmp(report_flag_text(c, l), "unknown flag") &&
			       strcmp(report_flag_short(c, l),
				      report_flag_code_name(c)),
			   "%s has its texts in language %d",
			   report_flag_code_name(c), l);
		}
	/* A missing translation would fall back to English. */
	for (c = 0; c < REPORT_FLAG_COUNT; c++)
		ok(strcmp(report_flag_text(c, REPORT_LANG_JA),
			  report_flag_text(c, REPORT_LANG_EN)) &&
		       strcmp(report_flag_short(c, REPORT_LANG_JA),
			      report_flag_short(c, REPORT_LANG_EN)),
		   "%s is translated", report_flag_code_name(c));
	is_int(report_flag_by_name("no_such_flag"), -1, "unknown name");
	/* facts_changed names the engines' version facts from their rows
	 * (runner/desc): the sentences as they were typed before, when
	 * flags.c named iperf3 itself (twice, to see the text kept) */
	for (l = 0; l < 2; l++) {
		is_str(
		    report_flag_text(REPORT_FLAG_FACTS_CHANGED, REPORT_LANG_EN),
		    "host facts (driver, firmware, kernel, iperf3 version) "
		    "differ between the sessions pooled in the comparison: "
		    "no verdict unless the plan accepts a sequential design",
		    "facts_changed names iperf3's version");
		is_str(
		    report_flag_text(REPORT_FLAG_FACTS_CHANGED, REPORT_LANG_JA),
		    "比較に含まれるセッション間でホスト情報（ドライバ、"
		    "ファームウェア、カーネル、iperf3 の版）が異なるため"
		    "判定しない（accept: sequential の場合を除く）",
		    "facts_changed, in Japanese");
	}
	return tap_done();
}
