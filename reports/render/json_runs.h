/*
 * The JSON report's "run_values", streamed (write_json_runs.c).
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef XR_JSON_RUNS_H
#define XR_JSON_RUNS_H

#include <stdio.h>

#include <jansson.h>

#include "report.h"

/* Writes ",\n \"run_values\": [...]\n}" to f: the last member and the end
 * of the report object whose dump stopped before its closing "\n}". str
 * makes a JSON string as the rest of the report does. 0, or -1 when out
 * of memory or f failed. */
int json_runs_write(const struct report *r, FILE *f,
		    json_t *(*str)(const char *));

#endif
