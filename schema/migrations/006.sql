-- Version 6 (from 5): the size of each session's schedule. A session
-- with a schedules row may have rows in runs for a prefix of its schedule
-- only (positions 0 .. k-1): the others are pending, and their rows are
-- inserted as the session reaches them. A session without one has a row
-- for every scheduled run (stores written before version 6).
CREATE TABLE IF NOT EXISTS schedules (
  session_id INTEGER PRIMARY KEY REFERENCES sessions(id),
  runs       INTEGER NOT NULL  -- runs in the session's schedule
);
