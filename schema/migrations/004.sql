-- Version 4 (from 3): a stable key per session, so that xrun merge
-- recognises a session it already copied, and the controller's 1-minute
-- load average (with its CPU count) at the end of each run, for the
-- report's conditions (runner/store/store.c has this text as migration 4;
-- schema/store.sql the same tables for new stores).
CREATE TABLE IF NOT EXISTS session_keys (
  session_id INTEGER PRIMARY KEY REFERENCES sessions(id),
  uuid       TEXT NOT NULL UNIQUE
);
INSERT OR IGNORE INTO session_keys(session_id, uuid)
  SELECT id, lower(hex(randomblob(16))) FROM sessions;
CREATE TABLE IF NOT EXISTS run_load (
  run_id INTEGER PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE,
  load1  REAL NOT NULL,
  cpus   INTEGER NOT NULL
);
