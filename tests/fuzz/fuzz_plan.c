/*
 * libFuzzer target for the plan loader: any bytes must either load or be
 * refused with diagnostics, never crash, leak or stall. Build with
 * CC=clang cmake -DXRUN_FUZZ=ON; run: ./fuzz_plan -max_total_time=60 DIR
 *
 * SPDX-License-Identifier: MIT
 */
#include <stddef.h>
#include <stdint.h>

#include "xr_err.h"
#include "catalog.h"
#include "plan.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct xr_diag d;
	struct plan *p = NULL;
	xr_diag_init(&d, "fuzz.yaml");
	if (plan_load_mem("fuzz.yaml", (const char *)data, size,
			  catalog_builtin(), &p, &d) == 0)
		plan_free(p);
	xr_diag_release(&d);
	return 0;
}
