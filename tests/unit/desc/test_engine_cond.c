/* The engines' published conditions (runner/desc/engine_cond.c), the one
 * thing the report side asks of an engine: what iperf3's parameters say of
 * protocol, streams, direction, congestion control and duration. The
 * expected texts are iperf3's own defaults, from iperf3(1): TCP unless -u,
 * one stream unless -P, client to server unless -R (down) or --bidir, the
 * host's congestion control unless -C; and an engine without a row says
 * nothing.
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>
#include <string.h>

#include "engine_cond.h"
#include "tap.h"

/* A run's parameters: key=value pairs, NULL-terminated. */
static const char *lookup(void *ctx, const char *key)
{
	const char *const *kv = ctx;
	for (; kv[0]; kv += 2)
		if (!strcmp(kv[0], key))
			return kv[1];
	return NULL;
}

/* What engine says of key with these parameters; "(none)" when it says
 * nothing. */
static const char *says(const char *engine, const char *key,
			const char *const *kv, double duration)
{
	static char out[96];
	struct engine_cond_params cp = {lookup, (void *)kv, duration};
	if (!engine_cond(engine, key, &cp, out, sizeof out))
		return "(none)";
	return out;
}

int main(void)
{
	static const char *const none[] = {NULL};
	static const char *const udp[] = {"udp",	"true", "parallel", "4",
					  "congestion", "bbr",	NULL};
	static const char *const rev[] = {"reverse", "1", NULL};
	static const char *const bidir[] = {"bidir", "yes", "reverse", "1",
					    NULL};
	static const char *const off[] = {"udp", "false", NULL};

	tap_plan(30);
	is_str(says("iperf3", "protocol", none, 0), "TCP", "no -u: TCP");
	is_str(says("iperf3", "protocol", udp, 0), "UDP", "udp: true: UDP");
	is_str(says("iperf3", "protocol", off, 0), "TCP", "udp: false: TCP");
	is_str(says("iperf3", "streams", none, 0), "1", "no -P: 1 stream");
	is_str(says("iperf3", "streams", udp, 0), "4", "parallel: 4");
	is_str(says("iperf3", "parallel", udp, 0), "4", "parallel, by name");
	is_str(says("iperf3", "direction", none, 0), "up", "no -R: up");
	is_str(says("iperf3", "direction", rev, 0), "down", "reverse: down");
	is_str(says("iperf3", "direction", bidir, 0), "bidir",
	       "bidir wins over reverse");
	is_str(says("iperf3", "congestion", none, 0), "",
	       "no -C: the host's (empty, said)");
	is_str(says("iperf3", "cc", udp, 0), "bbr", "cc: the parameter");
	is_str(says("iperf3", "duration", none, 30), "30", "duration 30 s");
	is_str(says("iperf3", "duration", none, 0), "(none)",
	       "no duration: says nothing");
	is_str(says("iperf3", "mtu", udp, 10), "(none)", "an unknown key");
	is_str(says("command", "protocol", udp, 10), "(none)",
	       "an engine without a row says nothing");
	is_str(says(NULL, "protocol", udp, 10), "(none)", "no engine");

	/* What the report side asks of an engine besides its conditions:
	 * its name in a sentence, the number of its version text, and
	 * whether that version runs all its streams in one thread (iperf3
	 * before 3.16: iperf3 #289, #1569; "iperf 3.12" is what iperf3 -J
	 * prints as start.version). */
	is_str(engine_label("iperf3"), "iperf3", "iperf3's label");
	is_str(engine_label("command"), "command", "no row: its plan name");
	is_str(engine_label(NULL), "", "no engine: empty");
	is_str(engine_version_number("iperf3", "iperf 3.12"), "3.12",
	       "iperf 3.12: 3.12");
	is_str(engine_version_number("iperf3", "3.9"), "3.9",
	       "no prefix: as it is");
	is_str(engine_version_number("command", "iperf 3.12"), "iperf 3.12",
	       "no row: as it is");
	ok(engine_version_number("iperf3", NULL) == NULL, "NULL: NULL");
	is_int(engine_one_thread("iperf3", "iperf 3.15"), 1,
	       "3.15: one thread");
	is_int(engine_one_thread("iperf3", "iperf 3.16"), 0, "3.16: threads");
	is_int(engine_one_thread("iperf3", "iperf 3.9"), 1,
	       "3.9 (minor 9 < 16): one thread");
	is_int(engine_one_thread("iperf3", "iperf 4.0"), 0, "4.0: threads");
	is_int(engine_one_thread("iperf3", NULL), 0, "unknown version: 0");
	is_int(engine_one_thread("iperf3", "iperf"), 0, "no number: 0");
	is_int(engine_one_thread("command", "iperf 3.12"), 0,
	       "an engine without a row: 0");
	return tap_done();
}
