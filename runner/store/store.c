/*
 * The store handle: opening one SQLite file per plan, read-write or
 * read-only (also on a read-only file system), its schema
 * (schema/store.sql, compiled in), versioning and migrations (PRAGMA
 * user_version), the lock that keeps a second xrun off a DB, and the
 * transactions, with what every writer and reader of the store shares: the
 * one-shot statement helpers, which tables an older store lacks, a stored
 * status name read back, the per-run statements finalized at the close.
 * The rows written through the handle (plans, sessions, runs and their
 * results, hooks, host facts) are store_rows.c; the typed readers
 * store_read.c. This file calls none of them.
 *
 * SPDX-License-Identifier: MIT
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
#include "run_status.h"
#include "store_int.h"
#include "banned.h"

/*
 * Migrations: entry v upgrades a DB from user_version v-1 to v. Version 1
 * is the whole schema; later versions append their SQL here (kept in
 * schema/migrations/NNN.sql for the record). schema/store.sql has every
 * table, so a new store passes through each step harmlessly.
 */
static const char *const migrations[] = {
    NULL,
    NULL, /* 1: xr_store_sql */
    /* 2: the original values of restore: true, per session */
    "CREATE TABLE IF NOT EXISTS originals ("
    " session_id INTEGER NOT NULL REFERENCES sessions(id),"
    " factor TEXT NOT NULL, host TEXT NOT NULL, value TEXT NOT NULL,"
    " captured_at REAL NOT NULL,"
    " PRIMARY KEY (session_id, factor, host));",
    /* 3 (003.sql): host facts keep every value of a session (a second
     * invocation must not overwrite the first one's). Also run on a new
     * DB, where it rebuilds the table store.sql made: harmless. */
    "CREATE TABLE host_facts_v2 ("
    " session_id INTEGER NOT NULL REFERENCES sessions(id),"
    " host TEXT NOT NULL, key TEXT NOT NULL, value TEXT,"
    " PRIMARY KEY (session_id, host, key, value));"
    "INSERT OR IGNORE INTO host_facts_v2 (session_id, host, key, "
    "value) SELECT session_id, host, key, value FROM host_facts;"
    "DROP TABLE host_facts;"
    "ALTER TABLE host_facts_v2 RENAME TO host_facts;",
    /* 4: a stable key per session (xrun merge) and the controller's load
     * average at the end of each run */
    "CREATE TABLE IF NOT EXISTS session_keys ("
    " session_id INTEGER PRIMARY KEY REFERENCES sessions(id),"
    " uuid TEXT NOT NULL UNIQUE);"
    "INSERT OR IGNORE INTO session_keys(session_id, uuid)"
    " SELECT id, lower(hex(randomblob(16))) FROM sessions;"
    "CREATE TABLE IF NOT EXISTS run_load ("
    " run_id INTEGER PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE,"
    " load1 REAL NOT NULL, cpus INTEGER NOT NULL);",
    /* 5 (005.sql): the repetition sizing decision per session and cell */
    "CREATE TABLE IF NOT EXISTS sizing ("
    "  session_id  INTEGER NOT NULL REFERENCES sessions(id),"
    "  cell_index  INTEGER NOT NULL,"
    "  block       INTEGER NOT NULL,"
    "  cell        TEXT NOT NULL,"
    "  metric      TEXT NOT NULL,"
    "  pilot_n     INTEGER NOT NULL,"
    "  pilot_mean  REAL,"
    "  pilot_sd    REAL,"
    "  precision   REAL NOT NULL,"
    "  need        INTEGER NOT NULL,"
    "  planned     INTEGER NOT NULL,"
    "  max         INTEGER NOT NULL,"
    "  decided_at  REAL NOT NULL,"
    "  runs_done   INTEGER,"
    "  reached     REAL,"
    "  stopped     TEXT,"
    "  PRIMARY KEY (session_id, cell_index)"
    ");",
    /* 6 (006.sql): the size of each session's schedule, so that run
     * rows can be created as a session reaches them. */
    "CREATE TABLE IF NOT EXISTS schedules ("
    " session_id INTEGER PRIMARY KEY REFERENCES sessions(id),"
    " runs INTEGER NOT NULL);",
    /* 7 (007.sql): the series observed during each run, packed, and the
     * view series that unpacks them */
    "CREATE TABLE IF NOT EXISTS series_data ("
    " run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
    " host TEXT NOT NULL, name TEXT NOT NULL, unit TEXT NOT NULL,"
    " n INTEGER NOT NULL, points TEXT NOT NULL,"
    " PRIMARY KEY (run_id, host, name));"
    "CREATE TABLE IF NOT EXISTS series_notes ("
    " run_id INTEGER PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE,"
    " note TEXT NOT NULL);"
    "CREATE VIEW IF NOT EXISTS series AS"
    " SELECT d.run_id AS run_id, d.host AS host, d.name AS name,"
    " d.unit AS unit, json_extract(p.value, '$[0]') AS t,"
    " json_extract(p.value, '$[1]') AS value"
    " FROM series_data d, json_each(d.points) p;",
    /* 8 (008.sql): series written during the run as chunks, each row
     * marked with the attempt that wrote it; the view shows each run's
     * current attempt. Also run on a new DB: harmless. */
    "DROP VIEW IF EXISTS series;"
    "CREATE TABLE series_data_v8 ("
    " run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
    " attempt INTEGER NOT NULL DEFAULT 0,"
    " chunk INTEGER NOT NULL DEFAULT 0,"
    " host TEXT NOT NULL, name TEXT NOT NULL, unit TEXT NOT NULL,"
    " n INTEGER NOT NULL, points TEXT NOT NULL,"
    " PRIMARY KEY (run_id, attempt, host, name, chunk));"
    "INSERT OR IGNORE INTO series_data_v8(run_id, attempt, chunk, host,"
    " name, unit, n, points) SELECT d.run_id, COALESCE((SELECT r.attempts"
    " FROM runs r WHERE r.id = d.run_id), 0), 0, d.host, d.name, d.unit,"
    " d.n, d.points FROM series_data d;"
    "DROP TABLE series_data;"
    "ALTER TABLE series_data_v8 RENAME TO series_data;"
    "CREATE VIEW series AS"
    " SELECT d.run_id AS run_id, d.host AS host, d.name AS name,"
    " d.unit AS unit, json_extract(p.value, '$[0]') AS t,"
    " json_extract(p.value, '$[1]') AS value"
    " FROM series_data d JOIN runs r ON r.id = d.run_id AND"
    " d.attempt = r.attempts, json_each(d.points) p;"
    /* a run whose stdout passed the output cap: the cap, bytes kept */
    "CREATE TABLE IF NOT EXISTS output_cut ("
    " run_id INTEGER PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE,"
    " cap INTEGER NOT NULL, kept INTEGER NOT NULL);",
    /* 9 (009.sql): the runs each sizing decision read */
    "CREATE TABLE IF NOT EXISTS sizing_runs ("
    " run_id INTEGER PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE,"
    " block INTEGER NOT NULL);",
    /* 10 (010.sql): a shard's manifest per sharded session */
    "CREATE TABLE IF NOT EXISTS shards ("
    " session_id INTEGER PRIMARY KEY REFERENCES sessions(id),"
    " k INTEGER NOT NULL, n INTEGER NOT NULL, units INTEGER NOT NULL,"
    " assign TEXT NOT NULL, blocks TEXT NOT NULL, testbed TEXT NOT NULL);",
    /* 11 (011.sql): rate searches: each trial a run, linked to its
     * search; results leaves the trials out */
    "CREATE TABLE IF NOT EXISTS trials ("
    " run_id    INTEGER PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE,"
    " search_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
    " seq       INTEGER NOT NULL,"
    " goal      TEXT NOT NULL,"
    " load      REAL NOT NULL,"
    " duration  REAL NOT NULL,"
    " loss      REAL,"
    " UNIQUE (search_id, seq)"
    " );"
    " DROP VIEW IF EXISTS results;"
    " CREATE VIEW results AS"
    " SELECT p.name        AS plan,"
    " r.session_id  AS session,"
    " r.id          AS run_id,"
    " r.cell        AS cell,"
    " r.rep         AS rep,"
    " r.position    AS position,"
    " r.block       AS block,"
    " r.warmup      AS warmup,"
    " r.started_at  AS started_at,"
    " r.status      AS status,"
    " m.name        AS metric,"
    " m.value       AS value,"
    " m.unit        AS unit,"
    " r.verified    AS verified,"
    " r.reason      AS reason"
    " FROM runs r"
    " JOIN sessions s ON s.id = r.session_id"
    " JOIN plans p ON p.id = s.plan_id"
    " LEFT JOIN metrics m ON m.run_id = r.id"
    " WHERE r.status IN ('ok', 'failed', 'timeout', 'interrupted', 'skipped')"
    " AND r.position >= 0;",
    /* 12 (012.sql): every attempt of a run (failed runs are retried);
     * an older run gets the row of its last attempt */
    "CREATE TABLE IF NOT EXISTS run_attempts ("
    " run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
    " attempt INTEGER NOT NULL, status TEXT NOT NULL, started_at REAL,"
    " ended_at REAL, elapsed REAL, exit_code INTEGER, reason TEXT,"
    " PRIMARY KEY (run_id, attempt));"
    "INSERT OR IGNORE INTO run_attempts(run_id, attempt, status,"
    " started_at, ended_at, elapsed, exit_code, reason) SELECT id,"
    " attempts, status, started_at, ended_at, elapsed, exit_code, reason"
    " FROM runs WHERE attempts > 0 AND status NOT IN ('pending',"
    " 'running');",
    /* 13 (013.sql): the facts each run held under: fact sets, their
     * values, the set of each run and host; each session's host_facts
     * become one 'migrated' set per host (each key's last value) */
    "CREATE TABLE IF NOT EXISTS fact_sets ("
    " id INTEGER PRIMARY KEY,"
    " session_id INTEGER NOT NULL REFERENCES sessions(id),"
    " host TEXT NOT NULL, cause TEXT NOT NULL, factor TEXT, level TEXT,"
    " read_at REAL NOT NULL);"
    "CREATE INDEX IF NOT EXISTS fact_sets_session ON fact_sets(session_id);"
    "CREATE TABLE IF NOT EXISTS fact_values ("
    " set_id INTEGER NOT NULL REFERENCES fact_sets(id) ON DELETE CASCADE,"
    " key TEXT NOT NULL, value TEXT NOT NULL,"
    " PRIMARY KEY (set_id, key)) WITHOUT ROWID;"
    "CREATE TABLE IF NOT EXISTS run_facts ("
    " run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
    " host TEXT NOT NULL,"
    " set_id INTEGER NOT NULL REFERENCES fact_sets(id),"
    " PRIMARY KEY (run_id, host)) WITHOUT ROWID;"
    "INSERT INTO fact_sets(session_id, host, cause, read_at)"
    " SELECT DISTINCT f.session_id, f.host, 'migrated', s.started_at"
    " FROM host_facts f JOIN sessions s ON s.id = f.session_id"
    " WHERE NOT EXISTS (SELECT 1 FROM fact_sets x WHERE x.session_id ="
    " f.session_id AND x.host = f.host);"
    "INSERT OR IGNORE INTO fact_values(set_id, key, value)"
    " SELECT fs.id, f.key, f.value FROM host_facts f"
    " JOIN fact_sets fs ON fs.session_id = f.session_id AND fs.host = f.host"
    " AND fs.cause = 'migrated'"
    " WHERE f.value IS NOT NULL AND f.rowid = (SELECT max(g.rowid) FROM"
    " host_facts g WHERE g.session_id = f.session_id AND g.host = f.host"
    " AND g.key = f.key AND g.value IS NOT NULL);",
};

static const char *migration_sql(int version)
{
	if (version == 1)
		return xr_store_sql;
	if (version > 1 &&
	    version < (int)(sizeof migrations / sizeof migrations[0]))
		return migrations[version];
	return NULL;
}

int store_db_fail(struct store *st, struct xr_err *err, const char *what)
{
	return xr_err_set(err, XR_ESTORE, st->path, 0, 0, "%s failed: %s", what,
			  sqlite3_errmsg(st->db));
}

int store_has_schedules(struct store *st)
{
	sqlite3_stmt *s;
	int rc = sqlite3_prepare_v2(st->db, "SELECT 1 FROM schedules LIMIT 0",
				    -1, &s, NULL);
	sqlite3_finalize(s);
	return rc == SQLITE_OK;
}

/* 1 when the store has the shards table (a store older than version 10
 * read without migrating has none: nothing is sharded). */
int store_has_shards(struct store *st)
{
	sqlite3_stmt *s;
	int found;
	if (sqlite3_prepare_v2(st->db,
			       "SELECT 1 FROM sqlite_master WHERE type = "
			       "'table' AND name = 'shards'",
			       -1, &s, NULL) != SQLITE_OK)
		return 0;
	found = sqlite3_step(s) == SQLITE_ROW;
	sqlite3_finalize(s);
	return found;
}

int store_status_parse(const char *name)
{
	return run_status_parse(name);
}

int store_prep(struct store *st, const char *sql, sqlite3_stmt **s,
	       struct xr_err *err)
{
	if (sqlite3_prepare_v2(st->db, sql, -1, s, NULL) != SQLITE_OK) {
		*s = NULL;
		return store_db_fail(st, err, "preparing a statement");
	}
	return 0;
}

int store_step_done(struct store *st, sqlite3_stmt *s, const char *what,
		    struct xr_err *err)
{
	int rc = sqlite3_step(s);
	if (rc != SQLITE_DONE && rc != SQLITE_ROW) {
		int r = store_db_fail(st, err, what);
		sqlite3_finalize(s);
		return r;
	}
	sqlite3_finalize(s);
	return 0;
}

void store_per_run_finalize(struct store *st)
{
	int k;
	for (k = 0; k < STORE_PER_RUN_MAX; k++) {
		sqlite3_finalize(st->per_run[k]);
		st->per_run[k] = NULL;
	}
}

static int store_exec_sql(struct store *st, const char *sql, struct xr_err *err)
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

/*
 * The lock is on the database file itself, not on a name: a symlink or a
 * hard link to a store in use opens the same inode and meets the same
 * lock. It is an open-file-description lock on byte 0, a byte SQLite
 * never locks (its locks sit at 1 GiB and in the "-shm" file), so it
 * neither meets SQLite's own POSIX locks nor is dropped when SQLite
 * closes one of its descriptors of the file; flock where OFD locks are
 * missing.
 */
static int lock_db_file(struct store *st, unsigned flags, struct xr_err *err)
{
	struct flock fl;
	int fd, r, e;
	fd = open(st->path,
		  O_RDWR | O_CLOEXEC | (flags & STORE_CREATE ? O_CREAT : 0),
		  0644);
	if (fd < 0)
		return xr_err_set(err, XR_EIO, st->path, 0, 0,
				  "cannot open the store to lock it: %s",
				  strerror(errno));
	memset(&fl, 0, sizeof fl);
	fl.l_type = F_WRLCK;
	fl.l_whence = SEEK_SET;
	fl.l_start = 0;
	fl.l_len = 1;
#ifdef F_OFD_SETLK
	r = fcntl(fd, F_OFD_SETLK, &fl);
	if (r < 0 && errno == EINVAL)
#endif
		r = flock(fd, LOCK_EX | LOCK_NB);
	if (r == 0) {
		st->db_lock_fd = fd;
		return 0;
	}
	e = errno;
	close(fd);
	if (e == EAGAIN || e == EACCES || e == EWOULDBLOCK)
		return xr_err_set(err, XR_ELOCKED, st->path, 0, 0,
				  "another xrun is running on this store (the "
				  "database file itself is locked, perhaps "
				  "through another path: a symlink or a hard "
				  "link); wait for it to finish or use --db");
	return xr_err_set(err, XR_EIO, st->path, 0, 0,
			  "cannot lock the store: %s", strerror(e));
}

int store_lock_held(const char *path)
{
	struct buf lp = BUF_INIT;
	struct flock fl;
	int fd, held = 0;

	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd >= 0) {
		memset(&fl, 0, sizeof fl);
		fl.l_type = F_WRLCK;
		fl.l_whence = SEEK_SET;
		fl.l_len = 1;
#ifdef F_OFD_GETLK
		if (fcntl(fd, F_OFD_GETLK, &fl) == 0 && fl.l_type != F_UNLCK)
			held = 1;
#endif
		/* The flock fallback of lock_db_file: a shared test lock,
		 * dropped at once. */
		if (!held && flock(fd, LOCK_SH | LOCK_NB) < 0 &&
		    errno == EWOULDBLOCK)
			held = 1;
		close(fd);
	}
	buf_addf(&lp, "%s.lock", path);
	fd = open(lp.s, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
	if (fd >= 0) {
		/* An older xrun locks only this file. */
		if (!held && flock(fd, LOCK_SH | LOCK_NB) < 0 &&
		    errno == EWOULDBLOCK)
			held = 1;
		close(fd);
	}
	buf_release(&lp);
	return held;
}

long store_lock_holder(const char *path)
{
	struct buf lp = BUF_INIT, text = BUF_INIT;
	long pid = 0;
	if (!store_lock_held(path))
		return -1;
	/* the holder's notes start with its pid line (store_lock_note) */
	buf_addf(&lp, "%s.lock", path);
	if (buf_read_file(&text, lp.s, 4096) == 0 && text.s &&
	    (sscanf(text.s, "%ld", &pid) != 1 || pid < 0))
		pid = 0;
	buf_release(&lp);
	buf_release(&text);
	return pid;
}

/*
 * "<db>.lock" holds notes (our pid, the children to stop after a crash),
 * not the lock. It is never followed through a symlink nor truncated on
 * open, and one that is not a plain file of its own (a symlink, a hard
 * link to some other file) is refused: its content is rewritten.
 */
static int open_note_file(struct store *st, struct xr_err *err)
{
	struct buf lp = BUF_INIT;
	struct stat sb;
	int fd, r = 0;
	buf_addf(&lp, "%s.lock", st->path);
	fd = open(lp.s, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0)
		r = xr_err_set(err, XR_EIO, lp.s, 0, 0,
			       errno == ELOOP
				   ? "the lock file is a symbolic link; "
				     "remove it (xrun never writes through "
				     "one)"
				   : "cannot create lock file: %s",
			       strerror(errno));
	else if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode) ||
		 sb.st_nlink != 1)
		r = xr_err_set(err, XR_EIO, lp.s, 0, 0,
			       "the lock file is not a plain file of its own "
			       "(a special file or a hard link to another "
			       "file); remove it");
	else if (flock(fd, LOCK_EX | LOCK_NB) < 0)
		/* Held by an older xrun that locks only this file. */
		r = xr_err_set(err, XR_ELOCKED, st->path, 0, 0,
			       "another xrun is running on this database "
			       "(lock '%s' is held); wait for it to finish "
			       "or use --db",
			       lp.s);
	if (r < 0) {
		if (fd >= 0)
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

static int take_lock(struct store *st, unsigned flags, struct xr_err *err)
{
	int r = lock_db_file(st, flags, err);
	return r < 0 ? r : open_note_file(st, err);
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
		if ((r = store_exec_sql(st, "BEGIN IMMEDIATE", err)) < 0)
			return r;
		snprintf(pragma, sizeof pragma, "PRAGMA user_version = %d",
			 v + 1);
		if ((r = store_exec_sql(st, sql, err)) < 0 ||
		    (r = store_exec_sql(st, pragma, err)) < 0) {
			store_rollback(st);
			return r;
		}
		if ((r = store_exec_sql(st, "COMMIT", err)) < 0)
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

static unsigned be32(const unsigned char *b)
{
	return (unsigned)b[0] << 24 | (unsigned)b[1] << 16 |
	       (unsigned)b[2] << 8 | b[3];
}

static int damaged(struct store *st, struct xr_err *err, const char *what)
{
	return xr_err_set(err, XR_ESTORE, st->path, 0, 0,
			  "the store is damaged (%s); it is not used: put "
			  "back a copy, or use another --db (sqlite3's "
			  ".recover may save its runs)",
			  what);
}

static int wal_has_data(const struct store *st)
{
	struct buf w = BUF_INIT;
	struct stat sb;
	int r;
	buf_addf(&w, "%s-wal", st->path);
	r = stat(w.s, &sb) == 0 && sb.st_size > 0;
	buf_release(&w);
	return r;
}

/* The file's own header against its size: a store cut short (a copy
 * interrupted, a truncated file) is missing pages its header counts.
 * The count is only trusted when SQLite would trust it (the "version
 * valid for" field matches the change counter). */
static int check_header(struct store *st, off_t *size, struct xr_err *err)
{
	unsigned char h[100];
	struct stat sb;
	unsigned pgsz, npages;
	char what[200];
	int fd = open(st->path, O_RDONLY | O_CLOEXEC);
	ssize_t n;
	*size = 0;
	if (fd < 0)
		return 0; /* SQLite says why, or creates it */
	n = pread(fd, h, sizeof h, 0);
	if (fstat(fd, &sb) != 0)
		sb.st_size = 0;
	close(fd);
	*size = sb.st_size;
	if (sb.st_size == 0)
		return 0; /* a new store */
	if (n < (ssize_t)sizeof h || memcmp(h, "SQLite format 3", 16) != 0)
		return damaged(st, err, "it is not an SQLite file: no header");
	pgsz = (unsigned)h[16] << 8 | h[17];
	if (pgsz == 1)
		pgsz = 65536;
	npages = be32(h + 28);
	/* Pages may also sit in a write-ahead log not yet copied back
	 * (a checkpoint cut short by a full disk grows the count in page 1
	 * before the file): then the file may be shorter. */
	if (npages && be32(h + 24) == be32(h + 92) && !wal_has_data(st) &&
	    (unsigned long long)sb.st_size <
		(unsigned long long)npages * pgsz) {
		snprintf(what, sizeof what,
			 "cut short: its header counts %u pages of %u bytes, "
			 "the file has %lld bytes",
			 npages, pgsz, (long long)sb.st_size);
		return damaged(st, err, what);
	}
	return 0;
}

/* PRAGMA quick_check of one table, or of everything (table NULL). */
static int quick_check(struct store *st, const char *table, struct xr_err *err)
{
	sqlite3_stmt *s;
	char sql[96], what[400];
	const unsigned char *t;
	int rc, r = 0;
	snprintf(sql, sizeof sql, "PRAGMA quick_check%s%s%s", table ? "(" : "",
		 table ? table : "", table ? ")" : "");
	rc = sqlite3_prepare_v2(st->db, sql, -1, &s, NULL);
	if (rc != SQLITE_OK) {
		snprintf(what, sizeof what, "%s", sqlite3_errmsg(st->db));
		return damaged(st, err, what);
	}
	rc = sqlite3_step(s);
	t = rc == SQLITE_ROW ? sqlite3_column_text(s, 0) : NULL;
	if (rc != SQLITE_ROW || !t || strcmp((const char *)t, "ok") != 0) {
		char *c;
		const char *m = t ? (const char *)t : sqlite3_errmsg(st->db);
		if (!strncmp(m, "*** in database main ***\n", 25))
			m += 25;
		snprintf(what, sizeof what, "quick_check: %.300s", m);
		for (c = what; *c; c++)
			if (*c == '\n')
				*c = ' ';
		r = damaged(st, err, what);
	}
	sqlite3_finalize(s);
	return r;
}

/*
 * Refuse a damaged store at open rather than add runs to it. A full
 * quick_check reads every page: about 0.3 s per 32 MiB warm, 2-9 s for a
 * million runs (220 MB), too much to pay at every start. So: the header
 * against the file size always; the whole file when it is at most
 * STORE_CHECK_FULL bytes; above, the schema and the small tables (plans,
 * sessions). Damage elsewhere in a large store is met when SQLite reads
 * it: that is an error too (exit 3), never a silent success.
 */
#define STORE_CHECK_FULL ((off_t)32 << 20)
static int check_health(struct store *st, off_t size, struct xr_err *err)
{
	int r;
	if (size == 0)
		return 0;
	if (size <= STORE_CHECK_FULL)
		return quick_check(st, NULL, err);
	if ((r = quick_check(st, "plans", err)) < 0 ||
	    (r = quick_check(st, "sessions", err)) < 0)
		return r;
	return 0;
}

int store_open(const char *path, unsigned flags, struct store **out,
	       struct xr_err *err)
{
	off_t size = 0;
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
	st->lock_fd = st->db_lock_fd = -1;
	if ((flags & STORE_LOCK) && (r = take_lock(st, flags, err)) < 0)
		goto fail;
	if ((r = check_header(st, &size, err)) < 0)
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
		    (r = store_exec_sql(st, "PRAGMA journal_mode = WAL", err)) <
			0)
			goto fail;
	}
	if ((r = store_exec_sql(st,
				"PRAGMA foreign_keys = ON;"
				"PRAGMA synchronous = NORMAL;"
				"PRAGMA cache_size = -65536",
				err)) < 0)
		goto fail;
	if ((r = check_health(st, size, err)) < 0 ||
	    (r = migrate(st, !!(flags & STORE_READONLY), err)) < 0)
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
	store_per_run_finalize(st);
	if (st->db)
		sqlite3_close_v2(st->db);
	if (st->lock_fd >= 0) {
		/* A clean exit leaves nothing for the next xrun to stop. */
		if (ftruncate(st->lock_fd, 0) != 0) {
			/* harmless: notes are checked against start times */
		}
		close(st->lock_fd); /* releases the flock */
	}
	/* After SQLite's descriptors are closed: closing ours would drop
	 * the process's POSIX locks on the file, SQLite's included. */
	if (st->db_lock_fd >= 0)
		close(st->db_lock_fd);
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
	return store_exec_sql(st, "BEGIN IMMEDIATE", err);
}

int store_commit(struct store *st, struct xr_err *err)
{
	return store_exec_sql(st, "COMMIT", err);
}

void store_rollback(struct store *st)
{
	if (!sqlite3_get_autocommit(st->db))
		sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
}
