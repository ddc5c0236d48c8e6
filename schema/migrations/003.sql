-- Version 3 (from 2): host facts keep every value seen in a session. A session run
-- in halves (an --only per OS, a host rebooted into another OS) collects
-- a host's facts more than once; a later value that differs is added
-- beside the earlier one instead of replacing it.
CREATE TABLE host_facts_v2 (
  session_id INTEGER NOT NULL REFERENCES sessions(id),
  host       TEXT NOT NULL,
  key        TEXT NOT NULL,
  value      TEXT,
  PRIMARY KEY (session_id, host, key, value)
);
INSERT OR IGNORE INTO host_facts_v2 (session_id, host, key, value)
  SELECT session_id, host, key, value FROM host_facts;
DROP TABLE host_facts;
ALTER TABLE host_facts_v2 RENAME TO host_facts;
