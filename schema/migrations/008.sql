-- Version 8 (from 7): series written during the run as chunks, each row
-- marked with the attempt that wrote it (schema/store.md, "series").
-- Rows of version 7 are whole runs (chunk 0) of the run's last attempt.
-- The view series shows only each run's current attempt.
DROP VIEW IF EXISTS series;
CREATE TABLE series_data_v8 (
  run_id  INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  attempt INTEGER NOT NULL DEFAULT 0,
  chunk   INTEGER NOT NULL DEFAULT 0,
  host    TEXT NOT NULL,
  name    TEXT NOT NULL,
  unit    TEXT NOT NULL,
  n       INTEGER NOT NULL,
  points  TEXT NOT NULL,
  PRIMARY KEY (run_id, attempt, host, name, chunk)
);
INSERT OR IGNORE INTO series_data_v8(run_id, attempt, chunk, host, name,
  unit, n, points)
SELECT d.run_id, COALESCE((SELECT r.attempts FROM runs r
  WHERE r.id = d.run_id), 0), 0, d.host, d.name, d.unit, d.n, d.points
FROM series_data d;
DROP TABLE series_data;
ALTER TABLE series_data_v8 RENAME TO series_data;
CREATE VIEW series AS
SELECT d.run_id AS run_id, d.host AS host, d.name AS name, d.unit AS unit,
       json_extract(p.value, '$[0]') AS t,
       json_extract(p.value, '$[1]') AS value
FROM series_data d JOIN runs r ON r.id = d.run_id AND d.attempt = r.attempts,
     json_each(d.points) p;
-- A run whose stdout passed xrun's output cap (16 MiB), ok or
-- not: the cap and the bytes kept (the rest was read and dropped), so that
-- a report marks an ok run whose values come from a cut output.
CREATE TABLE IF NOT EXISTS output_cut (
  run_id  INTEGER PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE,
  cap     INTEGER NOT NULL,  -- bytes
  kept    INTEGER NOT NULL   -- bytes of stdout stored
);
