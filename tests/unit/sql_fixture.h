/*
 * Reading a store back in a unit test: the first column of a query's rows
 * as one string, the way a test compares it with what it expects
 * ("a;b;c"). Opened read-only, so the code under test keeps its own
 * connection.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef XRUN_TEST_SQL_FIXTURE_H
#define XRUN_TEST_SQL_FIXTURE_H

#include <sqlite3.h>

#include "buf.h"

/* The first column of the rows of sql in the store at path, ";" between,
 * into out ("" when there is no row or the query fails). */
static inline void sql_rows(const char *path, const char *sql, struct buf *out)
{
	sqlite3 *d = NULL;
	sqlite3_stmt *s;
	buf_reset(out);
	buf_adds(out, "");
	if (sqlite3_open_v2(path, &d, SQLITE_OPEN_READONLY, NULL) ==
		SQLITE_OK &&
	    sqlite3_prepare_v2(d, sql, -1, &s, NULL) == SQLITE_OK) {
		while (sqlite3_step(s) == SQLITE_ROW)
			buf_addf(out, "%s%s", out->len ? ";" : "",
				 (const char *)sqlite3_column_text(s, 0));
		sqlite3_finalize(s);
	}
	sqlite3_close(d);
}

#endif
