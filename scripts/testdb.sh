#!/usr/bin/env bash
# Starts MariaDB and PostgreSQL 15 on loopback for the integration tests of
# internal/extract/dbschema, without systemd, in a scratch directory.
#
#   scripts/testdb.sh start   install when absent, initialise, start, wait until ready
#   scripts/testdb.sh env     print RAGRAF_TEST_MYSQL_DSN='...' and RAGRAF_TEST_PG_DSN='...'
#                             (use: set -a; eval "$(scripts/testdb.sh env)"; set +a)
#   scripts/testdb.sh stop    stop both servers (by their pid files)
#
# Idempotent: start on running servers does nothing. The databases hold test
# data only; the root/postgres accounts have no password and listen on 127.0.0.1.
set -euo pipefail

DIR="${TMPDIR:-/tmp}/ragraf-testdb"
MY_PORT="${RAGRAF_TEST_MYSQL_PORT:-33306}"
PG_PORT="${RAGRAF_TEST_PG_PORT:-54329}"
PG_BIN=/usr/lib/postgresql/15/bin

install() {
	local need=()
	command -v mariadbd >/dev/null 2>&1 || need+=(mariadb-server)
	[ -x "$PG_BIN/pg_ctl" ] || need+=(postgresql-15)
	[ ${#need[@]} -eq 0 ] && return
	export DEBIAN_FRONTEND=noninteractive
	apt-get install -y -q "${need[@]}" >/dev/null || { apt-get update -q >/dev/null && apt-get install -y -q "${need[@]}" >/dev/null; }
}

my_running() { [ -f "$DIR/my/mariadbd.pid" ] && kill -0 "$(cat "$DIR/my/mariadbd.pid")" 2>/dev/null; }
pg_running() { [ -f "$DIR/pg/data/postmaster.pid" ] && kill -0 "$(head -1 "$DIR/pg/data/postmaster.pid")" 2>/dev/null; }

start_mariadb() {
	my_running && return
	mkdir -p "$DIR/my"
	if [ ! -d "$DIR/my/data/mysql" ]; then
		mariadb-install-db --no-defaults --user=root --datadir="$DIR/my/data" \
			--auth-root-authentication-method=normal --skip-test-db >"$DIR/my/install.log" 2>&1
	fi
	nohup mariadbd --no-defaults --user=root --datadir="$DIR/my/data" --socket="$DIR/my/mysql.sock" \
		--port="$MY_PORT" --bind-address=127.0.0.1 --pid-file="$DIR/my/mariadbd.pid" \
		--skip-name-resolve >"$DIR/my/server.log" 2>&1 &
	for _ in $(seq 1 100); do
		if mariadb --no-defaults -uroot -h127.0.0.1 -P"$MY_PORT" -e 'SELECT 1' >/dev/null 2>&1; then
			mariadb --no-defaults -uroot -h127.0.0.1 -P"$MY_PORT" -e 'CREATE DATABASE IF NOT EXISTS ragraf_test'
			return
		fi
		sleep 0.2
	done
	echo "mariadb did not start; see $DIR/my/server.log" >&2
	return 1
}

start_postgres() {
	pg_running && return
	mkdir -p "$DIR/pg"
	chown postgres "$DIR/pg"
	chmod 755 "$DIR"
	if [ ! -f "$DIR/pg/data/PG_VERSION" ]; then
		runuser -u postgres -- "$PG_BIN/initdb" -D "$DIR/pg/data" -U postgres --auth=trust >"$DIR/pg/initdb.log" 2>&1
	fi
	runuser -u postgres -- "$PG_BIN/pg_ctl" -D "$DIR/pg/data" -l "$DIR/pg/server.log" -w -t 30 \
		-o "-c listen_addresses=127.0.0.1 -c port=$PG_PORT -c unix_socket_directories=$DIR/pg" start >/dev/null
	if ! runuser -u postgres -- psql -h 127.0.0.1 -p "$PG_PORT" -U postgres -tAc \
		"SELECT 1 FROM pg_database WHERE datname='ragraf_test'" | grep -q 1; then
		runuser -u postgres -- psql -h 127.0.0.1 -p "$PG_PORT" -U postgres -qc 'CREATE DATABASE ragraf_test'
	fi
}

stop() {
	if my_running; then
		kill "$(cat "$DIR/my/mariadbd.pid")"
	fi
	if pg_running; then
		runuser -u postgres -- "$PG_BIN/pg_ctl" -D "$DIR/pg/data" -m fast stop >/dev/null
	fi
}

env_lines() {
	# Quoted for the shell: set -a; eval "$(scripts/testdb.sh env)"; set +a
	echo "RAGRAF_TEST_MYSQL_DSN='root@tcp(127.0.0.1:$MY_PORT)/ragraf_test'"
	echo "RAGRAF_TEST_PG_DSN='postgres://postgres@127.0.0.1:$PG_PORT/ragraf_test?sslmode=disable'"
}

case "${1:-}" in
start)
	[ "$(id -u)" -eq 0 ] || { echo "testdb.sh start needs root (apt-get, runuser)" >&2; exit 1; }
	install
	start_mariadb
	start_postgres
	;;
stop) stop ;;
env) env_lines ;;
*)
	echo "usage: $0 start|stop|env" >&2
	exit 2
	;;
esac
