/* The plan key `sample:` (schema/plan.md): 1s by default, any duration
 * down to 100ms, or off; anything shorter is an error at its position.
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>
#include <string.h>

#include "catalog.h"
#include "plan.h"
#include "tap.h"
#include "xr_err.h"

static const char head[] = "xrun: 1\nname: s\nengine:\n  type: iperf3\n"
			   "  client: local\n  server: local\n";

/* Load head + extra: the plan's sample (-1 when it does not load) and,
 * in msg, its first error. */
static double sample_of(const char *extra, char *msg, size_t msgsz)
{
	char text[512];
	struct plan *p = NULL;
	struct xr_diag d;
	double v = -1;

	snprintf(text, sizeof text, "%s%s", head, extra);
	xr_diag_init(&d, "t.yaml");
	msg[0] = '\0';
	if (plan_load_mem("t.yaml", text, strlen(text), catalog_builtin(), &p,
			  &d) == 0 &&
	    p)
		v = p->sample;
	if (d.nerr)
		snprintf(msg, msgsz, "%d:%d: %s", d.items[0].line,
			 d.items[0].col, d.items[0].msg);
	plan_free(p);
	xr_diag_release(&d);
	return v;
}

int main(void)
{
	char msg[300];
	tap_plan(6);
	is_near(sample_of("", msg, sizeof msg), 1.0, 0, "default 1s");
	is_near(sample_of("sample: 500ms\n", msg, sizeof msg), 0.5, 1e-12,
		"500ms");
	is_near(sample_of("sample: 100ms\n", msg, sizeof msg), 0.1, 1e-12,
		"the 100ms minimum");
	is_near(sample_of("sample: off\n", msg, sizeof msg), 0, 0, "off");
	sample_of("sample: 50ms\n", msg, sizeof msg);
	is_str(msg, "7:9: 'sample' must be at least 100ms or 'off', not '50ms'",
	       "below the minimum: an error at the value");
	sample_of("sample: often\n", msg, sizeof msg);
	ok(strstr(msg, "7:9: bad duration 'often' for 'sample'") != NULL,
	   "not a duration: '%s'", msg);
	return tap_done();
}
