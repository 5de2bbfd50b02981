#!/usr/bin/env bash
# Trunk post-build hook: splits the app's wasm into the first-load module and the chunks its
# `deferred!` functions load on first use (src/deferred.rs), then replaces Trunk's bundle with it.
#
# Trunk runs cargo -> wasm-bindgen -> (wasm-opt) with no step in between, but wasm-split must see
# the linker's output (it reads the relocations `--emit-relocs` keeps, see build.rs) before
# wasm-bindgen rewrites it. So this hook starts again from cargo's wasm:
#   1. wasm-split-cli: main module + one wasm per split chunk + __wasm_split.js, the loader glue
#   2. wasm-bindgen on the main module, with Trunk's flags and the bundle name Trunk chose; the
#      function table stays exported (--keep-lld-exports): the chunks call through it
#   3. wasm-opt on every module and esbuild on the glue (release only, like Trunk)
#   4. the chunks and their loader go to `<bundle>.split/` (the bundle name carries Trunk's hash, so
#      a cached chunk never meets a main module from another build); index.html asks for the
#      loader with the bundle, as an async module script (scripts/minify-assets.sh, run last,
#      computes the integrity hashes of what changed).
# Runs from Trunk (TRUNK_STAGING_DIR, TRUNK_PROFILE); also by hand on a built dist/ for debugging.
set -euo pipefail
source "$(dirname "$0")/env.sh"

# The same features as the app's rustc output (see index.html's comment on the main bundle).
WASM_OPT_PARAMS=(-Oz --strip-debug --strip-producers --enable-bulk-memory --enable-bulk-memory-opt
  --enable-nontrapping-float-to-int --enable-sign-ext --enable-reference-types --enable-multivalue
  --enable-mutable-globals)
# AUTOUI_KEEP_NAMES=1 keeps the functions' names (wasm-opt -g), so a CPU profile of a release
# build says where the time goes (the bench's AUTOUI_CPU_PROFILE); the modules grow, so never measure sizes so.
if [[ "${AUTOUI_KEEP_NAMES:-}" == 1 ]]; then
  named=(-g)
  for param in "${WASM_OPT_PARAMS[@]}"; do [[ "$param" == --strip-debug ]] || named+=("$param"); done
  WASM_OPT_PARAMS=("${named[@]}")
fi
APP=autoui

staging="${TRUNK_STAGING_DIR:?run by Trunk as a post_build hook (TRUNK_STAGING_DIR is unset)}"
profile="${TRUNK_PROFILE:-release}"
target_dir="${CARGO_TARGET_DIR:-$ROOT/target}"
input="$target_dir/wasm32-unknown-unknown/$profile/$APP.wasm"

fail() { echo "split-wasm: $*" >&2; exit 1; }
for tool in wasm-split-cli wasm-bindgen openssl esbuild; do
  command -v "$tool" >/dev/null || fail "$tool is missing: run scripts/setup.sh"
done
[[ -f "$input" ]] || fail "no $input: Trunk should have built it"
grep -q __wasm_split_placeholder__ "$input" ||
  fail "$input has no split points: the app must be built with its \`split\` feature (index.html)"

# Trunk's bundle: <app>-<hash>.js and <app>-<hash>_bg.wasm (the validator bundle has no hash).
mapfile -t loaders < <(cd "$staging" && ls "$APP"-*.js 2>/dev/null | grep -E "^$APP-[0-9a-f]+\.js$")
((${#loaders[@]} == 1)) || fail "expected one $APP-<hash>.js in $staging, found ${#loaders[@]}"
bundle="${loaders[0]%.js}"
split_dir="$bundle.split"

work="$target_dir/wasm-split/$profile"
rm -rf "$work"
mkdir -p "$work/split" "$work/bindgen"

wasm-split-cli "$input" "$work/split" --out-name "$bundle" --target web
wasm-bindgen "$work/split/$bundle.wasm" --out-dir "$work/bindgen" --out-name "$bundle" \
  --target web --no-typescript --weak-refs --keep-lld-exports

# The loader glue lives in the split directory, one level below the main bundle.
link="$work/split/__wasm_split.js"
replace() { # file, from, to: every occurrence; none means the generated code has changed
  grep -qF -- "$2" "$1" || fail "expected \`$2\` in $(basename "$1"): has wasm-bindgen or wasm-split changed?"
  FROM="$2" TO="$3" perl -0pi -e 's/\Q$ENV{FROM}\E/$ENV{TO}/g' "$1"
}
# Only the module specifiers: the wasm's own import names ("./__wasm_split.js") stay as they are.
replace "$work/bindgen/$bundle.js" "from \"./__wasm_split.js\"" "from \"./$split_dir/__wasm_split.js\""
replace "$link" "from \"./$bundle.js\"" "from \"../$bundle.js\""

# Each chunk is fetched and compiled in one step, then instantiated once the main module's memory and
# table exist. On the routes that show widgets at once (`#/gallery`, `#/recipes`: src/ui/route.rs) the
# loader starts that step for the views chunk (`views` in src/ui/views.rs) and the shared chunks it
# imports as soon as it is evaluated, while the main module is still compiling, and fetches them as
# one file, the pack (below): about twenty files fetched alone would queue, as a browser opens at most
# six connections to an HTTP/1.1 host. A chunk's first load uses that step; a later load (after a
# failure) fetches the chunk alone, as does a load whose pack could not be fetched. Other routes
# fetch each chunk alone when it is first needed: there the shared chunks may already have come with
# another chunk. (Debug builds wrap the instantiation in `debugWrap`, release builds do not: the
# wrapper is kept.) Only the shared chunks the views chunk imports: the others (the engine's with the
# samples') would take the cores the gallery needs.
[[ -f "$work/split/split_views.wasm" ]] || fail "no split_views.wasm: was the views chunk of src/chunks/views.rs renamed?"
views_deps=$(perl -0ne 'print "deps:$1" if /__wasm_split_load_views = .*?\n, \[([^\]]*)\]\)\);/s' "$link")
[[ "$views_deps" == deps:* ]] || fail "cannot read the views chunk's shared chunks in __wasm_split.js: has wasm-split changed?"
packed=(split_views.wasm)
views_deps=${views_deps#deps:}
for dep in ${views_deps//,/ }; do packed+=("${dep#__}.wasm"); done
PACK=views.pack
# The pack's parts (file, offset, length) are known once the chunks are optimised: written in then.
early="const earlyRoutes = [\"gallery\", \"recipes\"];
const early = new Map();
function compile(file) {
    const compiled = WebAssembly.compileStreaming(fetch(new URL(\"./\" + file, import.meta.url)));
    compiled.catch(() => {});
    return compiled;
}
const pack = { file: \"$PACK\", parts: __PACK_PARTS__ };
if (earlyRoutes.includes(location.hash.replace(/^#*\\/*/, \"\"))) {
    const arrived = fetch(new URL(\"./\" + pack.file, import.meta.url)).then((response) => {
        if (!response.ok) throw new Error(pack.file + \": HTTP \" + response.status);
        return response.arrayBuffer();
    });
    for (const [file, offset, length] of pack.parts) {
        const module = arrived.then((bytes) => WebAssembly.compile(new Uint8Array(bytes, offset, length)), () => compile(file));
        module.catch(() => {});
        early.set(file, module);
    }
}
function compiled(file) {
    const made = early.get(file) ?? compile(file);
    early.delete(file);
    return made;
}
"
FETCHER='const src = fetch\(new URL\("\./(\w+\.wasm)", import\.meta\.url\)\);\s*src\.catch\(\(\) => \{\}\);\s*return async \(imports\) => (\w*)\(WebAssembly\.instantiateStreaming\(src, imports\)\);'
EARLY="$early" FETCHER="$FETCHER" perl -0pi -e '
  s/$ENV{FETCHER}/const module = compiled("$1");\n    return async (imports) => $2(module.then((module) => WebAssembly.instantiate(module, imports)));/g
    and s/\A(import [^\n]*\n)/$1\n$ENV{EARLY}/' "$link"
rewritten=$(grep -c 'const module = compiled("' "$link" || true)
expected=$(find "$work/split" -name '*.wasm' ! -name "$bundle.wasm" | wc -l)
((rewritten == expected)) ||
  fail "rewrote $rewritten of $expected chunk loaders in __wasm_split.js: has wasm-split changed?"

rm -rf "${staging:?}/$split_dir"
mkdir -p "$staging/$split_dir"
# The glue is in the first load: release builds minify it (a fifth of its gzip size).
ship_js() { # input, output
  if [[ "$profile" == release ]]; then
    esbuild "$1" --minify --format=esm --log-level=error --outfile="$2"
  else
    cp "$1" "$2"
  fi
}
ship_js "$work/bindgen/$bundle.js" "$staging/$bundle.js"
optimise() { # input, output
  if [[ "$profile" == release ]]; then
    wasm-opt "${WASM_OPT_PARAMS[@]}" "$1" -o "$2"
  else
    cp "$1" "$2"
  fi
}
optimise "$work/bindgen/${bundle}_bg.wasm" "$staging/${bundle}_bg.wasm" &
pids=($!)
for chunk in "$work/split"/*.wasm; do
  [[ "$(basename "$chunk")" == "$bundle.wasm" ]] && continue
  optimise "$chunk" "$staging/$split_dir/$(basename "$chunk")" &
  pids+=($!)
done
for pid in "${pids[@]}"; do wait "$pid" || fail "wasm-opt failed"; done

# The pack: the views chunk and its shared chunks as they ship, one after the other; the loader names
# each one's offset and length in it.
parts="" offset=0
for file in "${packed[@]}"; do
  length=$(stat -c %s "$staging/$split_dir/$file")
  parts+="[\"$file\", $offset, $length], "
  offset=$((offset + length))
done
(cd "$staging/$split_dir" && cat "${packed[@]}") >"$staging/$split_dir/$PACK"
replace "$link" "__PACK_PARTS__" "[${parts%, }]"
ship_js "$link" "$staging/$split_dir/__wasm_split.js"

# The integrity hashes of the two files Trunk hashed and this script replaced are computed at the end,
# by scripts/minify-assets.sh, with those of every file it changes.
html="$staging/index.html"
# The main bundle imports the loader glue, so the page asks for the glue with the bundle (as Trunk does
# for the bundle's snippets) rather than when the bundle has been parsed; and as an async module script,
# so the glue runs, and starts the early compiles on the gallery and recipes routes, as soon as it and
# its imports have arrived. Trunk's module script, which starts the app, is deferred: it waits for the
# stylesheets at the end of the body too, and the chunks the gallery waits for would start only then.
# The bundle's import of the glue's URL finds it evaluated (a page has one module per URL).
glue="$split_dir/__wasm_split.js"
digest="sha384-$(openssl dgst -sha384 -binary "$staging/$glue" | openssl base64 -A)"
BUNDLE="$bundle" GLUE="$glue" DIGEST="$digest" perl -0pi -e \
  's{(<link rel="modulepreload" href="([^"]*/)\Q$ENV{BUNDLE}\E\.js"[^>]*>)}{$1\n<script type="module" async src="$2$ENV{GLUE}" crossorigin="anonymous" integrity="$ENV{DIGEST}"></script>}' \
  "$html"
grep -qF "$glue\" crossorigin=\"anonymous\" integrity=\"$digest\"></script>" "$html" ||
  fail "could not add the script of $glue to index.html: has Trunk's modulepreload of $bundle.js changed?"
# The browser store's early open (src/adapters/store_open.js, a wasm-bindgen snippet) runs as soon as
# it arrives rather than once the whole bundle has: Trunk's preload of it becomes an async module
# script with the same integrity, first in the page after its policy (so it is requested first), and
# the bundle's import of that URL then finds the module already evaluated (a page has one module per
# URL). A browser's first open of a database then overlaps the download instead of following it.
perl -0pi -e '
  s{<link rel="modulepreload" href(="[^"]*/src/adapters/store_open\.js" crossorigin="anonymous" integrity="[^"]*")>}{}
    or die "no preload of store_open.js\n";
  my $script = "<script type=\"module\" async src$1></script>";
  s{(<meta http-equiv="Content-Security-Policy"\s+content="[^"]*" />)}{$1\n    $script}
    or die "no policy to put the script after\n";
' "$html" || fail "could not make the store's early open a script in index.html: has Trunk's preload of the snippets changed?"
# The page's policy allows no inline script but Trunk's own (its module loader, and the reload
# script of `trunk serve`): each one's hash joins script-src. A page whose policy cannot be found, or
# with an inline script the policy would not name, fails the build rather than start blank.
perl -0pi -MDigest::SHA=sha256_base64 -e '
  my @hashes;
  while (m{<script(?![^>]*\bsrc=)[^>]*>(.*?)</script>}gs) {
    my $digest = sha256_base64($1);
    $digest .= "=" x ((4 - length($digest) % 4) % 4);
    push @hashes, "\x27sha256-$digest\x27";
  }
  my $sources = join(" ", @hashes);
  s{(http-equiv="Content-Security-Policy"\s+content="[^"]*?script-src [^;"]*?)(;|")}{$1 $sources$2}s
    or die "no script-src in the page policy\n" if @hashes;
' "$html" || fail "could not add the inline scripts' hashes to index.html's policy"
if grep -q "script-src[^;]*'unsafe-inline'" "$html"; then
  fail "index.html's policy allows inline scripts: name them by hash instead"
fi
echo "split-wasm: $bundle split into $(find "$staging/$split_dir" -name '*.wasm' | wc -l) chunks in $split_dir/"
# Trunk runs the hooks of one stage at the same time, so the step that must follow this one is run from here.
"$(dirname "$0")/minify-assets.sh" "$staging"
