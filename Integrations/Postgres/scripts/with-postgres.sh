#!/usr/bin/env bash
# Runs a command with a private PostgreSQL cluster: initdb into a temporary folder, pg_ctl on a
# loopback port, the connection in SECTIONKIT_PG_HOST / _PORT / _USER / _DATABASE, and
# SECTIONKIT_PG_DATA and SECTIONKIT_PG_CTL for tests that restart it. The cluster is always
# stopped and removed at the end, whatever the command does; the command's status is returned.
#
#   Integrations/Postgres/scripts/with-postgres.sh swift test --package-path Integrations/Postgres
#
# PostgreSQL refuses to run as root: as root (CI), the cluster runs as the `postgres` user.
set -euo pipefail
bin=${SECTIONKIT_PG_BIN:-/usr/lib/postgresql/15/bin}
dir=$(mktemp -d /tmp/sectionkit-pg.XXXXXX)
chmod 755 "$dir"
as_db=()
if [ "$(id -u)" = 0 ]; then
  chown postgres "$dir"
  as_db=(runuser -u postgres --)
fi
port=${SECTIONKIT_PG_PORT:-$((20000 + RANDOM % 20000))}
stop() {
  "${as_db[@]}" "$bin/pg_ctl" -D "$dir/data" -m immediate stop > /dev/null 2>&1 || true
  rm -rf "$dir"
}
trap stop EXIT
"${as_db[@]}" "$bin/initdb" -D "$dir/data" -A trust -U sk > "$dir/initdb.log" 2>&1 \
  || { cat "$dir/initdb.log" >&2; exit 1; }
"${as_db[@]}" "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w \
  -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c max_connections=200 -c fsync=on" start > /dev/null \
  || { cat "$dir/server.log" >&2; exit 1; }
export SECTIONKIT_PG_HOST=127.0.0.1 SECTIONKIT_PG_PORT=$port SECTIONKIT_PG_USER=sk
export SECTIONKIT_PG_DATABASE=postgres SECTIONKIT_PG_DATA=$dir/data
export SECTIONKIT_PG_CTL="${as_db[*]} $bin/pg_ctl"
status=0
"$@" || status=$?
exit $status
