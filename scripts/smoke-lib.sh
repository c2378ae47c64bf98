# Helpers shared by the AWS CLI smoke checks (sourced, not run): starting
# `sortkey serve` on a free port, and comparing the CLI's output with what
# a user of DynamoDB would see. Each check prints "ok" or "FAIL" and counts.

failures=0
passes=0
server_pids=()

# stop_servers stops every server start_server started; the scripts run it
# on exit, whatever the checks did.
stop_servers() {
  local pid
  for pid in "${server_pids[@]}"; do
    kill "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  done
}

# start_server VAR LOG SORTKEY-SERVE-FLAGS...: starts `$work/sortkey serve`
# on a port the kernel picks and sets the variable VAR to its URL, read
# from the line it prints once it accepts requests.
start_server() {
  local var=$1 log=$2 url; shift 2
  "$work/sortkey" serve --addr 127.0.0.1:0 "$@" >"$log.out" 2>"$log.err" &
  server_pids+=($!)
  for _ in $(seq 1 200); do
    url=$(sed -n 's/^sortkey listening on //p' "$log.out" 2>/dev/null)
    if [ -n "$url" ]; then printf -v "$var" '%s' "$url"; return 0; fi
    kill -0 "$!" 2>/dev/null || break
    sleep 0.05
  done
  echo "sortkey serve $* did not start:" >&2
  cat "$log.err" >&2
  return 1
}

pass() { printf 'ok   %s\n' "$1"; passes=$((passes + 1)); }
# fail NAME [DETAIL]: DETAIL, when given, starts with its own line break.
fail() { printf 'FAIL %s%s\n' "$1" "${2:-}"; failures=$((failures + 1)); }

# expect NAME WANT -- COMMAND...: runs the command, compares its stdout.
expect() {
  local name=$1 want=$2; shift 3
  local got
  got=$("$@" 2>&1) || true
  if [ "$got" != "$want" ]; then
    fail "$name" "$(printf '\n  want: %s\n  got:  %s' "$want" "$got")"
  else
    pass "$name"
  fi
}

# expect_error NAME CODE -- COMMAND...: the command must fail naming CODE.
expect_error() {
  local name=$1 code=$2; shift 3
  expect_error_message "$name" "$code" '*' -- "$@"
}

# expect_error_message NAME CODE PATTERN -- COMMAND...: the command must
# fail with the CLI's "An error occurred (CODE) when calling the OP
# operation: MESSAGE", MESSAGE matching the shell pattern PATTERN (a plain
# text matches only itself; end it with * to check how the message starts).
expect_error_message() {
  local name=$1 code=$2 pattern=$3; shift 4
  local got message
  if got=$("$@" 2>&1); then
    fail "$name: succeeded, want $code"; return
  fi
  case "$got" in
    *"An error occurred ($code) when calling the "*" operation: "*) ;;
    *) fail "$name" "$(printf '\n  want error %s\n  got: %s' "$code" "$got")"; return ;;
  esac
  message=${got#*"($code) when calling the "*" operation: "}
  # shellcheck disable=SC2254 # the pattern is meant to be one
  case "$message" in
    $pattern) pass "$name" ;;
    *) fail "$name" "$(printf '\n  want %s: %s\n  got:  %s' "$code" "$pattern" "$message")" ;;
  esac
}

# expect_exit NAME STATUS PATTERN -- COMMAND...: the command must exit
# with STATUS and print (stdout and stderr) something matching PATTERN.
expect_exit() {
  local name=$1 want=$2 pattern=$3; shift 4
  local got status=0
  got=$("$@" 2>&1) || status=$?
  # shellcheck disable=SC2254
  case "$got" in
    $pattern) [ "$status" -eq "$want" ] && { pass "$name"; return; } ;;
  esac
  fail "$name" "$(printf '\n  want exit %s and %s\n  got exit %s: %s' "$want" "$pattern" "$status" "$got")"
}
