/*
 * libFuzzer target for the iperf3 -J parser: any bytes must parse or fail
 * cleanly, and a parsed report must convert to an engine result without
 * reading out of bounds or leaking.
 *
 * SPDX-License-Identifier: MIT
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "engine.h"
#include "iperf3_json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct iperf3_report r;
	struct engine_result res;
	struct xr_err err;

	memset(&res, 0, sizeof res);
	xr_err_clear(&err);
	iperf3_json_parse((const char *)data, size, &r, &err);
	iperf3_report_to_result(&r, &res);
	iperf3_report_release(&r);
	engine_result_release(&res);
	return 0;
}
