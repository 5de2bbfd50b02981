#!/usr/bin/env bash
# Sets up what is missing, then runs every test tier:
#   1. native:  cargo test over the pure core
#   2. browser: wasm-bindgen-test suites in headless Chromium through chromedriver
#   3. e2e:     the release build served on 127.0.0.1, driven over WebDriver
set -euo pipefail
source "$(dirname "$0")/env.sh"
"$ROOT/scripts/setup.sh" --test
cd "$ROOT"

tier() { printf '\n\033[1;35m== %s\033[0m\n' "$*"; }
started=$SECONDS

tier "native tests"
cargo test --locked -p autoui-core

tier "browser tests (headless Chromium)"
cargo test --locked --target wasm32-unknown-unknown -p autoui

tier "end-to-end tests (release build)"
trunk build --release
cargo test --locked -p autoui-e2e

tier "all tiers passed in $((SECONDS - started)) s"
