-- Version 11 (from 10): rate searches (schema/plan.md, "Rate search"). A
-- search is one scheduled run; each of its trials is a run of its own in
-- `runs` (same session, cell, block and repetition) at a negative position
-- (-1, -2 ... in the order the session's trials were made), and a row
-- here links it to its search with what the search asked and read. The
-- view results leaves trials out (it is the scheduled runs); read them
-- through this table (schema/store.md). runner/store/store.c has this text
-- as migration 11, schema/store.sql the same for new stores.
CREATE TABLE IF NOT EXISTS trials (
  run_id    INTEGER PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE,
  search_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  seq       INTEGER NOT NULL,  -- 1-based: the search's trials in order
  goal      TEXT NOT NULL,     -- the goal the trial was run for
  load      REAL NOT NULL,     -- offered load (bit/s for bitrate)
  duration  REAL NOT NULL,     -- trial duration asked, s
  loss      REAL,              -- loss ratio; NULL until it ended ok
  UNIQUE (search_id, seq)
);
DROP VIEW IF EXISTS results;
CREATE VIEW results AS
SELECT p.name        AS plan,
       r.session_id  AS session,
       r.id          AS run_id,
       r.cell        AS cell,
       r.rep         AS rep,
       r.position    AS position,
       r.block       AS block,
       r.warmup      AS warmup,
       r.started_at  AS started_at,
       r.status      AS status,
       m.name        AS metric,
       m.value       AS value,
       m.unit        AS unit,
       r.verified    AS verified,
       r.reason      AS reason
FROM runs r
JOIN sessions s ON s.id = r.session_id
JOIN plans p ON p.id = s.plan_id
LEFT JOIN metrics m ON m.run_id = r.id
WHERE r.status IN ('ok', 'failed', 'timeout', 'interrupted', 'skipped')
  AND r.position >= 0;
