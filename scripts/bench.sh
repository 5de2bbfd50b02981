#!/usr/bin/env bash
# Runs the benchmark suite and writes BENCHMARKS.md (every budget of issues 9 and 21 next to its
# figure) and SIZE.md (the download per visit and where each wasm module's bytes go).
#   1. sets up what is missing, as scripts/test.sh does (plus the gzip and brotli tools, and twiggy)
#   2. builds the release site (trunk build --release)
#   3. runs the native benches (divan: widget_display, table, binding; the context and models benches), output kept in target/bench/
#   4. once the load average has fallen to one per core (at most 3 minutes), runs the browser bench
#      driver (tests/e2e, bin `bench`): the release build served on 127.0.0.1,
#      headless Chromium with a fresh profile per page load, 5 runs; it writes BENCHMARKS.md and
#      SIZE.md only when every measurement succeeded
# Usage: scripts/bench.sh [--runs N]   (N >= 5 for figures that count)
#        scripts/bench.sh --download-only [--runs N]   only SIZE.md: no native benches, two page loads a run
#        scripts/bench.sh --storage-only [--runs N]    only the store's rows, printed: no native benches, no file
#        scripts/bench.sh --startup-only [--runs N]    only first paint, interactive and the gallery, printed;
#          AUTOUI_DIST=<another build's dist/> measures that build instead (alternate runs to compare two)
#        scripts/bench.sh --charts-only [--runs N]     only the vega-lite rows, printed: no native benches, no file
#        scripts/bench.sh --apps-only [--runs N]       only the MCP Apps rows (a view's first paint, a resize storm), printed
#        scripts/bench.sh --live-only [--runs N]       only the bound 1,000-row table's refresh, printed with the load average
#        scripts/bench.sh --mcp-only [--runs N]        only the MCP client's row (the longest main-thread task while a
#          200,000-row tool result from tests/servers/bulk_server.py streams in), printed
#        scripts/bench.sh --table-only [--runs N]      only the 10,000-row data-table's display (6 calls a run, after a 1,000-row one), printed
set -euo pipefail
started=$(date +%s)
source "$(dirname "$0")/env.sh"
"$ROOT/scripts/setup.sh" --test
cd "$ROOT"

say() { printf '\n\033[1;35m== %s\033[0m\n' "$*"; }
sudo_if_needed() { if [[ $(id -u) -eq 0 ]]; then "$@"; else sudo "$@"; fi; }

missing=()
for tool in gzip brotli; do command -v "$tool" >/dev/null 2>&1 || missing+=("$tool"); done
if ((${#missing[@]})); then
  say "installing Debian packages: ${missing[*]}"
  sudo_if_needed apt-get update -qq
  sudo_if_needed env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"
fi
# Attributes each wasm module's bytes to crates and functions (SIZE.md).
TWIGGY_VERSION=0.8.0
if [[ "$(twiggy --version 2>/dev/null)" != "twiggy $TWIGGY_VERSION" ]]; then
  say "installing twiggy $TWIGGY_VERSION"
  cargo install --locked twiggy --version "$TWIGGY_VERSION"
fi
skip_native=false
for arg in "$@"; do [[ "$arg" == --download-only || "$arg" == --storage-only || "$arg" == --startup-only || "$arg" == --charts-only || "$arg" == --apps-only || "$arg" == --live-only || "$arg" == --mcp-only || "$arg" == --table-only ]] && skip_native=true; done

AUTOUI_BENCH_DATE="$(date -u '+%Y-%m-%d %H:%M UTC')"
AUTOUI_BENCH_COMMIT="$(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
if ! git diff --quiet HEAD -- . ':(exclude)BENCHMARKS.md' ':(exclude)SIZE.md' 2>/dev/null; then
  AUTOUI_BENCH_COMMIT="$AUTOUI_BENCH_COMMIT (with uncommitted changes)"
fi
export AUTOUI_BENCH_DATE AUTOUI_BENCH_COMMIT

say "release build"
trunk build --release

native="$ROOT/target/bench"
mkdir -p "$native"
if ! $skip_native; then
  say "native benches"
  for bench in widget_display table context models binding; do
    echo "cargo bench -p autoui-core --bench $bench"
    cargo bench --locked -p autoui-core --bench "$bench" >"$native/$bench.txt"
  done
fi

say "browser benches"
cargo build --locked -p autoui-e2e --bin bench
# The builds above leave the load average near 8 on two cores, and browser timings taken then read
# 10-25% slow: wait (at most 3 minutes) until the last minute's load is at most one per core.
cores=$(nproc)
for ((waited = 0; waited < 180; waited += 10)); do
  awk -v cores="$cores" '{ exit !($1 <= cores) }' /proc/loadavg && break
  ((waited == 0)) && echo "waiting for the load average ($(cut -d' ' -f1 /proc/loadavg)) to fall to $cores"
  sleep 10
done
cargo run --locked -p autoui-e2e --bin bench -- --native "$native" --out "$ROOT/BENCHMARKS.md" \
  --size-report "$ROOT/SIZE.md" --started "$started" "$@"
say "written in $(($(date +%s) - started)) s"
