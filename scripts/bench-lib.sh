# shellcheck shell=bash
# Helpers the scripts share (bench-peers.sh, bench-pg.sh, bench-cluster.sh, pg-throwaway.sh),
# sourced by them. server_pid is the caller's running server, cleared when
# it stops.

log() { printf '%s %s\n' "$(date +%H:%M:%S)" "$*" >&2; }

# alive PID: the process exists and is not a zombie waiting to be reaped.
alive() {
  local state
  [ -r "/proc/$1/stat" ] || return 1
  state=$(sed 's/.*) \(.\).*/\1/' "/proc/$1/stat" 2>/dev/null) || return 1
  [ -n "$state" ] && [ "$state" != Z ]
}

# stop_server PID: SIGTERM to the server's process group (peerbench start
# makes the server a group leader), SIGKILL after 20 s.
stop_server() {
  local pid=$1
  if alive "$pid"; then
    kill -TERM -- "-$pid" 2>/dev/null || kill -TERM "$pid" 2>/dev/null || true
    for _ in $(seq 1 200); do
      alive "$pid" || break
      sleep 0.1
    done
    if alive "$pid"; then
      log "process $pid ignored SIGTERM for 20 s: SIGKILL"
      kill -KILL -- "-$pid" 2>/dev/null || kill -KILL "$pid" 2>/dev/null || true
    fi
  fi
  if [ "$pid" = "${server_pid:-}" ]; then
    server_pid=""
  fi
}

# free_port: a TCP port on the loopback that nothing listens on now.
free_port() {
  python3 - <<'PY' 2>/dev/null || echo $((20000 + RANDOM % 20000))
import socket
s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()
PY
}

# start_pg starts a throwaway PostgreSQL (pg-throwaway.sh; the caller is at
# the repository's root) and sets pg_dir and pg_url, pg_version, and
# pg_pid: its postmaster. PostgreSQL's CPU is that of the postmaster and
# every process under it (`peerbench cpu` walks the tree, and adds the CPU
# of children already waited for, so a backend that exits during a run
# still counts): the backends serving either client, the WAL writer, the
# checkpointer, the background writer, autovacuum. Only this cluster's:
# other clusters run by the same `postgres` user on a shared machine are
# not counted.
start_pg() {
  log "starting a throwaway PostgreSQL"
  local env
  env=$(bash scripts/pg-throwaway.sh start)
  pg_dir=$(sed -n 's/.*SORTKEY_PG_DIR=\([^ ]*\).*/\1/p' <<<"$env")
  pg_url=$(sed -n 's/.*SORTKEY_PG_URL=\([^ ]*\).*/\1/p' <<<"$env")
  if [ -z "$pg_dir" ] || [ -z "$pg_url" ]; then
    echo "scripts/pg-throwaway.sh start said: $env" >&2
    exit 1
  fi
  pg_pid=$(head -n 1 "$pg_dir/data/postmaster.pid")
  pg_version=$(cat "$pg_dir/data/PG_VERSION")
  log "PostgreSQL $pg_version at $pg_url, postmaster $pg_pid"
}

# run_ceiling DIR: one pgceiling run of every workload (it preloads its
# own table first, and measures PostgreSQL's CPU around each run itself),
# with the caller's settings and the cluster start_pg started.
# shellcheck disable=SC2154 # the caller's settings
run_ceiling() {
  local dir=$1
  mkdir -p "$dir"
  log "ceiling: $workloads at concurrency $concurrency for $duration each"
  if ! "$peerbench" pgceiling --url "$pg_url" --concurrency "$concurrency" --duration "$duration" --preload "$preload" \
      --item-size "$item_size" --workload "$workloads" --server-pids "$pg_pid" --json >"$dir/ceiling.jsonl" 2>"$dir/ceiling.log"; then
    tail -n 3 "$dir/ceiling.log" >"$dir/ceiling.err"
    rm -f "$dir/ceiling.jsonl"
  fi
}

# machine_notes COMMAND SHARERS: the machine and the run, as markdown
# lines, for a report's machine.md; SHARERS says who shares the cores.
# shellcheck disable=SC2154 # repo is the caller's
machine_notes() {
  local rev dirty
  rev=$(git -C "$repo" rev-parse --short HEAD 2>/dev/null || echo unknown)
  dirty=$(git -C "$repo" status --porcelain --untracked-files=no 2>/dev/null | head -n 1)
  echo "- date: $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "- sortkey: commit $rev${dirty:+ (with uncommitted changes)}"
  echo "- command: \`$1\`"
  echo "- PostgreSQL $pg_version (a throwaway cluster, durable defaults: fsync and synchronous_commit on), data in $(df -T "$pg_dir" | awk 'NR == 2 { print $2 }') on $(df "$pg_dir" | awk 'NR == 2 { print $1 }')"
  echo "- CPU: $(nproc) cores, $(sed -n 's/^model name\t*: //p' /proc/cpuinfo | head -n 1); $2 share them"
  echo "- kernel: $(uname -sr)"
  echo "- $(go version)"
  echo "- load average before the runs: $(cut -d' ' -f1-3 /proc/loadavg)"
}
