-- Version 2 (from 1): the original values of settings changed with
-- restore: true, kept per session so that a resumed session restores the
-- value found before its first change (runner/store/store.c has this text
-- as migration 2; schema/store.sql the same table for new stores).
CREATE TABLE IF NOT EXISTS originals (
  session_id  INTEGER NOT NULL REFERENCES sessions(id),
  factor      TEXT NOT NULL,
  host        TEXT NOT NULL,
  value       TEXT NOT NULL,
  captured_at REAL NOT NULL,
  PRIMARY KEY (session_id, factor, host)
);
