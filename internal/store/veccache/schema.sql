-- The vector cache (internal/store/veccache): one row per (model, text).
CREATE TABLE vec (
  model TEXT NOT NULL, -- the model's id: its name and the sha256 prefix of its weights
  hash  BLOB NOT NULL, -- sha256 of the embedded text
  v     BLOB NOT NULL, -- float32 little-endian
  PRIMARY KEY (model, hash)
) WITHOUT ROWID;
