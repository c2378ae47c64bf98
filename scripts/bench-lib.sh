# Helpers the scripts share (bench-peers.sh, bench-pg.sh, pg-throwaway.sh),
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
