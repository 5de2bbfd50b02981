#!/usr/bin/env bash
# The last step of the build, run by split-wasm.sh when it is done: Trunk runs the hooks of one stage
# at the same time, so this cannot be a hook of its own (it must see the bundle split-wasm.sh wrote).
# In release builds every byte of these files is downloaded by every visit, and Trunk minifies nothing
# by default (its own minifier would also rewrite index.html, whose tags split-wasm.sh edits). So, with
# esbuild, which the build already has:
#   - the stylesheets: Trunk's hashed ones, widgets.css and engine.css that the chunks fetch, and those
#     inlined in index.html (each <style> element);
#   - the JavaScript snippets wasm-bindgen copies from the crate (store_open.js, the inline_js ones);
#   - index.html loses its comments (they explain the source, not the page).
# Then, in every build, each `integrity` in index.html is computed from the file it names: the files
# changed here and those split-wasm.sh replaced (the bundle and its wasm) are never refused by the
# browser, and a tag whose file cannot be found fails the build.
# Reads Trunk's TRUNK_PROFILE and TRUNK_PUBLIC_URL; also runs by hand on a built dist/:
# scripts/minify-assets.sh dist
set -euo pipefail
source "$(dirname "$0")/env.sh"

staging="${1:-${TRUNK_STAGING_DIR:?run by Trunk as a post_build hook, or pass the output directory}}"
fail() { echo "minify-assets: $*" >&2; exit 1; }
html="$staging/index.html"
[[ -f "$html" ]] || fail "no index.html in $staging"

minify() { # file, esbuild options...: in place
  local file="$1"
  shift
  esbuild "$file" --minify --log-level=error "$@" --outfile="$file.min" || fail "esbuild could not minify $file"
  mv "$file.min" "$file"
}
if [[ "${TRUNK_PROFILE:-release}" == release ]]; then
  command -v esbuild >/dev/null || fail "esbuild is missing: run scripts/setup.sh"
  shopt -s nullglob
  for css in "$staging"/*.css; do minify "$css"; done
  while IFS= read -r -d '' js; do minify "$js" --format=esm; done < <(find "$staging/snippets" -name '*.js' -print0 2>/dev/null)
  # Each inline stylesheet through esbuild, as a file of its own.
  STAGING="$staging" perl -0pi -e '
    my $n = 0;
    s{(<style\b[^>]*>)(.*?)(</style>)}{
      my ($open, $css, $close) = ($1, $2, $3);
      my $file = "$ENV{STAGING}/.inline-" . $n++ . ".css";
      open(my $out, ">", $file) or die "cannot write $file\n";
      print $out $css;
      close $out;
      system("esbuild", $file, "--minify", "--log-level=error", "--outfile=$file.min") == 0
        or die "esbuild could not minify an inline stylesheet of index.html\n";
      open(my $in, "<", "$file.min") or die "cannot read $file.min\n";
      local $/;
      my $min = <$in>;
      close $in;
      unlink $file, "$file.min";
      chomp $min;
      "$open$min$close"
    }gse;
  ' "$html" || fail "could not minify the inline stylesheets of index.html"
  # Comments only: no comment sits inside the page's one inline script (Trunk's loader).
  perl -0pi -e 's/[ \t]*<!--.*?-->[ \t]*\n?//gs' "$html"
fi

# Each `integrity` names the digest of the file in its tag's href or src (under the public URL).
FILES_ROOT="$staging" PUBLIC_URL="${TRUNK_PUBLIC_URL:-/}" perl -0pi -MDigest::SHA=sha384_base64 -e '
  sub digest {
    my ($path) = @_;
    my $file = "$ENV{FILES_ROOT}/$path";
    open(my $fh, "<:raw", $file) or die "index.html names $path, which is not in the build\n";
    local $/;
    my $digest = sha384_base64(<$fh>);
    return "sha384-" . $digest . ("=" x ((4 - length($digest) % 4) % 4));
  }
  my $tags = () = /\bintegrity="/g;
  my $done = s{(<(?:link|script)\b[^>]*?\b(?:href|src)="\Q$ENV{PUBLIC_URL}\E([^"]+)"[^>]*?\bintegrity=")[^"]*(")}{$1 . digest($2) . $3}ge;
  die "$done of the $tags integrity attributes name a file of the build\n" if $done != $tags;
' "$html" || fail "could not compute the integrity hashes of index.html"
echo "minify-assets: index.html's integrity hashes computed in $staging"
