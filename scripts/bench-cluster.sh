#!/usr/bin/env bash
# Several sortkey nodes on one PostgreSQL (docs/CLUSTER.md), loaded as one
# endpoint: a throwaway PostgreSQL cluster (scripts/pg-throwaway.sh,
# durable defaults), then for each number of nodes N, N `sortkey serve
# --store` processes on a schema of their own, loaded by one `sortkey
# bench` whose clients are spread over the N nodes (--endpoint URL1,URL2,…)
# and whose server CPU is summed over them (--server-pid PID1,PID2,…); and
# `peerbench pgceiling`, bare pgx clients, on the same PostgreSQL for
# comparison. Each round runs every N and the ceiling, odd rounds from one
# node up and the ceiling last, even rounds the other way, so that a change
# in the machine's load shows in every row rather than in one.
#
# Everything shares the machine: the nodes, PostgreSQL and the client. On
# a machine with fewer cores than they need, more nodes cannot add
# throughput; the CPU per request is the figure that carries over.
#
# Usage: scripts/bench-cluster.sh
#
# Environment (all optional):
#   DURATION      each run's length                       (default 10s)
#   ROUNDS        rounds of every run                     (default 3)
#   NODES         numbers of nodes, space-separated       (default "1 2 3")
#   CONCURRENCY   concurrent clients, over all the nodes  (default 16)
#   PRELOAD       items (rows) written before the runs    (default 2000)
#   ITEM_SIZE     bytes per item                          (default 200)
#   WORKLOADS     workloads pgceiling also has            (default put,get)
#   BENCH_OUT     results directory                       (default: a new /tmp/bench-cluster-results.XXXXXX)
#   BENCH_KEEP_WORK=1  keep the work directory (binaries)
#
# Results: BENCH_OUT/report.md (one table), machine.md, and the raw lines:
# nodes-N/round-R/ as a bench-pg.sh round (sortkey.jsonl, sortkey-pgcpu.tsv,
# each node's log) and ceiling/round-R/ceiling.jsonl (the layout is in
# scripts/peerbench/clusterreport.go).
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
# shellcheck source=scripts/bench-lib.sh
. "$repo/scripts/bench-lib.sh" # log, alive, stop_server, free_port

duration=${DURATION:-10s}
rounds=${ROUNDS:-3}
node_counts=${NODES:-1 2 3}
concurrency=${CONCURRENCY:-16}
preload=${PRELOAD:-2000}
item_size=${ITEM_SIZE:-200}
workloads=${WORKLOADS:-put,get}
out=${BENCH_OUT:-$(mktemp -d /tmp/bench-cluster-results.XXXXXX)}
mkdir -p "$out"
out=$(cd "$out" && pwd)

work=$(mktemp -d /tmp/bench-cluster.XXXXXX)
pg_dir=""     # the cluster this script started, once it has
node_pids=()  # the sortkey nodes, while they run
stop_nodes() {
  local pid
  for pid in "${node_pids[@]}"; do
    stop_server "$pid"
  done
  node_pids=()
}
cleanup() {
  local rc=$?
  stop_nodes
  if [ -n "$pg_dir" ]; then
    log "stopping PostgreSQL ($pg_dir)"
    bash "$repo/scripts/pg-throwaway.sh" stop "$pg_dir" || true
  fi
  if [ "${BENCH_KEEP_WORK:-}" = 1 ]; then
    echo "work directory kept: $work" >&2
  else
    rm -rf "$work"
  fi
  exit "$rc"
}
trap cleanup EXIT
# Without these, a signal ends bash without running the EXIT trap.
trap 'exit 130' INT
trap 'exit 143' TERM

# ---------------------------------------------------------------- builds
log "building sortkey and peerbench"
mkdir -p "$work/bin" "$work/run"
go build -o "$work/bin/sortkey" ./cmd/sortkey
go build -o "$work/bin/peerbench" ./scripts/peerbench
sortkey=$work/bin/sortkey
peerbench=$work/bin/peerbench

# ---------------------------------------------------------------- PostgreSQL
start_pg

# ---------------------------------------------------------------- nodes
endpoints=""  # the running nodes' URLs, comma-separated
pids=""       # and their pids

# start_nodes N SCHEMA DIR: N nodes on SCHEMA, each answering ListTables
# before the next starts; their logs go to DIR.
start_nodes() {
  local n=$1 schema=$2 dir=$3 i port store pid
  case $pg_url in *\?*) store="$pg_url&schema=$schema" ;; *) store="$pg_url?schema=$schema" ;; esac
  endpoints="" pids=""
  for i in $(seq 1 "$n"); do
    port=$(free_port)
    # From a directory of their own, in case anything lands in the working directory.
    if ! (cd "$work/run" && "$peerbench" start --endpoint "http://127.0.0.1:$port" --log "$dir/node$i.log" -- \
        "$sortkey" serve --store "$store" --addr "127.0.0.1:$port") >"$dir/node$i.json"; then
      tail -n 5 "$dir/node$i.log" >&2 || true
      return 1
    fi
    pid=$(sed -n 's/.*"pid":\([0-9]*\).*/\1/p' "$dir/node$i.json")
    node_pids+=("$pid")
    endpoints+=${endpoints:+,}http://127.0.0.1:$port
    pids+=${pids:+,}$pid
  done
  log "$n node(s): $endpoints (pids $pids)"
}

# nodes_alive: every node still runs.
nodes_alive() {
  local pid
  for pid in "${node_pids[@]}"; do
    alive "$pid" || return 1
  done
}

# run_nodes N R: round R's run of N nodes, on a schema of their own: the
# preload through all of them, then each workload in a `sortkey bench` of
# its own, so that PostgreSQL's CPU can be read around each; a failed run
# is noted in sortkey.err.
run_nodes() {
  local n=$1 dir=$out/nodes-$1/round-$2 w before after
  local -a ws
  mkdir -p "$dir"
  if ! start_nodes "$n" "bench_n${n}_r$2" "$dir"; then
    echo "the nodes did not start; see node*.log" >>"$dir/sortkey.err"
    stop_nodes
    return
  fi
  log "$n node(s): creating the table, preloading $preload items"
  if ! "$sortkey" bench --endpoint "$endpoints" --preload "$preload" --item-size "$item_size" --workload get --concurrency 1 \
      --duration 0s >"$dir/setup.log" 2>&1; then
    printf 'preload: %s\n' "$(tail -n 3 "$dir/setup.log" | tr '\n' ' ')" >>"$dir/sortkey.err"
    stop_nodes
    return
  fi
  IFS=, read -r -a ws <<<"$workloads"
  for w in "${ws[@]}"; do
    log "$n node(s): $w at concurrency $concurrency for $duration"
    before=$("$peerbench" cpu "$pg_pid")
    if ! "$sortkey" bench --endpoint "$endpoints" --setup=false --preload "$preload" --item-size "$item_size" --workload "$w" \
        --concurrency "$concurrency" --duration "$duration" --server-pid "$pids" --json >>"$dir/sortkey.jsonl" 2>"$dir/cell.log"; then
      printf '%s: %s\n' "$w" "$(grep -v '^  ' "$dir/cell.log" | tail -n 3 | tr '\n' ' ')" >>"$dir/sortkey.err"
    fi
    after=$("$peerbench" cpu "$pg_pid")
    printf '%s\t%s\t%s\n' "$w" "$before" "$after" >>"$dir/sortkey-pgcpu.tsv"
    cat "$dir/cell.log" >>"$dir/sortkey.log"
    if ! nodes_alive; then
      printf '%s: a node exited during the run; see node*.log\n' "$w" >>"$dir/sortkey.err"
      break
    fi
  done
  rm -f "$dir/cell.log"
  stop_nodes
}

machine_notes "DURATION=$duration ROUNDS=$rounds NODES=\"$node_counts\" CONCURRENCY=$concurrency PRELOAD=$preload ITEM_SIZE=$item_size WORKLOADS=$workloads scripts/bench-cluster.sh" "the client, every node and PostgreSQL" >"$out/machine.md"

started=$(date +%s)
# shellcheck disable=SC2086 # NODES is a list
order=$(printf '%s\n' $node_counts)
for r in $(seq 1 "$rounds"); do
  log "round $r of $rounds"
  if [ $((r % 2)) = 1 ]; then
    for n in $order; do run_nodes "$n" "$r"; done
    run_ceiling "$out/ceiling/round-$r"
  else
    run_ceiling "$out/ceiling/round-$r"
    for n in $(tac <<<"$order"); do run_nodes "$n" "$r"; done
  fi
done
{
  echo "- load average after the runs: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "- the runs took $(($(date +%s) - started)) s"
} >>"$out/machine.md"

"$peerbench" clusterreport "$out" >"$out/report.md"
cat "$out/machine.md"
echo
cat "$out/report.md"
log "results in $out (report.md, machine.md, nodes-*/, ceiling/)"
