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
