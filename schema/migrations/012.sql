-- Version 12 (from 11): every attempt of a run. `xrun run` retries failed
-- and timed-out runs in their places (schema/plan.md, `retry`); the runs
-- row holds the latest attempt, run_attempts one row per attempt that
-- ended (schema/store.md, "run_attempts"). An older store's runs get the
-- row of their last attempt (the earlier ones were not kept).
-- runner/store/store.c has this text as migration 12, schema/store.sql the
-- same table for new stores.
CREATE TABLE IF NOT EXISTS run_attempts (
  run_id      INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  attempt     INTEGER NOT NULL,
  status      TEXT NOT NULL,
  started_at  REAL,
  ended_at    REAL,
  elapsed     REAL,
  exit_code   INTEGER,
  reason      TEXT,
  PRIMARY KEY (run_id, attempt)
);
INSERT OR IGNORE INTO run_attempts(run_id, attempt, status, started_at,
  ended_at, elapsed, exit_code, reason)
  SELECT id, attempts, status, started_at, ended_at, elapsed, exit_code,
  reason FROM runs WHERE attempts > 0 AND status NOT IN ('pending',
  'running');
