#!/usr/bin/env bash
# Installs what autoui needs on a Debian 12 machine with Rust stable, and only what is missing,
# so running it again is cheap. Everything comes from crates.io, npm, PyPI or Debian.
#   scripts/setup.sh         tools to build and serve the app
#   scripts/setup.sh --test  also the browser, the driver and the test servers
set -euo pipefail
source "$(dirname "$0")/env.sh"
cd "$ROOT"

TRUNK_VERSION=0.21.14
with_tests=false
[[ "${1:-}" == "--test" ]] && with_tests=true

say() { printf '\033[1;34m[setup]\033[0m %s\n' "$*"; }
have() { command -v "$1" >/dev/null 2>&1; }
sudo_if_needed() { if [[ $(id -u) -eq 0 ]]; then "$@"; else sudo "$@"; fi; }

apt_missing=()
need_apt() { dpkg -s "$1" >/dev/null 2>&1 || apt_missing+=("$1"); }
have node || need_apt nodejs
have npm || need_apt npm
have gcc || need_apt build-essential
have brotli || need_apt brotli  # scripts/bundle-size.sh reports brotli sizes
have openssl || need_apt openssl  # scripts/split-wasm.sh gives the loader glue's preload its integrity hash
have patch || need_apt patch  # scripts/charts.sh patches vega-interpreter before bundling it
if $with_tests; then
  need_apt chromium
  need_apt chromium-driver
  python3 -c 'import venv, ensurepip' >/dev/null 2>&1 || need_apt python3-venv
fi
if ((${#apt_missing[@]})); then
  say "installing Debian packages: ${apt_missing[*]}"
  sudo_if_needed apt-get update -qq
  sudo_if_needed env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${apt_missing[@]}"
fi

if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  say "adding the wasm32-unknown-unknown target"
  rustup target add wasm32-unknown-unknown
fi

# Trunk 0.22 needs a newer rustc than the machines we target; 0.21.14 is pinned.
if [[ "$(trunk --version 2>/dev/null)" != "trunk $TRUNK_VERSION" ]]; then
  say "installing trunk $TRUNK_VERSION (about 10 minutes the first time)"
  cargo install trunk --version "$TRUNK_VERSION" --locked
fi

# wasm-bindgen-cli must be exactly the wasm-bindgen in Cargo.lock, and Trunk.toml must pin the same.
bindgen_version=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/[^0-9.]/, ""); print }' Cargo.lock)
if ! grep -q "wasm_bindgen = \"$bindgen_version\"" Trunk.toml; then
  echo "Trunk.toml pins a different wasm_bindgen than Cargo.lock ($bindgen_version): update [tools] in Trunk.toml" >&2
  exit 1
fi
if [[ "$(wasm-bindgen --version 2>/dev/null)" != "wasm-bindgen $bindgen_version" ]]; then
  say "installing wasm-bindgen-cli $bindgen_version (about 3 minutes)"
  # Not --locked: its lock file can name a transitive version that is no longer published.
  cargo install wasm-bindgen-cli --version "$bindgen_version"
fi

# wasm-split-cli splits the app's wasm at its `deferred!` functions (scripts/split-wasm.sh, a Trunk
# hook); its format must match the wasm_split_helpers in Cargo.lock (0.2.x).
wasm_split_version=0.2.4
if ! cargo install --list | grep -qx "wasm_split_cli_support v$wasm_split_version:"; then
  say "installing wasm-split-cli $wasm_split_version (about 3 minutes)"
  cargo install wasm_split_cli_support --version "$wasm_split_version" --features build-binary --locked
fi

# wasm-opt and the glue's minifier (scripts/split-wasm.sh), which also bundles the chart engine's
# interpreter (scripts/charts.sh); again when the lock file changed.
tools=scripts/tools
if [[ ! -d "$tools/node_modules" || "$tools/package-lock.json" -nt "$tools/node_modules/.package-lock.json" ]]; then
  say "installing wasm-opt (npm binaryen) and esbuild"
  npm ci --prefix scripts/tools --no-audit --no-fund --loglevel=error
fi

# The vega-lite widget's engine and maps (scripts/charts.sh copies them into the build); again when
# the lock file changed since the last install (npm writes node_modules/.package-lock.json).
charts=vendor/charts
if [[ ! -d "$charts/node_modules" || "$charts/package-lock.json" -nt "$charts/node_modules/.package-lock.json" ]]; then
  say "installing the chart engine (npm vega, vega-lite, vega-interpreter, world-atlas, us-atlas)"
  npm ci --prefix "$charts" --no-audit --no-fund --loglevel=error
fi

if $with_tests; then
  # tests/servers: the MCP servers the tests connect to; tests/e2e: axe-core, which the
  # accessibility scenario injects into the page (the app never loads it); tests/oauth-server: npm
  # oidc-provider, the authorization server of the sign-in scenario.
  for manifest in tests/servers/package.json tests/e2e/package.json tests/oauth-server/package.json; do
    dir=$(dirname "$manifest")
    # (again when the lock file changed since the last install: npm writes node_modules/.package-lock.json)
    if [[ -f "$manifest" && ( ! -d "$dir/node_modules" || "$dir/package-lock.json" -nt "$dir/node_modules/.package-lock.json" ) ]]; then
      say "installing npm test packages in $dir"
      npm ci --prefix "$dir" --no-audit --no-fund --loglevel=error
    fi
  done
  # The MCP conformance suite and the Node 22 it runs on (scripts/conformance.sh).
  "$ROOT/scripts/conformance.sh" --install-only
  if [[ -f tests/servers/requirements.txt ]]; then
    venv="$ROOT/tests/servers/.venv"
    stamp="$venv/.requirements"
    if [[ ! -f "$stamp" ]] || ! cmp -s tests/servers/requirements.txt "$stamp"; then
      say "installing Python test servers"
      python3 -m venv "$venv"
      "$venv/bin/pip" install --quiet --disable-pip-version-check -r tests/servers/requirements.txt
      cp tests/servers/requirements.txt "$stamp"
    fi
  fi
fi

# Trunk builds with --offline, so every crate must already be in the local registry.
cargo fetch --locked --quiet
say "ready"
