/*
 * What the engines say of themselves (engine_cond.h): one row per engine
 * that has anything to say, keyed by the engine's plan name: the
 * published conditions its parameters set and its version command with
 * the host fact that keeps it. An engine without a row says nothing of
 * any condition and has no version fact.
 *
 * SPDX-License-Identifier: MIT
 */
#include "engine_cond.h"

#include <stdio.h>
#include <string.h>

#include "hostfact.h"

#include "banned.h"

static int truthy(const char *s)
{
	return s && (!strcmp(s, "true") || !strcmp(s, "1") ||
		     !strcmp(s, "yes") || !strcmp(s, "on"));
}

/* The conditions a publication states (protocol, streams, direction,
 * congestion control, duration), as iperf3's parameters set them. */
static int iperf3_cond(const char *key, const struct engine_cond_params *cp,
		       char *out, size_t outsz)
{
	const char *v, *w;
	if (!strcmp(key, "protocol")) {
		v = truthy(cp->param(cp->ctx, "udp")) ? "UDP" : "TCP";
	} else if (!strcmp(key, "streams") || !strcmp(key, "parallel")) {
		v = cp->param(cp->ctx, "parallel");
		if (!v)
			v = "1";
	} else if (!strcmp(key, "congestion") || !strcmp(key, "cc")) {
		v = cp->param(cp->ctx, "congestion"); /* "": the host's */
		if (!v)
			v = "";
	} else if (!strcmp(key, "direction")) {
		/* both read, so that the caller sees both looked up */
		v = cp->param(cp->ctx, "bidir");
		w = cp->param(cp->ctx, "reverse");
		v = truthy(v) ? "bidir" : truthy(w) ? "down" : "up";
	} else if (!strcmp(key, "duration")) {
		if (!(cp->duration > 0))
			return 0;
		snprintf(out, outsz, "%g", cp->duration);
		return 1;
	} else {
		return 0;
	}
	snprintf(out, outsz, "%s", v);
	return 1;
}

static const char *const iperf3_version_argv[] = {"iperf3", "--version", NULL};

/* An engine's version command (argv), the fact key that keeps what it
 * prints, its label (a program's name: both languages), what its version
 * text has before the number and the version from which its streams run
 * in threads of their own: its engine_version, and its host fact row (a
 * fact a factor can change: an apply hook may install another build; read
 * on every OS). */
#define VERSION(engine, argv, key, label, prefix, maj, min)                    \
	{engine, argv, key, label, prefix, {maj, min}},                        \
	{                                                                      \
		key, HOSTFACT_G_TOOLS, 1, {NULL, NULL, NULL}, argv, label,     \
		    label                                                      \
	}

static const struct {
	const char *engine;
	/* NULL: its parameters say nothing of a published condition */
	int (*cond)(const char *key, const struct engine_cond_params *cp,
		    char *out, size_t outsz);
	/* .argv NULL: no version command */
	struct engine_version version;
	/* the version's row of the host facts' table (hostfact.h) */
	struct hostfact fact;
} rows[] = {
    /* the fact key "iperf3_version" is in stores and schema/store.md */
    {"iperf3", iperf3_cond,
     /* iperf3 --version and its JSON say "iperf 3.12"; multi-threaded
      * since 3.16 (iperf3 #289, #1569; its 3.16 release notes) */
     VERSION("iperf3", iperf3_version_argv, "iperf3_version", "iperf3",
	     "iperf ", 3, 16)},
};

#define NROWS (sizeof rows / sizeof rows[0])

const struct engine_version *engine_version_of(const char *engine)
{
	for (size_t i = 0; engine && i < NROWS; i++)
		if (!strcmp(rows[i].engine, engine))
			return rows[i].version.argv ? &rows[i].version : NULL;
	return NULL;
}

const struct engine_version *engine_version_at(int i)
{
	for (size_t k = 0; i >= 0 && k < NROWS; k++)
		if (rows[k].version.argv && i-- == 0)
			return &rows[k].version;
	return NULL;
}

const struct hostfact *engine_version_fact(int i)
{
	for (size_t k = 0; i >= 0 && k < NROWS; k++)
		if (rows[k].version.argv && i-- == 0)
			return &rows[k].fact;
	return NULL;
}

const char *engine_label(const char *engine)
{
	const struct engine_version *v = engine_version_of(engine);
	return v ? v->label : engine ? engine : "";
}

const char *engine_version_number(const char *engine, const char *version)
{
	const struct engine_version *v = engine_version_of(engine);
	size_t n = v && v->prefix ? strlen(v->prefix) : 0;
	if (version && n && !strncmp(version, v->prefix, n))
		return version + n;
	return version;
}

int engine_one_thread(const char *engine, const char *version)
{
	const struct engine_version *v = engine_version_of(engine);
	int a = 0, b = 0;
	if (!v || !v->threads_since[0])
		return 0;
	/* the first number of the text: "iperf 3.12" */
	while (version && *version && (*version < '0' || *version > '9'))
		version++;
	if (!version || sscanf(version, "%d.%d", &a, &b) != 2)
		return 0;
	return a < v->threads_since[0] ||
	       (a == v->threads_since[0] && b < v->threads_since[1]);
}

int engine_cond(const char *engine, const char *key,
		const struct engine_cond_params *cp, char *out, size_t outsz)
{
	size_t i;
	if (outsz)
		out[0] = '\0';
	if (!engine || !key)
		return 0;
	for (i = 0; i < NROWS; i++)
		if (!strcmp(rows[i].engine, engine))
			return rows[i].cond ? rows[i].cond(key, cp, out, outsz)
					    : 0;
	return 0;
}
