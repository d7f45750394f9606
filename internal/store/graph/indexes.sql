-- Secondary indexes of graph.sqlite, created by Writer.Close after the bulk
-- inserts: building an index once from sorted data is far cheaper than
-- updating it on every insert.
CREATE INDEX node_qname ON node(qname_lower);
CREATE INDEX node_name ON node(name_lower);
CREATE INDEX node_path ON node(path, start_line);
CREATE INDEX node_parent ON node(parent);
CREATE INDEX edge_src ON edge(src, kind);
-- edge_dst covers what walks backwards over edges read (EdgeLinksToAny), so
-- callers and impact read no table row per edge.
CREATE INDEX edge_dst ON edge(dst, kind, src, provenance, confidence, evidence_path, evidence_line);
CREATE INDEX edge_evidence ON edge(evidence_path, evidence_line);
CREATE INDEX unresolved_path ON unresolved(evidence_path);
