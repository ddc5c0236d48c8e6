/*
 * The engines' published conditions (engine_cond.h): one row per engine
 * whose parameters set any, keyed by the engine's plan name; an engine
 * without a row says nothing of any condition.
 *
 * SPDX-License-Identifier: MIT
 */
#include "engine_cond.h"

#include <stdio.h>
#include <string.h>

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

static const struct {
	const char *engine;
	int (*cond)(const char *key, const struct engine_cond_params *cp,
		    char *out, size_t outsz);
} rows[] = {
    {"iperf3", iperf3_cond},
};

int engine_cond(const char *engine, const char *key,
		const struct engine_cond_params *cp, char *out, size_t outsz)
{
	size_t i;
	if (outsz)
		out[0] = '\0';
	if (!engine || !key)
		return 0;
	for (i = 0; i < sizeof rows / sizeof rows[0]; i++)
		if (!strcmp(rows[i].engine, engine))
			return rows[i].cond(key, cp, out, outsz);
	return 0;
}
