//! Repository rules checked as tests: file headers and the core's dependency boundary.

use std::fs;
use std::path::{Path, PathBuf};

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().expect("workspace root")
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name();
        if name == "target" || name == "node_modules" || name.to_string_lossy().starts_with('.') {
            continue;
        }
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|ext| ext == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn every_rust_file_starts_with_a_module_doc_line() {
    let root = workspace_root();
    let mut files = Vec::new();
    for dir in ["src", "crates", "tests"] {
        rust_files(&root.join(dir), &mut files);
    }
    assert!(files.len() > 10, "found only {} files under {}", files.len(), root.display());
    let missing: Vec<String> = files
        .iter()
        .filter(|path| !fs::read_to_string(path).unwrap_or_default().starts_with("//!"))
        .map(|path| path.strip_prefix(&root).unwrap_or(path).display().to_string())
        .collect();
    assert!(missing.is_empty(), "files without a leading `//!` line saying what they own: {missing:#?}");
}

const BROWSER_CRATES: &[&str] = &["leptos", "web-sys", "web_sys", "js-sys", "js_sys", "wasm-bindgen", "wasm_bindgen", "gloo"];

#[test]
fn the_core_depends_on_no_browser_or_ui_crate() {
    let manifest = fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml")).expect("core manifest");
    for line in manifest.lines().map(str::trim) {
        let name = line.split(['=', '.', ' ']).next().unwrap_or_default();
        assert!(!BROWSER_CRATES.iter().any(|krate| name.starts_with(krate)), "autoui-core must not depend on {line}");
    }

    let mut files = Vec::new();
    rust_files(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"), &mut files);
    for file in files {
        let text = fs::read_to_string(&file).unwrap_or_default();
        for krate in ["leptos::", "web_sys::", "js_sys::", "wasm_bindgen::", "gloo::", "gloo_net::", "gloo_timers::"] {
            assert!(!text.contains(krate), "{} uses {krate}: the core must stay browser-free", file.display());
        }
    }
}

/// The app's layers, top first: a file may name its own layer and those below it, never one above.
/// `main.rs` and `lib.rs` sit on top; `deferred.rs` (the chunk loader) is a leaf every layer may use.
const APP_LAYERS: &[&str] = &["chunks", "ui", "widgets", "state", "adapters"];

/// The layers `text`, a file of layer `layer`, names above itself, as `crate::<layer>` paths (comments
/// aside).
fn upward_imports(layer: &str, text: &str) -> Vec<String> {
    let rank = |name: &str| APP_LAYERS.iter().position(|l| *l == name);
    let own = rank(layer).unwrap_or(usize::MAX);
    let mut found = Vec::new();
    for line in text.lines() {
        let code = line.split("//").next().unwrap_or_default();
        for (at, _) in code.match_indices("crate::") {
            let name: String = code[at + "crate::".len()..].chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
            if rank(&name).is_some_and(|named| named < own) {
                found.push(format!("crate::{name} in `{}`", line.trim()));
            }
        }
    }
    found
}

#[test]
fn the_layer_check_catches_an_upward_import() {
    assert_eq!(upward_imports("state", "use crate::ui::console::ConsolePanel;").len(), 1);
    assert_eq!(upward_imports("adapters", "let x = crate::state::canvas::use_canvas();").len(), 1);
    assert_eq!(upward_imports("ui", "use crate::chunks::views::views;").len(), 1);
    assert!(upward_imports("ui", "use crate::state::canvas::CanvasCtx; // not crate::chunks").is_empty());
    assert!(upward_imports("chunks", "use crate::ui::gallery::Gallery;").is_empty());
    assert_eq!(upward_imports("deferred", "use crate::adapters::clock;").len(), 1, "the loader is a leaf");
}

#[test]
fn the_app_layers_point_down() {
    let src = workspace_root().join("src");
    let mut violations = Vec::new();
    let mut checked = 0;
    for layer in APP_LAYERS.iter().copied().chain(["deferred"]) {
        let mut files = Vec::new();
        let dir = src.join(layer);
        if dir.is_dir() {
            rust_files(&dir, &mut files);
        } else {
            files.push(src.join(format!("{layer}.rs")));
        }
        for file in files {
            let text = fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
            checked += 1;
            for found in upward_imports(layer, &text) {
                violations.push(format!("{}: {found}", file.strip_prefix(&src).unwrap_or(&file).display()));
            }
        }
    }
    assert!(checked > 40, "only {checked} app files found under {}", src.display());
    assert!(violations.is_empty(), "imports pointing up the layers (chunks -> ui -> widgets -> state -> adapters): {violations:#?}");
}

/// The std sort calls in `text`'s code before its tests: each compiles std's sort once more for
/// the download (issue 21); the app sorts through `autoui_core::sort`, which compiles it once.
fn std_sorts(text: &str) -> Vec<String> {
    let code = text.split("#[cfg(test)]").next().unwrap_or_default();
    code.lines()
        .filter(|line| !line.trim_start().starts_with("//"))
        .filter(|line| [".sort(", ".sort_by(", ".sort_by_key(", ".sort_by_cached_key(", ".sort_unstable"].iter().any(|call| line.contains(call)))
        .map(|line| line.trim().to_owned())
        .collect()
}

#[test]
fn the_sort_check_catches_a_std_sort_and_ignores_tests() {
    assert_eq!(std_sorts("fn f(v: &mut Vec<u8>) {\n    v.sort_unstable();\n}\n"), ["v.sort_unstable();"]);
    assert!(std_sorts("fn f() {}\n#[cfg(test)]\nmod tests { fn g(v: &mut Vec<u8>) { v.sort(); } }\n").is_empty());
    assert!(std_sorts("// names.sort() would do here\nsort_by_key(&mut names, |n| n.len());\n").is_empty());
}

#[test]
fn the_app_sorts_through_the_core_sort() {
    let root = workspace_root();
    let mut files = Vec::new();
    rust_files(&root.join("src"), &mut files);
    rust_files(&root.join("crates/core/src"), &mut files);
    let found: Vec<String> = files
        .iter()
        .filter(|path| !path.ends_with("crates/core/src/sort.rs"))
        .flat_map(|path| {
            let shown = path.strip_prefix(&root).unwrap_or(path).display().to_string();
            std_sorts(&fs::read_to_string(path).unwrap_or_default()).into_iter().map(move |line| format!("{shown}: {line}"))
        })
        .collect();
    assert!(found.is_empty(), "std sorts outside autoui_core::sort (use its sort, sort_by, sort_by_key or stable_order): {found:#?}");
}

/// The page asks for the browser store before its wasm runs (`src/adapters/store_open.js`), so the
/// object stores it creates are listed there, in JavaScript: they must be the ones the core lays
/// records out in, or a first visit would have a store missing.
#[test]
fn the_early_store_open_creates_the_cores_object_stores() {
    let script = fs::read_to_string(workspace_root().join("src/adapters/store_open.js")).expect("store_open.js");
    let list = script
        .lines()
        .find_map(|line| line.trim().strip_prefix("const STORES = ["))
        .and_then(|rest| rest.strip_suffix("];"))
        .expect("a `const STORES = [...];` line");
    let listed: Vec<&str> = list.split(',').map(|name| name.trim().trim_matches('"')).collect();
    let core: Vec<&str> = autoui_core::store::StoreName::ALL.iter().map(|store| store.as_str()).collect();
    assert_eq!(listed, core);
}
