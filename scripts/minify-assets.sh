#!/usr/bin/env bash
# Trunk post_build hook (release builds only, after split-wasm.sh): every byte of these files is
# downloaded by every visit, and Trunk minifies nothing by default (its own minifier would also
# rewrite index.html, whose tags split-wasm.sh edits). So, with esbuild, which the build already has:
#   - the stylesheets: Trunk's hashed ones, and widgets.css and engine.css that the chunks fetch;
#   - the JavaScript snippets wasm-bindgen copies from the crate (store_open.js, the inline_js ones);
#   - index.html loses its comments (they explain the source, not the page);
# then every `integrity` in index.html is computed again from the file it names, so a file changed
# here (or anywhere before) is never refused by the browser.
# Runs from Trunk (TRUNK_STAGING_DIR, TRUNK_PROFILE); also by hand on a built dist/: scripts/minify-assets.sh dist
set -euo pipefail
source "$(dirname "$0")/env.sh"

staging="${1:-${TRUNK_STAGING_DIR:?run by Trunk as a post_build hook, or pass the output directory}}"
[[ "${TRUNK_PROFILE:-release}" == release ]] || exit 0
fail() { echo "minify-assets: $*" >&2; exit 1; }
command -v esbuild >/dev/null || fail "esbuild is missing: run scripts/setup.sh"
html="$staging/index.html"
[[ -f "$html" ]] || fail "no index.html in $staging"

minify() { # file, esbuild options...: in place
  local file="$1"
  shift
  esbuild "$file" --minify --log-level=error "$@" --outfile="$file.min" || fail "esbuild could not minify $file"
  mv "$file.min" "$file"
}
shopt -s nullglob
for css in "$staging"/*.css; do minify "$css"; done
while IFS= read -r -d '' js; do minify "$js" --format=esm; done < <(find "$staging/snippets" -name '*.js' -print0 2>/dev/null)

# Comments only: no comment sits inside the page's one inline script (Trunk's loader).
perl -0pi -e 's/[ \t]*<!--.*?-->[ \t]*\n?//gs' "$html"

# Each `integrity` names the digest of the file in its tag's href or src.
FILES_ROOT="$staging" perl -0pi -MDigest::SHA=sha384_base64 -e '
  sub digest {
    my ($path) = @_;
    my $file = "$ENV{FILES_ROOT}/$path";
    open(my $fh, "<:raw", $file) or die "index.html names $path, which is not in the build\n";
    local $/;
    my $digest = sha384_base64(<$fh>);
    return "sha384-" . $digest . ("=" x ((4 - length($digest) % 4) % 4));
  }
  s{(<(?:link|script)\b[^>]*?\b(?:href|src)="/([^"]+)"[^>]*?\bintegrity=")[^"]*(")}{$1 . digest($2) . $3}ge;
' "$html" || fail "could not recompute the integrity hashes of index.html"
echo "minify-assets: minified the stylesheets, the snippets and index.html in $staging"
