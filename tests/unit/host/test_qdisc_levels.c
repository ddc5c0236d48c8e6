/*
 * The root qdisc's statistics between two snapshots (counters_parse.c's
 * "@@ qdisc" section, counters_delta): drops, overlimits and requeues are
 * counters (after - before), backlog and qlen are levels (after's value,
 * what is queued at the end of the interval). A growing queue tells the
 * two apart: backlog 300 -> 4500 B is 4500 B queued, not 4200; qlen 2 ->
 * 3 is 3 packets. Differences: drops 5830 - 10 = 5820, overlimits 9 - 4
 * = 5, requeues 1 - 0 = 1.
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdlib.h>
#include <string.h>

#include "counters.h"
#include "tap.h"

static const char a[] = "@@ xrun-counters 1\n@@ qdisc\n"
			"[{\"kind\":\"tbf\",\"root\":true,\"drops\":10,"
			"\"overlimits\":4,\"requeues\":0,\"backlog\":300,"
			"\"qlen\":2}]\n";
static const char b[] = "@@ xrun-counters 1\n@@ qdisc\n"
			"[{\"kind\":\"tbf\",\"root\":true,\"drops\":5830,"
			"\"overlimits\":9,\"requeues\":1,\"backlog\":4500,"
			"\"qlen\":3}]\n";

static double val(const struct counter_row *r, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(r[i].scope, "qdisc") && !strcmp(r[i].name, name))
			return r[i].value;
	return -1;
}

int main(void)
{
	struct counters_snap *sa = NULL, *sb = NULL;
	struct counter_row *rows = NULL;
	size_t n = 0;

	tap_plan(8);
	ok(counters_parse(a, sizeof a - 1, &sa) == 0, "parse before");
	ok(counters_parse(b, sizeof b - 1, &sb) == 0, "parse after");
	ok(sa && sb && counters_delta(sa, sb, &rows, &n) == 0, "delta");
	is_near(val(rows, n, "drops"), 5820, 0, "drops: a difference");
	is_near(val(rows, n, "overlimits"), 5, 0, "overlimits: a difference");
	is_near(val(rows, n, "requeues"), 1, 0, "requeues: a difference");
	is_near(val(rows, n, "backlog"), 4500, 0,
		"backlog: the level at the end");
	is_near(val(rows, n, "qlen"), 3, 0, "qlen: the level at the end");
	free(rows);
	counters_snap_free(sa);
	counters_snap_free(sb);
	return tap_done();
}
