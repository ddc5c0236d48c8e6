/*
 * Comparability flags (flags.c): the one table of every flag, with its JSON
 * code, scope, whether it refuses a comparison and its texts in every
 * language. A flag raised on a cell or a comparison is a struct
 * report_flag; which note explains it is the model's (report_flag_mark).
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef XR_FLAGS_H
#define XR_FLAGS_H

#include "i18n.h"

/*
 * Comparability flags, in note order. Every attribute of a flag (its JSON
 * code, where it is raised, whether it refuses, its sentences and short
 * forms in every language) is one row of the table in flags.c; read them
 * with the report_flag_* functions below.
 */
#define REPORT_FLAG_MAP(X)                                                     \
	X(FACTORS_DIFFER)                                                      \
	X(ENGINE_DIFFERS)                                                      \
	X(UNIT_DIFFERS)                                                        \
	X(TOO_FEW_RUNS)                                                        \
	X(VERIFY_FAILED)                                                       \
	X(NOT_VERIFIED)                                                        \
	X(NOT_INTERLEAVED)                                                     \
	X(FAILED_RUNS)                                                         \
	X(OUTPUT_CUT)                                                          \
	X(RX_DROPS)                                                            \
	X(NIC_ERRORS)                                                          \
	X(PAUSE_FRAMES)                                                        \
	X(RETRANSMITS)                                                         \
	X(CAPTURE)                                                             \
	X(CONTROLLER_LOADED)                                                   \
	X(FACTS_CHANGED)                                                       \
	X(TESTBED_SPLIT)                                                       \
	X(UNSTABLE)                                                            \
	X(PRECISION_NOT_REACHED)                                               \
	X(DRIFT)                                                               \
	X(OUTLIER)                                                             \
	X(ZERO_VARIANCE)                                                       \
	X(NONPOSITIVE)                                                         \
	X(ACCEPTED_SEQUENTIAL)                                                 \
	X(CONFIGURATION)                                                       \
	X(MULTIPLICITY)

enum report_flag_code {
#define REPORT_FLAG_ENUM(c) REPORT_FLAG_##c,
	REPORT_FLAG_MAP(REPORT_FLAG_ENUM)
#undef REPORT_FLAG_ENUM
	    REPORT_FLAG_COUNT
};

struct report_flag {
	enum report_flag_code code;
	/* Detail with the numbers and names involved, its fixed words in
	 * the report's language ("rx_dropped=12 on server", "nic, slot";
	 * counter, factor and level names as they are); "" when none. */
	const char *detail;
};

/* Where a flag is raised: on a cell (from its runs), on a comparison (from
 * the two cells together), or both. A cell flag is repeated on the
 * comparisons of its cell as an "A:"/"B:" warning; the notes list a flag's
 * details from where it is raised. */
enum report_flag_scope {
	REPORT_SCOPE_CELL = 1,
	REPORT_SCOPE_CMP = 2,
	REPORT_SCOPE_BOTH = 3,
};

const char *report_flag_code_name(enum report_flag_code c); /* "rx_drops" */
/* The code for a name ("rx_drops"); -1 when unknown. */
int report_flag_by_name(const char *name);
enum report_flag_scope report_flag_scope(enum report_flag_code c);
/* 1: the flag refuses a comparison (verdict not_comparable); 0: it warns
 * (a footnote; the verdict stands). */
int report_flag_refuses(enum report_flag_code c);
/* The sentence explaining the flag, in lang; never NULL. */
const char *report_flag_text(enum report_flag_code c, enum report_lang lang);
/* A short form for verdict cells, to be followed by the flag's detail
 * ("cells differ in" + " nic, slot"); never NULL. */
const char *report_flag_short(enum report_flag_code c, enum report_lang lang);
/* 1: a warning written in the verdict cell itself (outlier, accepted
 * sequential design, configuration comparison). */
int report_flag_in_cell(enum report_flag_code c);

#endif
