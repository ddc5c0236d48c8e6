/*
 * The responsiveness and speed-test engines' parser (engine_resp.c),
 * exposed for their unit tests against recorded outputs.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef XR_ENGINE_RESP_H
#define XR_ENGINE_RESP_H

#include <stddef.h>

#include "engine.h"

/* Read e's tool output out[0..len) into r's metrics (SI base units,
 * "throughput" first). 0, or -XR_EPARSE with r->reason saying which key
 * is missing or what is not JSON; -XR_EINTERNAL for an engine without a preset.
 */
int engine_resp_parse(const struct engine_ops *e, const char *out, size_t len,
		      struct engine_result *r);

#endif
