-- Version 10 (from 9): a shard's manifest, one row a sharded session
-- (`xrun run --shard K/N`; schema/store.md, "shards"; runner/store/store.c
-- has this text as migration 10, schema/store.sql the same table for new
-- stores).
CREATE TABLE IF NOT EXISTS shards (
  session_id INTEGER PRIMARY KEY REFERENCES sessions(id),
  k          INTEGER NOT NULL,
  n          INTEGER NOT NULL,
  units      INTEGER NOT NULL,
  assign     TEXT NOT NULL,
  blocks     TEXT NOT NULL,
  testbed    TEXT NOT NULL
);
