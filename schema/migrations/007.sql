-- Version 7 (from 6): the time series observed during each run (the
-- sampler's counters and levels on every host, the engine's intervals),
-- one row per run, host and series, its points packed as one JSON array
-- of [t, value] pairs: t in seconds from the engine's start (to the
-- millisecond; the idle lead-in has t < 0), value in `unit`, null when
-- not a number. Read it through the view series.
CREATE TABLE IF NOT EXISTS series_data (
  run_id  INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  host    TEXT NOT NULL,     -- the plan's host label
  name    TEXT NOT NULL,     -- nic.rx_bytes, cpu.3.busy, engine.throughput ...
  unit    TEXT NOT NULL,     -- B, bit/s, %, 1 ...
  n       INTEGER NOT NULL,  -- number of points
  points  TEXT NOT NULL,     -- JSON [[t, value], ...] in time order
  PRIMARY KEY (run_id, host, name)
);
-- Why sampling stopped early during a run ("sampler on 'server' died:
-- ..."), for the runs where it did.
CREATE TABLE IF NOT EXISTS series_notes (
  run_id  INTEGER PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE,
  note    TEXT NOT NULL
);
-- One row per point of every series, in time order.
CREATE VIEW IF NOT EXISTS series AS
SELECT d.run_id AS run_id, d.host AS host, d.name AS name, d.unit AS unit,
       json_extract(p.value, '$[0]') AS t,
       json_extract(p.value, '$[1]') AS value
FROM series_data d, json_each(d.points) p;
