#!/bin/sh
# Regenerates control-v1.sqlite: control.sqlite as schema version 1 wrote it
# (rev_history and rev_rotation only, one revision recorded).
set -eu
cd "$(dirname "$0")"
rm -f control-v1.sqlite
git show eea31d8:internal/store/control/schema.sql | sqlite3 control-v1.sqlite
sqlite3 control-v1.sqlite "INSERT INTO rev_history VALUES ('rev-0001',1,'2026-01-01T00:00:00Z','c','h','','',0,0,0,'{}',''); PRAGMA user_version = 1;"
