/*
 * The tables whose names options take (OPT_CHOICE, OPT_CHOICES, opt.h),
 * as choice sources: report output formats (runner/plan/output_format.h),
 * report languages (runner/plan/lang.h), comparison verdicts
 * (reports/model/report.h, report_verdict_name) and lab link profiles
 * (runner/lab/lab.h). Each reads its table row by row, so a row added
 * there is accepted, listed in --help, the man page and the completion.
 *
 * SPDX-License-Identifier: MIT
 */
#include "cmd.h"
#include "lab.h"
#include "lang.h"
#include "output_format.h"
#include "report.h"
#include "banned.h"

static const char *choices_format_name(size_t i)
{
	return i < OUTPUT_FORMAT_COUNT ? output_formats[i].name : NULL;
}

const struct opt_choices cli_format_choices = {"format", choices_format_name};
const struct opt_choices cli_lang_choices = {"language", lang_name};
/* Multiplicity adjustments: reports/model's report_adjust_name(). */
/* The rehearsal lab's link profiles (runner/lab's table). */
const struct opt_choices cli_lab_profile_choices = {"lab profile",
						    lab_profile_name};
const struct opt_choices cli_adjust_choices = {"adjustment",
					       report_adjust_name};

/* enum report_verdict runs from REPORT_BETTER (0) to REPORT_NOT_VERIFIED,
 * its last row; row i is verdict i, so --fail-on's bits are 1u << verdict.
 * The row after them is "regression" (--history: the latest session is a
 * worse change; REPORT_GATE_REGRESSION_BIT). */
static const char *choices_verdict_name(size_t i)
{
	if (i == REPORT_NOT_VERIFIED + 1)
		return "regression";
	return i <= REPORT_NOT_VERIFIED
		   ? report_verdict_name((enum report_verdict)i)
		   : NULL;
}

const struct opt_choices cli_verdict_choices = {"verdict",
						choices_verdict_name};
