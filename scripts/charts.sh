#!/usr/bin/env bash
# Trunk pre-build hook: copies the vega-lite widget's engine and maps from vendor/charts/node_modules
# (npm, exact versions in vendor/charts/package-lock.json, installed by scripts/setup.sh) to
# target/charts/, which index.html copies to dist/charts/. The app serves them from its own origin
# and loads them only when the first vega-lite widget renders (src/adapters/vega.rs).
#   charts/vega.min.js, vega-lite.min.js, vega-embed.min.js   the engine (UMD bundles, in this order)
#   charts/atlas/<name>.json                                  the maps named in specs (core view/vega_lite.rs)
set -euo pipefail
source "$(dirname "$0")/env.sh"
cd "$ROOT"

modules=vendor/charts/node_modules
out=target/charts
[[ -d "$modules/vega-embed" ]] || { echo "charts: $modules is missing: run scripts/setup.sh" >&2; exit 1; }

mkdir -p "$out/atlas"
copy() { # source, destination: only when changed, so a rebuild leaves the files' times alone
  cmp -s "$1" "$2" || cp "$1" "$2"
}
copy "$modules/vega/build/vega.min.js" "$out/vega.min.js"
copy "$modules/vega-lite/build/vega-lite.min.js" "$out/vega-lite.min.js"
copy "$modules/vega-embed/build/vega-embed.min.js" "$out/vega-embed.min.js"
copy "$modules/world-atlas/countries-110m.json" "$out/atlas/world-110m.json"
copy "$modules/world-atlas/countries-50m.json" "$out/atlas/world-50m.json"
copy "$modules/us-atlas/states-10m.json" "$out/atlas/us-states-10m.json"
copy "$modules/us-atlas/counties-10m.json" "$out/atlas/us-counties-10m.json"
