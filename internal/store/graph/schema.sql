-- graph.sqlite: the structure of one revision. Written once by a build, then
-- opened read-only (mode=ro&immutable=1) for as long as the revision lives.
CREATE TABLE file (
  path    TEXT PRIMARY KEY,
  lang    TEXT NOT NULL,
  status  TEXT NOT NULL,   -- parsed | partial | failed | skipped
  reason  TEXT NOT NULL,   -- why partial, failed or skipped
  size    INTEGER NOT NULL,
  lines   INTEGER NOT NULL,
  hash    TEXT NOT NULL,   -- sha256 of the raw bytes; "" when never read
  mtime   INTEGER NOT NULL
) WITHOUT ROWID;

-- source snapshots as indexed (secrets redacted), served by `code` and diffed by drift
CREATE TABLE snapshot (
  path    TEXT PRIMARY KEY,
  content BLOB NOT NULL
) WITHOUT ROWID;

-- each PHP file lowered for slice and flow (dataflow.Encode), so a query decodes instead of parsing
CREATE TABLE dataflow (
  path    TEXT PRIMARY KEY,
  ir      BLOB NOT NULL
) WITHOUT ROWID;

-- each PHP file's data-flow summaries (dataflow.EncodeSummaries), which depend on other files' through calls
CREATE TABLE dfsummary (
  path    TEXT PRIMARY KEY,
  sum     BLOB NOT NULL
) WITHOUT ROWID;

CREATE TABLE node (
  id          TEXT PRIMARY KEY,
  kind        TEXT NOT NULL,
  name        TEXT NOT NULL,
  qname       TEXT NOT NULL,
  qname_lower TEXT NOT NULL,
  name_lower  TEXT NOT NULL,
  path        TEXT NOT NULL,
  start_line  INTEGER NOT NULL,
  end_line    INTEGER NOT NULL,
  lang        TEXT NOT NULL,
  parent      TEXT NOT NULL,
  signature   TEXT NOT NULL,
  props       TEXT NOT NULL    -- JSON object with sorted keys
) WITHOUT ROWID;

CREATE TABLE edge (
  id            TEXT PRIMARY KEY,
  kind          TEXT NOT NULL,
  src           TEXT NOT NULL,
  dst           TEXT NOT NULL,
  provenance    TEXT NOT NULL,  -- stated | derived
  confidence    REAL NOT NULL,
  evidence_path TEXT NOT NULL,
  evidence_line INTEGER NOT NULL,
  sources       TEXT NOT NULL,  -- comma-separated extractor names
  props         TEXT NOT NULL
) WITHOUT ROWID;

-- references that did not resolve to a node, kept visible (kind, name, path:line)
CREATE TABLE unresolved (
  id            TEXT PRIMARY KEY,
  kind          TEXT NOT NULL,
  name          TEXT NOT NULL,
  src           TEXT NOT NULL,
  evidence_path TEXT NOT NULL,
  evidence_line INTEGER NOT NULL,
  reason        TEXT NOT NULL
) WITHOUT ROWID;

CREATE TABLE meta (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
) WITHOUT ROWID;
