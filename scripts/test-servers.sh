#!/usr/bin/env bash
# Starts and stops the MCP servers the browser tests connect to, each on its own loopback port:
#   scripts/test-servers.sh start   starts them, waits until each port answers, and prints
#                                   `export NAME=URL` lines (the browser tests read them at compile time)
#   scripts/test-servers.sh stop    stops every server `start` started from this checkout
# Servers: npm @modelcontextprotocol/server-everything in its streamableHttp and sse modes, and
# tests/servers/table_server.py and slow_server.py (PyPI mcp) over Streamable HTTP and legacy SSE, and
# protected_server.py (an OAuth protected resource, PyPI mcp's auth settings) over Streamable HTTP. One more free port,
# with nothing listening, stands for an unreachable server; tests/servers/cors_server.py refuses
# preflights (the other causes the app tells apart need a page that is not cross-origin isolated, as
# the test runner's is: the e2e scenario `cors` checks them). PIDs and logs live in a temp dir.
set -euo pipefail
source "$(dirname "$0")/env.sh"
cd "$ROOT"

state="${TMPDIR:-/tmp}/autoui-test-servers-$(printf %s "$ROOT" | cksum | cut -d' ' -f1)"
servers="$ROOT/tests/servers"
everything="$servers/node_modules/@modelcontextprotocol/server-everything/dist/index.js"
python="$servers/.venv/bin/python"
# Stable ports keep the compiled tests valid between runs; taken ones are replaced by free ones.
preferred_ports=(39101 39102 39103 39104 39105 39106 39107 39108 39109)

say() { printf '\033[1;34m[test-servers]\033[0m %s\n' "$*" >&2; }

stop() {
  [[ -d "$state" ]] || return 0
  local stopped=0
  for pidfile in "$state"/*.pid; do
    [[ -f "$pidfile" ]] || continue
    stopped=$((stopped + 1))
    pid=$(<"$pidfile")
    if kill -0 "$pid" 2>/dev/null; then
      kill "$pid" 2>/dev/null || true
      for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
      kill -9 "$pid" 2>/dev/null || true
    fi
    rm -f "$pidfile"
  done
  ((stopped == 0)) || say "stopped $stopped servers"
}

# Prints one port per preferred port: the preferred one when free, else one the system picks.
# All sockets stay bound until every port is chosen, so no two are the same.
free_ports() {
  python3 - "$@" <<'PY'
import socket, sys
held = []
for wanted in map(int, sys.argv[1:]):
    sock = socket.socket()
    try:
        sock.bind(("127.0.0.1", wanted))
    except OSError:
        sock.bind(("127.0.0.1", 0))
    held.append(sock)
print(" ".join(str(sock.getsockname()[1]) for sock in held))
PY
}

# launch NAME PORT COMMAND...: starts COMMAND in the background with its log and PID in $state.
launch() {
  local name=$1 port=$2
  shift 2
  PORT=$port "$@" >"$state/$name.log" 2>&1 &
  echo $! >"$state/$name.pid"
}

wait_for_port() {
  local name=$1 port=$2 pid
  pid=$(<"$state/$name.pid")
  for _ in $(seq 300); do
    if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
      return 0
    fi
    if ! kill -0 "$pid" 2>/dev/null; then
      say "$name exited before listening on port $port; its log:"
      cat "$state/$name.log" >&2
      return 1
    fi
    sleep 0.1
  done
  say "$name did not listen on port $port within 30 s; its log:"
  cat "$state/$name.log" >&2
  return 1
}

start() {
  [[ -f "$everything" ]] || { say "missing $everything: run scripts/setup.sh --test"; exit 1; }
  [[ -x "$python" ]] || { say "missing $python: run scripts/setup.sh --test"; exit 1; }
  stop
  mkdir -p "$state"
  read -r p_everything_http p_everything_sse p_table_http p_table_sse p_unreachable p_slow_http p_slow_sse \
    p_no_preflight p_protected \
    < <(free_ports "${preferred_ports[@]}")

  launch everything-streamable "$p_everything_http" node --import "$servers/loopback.mjs" "$everything" streamableHttp
  launch everything-sse "$p_everything_sse" node --import "$servers/loopback.mjs" "$everything" sse
  launch table-streamable "$p_table_http" "$python" "$servers/table_server.py" --transport streamable --port "$p_table_http"
  launch table-sse "$p_table_sse" "$python" "$servers/table_server.py" --transport sse --port "$p_table_sse"
  launch slow-streamable "$p_slow_http" "$python" "$servers/slow_server.py" --transport streamable --port "$p_slow_http"
  launch slow-sse "$p_slow_sse" "$python" "$servers/slow_server.py" --transport sse --port "$p_slow_sse"
  launch no-preflight "$p_no_preflight" "$python" "$servers/cors_server.py" --mode no-preflight --port "$p_no_preflight"
  launch protected-streamable "$p_protected" "$python" "$servers/protected_server.py" --transport streamable --port "$p_protected"

  wait_for_port everything-streamable "$p_everything_http"
  wait_for_port everything-sse "$p_everything_sse"
  wait_for_port table-streamable "$p_table_http"
  wait_for_port table-sse "$p_table_sse"
  wait_for_port slow-streamable "$p_slow_http"
  wait_for_port slow-sse "$p_slow_sse"
  wait_for_port no-preflight "$p_no_preflight"
  wait_for_port protected-streamable "$p_protected"
  say "listening on 127.0.0.1 ports $p_everything_http $p_everything_sse $p_table_http $p_table_sse $p_slow_http $p_slow_sse $p_no_preflight $p_protected (logs in $state)"

  cat <<ENV
export AUTOUI_MCP_EVERYTHING_STREAMABLE_URL=http://127.0.0.1:$p_everything_http/mcp
export AUTOUI_MCP_EVERYTHING_SSE_URL=http://127.0.0.1:$p_everything_sse/sse
export AUTOUI_MCP_TABLE_STREAMABLE_URL=http://127.0.0.1:$p_table_http/mcp
export AUTOUI_MCP_TABLE_SSE_URL=http://127.0.0.1:$p_table_sse/sse
export AUTOUI_MCP_UNREACHABLE_URL=http://127.0.0.1:$p_unreachable/mcp
export AUTOUI_MCP_SLOW_STREAMABLE_URL=http://127.0.0.1:$p_slow_http/mcp
export AUTOUI_MCP_SLOW_SSE_URL=http://127.0.0.1:$p_slow_sse/sse
export AUTOUI_MCP_NO_PREFLIGHT_URL=http://127.0.0.1:$p_no_preflight/mcp
export AUTOUI_MCP_PROTECTED_URL=http://127.0.0.1:$p_protected/mcp
ENV
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  *) echo "usage: $0 start|stop" >&2; exit 2 ;;
esac
