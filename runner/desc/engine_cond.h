/*
 * What an engine's parameters say of a published condition (protocol,
 * streams, direction, congestion control, duration): the one piece of an
 * engine the report side asks about. It lives in this leaf, below both
 * runner/engine and reports/, so that a reference is checked against a
 * plan or a cell's runs without the report side linking the engines
 * (docs/architecture.md, "Folders, and what each may use").
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef XR_ENGINE_COND_H
#define XR_ENGINE_COND_H

#include <stddef.h>

/* The parameters of a plan or of a cell's runs, as the caller reads them. */
struct engine_cond_params {
	/* The value a run gives parameter key; NULL when unset. */
	const char *(*param)(void *ctx, const char *key);
	void *ctx;
	double duration; /* engine.duration, seconds */
};

/* The value of published condition key ("protocol", "streams",
 * "direction", "congestion", "duration") that a run of engine (its plan
 * name, "iperf3") with these parameters has, its default when unset (""
 * for the host's), into out; 0 when the engine's parameters say nothing of
 * key, or engine is NULL or has no row (reports then leave it
 * unchecked). */
int engine_cond(const char *engine, const char *key,
		const struct engine_cond_params *cp, char *out, size_t outsz);

#endif
