/*
 * What an engine says of itself to the layers that may not link it: what
 * its parameters say of a published condition (protocol, streams,
 * direction, congestion control, duration), and the command that prints
 * its program's version with the host fact that keeps it. It lives in
 * this leaf, below runner/host, runner/engine and reports/, so that a
 * reference is checked against a plan or a cell's runs, the runner reads
 * the version of the engine a plan uses and a report shows and watches
 * that fact, without any of them naming an engine (docs/architecture.md,
 * "Folders, and what each may use").
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

/* An engine's version command and the host fact it is kept in. */
struct engine_version {
	const char *engine;	 /* its plan name: "iperf3" */
	const char *const *argv; /* "iperf3", "--version", NULL */
	const char *fact;	 /* the host fact key: "iperf3_version" */
	const char *label;	 /* its row in a report's system table
				    (a program name: both languages) */
	const char *prefix;	 /* what its version text has before the
				    number: "iperf " of "iperf 3.12" */
	/* From this version (major, minor) the program runs each stream in
	 * a thread of its own; an older one runs them all in one thread.
	 * {0, 0}: never one thread for all. */
	int threads_since[2];
};

/* The version command of engine (its plan name); NULL when it has none
 * (command: the plan's program is the user's) or engine is NULL. */
const struct engine_version *engine_version_of(const char *engine);
/* The i-th engine that has a version command, in table order; NULL past
 * the last (a report lists every version fact, whatever the engine). */
const struct engine_version *engine_version_at(int i);
/* The host facts' row (hostfact.h) of the i-th engine's version fact, as
 * engine_version_at; NULL past the last. */
struct hostfact;
const struct hostfact *engine_version_fact(int i);

/* How a report names engine (its plan name): its program's name, the
 * label of its version row ("iperf3"); else the plan name itself; "" for
 * NULL. */
const char *engine_label(const char *engine);
/* The number of engine's version text version ("3.12" of "iperf 3.12"):
 * past its prefix; version itself without a row or prefix; NULL for
 * NULL. */
const char *engine_version_number(const char *engine, const char *version);
/* 1: engine at version (its version text, as the engine observed it) runs
 * all its streams in one thread (iperf3 before 3.16: iperf3 #289, #1569);
 * 0 when not, or when either is unknown. */
int engine_one_thread(const char *engine, const char *version);

#endif
