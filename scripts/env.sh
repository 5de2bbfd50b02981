# Sourced by the other scripts: puts the project's tools on PATH and names the browser binaries.
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export ROOT
export PATH="$ROOT/scripts/tools/node_modules/.bin:${CARGO_HOME:-$HOME/.cargo}/bin:$HOME/.cargo/bin:$PATH"
export CHROMEDRIVER="${CHROMEDRIVER:-/usr/bin/chromedriver}"
export CHROMIUM="${CHROMIUM:-/usr/bin/chromium}"
