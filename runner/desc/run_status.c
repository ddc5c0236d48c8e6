/*
 * The run status table (see run_status.h) and its lookups.
 *
 * SPDX-License-Identifier: MIT
 */
#include "run_status.h"

#include <string.h>

#include "banned.h"

static const struct {
	const char *name;
	int done, failed;
} rows[RUN_STATUS_COUNT] = {
#define RUN_STATUS_ROW(id, name, done, failed)                                 \
	[RUN_##id] = {name, done, failed},
    RUN_STATUS_MAP(RUN_STATUS_ROW)
#undef RUN_STATUS_ROW
};

const char *run_status_name(enum run_status s)
{
	if ((unsigned)s >= RUN_STATUS_COUNT)
		return "unknown";
	return rows[s].name;
}

int run_status_parse(const char *name)
{
	int i;
	for (i = 0; name && i < RUN_STATUS_COUNT; i++)
		if (strcmp(rows[i].name, name) == 0)
			return i;
	return -1;
}

int run_status_done(int s)
{
	return s >= 0 && s < RUN_STATUS_COUNT && rows[s].done;
}

int run_status_failed(int s)
{
	return s >= 0 && s < RUN_STATUS_COUNT && rows[s].failed;
}
