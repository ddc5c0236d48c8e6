-- xrun store schema, version 10 (PRAGMA user_version = 10; migration 1 runs
-- this whole file, later ones add their tables: schema/migrations).
-- One SQLite file per plan by default (./<plan name>.db). WAL mode.
-- Values are in SI base units (throughput in bit/s, time in s, bytes in B).
-- Times are Unix epoch seconds (REAL, UTC).
-- Migrations: schema/migrations/NNN.sql upgrades from user_version NNN-1.

CREATE TABLE IF NOT EXISTS plans (
  id          INTEGER PRIMARY KEY,
  name        TEXT NOT NULL,
  title       TEXT,
  path        TEXT,            -- file it was read from
  hash        TEXT NOT NULL,   -- sha256 of the plan file bytes
  text        TEXT NOT NULL,   -- the plan file as read
  created_at  REAL NOT NULL,
  UNIQUE (hash)
);

-- One session = one schedule of runs; resuming continues a session.
CREATE TABLE IF NOT EXISTS sessions (
  id           INTEGER PRIMARY KEY,
  plan_id      INTEGER NOT NULL REFERENCES plans(id),
  cells_hash   TEXT NOT NULL,  -- hash of factors/levels/exclusions/repeat/
                               -- order/seed: what changes the runs
  cells_desc   TEXT,           -- JSON of what cells_hash covers, so that
                               -- a changed plan can say what changed
  started_at   REAL NOT NULL,
  updated_at   REAL NOT NULL,
  ended_at     REAL,           -- NULL while unfinished
  xrun_version TEXT NOT NULL,
  argv         TEXT,           -- JSON array of the xrun command line
  status       TEXT NOT NULL DEFAULT 'running' -- running|done|interrupted|incomplete
);

-- How many runs each session's schedule holds (schema version 6). The
-- schedule itself is not stored: it is a pure function of the plan and
-- the session's cells_desc (xrun builds it again to resume).
CREATE TABLE IF NOT EXISTS schedules (
  session_id INTEGER PRIMARY KEY REFERENCES sessions(id),
  runs       INTEGER NOT NULL
);

-- Scheduled runs, inserted 'pending' and updated in place (one row per
-- scheduled run: never executed twice). Rows are inserted in schedule
-- order, in batches, as the session reaches them (the first batch when it
-- starts): at any time a session's rows are the positions 0 .. k-1 of its
-- schedule, and the schedules.runs - k runs without a row are pending.
-- A small session has all its rows from the start.
CREATE TABLE IF NOT EXISTS runs (
  id           INTEGER PRIMARY KEY,
  session_id   INTEGER NOT NULL REFERENCES sessions(id),
  position     INTEGER NOT NULL,  -- 0-based index in execution order
  block        INTEGER NOT NULL,  -- manual block
  block_pos    INTEGER NOT NULL,  -- 0-based position within the block
  pass         INTEGER NOT NULL,  -- 0-based pass within the block
  rep          INTEGER NOT NULL,  -- 1-based repetition; 0 = warm-up
  warmup       INTEGER NOT NULL DEFAULT 0,
  cell_index   INTEGER NOT NULL,  -- index in the expanded matrix
  cell         TEXT NOT NULL,     -- JSON object factor -> level
  status       TEXT NOT NULL DEFAULT 'pending',
               -- pending|running|ok|failed|timeout|interrupted|skipped
  attempts     INTEGER NOT NULL DEFAULT 0,
  started_at   REAL,
  ended_at     REAL,
  elapsed      REAL,
  exit_code    INTEGER,
  reason       TEXT,              -- why it failed / was skipped
  engine       TEXT,              -- engine type
  argv         TEXT,              -- JSON array actually executed
  target       TEXT,
  params       TEXT,              -- JSON object of effective engine params
  stdout       TEXT,              -- raw engine output (iperf3 -J JSON)
  stderr       TEXT,
  verified     INTEGER,           -- 1 all ok, 0 a mismatch, NULL none
  UNIQUE (session_id, position)
);
CREATE INDEX IF NOT EXISTS runs_session_status ON runs(session_id, status);
CREATE INDEX IF NOT EXISTS sessions_plan ON sessions(plan_id);

CREATE TABLE IF NOT EXISTS metrics (
  run_id  INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  name    TEXT NOT NULL,   -- throughput, sender_throughput, retransmits,
                           -- cpu_host, cpu_remote, jitter, lost_percent ...
  value   REAL NOT NULL,   -- SI base unit
  unit    TEXT NOT NULL,   -- bit/s, s, B, 1, % ...
  PRIMARY KEY (run_id, name)
);

-- Per-interval series of the primary metric inside a run.
CREATE TABLE IF NOT EXISTS intervals (
  run_id  INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  seq     INTEGER NOT NULL,
  t_start REAL NOT NULL,
  t_end   REAL NOT NULL,
  value   REAL NOT NULL,
  PRIMARY KEY (run_id, seq)
);

-- Settings observed by the engine (e.g. congestion actually used).
CREATE TABLE IF NOT EXISTS observed (
  run_id  INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  key     TEXT NOT NULL,
  value   TEXT,
  PRIMARY KEY (run_id, key)
);

-- Verification of each factor's setting, for every run.
CREATE TABLE IF NOT EXISTS verifications (
  run_id    INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  factor    TEXT NOT NULL,
  host      TEXT NOT NULL,
  method    TEXT NOT NULL,   -- probe:<name> | run | engine (observed)
  expected  TEXT,
  actual    TEXT,
  ok        INTEGER NOT NULL,
  PRIMARY KEY (run_id, factor, host)
);

-- Counter deltas (after - before) per run and host.
CREATE TABLE IF NOT EXISTS counters (
  run_id  INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  host    TEXT NOT NULL,
  scope   TEXT NOT NULL,  -- nic (sysfs statistics), ethtool, tcp, cpu,
                          -- softirq, capture
  name    TEXT NOT NULL,  -- rx_dropped, rx_flow_control_xoff, RetransSegs,
                          -- busy_max_pct, busy_avg_pct, cpu3_busy_pct,
                          -- NET_RX, tcpdump ...
  value   REAL NOT NULL,
  PRIMARY KEY (run_id, host, scope, name)
);

-- Hook executions (apply / verify / restore / manual), for the record.
CREATE TABLE IF NOT EXISTS hooks (
  id         INTEGER PRIMARY KEY,
  session_id INTEGER NOT NULL REFERENCES sessions(id),
  run_id     INTEGER,         -- run about to start, if any
  factor     TEXT NOT NULL,
  host       TEXT NOT NULL,
  kind       TEXT NOT NULL,   -- apply|verify|restore|capture|manual|wait
  level      TEXT,
  argv       TEXT,
  exit_code  INTEGER,
  stdout     TEXT,
  stderr     TEXT,
  at         REAL NOT NULL
);

-- The value a factor's setting had on a host before the session first
-- changed it (restore: true); a resumed session restores this one.
CREATE TABLE IF NOT EXISTS originals (
  session_id  INTEGER NOT NULL REFERENCES sessions(id),
  factor      TEXT NOT NULL,
  host        TEXT NOT NULL,
  value       TEXT NOT NULL,
  captured_at REAL NOT NULL,
  PRIMARY KEY (session_id, factor, host)
);

-- A stable key per session (version 4): the same session merged twice
-- from another store (xrun merge) is recognised by it.
CREATE TABLE IF NOT EXISTS session_keys (
  session_id INTEGER PRIMARY KEY REFERENCES sessions(id),
  uuid       TEXT NOT NULL UNIQUE   -- 32 hex digits, random
);

-- The 1-minute load average of the machine running xrun (the controller)
-- when each run ended, and its number of online CPUs (version 4).
CREATE TABLE IF NOT EXISTS run_load (
  run_id INTEGER PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE,
  load1  REAL NOT NULL,
  cpus   INTEGER NOT NULL
);

-- Host facts, per session and host; every value seen is kept (a host may
-- be read again in a later invocation of the session: schema version 3).
CREATE TABLE IF NOT EXISTS host_facts (
  session_id INTEGER NOT NULL REFERENCES sessions(id),
  host       TEXT NOT NULL,
  key        TEXT NOT NULL,  -- hostname, os_release, kernel, cpu_model,
                             -- cpu_count, mem_bytes, nic_driver,
                             -- nic_firmware, nic_link, iperf3_version,
                             -- xrun_version, plan_hash
  value      TEXT,
  PRIMARY KEY (session_id, host, key, value)
);

-- One row per (run, metric); a run with no metric has one row with
-- metric NULL. Pending and running runs are not results.
CREATE VIEW IF NOT EXISTS results AS
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
WHERE r.status IN ('ok', 'failed', 'timeout', 'interrupted', 'skipped');

-- Repetition sizing: one row per session and cell (schema/store.md).
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

-- Version 7 (from 6): the time series observed during each run (the
-- sampler's counters and levels on every host, the engine's intervals),
-- its points packed as JSON arrays of [t, value] pairs: t in seconds from
-- the engine's start (to the millisecond; the idle lead-in has t < 0),
-- value in `unit`, null when not a number. Read it through the view series.
-- Version 8 (from 7): written during the run too. While a run is in
-- flight its samplers' points are appended every 2 s as chunks 1, 2 ...
-- (each chunk's points follow the previous chunk's); when the run is
-- stored, its attempt's chunks are replaced by one row, chunk 0. attempt
-- is runs.attempts of the attempt that wrote the row: a run redone after
-- a SIGKILL keeps the killed attempt's rows beside the redo's, and the
-- view series shows only the run's current attempt.
CREATE TABLE IF NOT EXISTS series_data (
  run_id  INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  attempt INTEGER NOT NULL DEFAULT 0, -- runs.attempts when written
  chunk   INTEGER NOT NULL DEFAULT 0, -- 0: the whole run; 1.. in flight
  host    TEXT NOT NULL,     -- the plan's host label
  name    TEXT NOT NULL,     -- nic.rx_bytes, cpu.3.busy, engine.throughput ...
  unit    TEXT NOT NULL,     -- B, bit/s, %, 1 ...
  n       INTEGER NOT NULL,  -- number of points
  points  TEXT NOT NULL,     -- JSON [[t, value], ...] in time order
  PRIMARY KEY (run_id, attempt, host, name, chunk)
);
-- Why sampling stopped early during a run ("sampler on 'server' died:
-- ..."), for the runs where it did.
CREATE TABLE IF NOT EXISTS series_notes (
  run_id  INTEGER PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE,
  note    TEXT NOT NULL
);
-- One row per point of every series of each run's current attempt.
CREATE VIEW IF NOT EXISTS series AS
SELECT d.run_id AS run_id, d.host AS host, d.name AS name, d.unit AS unit,
       json_extract(p.value, '$[0]') AS t,
       json_extract(p.value, '$[1]') AS value
FROM series_data d JOIN runs r ON r.id = d.run_id AND d.attempt = r.attempts,
     json_each(d.points) p;

-- Version 8: a run whose stdout passed xrun's output cap (16 MiB), ok or
-- not: the cap and the bytes kept (the rest was read and dropped), so that
-- a report marks an ok run whose values come from a cut output.
CREATE TABLE IF NOT EXISTS output_cut (
  run_id  INTEGER PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE,
  cap     INTEGER NOT NULL,  -- bytes
  kept    INTEGER NOT NULL   -- bytes of stdout stored
);

-- Version 9 (from 8): the runs each sizing decision read (schema/store.md).
CREATE TABLE IF NOT EXISTS sizing_runs (
  run_id  INTEGER PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE,
  block   INTEGER NOT NULL   -- the block whose decision read the run
);

-- A shard's manifest (version 10): `xrun run --shard K/N` ran only the
-- units of shard K of N (runner/sched/shard.h) in this session. assign
-- is the whole plan's assignment, one [block, pass0, npass, shard] a unit in
-- schedule order (a unit: a block, or a pair of mirrored passes of one),
-- the same in every shard's row, so that a merge names a missing shard's
-- blocks and refuses shards cut differently; blocks the blocks this shard
-- runs (part of); testbed its hosts ("label=identity, ...": the machine's
-- hostname, a namespace, an ssh address), which the report keeps apart.
CREATE TABLE IF NOT EXISTS shards (
  session_id INTEGER PRIMARY KEY REFERENCES sessions(id),
  k          INTEGER NOT NULL,  -- 1-based
  n          INTEGER NOT NULL,
  units      INTEGER NOT NULL,  -- units of the whole schedule
  assign     TEXT NOT NULL,     -- JSON [[block, pass0, npass, shard], ...]
  blocks     TEXT NOT NULL,     -- JSON array
  testbed    TEXT NOT NULL
);
