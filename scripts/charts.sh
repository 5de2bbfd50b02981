#!/usr/bin/env bash
# Trunk pre-build hook: copies the vega-lite widget's engine and maps from vendor/charts/node_modules
# (npm, exact versions in vendor/charts/package-lock.json, installed by scripts/setup.sh) to
# target/charts/, which index.html copies to dist/charts/. The app serves them from its own origin
# and loads them only when the first vega-lite widget renders (src/adapters/vega.rs).
#   charts/vega.min.js, vega-lite.min.js                      the engine (UMD bundles, in this order)
#   charts/vega-interpreter.js                                vega's expression interpreter (no eval), an ES
#     module bundled by esbuild into a script defining `vegaInterpreter`, with vendor/charts/vega-interpreter.patch
#   charts/atlas/<name>.json                                  the maps named in specs (core view/vega_lite.rs)
set -euo pipefail
source "$(dirname "$0")/env.sh"
cd "$ROOT"

modules=vendor/charts/node_modules
out=target/charts
[[ -d "$modules/vega-interpreter" ]] || { echo "charts: $modules is missing: run scripts/setup.sh" >&2; exit 1; }

mkdir -p "$out/atlas"
copy() { # source, destination: only when changed, so a rebuild leaves the files' times alone
  cmp -s "$1" "$2" || cp "$1" "$2"
}
copy "$modules/vega/build/vega.min.js" "$out/vega.min.js"
copy "$modules/vega-lite/build/vega-lite.min.js" "$out/vega-lite.min.js"
interpreter=$(mktemp -d)
trap 'rm -rf "$interpreter"' EXIT
cp "$modules/vega-interpreter/build/vega-interpreter.js" "$interpreter/"
patch --quiet --directory="$interpreter" --strip=2 <vendor/charts/vega-interpreter.patch
NODE_PATH="$ROOT/$modules" esbuild "$interpreter/vega-interpreter.js" --bundle --minify --format=iife \
  --global-name=vegaInterpreter --log-level=error --outfile="$interpreter/bundle.js"
copy "$interpreter/bundle.js" "$out/vega-interpreter.js"
copy "$modules/world-atlas/countries-110m.json" "$out/atlas/world-110m.json"
copy "$modules/world-atlas/countries-50m.json" "$out/atlas/world-50m.json"
copy "$modules/us-atlas/states-10m.json" "$out/atlas/us-states-10m.json"
copy "$modules/us-atlas/counties-10m.json" "$out/atlas/us-counties-10m.json"
