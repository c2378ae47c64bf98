#!/usr/bin/env bash
# Compares sortkey on PostgreSQL with its bare pgx ceiling, in one run on
# one machine: a throwaway PostgreSQL cluster of its own (scripts/
# pg-throwaway.sh, durable defaults: fsync and synchronous_commit on),
# `sortkey serve --store` on it loaded by `sortkey bench`, and
# `peerbench pgceiling` — plain pgx clients sending the least SQL each
# workload needs, with the same keys, at the same concurrency — against
# the same cluster. The two alternate for a few rounds, so that a change
# in the machine's load during the run shows in both rather than in one.
#
# Usage: scripts/bench-pg.sh
#
# Environment (all optional):
#   BENCH_DURATION     each run's length                (default 3s)
#   BENCH_ROUNDS       rounds of both clients            (default 3)
#   BENCH_CONCURRENCY  concurrent clients                (default 16)
#   BENCH_PRELOAD      items (rows) written before       (default 2000)
#   BENCH_ITEM_SIZE    bytes per item                    (default 200)
#   BENCH_WORKLOADS    workloads                         (default put,get,update,query,transact-write)
#   BENCH_OUT          results directory                 (default: a new /tmp/bench-pg-results.XXXXXX)
#   BENCH_KEEP_WORK=1  keep the work directory (binaries)
#
# Results: BENCH_OUT/report.md (the tables and the ratios), machine.md,
# and per round the raw `sortkey bench --json` and `pgceiling --json`
# lines (the layout is described in scripts/peerbench/pgreport.go).
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)

duration=${BENCH_DURATION:-3s}
rounds=${BENCH_ROUNDS:-3}
concurrency=${BENCH_CONCURRENCY:-16}
preload=${BENCH_PRELOAD:-2000}
item_size=${BENCH_ITEM_SIZE:-200}
workloads=${BENCH_WORKLOADS:-put,get,update,query,transact-write}
out=${BENCH_OUT:-$(mktemp -d /tmp/bench-pg-results.XXXXXX)}
mkdir -p "$out"
out=$(cd "$out" && pwd)

work=$(mktemp -d /tmp/bench-pg.XXXXXX)
pg_dir=""  # the cluster this script started, once it has
server_pid=""  # the sortkey server, while it runs
cleanup() {
  local rc=$?
  if [ -n "$server_pid" ]; then
    log "stopping sortkey (pid $server_pid)"
    stop_server "$server_pid"
  fi
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

# shellcheck source=scripts/bench-lib.sh
. "$(dirname "$0")/bench-lib.sh"

# ---------------------------------------------------------------- builds
log "building sortkey and peerbench"
mkdir -p "$work/bin" "$work/run"
go build -o "$work/bin/sortkey" ./cmd/sortkey
go build -o "$work/bin/peerbench" ./scripts/peerbench
sortkey=$work/bin/sortkey
peerbench=$work/bin/peerbench

# ---------------------------------------------------------------- PostgreSQL
start_pg

# ---------------------------------------------------------------- sortkey
port=$(free_port)
endpoint=http://127.0.0.1:$port
case $pg_url in *\?*) store="$pg_url&schema=benchsk" ;; *) store="$pg_url?schema=benchsk" ;; esac
log "starting sortkey serve --store …?schema=benchsk on $endpoint"
# From a directory of its own, in case anything lands in the working directory.
if ! (cd "$work/run" && "$peerbench" start --endpoint "$endpoint" --log "$out/sortkey-serve.log" -- \
    "$sortkey" serve --store "$store" --addr "127.0.0.1:$port") >"$out/startup.json"; then
  tail -n 5 "$out/sortkey-serve.log" >&2 || true
  exit 1
fi
server_pid=$(sed -n 's/.*"pid":\([0-9]*\).*/\1/p' "$out/startup.json")
log "sortkey: pid $server_pid answered after $(sed -n 's/.*"startup_ms":\([0-9.]*\).*/\1/p' "$out/startup.json") ms"

log "sortkey: creating the table, preloading $preload items"
if ! "$sortkey" bench --endpoint "$endpoint" --preload "$preload" --item-size "$item_size" --workload get --concurrency 1 \
    --duration 0s >"$out/sortkey-setup.log" 2>&1; then
  tail -n 5 "$out/sortkey-setup.log" >&2
  exit 1
fi

# ---------------------------------------------------------------- runs
# run_sortkey DIR: each workload in a `sortkey bench` of its own, so that
# PostgreSQL's CPU can be read around each; a failed run is noted in
# DIR/sortkey.err. Returns 1 when the server has exited.
run_sortkey() {
  local dir=$1 w before after
  local -a ws
  IFS=, read -r -a ws <<<"$workloads"
  for w in "${ws[@]}"; do
    log "sortkey: $w at concurrency $concurrency for $duration"
    before=$("$peerbench" cpu "$pg_pid")
    if ! "$sortkey" bench --endpoint "$endpoint" --setup=false --preload "$preload" --item-size "$item_size" --workload "$w" \
        --concurrency "$concurrency" --duration "$duration" --server-pid "$server_pid" --json >>"$dir/sortkey.jsonl" 2>"$dir/cell.log"; then
      printf '%s: %s\n' "$w" "$(grep -v '^  ' "$dir/cell.log" | tail -n 3 | tr '\n' ' ')" >>"$dir/sortkey.err"
    fi
    after=$("$peerbench" cpu "$pg_pid")
    printf '%s\t%s\t%s\n' "$w" "$before" "$after" >>"$dir/sortkey-pgcpu.tsv"
    cat "$dir/cell.log" >>"$dir/sortkey.log"
    if ! alive "$server_pid"; then
      printf '%s: the server exited during the run; last lines of its log: %s\n' "$w" "$(tail -n 3 "$out/sortkey-serve.log" | tr '\n' ' ')" >>"$dir/sortkey.err"
      return 1
    fi
  done
  rm -f "$dir/cell.log"
}

machine_notes "BENCH_DURATION=$duration BENCH_ROUNDS=$rounds BENCH_CONCURRENCY=$concurrency BENCH_PRELOAD=$preload BENCH_ITEM_SIZE=$item_size BENCH_WORKLOADS=$workloads scripts/bench-pg.sh" "the client, sortkey and PostgreSQL" >"$out/machine.md"

for r in $(seq 1 "$rounds"); do
  dir=$out/round-$r
  mkdir -p "$dir"
  log "round $r of $rounds"
  # Odd rounds start with sortkey, even ones with the ceiling.
  if [ $((r % 2)) = 1 ]; then
    run_sortkey "$dir" || break
    run_ceiling "$dir"
  else
    run_ceiling "$dir"
    run_sortkey "$dir" || break
  fi
done
echo "- load average after the runs: $(cut -d' ' -f1-3 /proc/loadavg)" >>"$out/machine.md"

"$peerbench" pgreport "$out" >"$out/report.md"
cat "$out/machine.md"
echo
cat "$out/report.md"
log "results in $out (report.md, machine.md, round-*/)"
