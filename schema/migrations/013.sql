-- Version 13 (from 12): the facts each run held under (issue 34;
-- schema/store.md, "fact_sets"; runner/store/store.c has this text as
-- migration 13, schema/store.sql the same tables for new stores). A
-- session of an older store was read once per host: each (session, host)
-- of host_facts becomes one set, cause 'migrated', holding each key's
-- value read last (the highest rowid); its runs name no set (run_facts
-- has no row for them), and the readers take the session's migrated set
-- for them, which is what the report read before.
CREATE TABLE IF NOT EXISTS fact_sets (
  id         INTEGER PRIMARY KEY,
  session_id INTEGER NOT NULL REFERENCES sessions(id),
  host       TEXT NOT NULL,
  cause      TEXT NOT NULL,
  factor     TEXT,
  level      TEXT,
  read_at    REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS fact_sets_session ON fact_sets(session_id);
CREATE TABLE IF NOT EXISTS fact_values (
  set_id INTEGER NOT NULL REFERENCES fact_sets(id) ON DELETE CASCADE,
  key    TEXT NOT NULL,
  value  TEXT NOT NULL,
  PRIMARY KEY (set_id, key)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS run_facts (
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  host   TEXT NOT NULL,
  set_id INTEGER NOT NULL REFERENCES fact_sets(id),
  PRIMARY KEY (run_id, host)
) WITHOUT ROWID;
INSERT INTO fact_sets(session_id, host, cause, read_at)
  SELECT DISTINCT f.session_id, f.host, 'migrated', s.started_at
  FROM host_facts f JOIN sessions s ON s.id = f.session_id
  WHERE NOT EXISTS (SELECT 1 FROM fact_sets x WHERE x.session_id =
                    f.session_id AND x.host = f.host);
INSERT OR IGNORE INTO fact_values(set_id, key, value)
  SELECT fs.id, f.key, f.value FROM host_facts f
  JOIN fact_sets fs ON fs.session_id = f.session_id AND fs.host = f.host
   AND fs.cause = 'migrated'
  WHERE f.value IS NOT NULL AND f.rowid = (SELECT max(g.rowid) FROM
        host_facts g WHERE g.session_id = f.session_id AND g.host = f.host
        AND g.key = f.key AND g.value IS NOT NULL);
