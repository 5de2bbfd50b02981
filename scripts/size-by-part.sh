#!/usr/bin/env bash
# Where the views chunk's bytes go, by widget (issue 21). twiggy (SIZE.md) names functions, but much of
# a widget's bytes is code inlined into it or instantiated for it (Leptos's generic views and reactive
# closures), which no name ties to the widget. So this builds the app once as committed, then once
# without each part, and prints what leaving the part out saves in the views chunk and in the main
# module, gzip -9 after wasm-opt -Oz (before wasm-bindgen, so the main module is a little larger than
# what ships). Prints SIZE-BY-PART.md:
#   scripts/size-by-part.sh > SIZE-BY-PART.md   every widget, markdown, and every widget at once
#   scripts/size-by-part.sh sankey text         only those parts (a widget's name, `markdown` or `every-widget`)
# `markdown` is the renderer the chat and the `text` widget share: both are left out. `every-widget` leaves
# out every widget and markdown at once: what is left of the views chunk is what no widget needs.
# Each build relinks the whole app with LTO, about 2.5 min, one core: about 75 min for all parts, after
# a first build of the dependencies into its own directory (target/size-by-part, so dist/ and the
# usual release build are left alone; SIZE_BY_PART_DIR names another, so two runs with different parts
# can share two cores). Builds HEAD: commit first.
set -euo pipefail
source "$(dirname "$0")/env.sh"

for tool in wasm-split-cli wasm-opt gzip git; do
  command -v "$tool" >/dev/null || { echo "$tool is missing: run scripts/setup.sh" >&2; exit 1; }
done
WASM_OPT_PARAMS=(-Oz --strip-debug --strip-producers --enable-bulk-memory --enable-bulk-memory-opt
  --enable-nontrapping-float-to-int --enable-sign-ext --enable-reference-types --enable-multivalue
  --enable-mutable-globals)

work="${SIZE_BY_PART_DIR:-$ROOT/target/size-by-part}"
tree="$work/tree"
export CARGO_TARGET_DIR="$work/target"
mkdir -p "$work"
git -C "$ROOT" worktree remove --force "$tree" 2>/dev/null || rm -rf "$tree"
git -C "$ROOT" worktree prune
git -C "$ROOT" worktree add --quiet --detach "$tree" HEAD
trap 'git -C "$ROOT" worktree remove --force "$tree" 2>/dev/null || true' EXIT

render="$tree/src/widgets/mod.rs"
views_rs="$tree/src/chunks/views.rs"
# The widget kinds, as `render` names them (`WidgetKind::ChartRich`) and as people do (`chart-rich`).
mapfile -t kinds < <(sed -n 's/^        WidgetKind::\([A-Za-z]*\) =>.*/\1/p' "$render")
((${#kinds[@]} > 0)) || { echo "no \`WidgetKind::X =>\` arms in src/widgets/mod.rs: has render changed?" >&2; exit 1; }
kebab() { sed -E 's/([a-z])([A-Z])/\1-\2/g' <<<"$1" | tr '[:upper:]' '[:lower:]'; }

# Prints "<views gzip> <main gzip>" for the tree as it is.
measure() {
  (cd "$tree" && cargo build --release --locked --quiet --target wasm32-unknown-unknown --features split --bin autoui)
  local out="$work/split"
  rm -rf "$out" && mkdir -p "$out"
  wasm-split-cli "$CARGO_TARGET_DIR/wasm32-unknown-unknown/release/autoui.wasm" "$out" --out-name app --target web >/dev/null
  local sizes=()
  for module in split_views app; do
    wasm-opt "${WASM_OPT_PARAMS[@]}" "$out/$module.wasm" -o "$out/$module.opt.wasm" 2>/dev/null
    sizes+=("$(gzip -9c "$out/$module.opt.wasm" | wc -c)")
  done
  echo "${sizes[*]}"
}

# Leaves `part` out of the tree: a widget's arm of `render` shows nothing; markdown renders nothing in
# the chat and the `text` widget is left out; `every-widget` does both for every widget.
leave_out() {
  local part=$1 before
  git -C "$tree" checkout --quiet -- src
  before=$(cat "$render" "$views_rs")
  if [[ "$part" == every-widget ]]; then
    sed -i 's/markdown: to_safe_html_with,/markdown: |_, _| String::new(),/' "$views_rs"
    sed -i "s/^\(        WidgetKind::[A-Za-z]* =>\).*/\1 ().into_any(),/" "$render"
  elif [[ "$part" == markdown ]]; then
    sed -i 's/markdown: to_safe_html_with,/markdown: |_, _| String::new(),/' "$views_rs"
    sed -i "s/^\(        WidgetKind::Text =>\).*/\1 ().into_any(),/" "$render"
  else
    for kind in "${kinds[@]}"; do
      [[ "$(kebab "$kind")" == "$part" ]] && sed -i "s/^\(        WidgetKind::$kind =>\).*/\1 ().into_any(),/" "$render"
    done
  fi
  [[ "$(cat "$render" "$views_rs")" != "$before" ]] || { echo "cannot leave out \`$part\`: not a widget or markdown, or the source changed" >&2; exit 1; }
}

parts=("$@")
if ((${#parts[@]} == 0)); then
  for kind in "${kinds[@]}"; do parts+=("$(kebab "$kind")"); done
  parts+=(markdown every-widget)
fi

kb() { awk -v b="$1" 'BEGIN { printf "%.1f KB", b / 1000 }'; }
# What leaving a part out changed, as a saving (−) or, when the build without it is larger, a cost (+).
delta() { awk -v b="$1" 'BEGIN { if (b >= 0) printf "−%.1f KB", b / 1000; else printf "+%.1f KB", -b / 1000 }'; }
echo "building the app as committed ($(git -C "$ROOT" rev-parse --short HEAD))..." >&2
whole=$(measure)
read -r views_whole main_whole <<<"$whole"
cat <<HEADER
# Size by part

Written by \`scripts/size-by-part.sh\` on $(date -u '+%Y-%m-%d %H:%M UTC') from commit $(git -C "$ROOT" rev-parse --short HEAD):
what leaving each widget (or markdown, in the chat and with the \`text\` widget) out of the app saves, gzip -9 after \`wasm-opt -Oz\`. Much of a
widget's bytes is code inlined into it or instantiated for it (Leptos's generic views and reactive
closures), which SIZE.md's per-function table cannot tie to the widget. Code two parts share is saved only when both are left out, so the rows
add up to less than the whole; the `every-widget` row leaves every widget and markdown out at once. The main module is measured before wasm-bindgen. 1 KB = 1,000 bytes.

| part | views chunk | main module |
|---|---|---|
| whole build | $(kb "$views_whole") | $(kb "$main_whole") |
HEADER
for part in "${parts[@]}"; do
  echo "building without $part..." >&2
  leave_out "$part"
  without=$(measure)
  read -r views_without main_without <<<"$without"
  echo "| without \`$part\` | $(delta $((views_whole - views_without))) | $(delta $((main_whole - main_without))) |"
done
