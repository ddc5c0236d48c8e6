-- Version 9 (from 8): the runs a sizing decision read (repeat: { min,
-- max, precision }): each cell's first successful pilot runs, whose
-- within-decision spread the verdict leaves out of its variance
-- (schema/report.md, "Sized comparisons"; runner/store/store.c has this
-- text as migration 9, schema/store.sql the same table for new stores).
CREATE TABLE IF NOT EXISTS sizing_runs (
  run_id  INTEGER PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE,
  block   INTEGER NOT NULL   -- the block whose decision read the run
);
