-- control.sqlite: the project's history. Never rotated; rows are only ever
-- appended: triggers refuse UPDATE and DELETE on every table.
-- Version 2 adds the drift ledger (drift_entry, drift_ack, drift_archive,
-- stale_edge); every statement is idempotent, so running this file on a
-- version 1 database is the migration.
CREATE TABLE IF NOT EXISTS rev_history (
  rev            TEXT PRIMARY KEY,   -- rev-0007
  seq            INTEGER NOT NULL UNIQUE,
  created_at     TEXT NOT NULL,      -- RFC 3339, UTC
  corpus_hash    TEXT NOT NULL,
  config_hash    TEXT NOT NULL,
  git_head       TEXT NOT NULL,
  ragraf_version TEXT NOT NULL,
  files          INTEGER NOT NULL,
  nodes          INTEGER NOT NULL,
  edges          INTEGER NOT NULL,
  capability     TEXT NOT NULL,      -- JSON
  parent_rev     TEXT NOT NULL       -- the revision current when this one was built; "" for the first
);

-- a rotated revision's store directory was removed; its history row stays
CREATE TABLE IF NOT EXISTS rev_rotation (
  rev        TEXT PRIMARY KEY,
  removed_at TEXT NOT NULL
);

CREATE TRIGGER IF NOT EXISTS rev_history_no_update BEFORE UPDATE ON rev_history
BEGIN SELECT RAISE(ABORT, 'rev_history is append-only'); END;
CREATE TRIGGER IF NOT EXISTS rev_history_no_delete BEFORE DELETE ON rev_history
BEGIN SELECT RAISE(ABORT, 'rev_history is append-only'); END;

CREATE TRIGGER IF NOT EXISTS rev_rotation_no_update BEFORE UPDATE ON rev_rotation
BEGIN SELECT RAISE(ABORT, 'rev_rotation is append-only'); END;
CREATE TRIGGER IF NOT EXISTS rev_rotation_no_delete BEFORE DELETE ON rev_rotation
BEGIN SELECT RAISE(ABORT, 'rev_rotation is append-only'); END;

-- one difference between a revision and the working tree (ARCHITECTURE.md §8)
CREATE TABLE IF NOT EXISTS drift_entry (
  seq          INTEGER PRIMARY KEY AUTOINCREMENT,  -- detection order
  id           TEXT NOT NULL UNIQUE,   -- d-<hash of dedup_key>
  revision     TEXT NOT NULL,          -- the revision it was recorded against
  method       TEXT NOT NULL,          -- compare | git-diff | hook:session-start | manual | db-schema-diff
  kind         TEXT NOT NULL,          -- add | modify | delete | rename | slice_boundary | schema_change | note
  path         TEXT NOT NULL,
  old_path     TEXT NOT NULL,          -- the path before a rename; "" otherwise
  lines        TEXT NOT NULL,          -- JSON [[start,end],...] against the indexed snapshot
  nodes        TEXT NOT NULL,          -- JSON array of affected node ids
  note         TEXT NOT NULL,
  content_hash TEXT NOT NULL,          -- sha256 of the file when detected; "" when absent
  detected_at  TEXT NOT NULL,          -- RFC 3339, UTC
  dedup_key    TEXT NOT NULL UNIQUE    -- same delta, same key, whatever the method
);
CREATE INDEX IF NOT EXISTS drift_entry_rev ON drift_entry(revision, path);

CREATE TABLE IF NOT EXISTS drift_ack (
  seq      INTEGER PRIMARY KEY AUTOINCREMENT,
  entry_id TEXT NOT NULL REFERENCES drift_entry(id),
  note     TEXT NOT NULL,
  acked_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS drift_ack_entry ON drift_ack(entry_id);

-- the ledger of a revision, copied when the next revision was committed
CREATE TABLE IF NOT EXISTS drift_archive (
  from_rev    TEXT NOT NULL,
  to_rev      TEXT NOT NULL,
  entry_id    TEXT NOT NULL,
  entry       TEXT NOT NULL,           -- JSON of the entry with its acknowledgements
  report      TEXT NOT NULL,           -- archive report path relative to .ragraf
  archived_at TEXT NOT NULL,
  PRIMARY KEY (to_rev, entry_id)
);

-- edges of a revision whose evidence line or endpoints a drift entry touches
CREATE TABLE IF NOT EXISTS stale_edge (
  revision    TEXT NOT NULL,
  edge_id     TEXT NOT NULL,
  entry_id    TEXT NOT NULL,
  reason      TEXT NOT NULL,           -- evidence | endpoint
  recorded_at TEXT NOT NULL,
  PRIMARY KEY (revision, edge_id, entry_id)
);

CREATE TRIGGER IF NOT EXISTS drift_entry_no_update BEFORE UPDATE ON drift_entry
BEGIN SELECT RAISE(ABORT, 'drift_entry is append-only'); END;
CREATE TRIGGER IF NOT EXISTS drift_entry_no_delete BEFORE DELETE ON drift_entry
BEGIN SELECT RAISE(ABORT, 'drift_entry is append-only'); END;
CREATE TRIGGER IF NOT EXISTS drift_ack_no_update BEFORE UPDATE ON drift_ack
BEGIN SELECT RAISE(ABORT, 'drift_ack is append-only'); END;
CREATE TRIGGER IF NOT EXISTS drift_ack_no_delete BEFORE DELETE ON drift_ack
BEGIN SELECT RAISE(ABORT, 'drift_ack is append-only'); END;
CREATE TRIGGER IF NOT EXISTS drift_archive_no_update BEFORE UPDATE ON drift_archive
BEGIN SELECT RAISE(ABORT, 'drift_archive is append-only'); END;
CREATE TRIGGER IF NOT EXISTS drift_archive_no_delete BEFORE DELETE ON drift_archive
BEGIN SELECT RAISE(ABORT, 'drift_archive is append-only'); END;
CREATE TRIGGER IF NOT EXISTS stale_edge_no_update BEFORE UPDATE ON stale_edge
BEGIN SELECT RAISE(ABORT, 'stale_edge is append-only'); END;
CREATE TRIGGER IF NOT EXISTS stale_edge_no_delete BEFORE DELETE ON stale_edge
BEGIN SELECT RAISE(ABORT, 'stale_edge is append-only'); END;

-- INSERT OR REPLACE would delete the row it replaces: a known entry is kept instead
CREATE TRIGGER IF NOT EXISTS drift_entry_no_replace BEFORE INSERT ON drift_entry
WHEN EXISTS (SELECT 1 FROM drift_entry WHERE id = NEW.id OR dedup_key = NEW.dedup_key)
BEGIN SELECT RAISE(IGNORE); END;
