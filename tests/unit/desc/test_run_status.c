/* The run status table: names round-trip, the done and failed columns,
 * and schema/store.md and schema/store.sql list exactly its names, in its
 * order.
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "run_status.h"
#include "tap.h"

/* The names in their order, as the docs write them: "`a`, `b`, ..." with
 * fmt "`%s`, " or "a|b|..." with fmt "%s|". */
static void joined(struct buf *b, const char *fmt, const char *last)
{
	int i;
	buf_reset(b);
	for (i = 0; i < RUN_STATUS_COUNT; i++)
		buf_addf(b, i + 1 < RUN_STATUS_COUNT ? fmt : last,
			 run_status_name((enum run_status)i));
}

static void test_docs(void)
{
	const char *src = getenv("XRUN_SOURCE_DIR");
	struct buf path = BUF_INIT, doc = BUF_INIT, want = BUF_INIT;
	char *p;

	buf_addf(&path, "%s/schema/store.md", src ? src : XRUN_SOURCE_DIR);
	ok(buf_read_file(&doc, path.s, 1 << 20) == 0, "read %s", path.s);
	for (p = doc.s; p && *p; p++) /* unfold lines */
		if (*p == '\n')
			*p = ' ';
	joined(&want, "`%s`, ", "`%s`");
	ok(doc.s && strstr(doc.s, want.s), "store.md lists (%s)", want.s);

	buf_reset(&path);
	buf_reset(&doc);
	buf_addf(&path, "%s/schema/store.sql", src ? src : XRUN_SOURCE_DIR);
	ok(buf_read_file(&doc, path.s, 1 << 20) == 0, "read %s", path.s);
	joined(&want, "%s|", "%s\n");
	ok(doc.s && strstr(doc.s, want.s), "store.sql lists %s", want.s);
	buf_release(&path);
	buf_release(&doc);
	buf_release(&want);
}

int main(void)
{
	int i;
	for (i = 0; i < RUN_STATUS_COUNT; i++)
		is_int(run_status_parse(run_status_name((enum run_status)i)), i,
		       run_status_name((enum run_status)i));
	is_int(run_status_parse("done"), -1, "unknown name");
	is_int(run_status_parse(NULL), -1, "no name");
	is_str(run_status_name(RUN_STATUS_COUNT), "unknown", "out of range");
	ok(run_status_done(RUN_OK) && run_status_done(RUN_SKIPPED) &&
	       run_status_done(RUN_FAILED) && run_status_done(RUN_TIMEOUT),
	   "ok, skipped, failed, timeout are done (not rerun on resume)");
	ok(!run_status_done(RUN_PENDING) && !run_status_done(RUN_RUNNING) &&
	       !run_status_done(RUN_INTERRUPTED),
	   "pending, running, interrupted are run again");
	ok(run_status_failed(RUN_FAILED) && run_status_failed(RUN_TIMEOUT) &&
	       !run_status_failed(RUN_INTERRUPTED) &&
	       !run_status_failed(RUN_OK) && !run_status_failed(-1),
	   "failed and timeout are failures");
	test_docs();
	return tap_done();
}
