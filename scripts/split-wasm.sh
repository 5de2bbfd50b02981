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
# table exist. A chunk and the shared chunks it imports come as one file, a pack, when they are
# needed together and none of them has been asked for yet: about twenty files fetched alone would
# queue, as a browser sends at most six requests at a time to an HTTP/1.1 host. Three packs, in the
# order a page needs them:
#   views.pack    the views chunk (`views` in src/ui/views.rs) and the 20 shared chunks it imports.
#                 On the routes that show widgets at once (`#/gallery`, `#/recipes`: src/ui/route.rs)
#                 the loader fetches it and starts compiling its chunks as soon as it is evaluated,
#                 while the main module is still compiling.
#   writing.pack  the store's writing chunk and its shared chunks, with the writing chunk's first load
#                 (the canvas's restore, or after first paint).
#   canvas.pack   the frames and views chunks and their shared chunks, with the frames chunk's first
#                 load (whenever the canvas may show a widget, the views chunk is asked for with it:
#                 `ui::canvas::request_widget_code`); but the writing pack's, and those the settings
#                 chunk imports, which the person's first press, key or focus fetches
#                 (`deferred::on_first_interaction`), on an empty canvas before its first widget.
# A pack some of whose chunks were already asked for (another chunk imported them, or another pack
# brought them) is not fetched: its chunks are fetched alone, so no byte comes twice. A chunk's first
# load uses its pack's compile; a later load (after a failure) fetches the chunk alone, as does a load
# whose pack could not be fetched. (Debug builds wrap the instantiation in `debugWrap`, release
# builds do not: the wrapper is kept.)
deps_of() { # split module -> the files of the shared chunks it imports, one per line
  local deps
  deps=$(MODULE="$1" perl -0ne 'print "deps:$1" if /__wasm_split_load_$ENV{MODULE} = .*?\n, \[([^\]]*)\]\)\);/s' "$link")
  [[ "$deps" == deps:* ]] || fail "cannot read the $1 chunk's shared chunks in __wasm_split.js: has wasm-split changed?"
  deps=${deps#deps:}
  for dep in ${deps//,/ }; do echo "${dep#__}.wasm"; done
}
for module in views writing frames settings; do
  [[ -f "$work/split/split_$module.wasm" ]] || fail "no split_$module.wasm: was the $module chunk of src/chunks/ renamed?"
done
# (Read into variables first: a failure inside a process substitution would not stop the script.)
views_deps=$(deps_of views)
writing_deps=$(deps_of writing)
frames_deps=$(deps_of frames)
settings_deps=$(deps_of settings)
mapfile -t views_pack < <(printf '%s\n' split_views.wasm "$views_deps")
mapfile -t writing_pack < <(printf '%s\n' split_writing.wasm "$writing_deps")
mapfile -t canvas_pack < <(printf '%s\n' split_frames.wasm split_views.wasm "$frames_deps" "$views_deps" |
  grep -vxF -f <(printf '%s\n' "${writing_pack[@]}" "$settings_deps") | awk '!seen[$0]++')
# Each pack's parts (file, offset, length) are known once the chunks are optimised: written in then.
early="const earlyRoutes = [\"gallery\", \"recipes\"];
const early = new Map();
const requested = new Set();
function compile(file) {
    const compiled = WebAssembly.compileStreaming(fetch(new URL(\"./\" + file, import.meta.url)));
    compiled.catch(() => {});
    return compiled;
}
const packs = {
    views: { file: \"views.pack\", parts: __PACK_views__ },
    writing: { file: \"writing.pack\", parts: __PACK_writing__ },
    canvas: { file: \"canvas.pack\", parts: __PACK_canvas__ },
};
function unpack(pack) {
    if (pack.parts.some(([file]) => requested.has(file) || early.has(file))) return;
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
function withPack(pack, load) {
    return () => {
        unpack(pack);
        return load();
    };
}
if (earlyRoutes.includes(location.hash.replace(/^#*\\/*/, \"\"))) unpack(packs.views);
function compiled(file) {
    requested.add(file);
    const made = early.get(file) ?? compile(file);
    early.delete(file);
    return made;
}
"
FETCHER='const src = fetch\(new URL\("\./(\w+\.wasm)", import\.meta\.url\)\);\s*src\.catch\(\(\) => \{\}\);\s*return async \(imports\) => (\w*)\(WebAssembly\.instantiateStreaming\(src, imports\)\);'
EARLY="$early" FETCHER="$FETCHER" perl -0pi -e '
  s/$ENV{FETCHER}/const module = compiled("$1");\n    return async (imports) => $2(module.then((module) => WebAssembly.instantiate(module, imports)));/g
    and s/\A(import [^\n]*\n)/$1\n$ENV{EARLY}/' "$link"
for module in writing:writing frames:canvas; do
  MODULE="${module%:*}" PACK="${module#*:}" perl -0pi -e '
    s/(__wasm_split_load_$ENV{MODULE} = wrapAsyncCb\()(makeLoad\(.*?\n, \[[^\]]*\]\))\);/$1withPack(packs.$ENV{PACK}, $2));/s
      or die "no loader for the $ENV{MODULE} chunk\n"' "$link" || fail "cannot give the ${module%:*} chunk's loader its pack: has wasm-split changed?"
done
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

# The packs: their chunks as they ship, one after the other; the loader names each one's offset and
# length in its pack.
write_pack() { # name, files
  local name="$1" parts="" offset=0 length file
  shift
  for file in "$@"; do
    length=$(stat -c %s "$staging/$split_dir/$file")
    parts+="[\"$file\", $offset, $length], "
    offset=$((offset + length))
  done
  (cd "$staging/$split_dir" && cat "$@") >"$staging/$split_dir/$name.pack"
  replace "$link" "__PACK_${name}__" "[${parts%, }]"
}
write_pack views "${views_pack[@]}"
write_pack writing "${writing_pack[@]}"
write_pack canvas "${canvas_pack[@]}"
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
