/*
 * The error code table (see xr_code.h) and its lookups.
 *
 * SPDX-License-Identifier: MIT
 */
#include "xr_code.h"

#include "banned.h"

static const struct {
	const char *name;
	int exit;
} codes[] = {
#define XR_ROW(c, n, x) {n, x},
    XR_ERRNO_MAP(XR_ROW)
#undef XR_ROW
};

const char *xr_code_name(int code)
{
	if (code < 0)
		code = -code;
	if (code >= XR_E_COUNT)
		return "unknown";
	return codes[code].name;
}

int xr_code_exit(int code)
{
	if (code < 0)
		code = -code;
	if (code >= XR_E_COUNT)
		return 3;
	return codes[code].exit;
}
