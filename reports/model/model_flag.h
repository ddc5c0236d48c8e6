/*
 * model_flag.c: a flag appended to a list of the report model, for the
 * steps of the build (private to reports/model, as model_int.h is).
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef XR_MODEL_FLAG_H
#define XR_MODEL_FLAG_H

#include "report.h"

struct model_build;

/* Append a flag to a list of capacity REPORT_FLAG_COUNT; a code already
 * present gets the detail appended ("; ..."). */
void model_flag(struct model_build *m, struct report_flag *list, int *n,
		enum report_flag_code code, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

#endif
