-- control.sqlite: the project's history. Never rotated; rows are only ever
-- appended. Later schema versions add the drift ledger tables.
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
