/*
 * The original values of settings xrun changes (`restore: true`): the
 * value a factor's verify read on a host before the session first applied
 * a level, kept per session, factor and host. A resumed session (after a
 * SIGKILL or a power loss) takes the original from here instead of
 * reading the setting again, which by then holds a value xrun applied.
 *
 * SPDX-License-Identifier: MIT
 */
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#include "proc.h"
#include "store_int.h"
#include "banned.h"

int store_original_get(struct store *st, int64_t session_id, const char *factor,
		       const char *host, char **value, struct xr_err *err)
{
	sqlite3_stmt *s;
	int rc, found = 0;
	*value = NULL;
	if (sqlite3_prepare_v2(st->db,
			       "SELECT value FROM originals WHERE session_id "
			       "= ? AND factor = ? AND host = ?",
			       -1, &s, NULL) != SQLITE_OK)
		return store_db_fail(st, err, "reading an original value");
	sqlite3_bind_int64(s, 1, session_id);
	sqlite3_bind_text(s, 2, factor, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 3, host, -1, SQLITE_STATIC);
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW) {
		const unsigned char *t = sqlite3_column_text(s, 0);
		*value = strdup(t ? (const char *)t : "");
		found = *value ? 1 : -XR_ENOMEM;
	} else if (rc != SQLITE_DONE) {
		found = store_db_fail(st, err, "reading an original value");
	}
	sqlite3_finalize(s);
	return found;
}

int store_original_put(struct store *st, int64_t session_id, const char *factor,
		       const char *host, const char *value, struct xr_err *err)
{
	sqlite3_stmt *s;
	int rc;
	/* The first capture of a session stands. */
	if (sqlite3_prepare_v2(st->db,
			       "INSERT OR IGNORE INTO originals (session_id, "
			       "factor, host, value, captured_at) VALUES "
			       "(?, ?, ?, ?, ?)",
			       -1, &s, NULL) != SQLITE_OK)
		return store_db_fail(st, err, "storing an original value");
	sqlite3_bind_int64(s, 1, session_id);
	sqlite3_bind_text(s, 2, factor, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 3, host, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 4, value, -1, SQLITE_STATIC);
	sqlite3_bind_double(s, 5, proc_now_wall());
	rc = sqlite3_step(s);
	sqlite3_finalize(s);
	if (rc != SQLITE_DONE)
		return store_db_fail(st, err, "storing an original value");
	return 0;
}
