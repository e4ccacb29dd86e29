#!/usr/bin/env bash
# Runs a command with a throw-away PostgreSQL cluster (initdb + pg_ctl on a Unix socket in a temporary directory, as the
# `postgres` user when run as root), its URL in TRACEMILL_DATABASE_URL; the cluster is removed afterwards.
#   bench/server/with-postgres.sh node bench/server/scale-out-bench.mjs claims
set -euo pipefail
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
[ -x "$bin/initdb" ] || { echo "PostgreSQL is not installed (scripts/setup.sh --for test)" >&2; exit 2; }
dir=$(mktemp -d /tmp/tracemill-bench-pg.XXXXXX)
as_pg=()
if [ "$(id -u)" = 0 ]; then chown postgres: "$dir"; as_pg=(runuser -u postgres --); fi
port=$((20000 + RANDOM % 40000))
"${as_pg[@]}" "$bin/initdb" -D "$dir/data" -U tracemill --auth=trust --no-sync --no-locale -E UTF8 >/dev/null
"${as_pg[@]}" "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w start \
  -o "-k $dir -p $port -c listen_addresses= -c max_connections=200" >/dev/null
trap '"${as_pg[@]}" "$bin/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null; rm -rf "$dir"' EXIT
"${as_pg[@]}" "$bin/createdb" -h "$dir" -p "$port" -U tracemill bench
export TRACEMILL_DATABASE_URL="postgres://tracemill@localhost/bench?host=$dir&port=$port"
"$@"
