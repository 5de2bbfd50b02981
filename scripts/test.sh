#!/usr/bin/env bash
# Sets up what is missing, then runs every test tier:
#   1. native:  cargo test over the pure core
#   2. browser: wasm-bindgen-test suites in headless Chromium through chromedriver, with the MCP
#      test servers (scripts/test-servers.sh) running on loopback ports (and, against them, the
#      native test of resources and prompts in crates/conformance)
#   3. e2e:     the release build served on 127.0.0.1, driven over WebDriver
# plus the official MCP conformance suite's client scenarios (scripts/conformance.sh) after the native tier
set -euo pipefail
source "$(dirname "$0")/env.sh"
# A test run builds each crate once: incremental caches would double the disk it needs
# (about 14 GB against 7), and a run stopped by a full disk tells nobody anything.
export CARGO_INCREMENTAL="${CARGO_INCREMENTAL:-0}"
"$ROOT/scripts/setup.sh" --test
cd "$ROOT"

tier() { printf '\n\033[1;35m== %s\033[0m\n' "$*"; }
started=$SECONDS

tier "native tests"
cargo test --locked -p autoui-core
# The benchmarks are not run here (scripts/bench.sh does), but they must keep compiling.
cargo check --locked -p autoui-core --benches

tier "MCP conformance suite (client scenarios)"
"$ROOT/scripts/conformance.sh"

# The browser and e2e tiers run every test file even after one fails, so a failing run names every
# failure at once rather than only the first file's.
tier "browser tests (headless Chromium)"
# The MCP test servers run on loopback ports for this tier; their URLs are compiled into the tests.
trap '"$ROOT/scripts/test-servers.sh" stop' EXIT
servers_env=$("$ROOT/scripts/test-servers.sh" start)
eval "$servers_env"
# The core's hub against the same servers over native HTTP (resources, templates, prompts).
cargo test --locked -p autoui-conformance --test everything_offers
# The runner's limit is for a whole test file (20 s by default); each MCP test bounds its own waits.
export WASM_BINDGEN_TEST_TIMEOUT="${WASM_BINDGEN_TEST_TIMEOUT:-180}"
# The vega-lite tests inject the chart engine's interpreter as the build makes it (target/charts).
"$ROOT/scripts/charts.sh"
cargo test --locked --no-fail-fast --target wasm32-unknown-unknown -p autoui
"$ROOT/scripts/test-servers.sh" stop

tier "end-to-end tests (release build)"
trunk build --release
cargo test --locked --no-fail-fast -p autoui-e2e

tier "all tiers passed in $((SECONDS - started)) s"
