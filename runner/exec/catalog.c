/*
 * Hands the plan loader what exists above it: engine descriptions from the
 * engine table and probe names from the probe table. The plan layer checks
 * names against this instead of including the engine and host layers,
 * which would make a cycle (they read plans).
 *
 * SPDX-License-Identifier: MIT
 */
#include <stddef.h>

#include "catalog.h"
#include "engine.h"
#include "latprobe.h"
#include "probe.h"
#include "banned.h"

static const struct plan_engine_desc *find_engine(const char *name)
{
	const struct engine_ops *e = engine_find(name);
	return e ? &e->desc : NULL;
}

static const struct plan_catalog builtin = {
    .find_engine = find_engine,
    .engine_names = engine_names,
    .probe_names = probe_names,
    .latency_probe_names = latprobe_names,
};

const struct plan_catalog *catalog_builtin(void)
{
	return &builtin;
}
