/* A tbf root's queue read back as the facts qdisc_root and
 * qdisc_root_queue (runner/host/facts.c queue_fact; issue 34 Deliver 4),
 * on a veth of our own (netns_fixture.h; root only): `tc qdisc add ...
 * tbf rate 100mbit burst 32000 limit 250000` is read as "tbf 100000000"
 * (100 Mbit/s in bit/s) and "limit 250000 burst 32000" (bytes). By hand:
 * tc stores the latency (limit - burst) / rate = (250000 - 32000) B /
 * 12.5e6 B/s = 17440 us (tc-tbf(8)), printed as "lat" in microseconds and
 * the rate in bytes per second; 17440e-6 x 12.5e6 + 32000 = 250000 B
 * again, exactly.
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>
#include <string.h>

#include "facts.h"
#include "netns_fixture.h"
#include "tap.h"

static const char *get(struct fact *f, size_t n, const char *key)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(f[i].key, key))
			return f[i].value;
	return NULL;
}

int main(void)
{
	struct fact *f = NULL;
	size_t n = 0;
	const char *v;
	if (geteuid() != 0) {
		printf("1..0 # SKIP needs root (a veth pair, tc)\n");
		return 77;
	}
	tap_plan(3);
	if (fx_netns_up("xq") < 0 ||
	    fx_run(NULL, "tc", "qdisc", "add", "dev", fx_ns.va, "root", "tbf",
		   "rate", "100mbit", "burst", "32000", "limit", "250000",
		   NULL) < 0) {
		printf("Bail out! no veth or tbf\n");
		return 1;
	}
	ok(facts_collect_some(NULL, fx_ns.va, FACTS_QDISC, NULL, &f, &n) == 0,
	   "qdisc facts read");
	v = get(f, n, "qdisc_root");
	is_str(v ? v : "(none)", "tbf 100000000", "the tbf's rate in bit/s");
	v = get(f, n, "qdisc_root_queue");
	is_str(v ? v : "(none)", "limit 250000 burst 32000",
	       "its queue: the limit and burst given to tc, bytes");
	facts_free(f, n);
	return tap_done();
}
