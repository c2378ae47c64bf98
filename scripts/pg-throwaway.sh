#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for sortkey's tests and benchmarks: a new
# cluster in a temporary folder, owned by an unprivileged user (initdb
# refuses root), listening on a free loopback port only.
#
#   eval "$(bash scripts/pg-throwaway.sh start)"   # exports SORTKEY_PG_DIR and SORTKEY_PG_URL
#   bash scripts/pg-throwaway.sh stop "$SORTKEY_PG_DIR"
#   bash scripts/pg-throwaway.sh restart "$SORTKEY_PG_DIR"
#
# It installs Debian's postgresql package when no server is found and apt
# is available. The cluster keeps PostgreSQL's durable defaults (fsync and
# synchronous_commit on): sortkey acknowledges a write once PostgreSQL has.
set -euo pipefail

bindir() {
  local d
  for d in /usr/lib/postgresql/*/bin; do
    [ -x "$d/initdb" ] && { echo "$d"; return; }
  done
  command -v initdb >/dev/null 2>&1 && { dirname "$(command -v initdb)"; return; }
  return 1
}

install_server() {
  bindir >/dev/null 2>&1 && return
  command -v apt-get >/dev/null 2>&1 || { echo "no PostgreSQL server and no apt-get to install one" >&2; exit 1; }
  echo "installing postgresql from Debian" >&2
  export DEBIAN_FRONTEND=noninteractive
  { apt-get update -qq && apt-get install -y -qq postgresql >/dev/null; } >&2
}

# as runs a command as the cluster's owner: postgres when we are root.
as() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

. "$(dirname "$0")/bench-lib.sh" # free_port

start() {
  install_server
  local bin dir port
  bin=$(bindir)
  dir=$(mktemp -d /tmp/sortkey-pg.XXXXXX)
  [ "$(id -u)" = 0 ] && chown postgres: "$dir"
  as "$bin/initdb" -D "$dir/data" -U sortkey --auth=trust -E UTF8 --no-locale >/dev/null
  port=$(free_port)
  cat >>"$dir/data/postgresql.conf" <<CONF
listen_addresses = '127.0.0.1'
port = $port
unix_socket_directories = '$dir'
max_connections = 400
shared_buffers = 256MB
CONF
  as "$bin/pg_ctl" -D "$dir/data" -l "$dir/log" -w -t 60 start >/dev/null
  echo "$port" >"$dir/port"
  echo "export SORTKEY_PG_DIR=$dir SORTKEY_PG_URL=postgres://sortkey@127.0.0.1:$port/postgres"
}

stop() {
  local dir=${1:?cluster folder}
  as "$(bindir)/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null || true
  rm -rf "$dir"
}

restart() {
  local dir=${1:?cluster folder}
  as "$(bindir)/pg_ctl" -D "$dir/data" -l "$dir/log" -m fast -w -t 60 restart >/dev/null
}

case "${1:-}" in
  start) start ;;
  stop) stop "${2:-}" ;;
  restart) restart "${2:-}" ;;
  *) echo "usage: $0 start | stop DIR | restart DIR" >&2; exit 2 ;;
esac
