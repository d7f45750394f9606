// This file holds the commented project.yaml that `ragraf init` writes. Every
// option appears with its default; config_test.go checks Parse(Template())
// equals Default().

package config

// Template returns the full project.yaml with every option at its default value.
func Template() []byte {
	return []byte(template)
}

const template = `# ragraf project configuration.
# Paths and globs are relative to the project root and use / as separator.
# Globs follow doublestar syntax: * matches within one directory, ** across
# directories, {a,b} alternatives, [abc] character classes. A glob without "/"
# matches a file or directory name at any depth; a glob with "/" matches the
# path from the project root.

# Languages to index. Allowed: php, markdown, sql, twig, blade, javascript,
# typescript, python, go, java, csharp, ruby, rust, c, cpp, bash, kotlin,
# scala, lua.
languages: ["php", "markdown", "sql", "twig", "blade"]

# Files to consider. Default: everything under the root.
include: ["**"]

# Extra files or directories to skip, e.g. ["tests/fixtures/**", "*.min.js"].
# These are always skipped and cannot be re-included: .git/ .ragraf/ vendor/
# node_modules/ *.log *_bak* *.bak and coding-assistant files (.claude/
# .cursor/ .aider* .codex/ .continue/ .windsurf/ .roo/ .cline/ .gemini/ .zed/
# CLAUDE.local.md).
exclude: []

# Files that are never opened because they usually hold credentials. Secrets
# inside indexed files (wp-config.php, say) are redacted instead. Replacing
# this list drops the defaults, so keep the ones you still need.
secrets_exclude:
  - ".env"
  - ".env.*"
  - "*.pem"
  - "*.key"
  - "id_rsa*"
  - "id_dsa*"
  - "id_ecdsa*"
  - "id_ed25519*"
  - "credentials*"
  - "secrets.*"
  - "*.p12"
  - "*.pfx"
  - "*.keystore"
  - ".htpasswd"
  - "auth.json"
  - ".npmrc"
  - ".pypirc"

# Files larger than this many bytes are listed but not parsed (1 to 1073741824).
max_file_size: 2097152

# Budget of one file's extraction: past this many syntax nodes visited
# (100000 to 1099511627776), or past this much memory for its syntax tree and
# the facts extracted from it (16 to 1048576 MB), the file is indexed as
# partial with the reason ("budget: work", "budget: memory") and the build goes
# on. Both count work done, not time, so a file gives one result on any
# machine. (max_file_ms, a wall-time budget, is still accepted and ignored.)
max_file_work: 20000000
max_file_memory_mb: 256

# Target size of a text chunk (docs, comments) in tokens (16 to 8192).
chunk_budget: 512

# How many revisions to keep under .ragraf/revs, the active one included (1 to 1000).
retain_revs: 3

# Skip files ignored by .gitignore files and .git/info/exclude (true or false).
respect_gitignore: true

# Memory budget of "ragraf index" and "reindex" in MB (16 to 1048576): the Go
# runtime's soft limit; under a tight budget fewer files are parsed at once
# and the static model trains on a smaller sample. A build over it runs
# slower, it does not fail.
max_memory_mb: 1024

database:
  # Live databases whose schema is read at index time. Each entry:
  #   - name: main            # unique name, used in answers
  #     driver: mysql         # mysql, mariadb, postgres or sqlite
  #     dsn: "user@tcp(localhost:3306)/shop"   # without the password
  #     password_env: DB_PASSWORD              # environment variable holding it
  sources: []
  # Table name prefixes stripped when matching SQL to tables, e.g. ["wp_"].
  table_prefixes: ["wp_"]
  # Globs of SQL schema files (CREATE TABLE ...) read as the database schema.
  schema_files: ["**/*.sql"]

dataflow:
  # Build control and data flow for slice and flow queries (true or false).
  enabled: true
  # Functions longer than this many lines are not analysed (1 to 1000000).
  max_function_lines: 2000
  # Memory for lowered functions, kept between queries and held by one query,
  # in MB (16 to 1048576); a query over it answers in part, marked truncated.
  max_memory_mb: 256
  # Default time budget of one slice or flow query in ms (1 to 10000).
  max_ms: 2000
  # Sources, sinks and sanitizers of your own, added to the shipped ones
  # (http_input; sql, output, shell, include, unserialize, file, code, ldap,
  # xpath). A name the binary has gains the entries; a new name is a new
  # model for flow's source:NAME / sink:NAME. Read at query time: no reindex needed.
  # models:
  #   sources:
  #     app_input:
  #       calls:
  #         - {function: my_get_param}
  #         - {method: param, receivers: [request]}
  #   sinks:
  #     sql:
  #       calls:
  #         - {method: raw_query, receivers: [db]}
  #   sanitizers:
  #     - {function: my_escape}

co_change:
  # Commits of the checked-out branch read at index time for impact's
  # co_changed block (files and definitions changed together); 0 reads none.
  # "ragraf reindex --commit" reads only the commits since the last index.
  commits: 2000
  # Commits touching more files than this are sweeping edits, skipped (2 to 100000).
  max_files: 30

embeddings:
  # Embedding model for vector search (search modes semantic and hybrid,
  # similar). "static:project", the default, trains a small model on the
  # project at index time (no files needed; about 21 % more build CPU on
  # WordPress, and "ragraf reindex --commit" reuses the previous revision's
  # model while few symbols changed; its measured quality is in
  # docs/accuracy.md). "none" (or "", as earlier versions of this file wrote)
  # means lexical search only. Any other name is an ONNX sentence model that
  # "ragraf model pull NAME" installed in the user's cache directory, run by
  # ONNX Runtime (--ort-lib, $RAGRAF_ORT_LIB or the system's), e.g.
  # model: "paraphrase-multilingual-MiniLM-L12-v2"
  model: "static:project"
  # Directory holding model.onnx and tokenizer.json instead of the cache.
  path: ""
  # Vector size of the model, e.g. 384; when set, checked (0 to 65536).
  dim: 0
`
