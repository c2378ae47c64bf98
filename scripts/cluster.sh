#!/usr/bin/env bash
# Several sortkey nodes on one machine, sharing one throwaway PostgreSQL
# (docs/CLUSTER.md): for trying a cluster without Docker. No balancer:
# clients name a node's URL, any node's.
#
#   bash scripts/cluster.sh start 3     # PostgreSQL, one build, three nodes; prints their URLs
#   bash scripts/cluster.sh status      # each node: pid, URL, health
#   bash scripts/cluster.sh kill 2      # node 2 dies (SIGKILL), as when its machine does
#   bash scripts/cluster.sh restart 2   # node 2 again on its port (stopped first if it runs)
#   bash scripts/cluster.sh stop        # every node, then PostgreSQL; the state is removed
#
# The state (the binary, PostgreSQL's folder and URL, each node's port,
# pid and log) is kept in SORTKEY_CLUSTER_DIR, by default
# ${TMPDIR:-/tmp}/sortkey-cluster: one cluster at a time per folder. Nodes
# run `sortkey serve --store URL --addr 127.0.0.1:PORT` and take any other
# setting from SORTKEY_* variables (SORTKEY_LOG_LEVEL=debug, …) as they are
# when a node starts.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
state=${SORTKEY_CLUSTER_DIR:-${TMPDIR:-/tmp}/sortkey-cluster}
bin=$state/bin/sortkey

# shellcheck source=scripts/bench-lib.sh
. "$repo/scripts/bench-lib.sh" # log, alive, stop_server, free_port

die() {
  echo "cluster.sh: $*" >&2
  exit 1
}

usage() {
  echo "usage: $0 start N | status | kill I | restart I | stop" >&2
  exit 2
}

# node_count: how many nodes start made.
node_count() { cat "$state/nodes"; }

# node_pid I: node I's pid while it runs (our binary, not a reused pid),
# nothing otherwise.
node_pid() {
  local pid
  pid=$(cat "$state/node$1/pid" 2>/dev/null) || return 0
  if alive "$pid" && [ "$(readlink "/proc/$pid/exe" 2>/dev/null)" = "$(readlink -f "$bin")" ]; then
    echo "$pid"
  fi
}

node_addr() { echo "127.0.0.1:$(cat "$state/node$1/port")"; }

# check_node I: I names a node of the cluster in $state.
check_node() {
  [ -d "$state" ] || die "no cluster in $state (bash $0 start N)"
  if ! [[ $1 =~ ^[1-9][0-9]*$ ]] || [ "$1" -gt "$(node_count)" ]; then
    die "no node $1: the cluster has nodes 1 to $(node_count)"
  fi
}

# launch I: starts node I in a session of its own (so that a closed
# terminal does not stop it, and stop_server can signal its group), from
# its own folder, appending to its log.
launch() {
  local dir=$state/node$1 url
  url=$(sed -n 2p "$state/pg")
  echo "--- $(date '+%F %T') node $1 starting" >>"$dir/log"
  (cd "$dir" && exec setsid "$bin" serve --store "$url" --addr "$(node_addr "$1")" \
    </dev/null >>"$dir/log" 2>&1) &
  echo $! >"$dir/pid"
}

# wait_healthy I: waits up to 60 s for node I's GET /sortkey/health to
# answer 200; fails, showing its log's end, if the node exits first.
wait_healthy() {
  local addr pid
  addr=$(node_addr "$1")
  pid=$(cat "$state/node$1/pid")
  for _ in $(seq 1 300); do
    if ! alive "$pid"; then
      tail -n 5 "$state/node$1/log" >&2
      die "node $1 exited (log: $state/node$1/log)"
    fi
    "$bin" health --addr "$addr" --timeout 2s >/dev/null 2>&1 && return 0
    sleep 0.2
  done
  die "node $1 did not report healthy at http://$addr/sortkey/health within 60 s (log: $state/node$1/log)"
}

# pick_port: a free loopback port no node of this cluster has.
pick_port() {
  local port
  for _ in $(seq 1 20); do
    port=$(free_port)
    if ! grep -qx "$port" "$state"/node*/port 2>/dev/null; then
      echo "$port"
      return
    fi
  done
  die "found no free port"
}

# stop_pg: stops the cluster's PostgreSQL, if start got that far.
stop_pg() {
  local dir
  dir=$(sed -n 1p "$state/pg" 2>/dev/null) || return 0
  [ -n "$dir" ] || return 0
  log "stopping PostgreSQL ($dir)"
  bash "$repo/scripts/pg-throwaway.sh" stop "$dir" || true
}

# teardown: every node, then PostgreSQL, then the state folder.
teardown() {
  local i pid
  for i in $(seq 1 "$(node_count 2>/dev/null || echo 0)"); do
    pid=$(node_pid "$i")
    if [ -n "$pid" ]; then
      log "stopping node $i (pid $pid)"
      stop_server "$pid"
    fi
  done
  stop_pg
  rm -rf "$state"
}

print_nodes() {
  local i pid addr health
  for i in $(seq 1 "$(node_count)"); do
    addr=$(node_addr "$i")
    pid=$(node_pid "$i")
    if [ -z "$pid" ]; then
      health="not running"
    elif "$bin" health --addr "$addr" --timeout 2s >/dev/null 2>&1; then
      health="healthy, pid $pid"
    else
      health="unhealthy, pid $pid"
    fi
    printf '  node %s  http://%s  %s  log %s\n' "$i" "$addr" "$health" "$state/node$i/log"
  done
}

# start_failed: start's exit trap; a start that fails leaves nothing running.
start_failed() {
  local rc=$?
  if [ "$rc" != 0 ]; then
    log "start failed: stopping what it started"
    teardown
  fi
  exit "$rc"
}

cmd_start() {
  local n=${1:-} i pg_env pg_dir pg_url
  [[ $n =~ ^[1-9][0-9]*$ ]] || usage
  [ ! -e "$state" ] || die "$state already holds a cluster: bash $0 stop first"
  mkdir -p "$state/bin"
  echo "$n" >"$state/nodes"
  trap start_failed EXIT
  trap 'exit 130' INT
  trap 'exit 143' TERM

  log "building sortkey"
  (cd "$repo" && go build -o "$bin" ./cmd/sortkey)
  log "starting a throwaway PostgreSQL"
  pg_env=$(bash "$repo/scripts/pg-throwaway.sh" start)
  pg_dir=$(sed -n 's/.*SORTKEY_PG_DIR=\([^ ]*\).*/\1/p' <<<"$pg_env")
  pg_url=$(sed -n 's/.*SORTKEY_PG_URL=\([^ ]*\).*/\1/p' <<<"$pg_env")
  if [ -z "$pg_dir" ] || [ -z "$pg_url" ]; then
    die "scripts/pg-throwaway.sh start said: $pg_env"
  fi
  printf '%s\n%s\n' "$pg_dir" "$pg_url" >"$state/pg"

  for i in $(seq 1 "$n"); do
    mkdir -p "$state/node$i"
    pick_port >"$state/node$i/port"
    launch "$i"
  done
  for i in $(seq 1 "$n"); do
    wait_healthy "$i"
  done
  trap - EXIT INT TERM

  echo "sortkey cluster: $n node(s) on $pg_url (schema sortkey), state in $state"
  print_nodes
  echo "clients may use any node, e.g. aws dynamodb list-tables --endpoint-url http://$(node_addr 1)"
  echo "stop it all: bash $0 stop"
}

cmd_status() {
  [ -d "$state" ] || die "no cluster in $state"
  echo "PostgreSQL: $(sed -n 2p "$state/pg")"
  print_nodes
}

# cmd_kill I: SIGKILL to node I's process group: no drain, its
# connections to clients and to PostgreSQL cut, as when its machine dies.
cmd_kill() {
  local pid
  check_node "$1"
  pid=$(node_pid "$1")
  [ -n "$pid" ] || die "node $1 is not running"
  kill -KILL -- "-$pid" 2>/dev/null || kill -KILL "$pid"
  for _ in $(seq 1 100); do
    alive "$pid" || break
    sleep 0.1
  done
  log "node $1 (pid $pid) killed"
}

# cmd_restart I: node I stopped as SIGTERM stops it (draining), if it
# runs, and started again on the same port, with the same binary.
cmd_restart() {
  local pid
  check_node "$1"
  pid=$(node_pid "$1")
  if [ -n "$pid" ]; then
    log "stopping node $1 (pid $pid)"
    stop_server "$pid"
  fi
  launch "$1"
  wait_healthy "$1"
  log "node $1 is back: http://$(node_addr "$1") (pid $(node_pid "$1"))"
}

cmd_stop() {
  if [ ! -d "$state" ]; then
    log "no cluster in $state"
    return
  fi
  teardown
  log "stopped; $state removed"
}

case "${1:-}" in
  start) cmd_start "${2:-}" ;;
  status) cmd_status ;;
  kill) [ $# = 2 ] || usage; cmd_kill "$2" ;;
  restart) [ $# = 2 ] || usage; cmd_restart "$2" ;;
  stop) cmd_stop ;;
  *) usage ;;
esac
