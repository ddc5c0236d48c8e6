-- Version 5 (from 4): the repetition sizing decision of each cell of a
-- session (repeat: { min, max, precision }): the pilot's size and log-scale
-- mean and sd, the runs the precision needs, the runs frozen for it, and,
-- once the session stops, the runs done, the precision reached and why it
-- stopped (runner/store/store.c has this text as migration 5;
-- schema/store.sql the same table for new stores). Version 3 is reserved
-- for the conditions/merge change being made in parallel; the lead may
-- renumber.
CREATE TABLE IF NOT EXISTS sizing (
  session_id  INTEGER NOT NULL REFERENCES sessions(id),
  cell_index  INTEGER NOT NULL,  -- index in the expanded matrix
  block       INTEGER NOT NULL,  -- manual block its runs belong to
  cell        TEXT NOT NULL,     -- JSON object factor -> level
  metric      TEXT NOT NULL,     -- the metric the precision is about
  pilot_n     INTEGER NOT NULL,  -- successful pilot runs used
  pilot_mean  REAL,              -- mean of the pilot's log values
  pilot_sd    REAL,              -- their sample standard deviation
  precision   REAL NOT NULL,     -- target relative half-width (0.01 = 1%)
  need        INTEGER NOT NULL,  -- runs the precision needs (may pass max)
  planned     INTEGER NOT NULL,  -- runs frozen for the cell (<= max)
  max         INTEGER NOT NULL,
  decided_at  REAL NOT NULL,
  runs_done   INTEGER,           -- filled when the session stops
  reached     REAL,              -- relative half-width reached
  stopped     TEXT,              -- planned | max | interrupted
  PRIMARY KEY (session_id, cell_index)
);
