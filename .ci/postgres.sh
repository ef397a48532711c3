#!/usr/bin/env bash
# A PostgreSQL server for the server tests: installs Debian's `postgresql` if it is missing,
# starts a cluster on 127.0.0.1:5432, creates the role and database `majiang` (password
# `majiang`, scram over TCP as Debian's default pg_hba allows), and prints on stdout the line
#   export MAJIANG_TEST_POSTGRES=postgresql+psycopg://majiang:majiang@127.0.0.1:5432/majiang
# Use it as:  eval "$(.ci/postgres.sh)"   (everything else goes to stderr).
# Needs root (or sudo) for apt-get and to act as the postgres user.
set -euo pipefail

PORT="${MAJIANG_PG_PORT:-5432}"
ROLE=majiang
PASSWORD=majiang
DB=majiang

log() { echo "postgres.sh: $*" >&2; }

as_root() {
    if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi
}

as_postgres() {
    if [ "$(id -un)" = postgres ]; then
        "$@"
    elif [ "$(id -u)" = 0 ]; then
        if command -v runuser >/dev/null 2>&1; then runuser -u postgres -- "$@"; else su postgres -s /bin/sh -c "$(printf '%q ' "$@")"; fi
    else
        sudo -u postgres "$@"
    fi
}

if ! ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1; then
    log "installing postgresql (apt-get)"
    as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >&2
fi

VERSION="$(ls /usr/lib/postgresql | sort -V | tail -n 1)"
BIN="/usr/lib/postgresql/$VERSION/bin"

if command -v pg_ctlcluster >/dev/null 2>&1; then
    if ! pg_lsclusters -h 2>/dev/null | awk '{print $1, $2}' | grep -qx "$VERSION main"; then
        log "creating cluster $VERSION/main"
        as_root pg_createcluster "$VERSION" main -p "$PORT" >&2
    fi
    if ! pg_lsclusters -h | awk -v v="$VERSION" '$1 == v && $2 == "main" {print $4}' | grep -q online; then
        log "starting cluster $VERSION/main"
        as_root pg_ctlcluster "$VERSION" main start >&2
    fi
    PORT="$(pg_lsclusters -h | awk -v v="$VERSION" '$1 == v && $2 == "main" {print $3}')"
else
    # No Debian wrappers: a private cluster under /tmp with plain pg_ctl.
    DATA=/tmp/majiang-pg
    if [ ! -f "$DATA/PG_VERSION" ]; then
        as_root mkdir -p "$DATA"
        as_root chown postgres "$DATA"
        as_postgres "$BIN/initdb" -D "$DATA" -A scram-sha-256 --pwfile=<(echo postgres) >&2
    fi
    if ! as_postgres "$BIN/pg_ctl" -D "$DATA" status >/dev/null 2>&1; then
        as_postgres "$BIN/pg_ctl" -D "$DATA" -l "$DATA/log" -w \
            -o "-p $PORT -c listen_addresses=127.0.0.1 -k /tmp" start >&2
    fi
fi

for _ in $(seq 1 30); do
    if "$BIN/pg_isready" -q -h 127.0.0.1 -p "$PORT"; then break; fi
    sleep 0.5
done
"$BIN/pg_isready" -h 127.0.0.1 -p "$PORT" >&2

psql_admin() { as_postgres "$BIN/psql" -p "$PORT" -v ON_ERROR_STOP=1 -qtA "$@"; }
if [ -z "$(psql_admin -c "SELECT 1 FROM pg_roles WHERE rolname = '$ROLE'")" ]; then
    log "creating role $ROLE"
    psql_admin -c "CREATE ROLE $ROLE LOGIN CREATEDB PASSWORD '$PASSWORD'" >&2
else
    psql_admin -c "ALTER ROLE $ROLE LOGIN CREATEDB PASSWORD '$PASSWORD'" >&2
fi
if [ -z "$(psql_admin -c "SELECT 1 FROM pg_database WHERE datname = '$DB'")" ]; then
    log "creating database $DB"
    psql_admin -c "CREATE DATABASE $DB OWNER $ROLE" >&2
fi

echo "export MAJIANG_TEST_POSTGRES=postgresql+psycopg://$ROLE:$PASSWORD@127.0.0.1:$PORT/$DB"
