#!/usr/bin/env bash
# Fuzzes the core's decoders of untrusted input with cargo-fuzz (libFuzzer, nightly toolchain):
# the SSE parser, JSON-RPC decoding, partial JSON, share links, dashboard import, markdown and URLs.
# Each target runs for FUZZ_SECONDS (default 60); the executions of each and the total are printed.
# A crash stops the script with the input libFuzzer saved under fuzz/artifacts/<target>/.
#   scripts/fuzz.sh            # every target
#   scripts/fuzz.sh markdown   # some targets
set -euo pipefail
source "$(dirname "$0")/env.sh"
cd "$ROOT"

CARGO_FUZZ_VERSION=0.13.1
seconds="${FUZZ_SECONDS:-60}"
targets=("$@")
((${#targets[@]})) || targets=(sse jsonrpc partial_json share_link import markdown url)

rustup toolchain list | grep -q '^nightly' || { echo "fuzz: the nightly toolchain is missing (rustup toolchain install nightly)" >&2; exit 1; }
if [[ "$(cargo fuzz --version 2>/dev/null)" != "cargo-fuzz $CARGO_FUZZ_VERSION" ]]; then
  cargo install cargo-fuzz --version "$CARGO_FUZZ_VERSION" --locked
fi

total=0
summary=()
for target in "${targets[@]}"; do
  corpus="$ROOT/target/fuzz-corpus/$target"
  mkdir -p "$corpus"
  log="$ROOT/target/fuzz-$target.log"
  echo "fuzz: $target for ${seconds}s"
  if ! cargo +nightly fuzz run --fuzz-dir fuzz "$target" "$corpus" -- -max_total_time="$seconds" -max_len=4096 \
    -print_final_stats=1 >"$log" 2>&1; then
    tail -40 "$log" >&2
    echo "fuzz: $target crashed; the input is in fuzz/artifacts/$target/" >&2
    exit 1
  fi
  runs=$(grep -oE 'stat::number_of_executed_units: *[0-9]+' "$log" | grep -oE '[0-9]+$' | tail -1)
  total=$((total + ${runs:-0}))
  summary+=("$target: ${runs:-?} executions, no crash")
done
printf '%s\n' "${summary[@]}"
echo "fuzz: $total executions in total"
