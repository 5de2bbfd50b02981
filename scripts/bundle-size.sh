#!/usr/bin/env bash
# Sizes of the built site, for the first-load budget (450 KB gzip -9). Builds nothing: run
# `trunk build --release` first. Reads dist/ (or the directory given) and prints every file's raw,
# gzip -9 and brotli (quality 11) size, then the first-load total against the deferred total.
#   scripts/bundle-size.sh [dist-dir]          a table
#   scripts/bundle-size.sh --json [dist-dir]   the same figures as one JSON object
# First load: index.html and every file it names, then every file those name, transitively (the app's
# JS, wasm, CSS, snippets, icon, the split loader glue). Deferred: the validator bundle and the app's
# wasm chunks (`<bundle>.split/*.wasm`, see scripts/split-wasm.sh) and the widgets' stylesheet
# (`widgets.css`, with the views chunk; `engine.css`, with the engine chunk), which the app fetches after first paint or on first use, and the vega-lite widget's engine and maps (`charts/`, scripts/charts.sh). Anything else (e.g. _headers) is not loaded by the page. 1 KB = 1,000 bytes.
set -euo pipefail
source "$(dirname "$0")/env.sh"

BUDGET_GZIP=450000
# Fetched by the app itself after first paint or on first use, never by the page's markup.
is_deferred() { [[ "$1" == autoui-validator* || "$1" == *.split/*.wasm || "$1" == charts/* || "$1" == widgets.css || "$1" == engine.css ]]; }

json=false
if [[ "${1:-}" == "--json" ]]; then json=true; shift; fi
dist="${1:-$ROOT/dist}"
if [[ ! -f "$dist/index.html" ]]; then
  echo "no $dist/index.html: run \`trunk build --release\` first" >&2
  exit 1
fi
for tool in gzip brotli; do
  if ! command -v "$tool" >/dev/null; then
    echo "$tool is missing: run scripts/setup.sh" >&2
    exit 1
  fi
done
cd "$dist"

mapfile -t files < <(find . -type f ! -path './.stage/*' | sed 's|^\./||' | LC_ALL=C sort)

# Walks references from index.html: a file is loaded when a loaded text file names its path.
declare -A group=([index.html]=first-load)
queue=(index.html)
while ((${#queue[@]})); do
  current="${queue[0]}"
  queue=("${queue[@]:1}")
  case "$current" in *.html | *.js | *.css) ;; *) continue ;; esac
  for file in "${files[@]}"; do
    [[ -n "${group[$file]:-}" ]] && continue
    is_deferred "$file" && continue
    # The whole path, between quotes, slashes, parentheses or spaces: `_headers` is not `set_headers`.
    pattern="(^|[\"'(/ =])$(printf '%s' "$file" | sed 's/[].[^$*+?(){}|\\]/\\&/g')(\$|[\"')?# ])"
    if grep -qE -- "$pattern" "$current"; then
      group[$file]=first-load
      queue+=("$file")
    fi
  done
done
# A pack holds copies of chunks (several fetched as one file: scripts/split-wasm.sh), so it is listed
# as `pack` and counted in neither total.
for file in "${files[@]}"; do
  if [[ -z "${group[$file]:-}" ]]; then
    if is_deferred "$file"; then group[$file]=deferred
    elif [[ "$file" == *.split/*.pack ]]; then group[$file]=pack
    else group[$file]=not-loaded; fi
  fi
done

declare -A total_raw total_gzip total_brotli
rows=()
for file in "${files[@]}"; do
  raw=$(wc -c <"$file")
  gz=$(gzip -9 -c "$file" | wc -c)
  br=$(brotli -q 11 -c "$file" | wc -c)
  g="${group[$file]}"
  total_raw[$g]=$((${total_raw[$g]:-0} + raw))
  total_gzip[$g]=$((${total_gzip[$g]:-0} + gz))
  total_brotli[$g]=$((${total_brotli[$g]:-0} + br))
  rows+=("$file $raw $gz $br $g")
done

first_gzip=${total_gzip[first-load]:-0}
verdict=$([[ $first_gzip -le $BUDGET_GZIP ]] && echo met || echo "not met")

if $json; then
  printf '{"dist":"%s","budget_gzip":%d,"budget":"%s","files":[' "$dist" "$BUDGET_GZIP" "$verdict"
  sep=""
  for row in "${rows[@]}"; do
    read -r file raw gz br g <<<"$row"
    printf '%s{"file":"%s","raw":%d,"gzip":%d,"brotli":%d,"group":"%s"}' "$sep" "$file" "$raw" "$gz" "$br" "$g"
    sep=","
  done
  printf '],"totals":{'
  sep=""
  for g in first-load deferred; do
    printf '%s"%s":{"raw":%d,"gzip":%d,"brotli":%d}' "$sep" "$g" "${total_raw[$g]:-0}" "${total_gzip[$g]:-0}" "${total_brotli[$g]:-0}"
    sep=","
  done
  printf '}}\n'
  exit 0
fi

kb() { awk -v b="$1" 'BEGIN { printf "%.1f", b / 1000 }'; }
printf '%-48s %10s %10s %10s  %s\n' file raw gzip-9 brotli group
for row in "${rows[@]}"; do
  read -r file raw gz br g <<<"$row"
  printf '%-48s %10d %10d %10d  %s\n' "$file" "$raw" "$gz" "$br" "$g"
done
echo
for g in first-load deferred; do
  printf '%-48s %10d %10d %10d  (%s KB gzip, %s KB brotli)\n' "total $g" "${total_raw[$g]:-0}" \
    "${total_gzip[$g]:-0}" "${total_brotli[$g]:-0}" "$(kb "${total_gzip[$g]:-0}")" "$(kb "${total_brotli[$g]:-0}")"
done
echo "first-load budget: $(kb "$first_gzip") KB gzip -9 of $(kb "$BUDGET_GZIP") KB: $verdict"
