/*
 * The tables whose names options take (OPT_CHOICE, opt.h), as choice
 * sources: report output formats (runner/plan/output_format.h) and
 * report languages (runner/plan/lang.h). Lab profiles are lab.c's own
 * (lab_profile_choices). Each reads its table row by row, so a row added
 * there is accepted, listed in --help, the man page and the completion.
 */
#include "cmd.h"
#include "lang.h"
#include "output_format.h"
#include "banned.h"

static const char *format_name(size_t i)
{
	return i < OUTPUT_FORMAT_COUNT ? output_formats[i].name : NULL;
}

const struct opt_choices cli_format_choices = {"format", format_name};
const struct opt_choices cli_lang_choices = {"language", lang_name};
