-- Secondary indexes of lexvec.sqlite, created by Writer.Close after the bulk
-- inserts: building an index once from sorted data is far cheaper than
-- updating it on every insert.
CREATE INDEX chunk_node ON chunk(node_id);
CREATE INDEX chunk_path ON chunk(path, start_line);
