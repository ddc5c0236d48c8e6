/*
 * The store handle: opening one SQLite file per plan, read-write or
 * read-only (also on a read-only file system), its schema
 * (schema/store.sql, compiled in), versioning and migrations (PRAGMA
 * user_version), the lock that keeps a second xrun off a DB, and the
 * transactions. The rows written through the handle (plans, sessions,
 * runs and their results, hooks, host facts) are store_rows.c; the typed
 * readers store_read.c.
 */
#include "store.h"

#include <errno.h>
#include <fcntl.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buf.h"
#include "store_int.h"
#include "banned.h"

/*
 * Migrations: entry v upgrades a DB from user_version v-1 to v. Version 1
 * is the whole schema; later versions append their SQL here (kept in
 * schema/migrations/NNN.sql for the record).
 */
static const char *migration_sql(int version)
{
	/* 002.sql: host facts keep every value of a session (a second
	 * invocation must not overwrite the first one's). Also run on a new
	 * DB, where it rebuilds the table store.sql made: harmless. */
	static const char v2[] =
	    "CREATE TABLE host_facts_v2 ("
	    " session_id INTEGER NOT NULL REFERENCES sessions(id),"
	    " host TEXT NOT NULL, key TEXT NOT NULL, value TEXT,"
	    " PRIMARY KEY (session_id, host, key, value));"
	    "INSERT OR IGNORE INTO host_facts_v2 (session_id, host, key, "
	    "value) SELECT session_id, host, key, value FROM host_facts;"
	    "DROP TABLE host_facts;"
	    "ALTER TABLE host_facts_v2 RENAME TO host_facts;";
	if (version == 1)
		return xr_store_sql;
	if (version == 2)
		return v2;
	return NULL;
}

int store_db_fail(struct store *st, struct xr_err *err, const char *what)
{
	return xr_err_set(err, XR_ESTORE, st->path, 0, 0, "%s failed: %s", what,
			  sqlite3_errmsg(st->db));
}

static int exec_sql(struct store *st, const char *sql, struct xr_err *err)
{
	char *msg = NULL;
	int rc = sqlite3_exec(st->db, sql, NULL, NULL, &msg);
	if (rc != SQLITE_OK) {
		int r = xr_err_set(err, XR_ESTORE, st->path, 0, 0,
				   "cannot update the store: %s",
				   msg ? msg : sqlite3_errstr(rc));
		sqlite3_free(msg);
		return r;
	}
	return 0;
}

static int take_lock(struct store *st, struct xr_err *err)
{
	struct buf lp = BUF_INIT;
	int fd;
	buf_addf(&lp, "%s.lock", st->path);
	/* A separate file: flock on the DB itself would share an inode with
	 * SQLite's fds, and closing any of those drops its POSIX locks. */
	fd = open(lp.s, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0) {
		int r =
		    xr_err_set(err, XR_EIO, lp.s, 0, 0,
			       "cannot create lock file: %s", strerror(errno));
		buf_release(&lp);
		return r;
	}
	if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		int r;
		if (errno == EWOULDBLOCK)
			r = xr_err_set(err, XR_ELOCKED, st->path, 0, 0,
				       "another xrun is running on this "
				       "database (lock '%s' is held); wait "
				       "for it to finish or use --db",
				       lp.s);
		else
			r = xr_err_set(err, XR_EIO, lp.s, 0, 0,
				       "cannot lock: %s", strerror(errno));
		close(fd);
		buf_release(&lp);
		return r;
	}
	{
		/* What a crashed holder left, before we overwrite it. */
		char tmp[4096];
		ssize_t n = pread(fd, tmp, sizeof tmp - 1, 0);
		tmp[n > 0 ? n : 0] = '\0';
		st->lock_prev = strdup(tmp);
	}
	st->lock_fd = fd;
	store_lock_note(st, "");
	buf_release(&lp);
	return 0;
}

static int user_version(struct store *st, int *v, struct xr_err *err)
{
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(st->db, "PRAGMA user_version", -1, &s, NULL))
		return store_db_fail(st, err, "reading the schema version");
	*v = sqlite3_step(s) == SQLITE_ROW ? sqlite3_column_int(s, 0) : 0;
	sqlite3_finalize(s);
	return 0;
}

static int has_tables(struct store *st)
{
	sqlite3_stmt *s;
	int n = 0;
	if (sqlite3_prepare_v2(st->db,
			       "SELECT count(*) FROM sqlite_master WHERE name "
			       "NOT LIKE 'sqlite_%'",
			       -1, &s, NULL))
		return 0;
	if (sqlite3_step(s) == SQLITE_ROW)
		n = sqlite3_column_int(s, 0);
	sqlite3_finalize(s);
	return n > 0;
}

/* Version 0 with the tables xrun reads: the schema made by hand from
 * schema/store.sql (it does not set user_version). */
static int has_xrun_tables(struct store *st)
{
	sqlite3_stmt *s;
	int rc = sqlite3_prepare_v2(st->db,
				    "SELECT 1 FROM plans, sessions, runs, "
				    "metrics, intervals, counters, "
				    "verifications, host_facts LIMIT 0",
				    -1, &s, NULL);
	sqlite3_finalize(s);
	return rc == SQLITE_OK;
}

static int migrate(struct store *st, int readonly, struct xr_err *err)
{
	int v = 0, r;
	if ((r = user_version(st, &v, err)) < 0)
		return r;
	if (v > STORE_SCHEMA_VERSION)
		return xr_err_set(err, XR_ESTORE, st->path, 0, 0,
				  "database schema version %d is newer than "
				  "this xrun understands (%d): it was written "
				  "by a newer xrun; upgrade xrun or use "
				  "another --db",
				  v, STORE_SCHEMA_VERSION);
	if (v == STORE_SCHEMA_VERSION)
		return 0;
	if (v == 0 && readonly && has_xrun_tables(st))
		return 0; /* reading changes nothing: no version to set */
	if (readonly && v >= STORE_SCHEMA_READABLE)
		return 0; /* older, but read alike: leave it as it is */
	if (v == 0 && has_tables(st))
		/* Version 0 with tables: some other program's database. Our
		 * CREATE IF NOT EXISTS would mix into it and fail later on a
		 * column it lacks. */
		return xr_err_set(err, XR_ESTORE, st->path, 0, 0,
				  "not an xrun database (it has tables but no "
				  "xrun schema version); use another --db");
	if (readonly)
		return xr_err_set(err, XR_ESTORE, st->path, 0, 0,
				  v == 0 ? "not an xrun database (no schema)"
					 : "database schema version %d is "
					   "older than %d: run xrun on it once "
					   "to upgrade it",
				  v, STORE_SCHEMA_VERSION);
	while (v < STORE_SCHEMA_VERSION) {
		const char *sql = migration_sql(v + 1);
		char pragma[64];
		if (!sql)
			return xr_err_set(err, XR_EINTERNAL, st->path, 0, 0,
					  "no migration to version %d", v + 1);
		if ((r = exec_sql(st, "BEGIN IMMEDIATE", err)) < 0)
			return r;
		snprintf(pragma, sizeof pragma, "PRAGMA user_version = %d",
			 v + 1);
		if ((r = exec_sql(st, sql, err)) < 0 ||
		    (r = exec_sql(st, pragma, err)) < 0) {
			store_rollback(st);
			return r;
		}
		if ((r = exec_sql(st, "COMMIT", err)) < 0)
			return r;
		v++;
	}
	return 0;
}

static int open_db(struct store *st, const char *name, int oflags,
		   struct xr_err *err)
{
	if (sqlite3_open_v2(name, &st->db, oflags | SQLITE_OPEN_NOMUTEX,
			    NULL) != SQLITE_OK)
		return xr_err_set(
		    err, XR_ESTORE, st->path, 0, 0, "cannot open database: %s",
		    st->db ? sqlite3_errmsg(st->db) : "no memory");
	sqlite3_busy_timeout(st->db, 10000);
	return 0;
}

/* SQLite's result of reading the DB's header (opening is lazy). */
static int first_read(struct store *st)
{
	sqlite3_stmt *s;
	int rc =
	    sqlite3_prepare_v2(st->db, "PRAGMA user_version", -1, &s, NULL);
	if (rc == SQLITE_OK) {
		rc = sqlite3_step(s);
		if (rc == SQLITE_ROW)
			rc = SQLITE_OK;
	}
	sqlite3_finalize(s);
	return rc;
}

/* "file:PATH?immutable=1", PATH %-escaped as a URI path. */
static void immutable_uri(const char *path, struct buf *u)
{
	const unsigned char *c;
	buf_adds(u, path[0] == '/' ? "file://" : "file:");
	for (c = (const unsigned char *)path; *c; c++)
		if ((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
		    (*c >= '0' && *c <= '9') || strchr("/-._~", *c))
			buf_addc(u, (char)*c);
		else
			buf_addf(u, "%%%02X", *c);
	buf_adds(u, "?immutable=1");
}

/*
 * Read-only. A WAL database needs its "-shm" index even to be read: SQLite
 * uses an existing readable one or creates it, which needs a writable
 * directory. On a read-only file system (or a directory we may not write)
 * without a "-shm", open the file as immutable: SQLite then reads the main
 * file alone, without locks. That is only right when the WAL holds
 * nothing, as after a clean exit of the last writer; a non-empty "-wal"
 * there is refused rather than misread.
 */
static int open_readonly(struct store *st, struct xr_err *err)
{
	struct buf wal = BUF_INIT, uri = BUF_INIT;
	struct stat sb;
	int rc, r;
	if ((r = open_db(st, st->path, SQLITE_OPEN_READONLY, err)) < 0)
		return r;
	rc = first_read(st);
	if (rc == SQLITE_OK)
		return 0;
	if (rc != SQLITE_CANTOPEN && (rc & 0xff) != SQLITE_READONLY)
		return xr_err_set(err, XR_ESTORE, st->path, 0, 0,
				  "cannot read the store: %s",
				  sqlite3_errstr(rc));
	buf_addf(&wal, "%s-wal", st->path);
	if (stat(wal.s, &sb) == 0 && sb.st_size > 0) {
		r = xr_err_set(err, XR_ESTORE, st->path, 0, 0,
			       "cannot read the store: its write-ahead log "
			       "'%s' holds data but its '-shm' index is "
			       "missing and cannot be created here "
			       "(read-only); copy the store with its -wal "
			       "file to a writable directory",
			       wal.s);
		buf_release(&wal);
		return r;
	}
	buf_release(&wal);
	sqlite3_close_v2(st->db);
	st->db = NULL;
	immutable_uri(st->path, &uri);
	r = open_db(st, uri.s, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, err);
	buf_release(&uri);
	if (r == 0 && (rc = first_read(st)) != SQLITE_OK)
		r = xr_err_set(err, XR_ESTORE, st->path, 0, 0,
			       "cannot read the store: %s", sqlite3_errstr(rc));
	return r;
}

int store_open(const char *path, unsigned flags, struct store **out,
	       struct xr_err *err)
{
	struct store *st;
	int oflags, r;
	*out = NULL;
	if (!(flags & STORE_CREATE) && access(path, F_OK) != 0)
		return xr_err_set(err, XR_EIO, path, 0, 0,
				  "no store here (%s); run the plan first, or "
				  "name it with PLAN or --db FILE",
				  strerror(errno));
	st = calloc(1, sizeof *st);
	if (!st || !(st->path = strdup(path))) {
		free(st);
		return xr_err_set(err, XR_ENOMEM, path, 0, 0, "out of memory");
	}
	st->lock_fd = -1;
	if ((flags & STORE_LOCK) && (r = take_lock(st, err)) < 0)
		goto fail;
	if (flags & STORE_READONLY) {
		if ((r = open_readonly(st, err)) < 0)
			goto fail;
		/* Reading a large store: map it instead of copying pages. */
		sqlite3_exec(st->db, "PRAGMA mmap_size = 1073741824", NULL,
			     NULL, NULL);
	} else {
		oflags = SQLITE_OPEN_READWRITE;
		if (flags & STORE_CREATE)
			oflags |= SQLITE_OPEN_CREATE;
		if ((r = open_db(st, path, oflags, err)) < 0 ||
		    (r = exec_sql(st, "PRAGMA journal_mode = WAL", err)) < 0)
			goto fail;
	}
	if ((r = exec_sql(st,
			  "PRAGMA foreign_keys = ON;"
			  "PRAGMA synchronous = NORMAL;"
			  "PRAGMA cache_size = -65536",
			  err)) < 0)
		goto fail;
	if ((r = migrate(st, !!(flags & STORE_READONLY), err)) < 0)
		goto fail;
	*out = st;
	return 0;
fail:
	store_close(st);
	return r;
}

void store_close(struct store *st)
{
	if (!st)
		return;
	sqlite3_finalize(st->pending);
	if (st->db)
		sqlite3_close_v2(st->db);
	if (st->lock_fd >= 0) {
		/* A clean exit leaves nothing for the next xrun to stop. */
		if (ftruncate(st->lock_fd, 0) != 0) {
			/* harmless: notes are checked against start times */
		}
		close(st->lock_fd); /* releases the flock */
	}
	free(st->lock_prev);
	free(st->path);
	free(st);
}

const char *store_lock_previous(const struct store *st)
{
	return st->lock_prev ? st->lock_prev : "";
}

int store_lock_note(struct store *st, const char *note)
{
	struct buf b = BUF_INIT;
	int r = 0;
	if (st->lock_fd < 0)
		return 0;
	/* Who holds it, for people (and the next xrun) reading the file. */
	buf_addf(&b, "%ld\n%s", (long)getpid(), note ? note : "");
	if (ftruncate(st->lock_fd, 0) != 0 ||
	    pwrite(st->lock_fd, b.s, b.len, 0) != (ssize_t)b.len)
		r = -XR_EIO;
	buf_release(&b);
	return r;
}

const char *store_path(const struct store *st)
{
	return st->path;
}

int store_begin(struct store *st, struct xr_err *err)
{
	return exec_sql(st, "BEGIN IMMEDIATE", err);
}

int store_commit(struct store *st, struct xr_err *err)
{
	return exec_sql(st, "COMMIT", err);
}

void store_rollback(struct store *st)
{
	if (!sqlite3_get_autocommit(st->db))
		sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
}
