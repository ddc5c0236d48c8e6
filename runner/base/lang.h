/*
 * Report languages: one row each. The plan loader checks report.lang
 * with it, `xrun report --lang` takes its names (and --help, the man page
 * and the completion list them), and reports/model's enum report_lang
 * takes its values from the rows (reports/text/i18n.h). It lives in base,
 * below both the plan and the report side.
 * Adding a language: one row here, its texts in reports/text/i18n.c.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef XR_LANG_H
#define XR_LANG_H

#include <stddef.h>

/* X(id, name, english_name) */
#define LANG_MAP(X)                                                            \
	X(EN, "en", "English")                                                 \
	X(JA, "ja", "Japanese")

enum lang {
#define LANG_ENUM(id, name, english) LANG_##id,
	LANG_MAP(LANG_ENUM)
#undef LANG_ENUM
	    LANG_COUNT
};

/* Row i's name ("en"), or NULL past the last. */
const char *lang_name(size_t i);
/* The row called name, or LANG_NOT_FOUND. */
#define LANG_NOT_FOUND (-1)
int lang_find(const char *name);
/* "en, ja": every row's name, cut to outsz. Returns out. */
const char *lang_list(char *out, size_t outsz);

#endif
