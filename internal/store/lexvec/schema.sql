-- lexvec.sqlite: prose and search indexes of one revision. Written once by a
-- build, then opened read-only.
CREATE TABLE chunk (
  id         TEXT PRIMARY KEY,
  node_id    TEXT NOT NULL,   -- the node the text describes; "" for the file alone
  kind       TEXT NOT NULL,   -- docblock | comment | doc_section
  path       TEXT NOT NULL,
  start_line INTEGER NOT NULL,
  end_line   INTEGER NOT NULL,
  text       TEXT NOT NULL
) WITHOUT ROWID;

-- full-text index over chunks; terms holds code-aware tokens (split camelCase,
-- snake_case and namespaces, plus the whole identifiers)
CREATE VIRTUAL TABLE chunk_fts USING fts5(terms, id UNINDEXED, tokenize = 'unicode61 remove_diacritics 2');

-- full-text index over symbols: name, qualified name and signature tokens
CREATE VIRTUAL TABLE symbol_fts USING fts5(name, qname, signature, id UNINDEXED, kind UNINDEXED, tokenize = 'unicode61 remove_diacritics 2');

CREATE TABLE meta (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
) WITHOUT ROWID;

-- the vector model of the revision (meta vector_model, vector_dim): one row
-- per word with its IDF weight and float32 vector (little-endian), and one per
-- symbol; written whole by every build that trains (a reindex that reuses the
-- parent's model changes only the rows of the symbols whose text changed)
CREATE TABLE word_vector (
  word   TEXT PRIMARY KEY,
  weight REAL NOT NULL,
  v      BLOB NOT NULL
) WITHOUT ROWID;

CREATE TABLE symbol_vector (
  id TEXT PRIMARY KEY,
  v  BLOB NOT NULL
) WITHOUT ROWID;
