//! The size report (`SIZE.md`): the download per visit, then where each wasm module's bytes go, by
//! crate and by function, from `twiggy` (which `scripts/bench.sh` installs) on the modules as
//! wasm-split wrote them: they still have their function names, which the shipped ones (after
//! wasm-bindgen and wasm-opt) no longer have, so the sizes here are before wasm-opt.

use std::collections::BTreeMap;
use std::fmt::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

use crate::{BenchError, BrowserFigures, download};

/// Crates and functions listed per module; the rest is summed in one line.
const LISTED: usize = 15;

/// One item of a module as twiggy sees it: a function, a data segment, a table.
pub(crate) struct Item {
    pub name: String,
    pub bytes: u64,
}

pub fn render(figures: &BrowserFigures, dist: &Path) -> Result<String, BenchError> {
    let mut out = String::new();
    let _ = writeln!(out, "# Size\n");
    let _ = writeln!(
        out,
        "Written by `scripts/bench.sh` on {} from commit {}: what a visit downloads (issue 21), then where the \
         bytes of each wasm module go. {} run(s); 1 KB = 1,000 bytes.",
        std::env::var("AUTOUI_BENCH_DATE").unwrap_or_else(|_| "an unknown date".to_owned()),
        std::env::var("AUTOUI_BENCH_COMMIT").unwrap_or_else(|_| "an unknown commit".to_owned()),
        figures.runs
    );
    let _ = writeln!(out, "\n| budget | limit | measured: median (min–max) | verdict |\n|---|---|---|---|");
    for row in download::rows(&figures.download) {
        let verdict = match row.met {
            Some(true) => "**met**",
            Some(false) => "**not met**",
            None => "not measured",
        };
        let _ = writeln!(out, "| {} | {} | {} | {verdict} |", row.figure, row.limit, row.measured);
    }
    download::section(&mut out, &figures.download);
    let _ = writeln!(
        out,
        "\n## Where the bytes go\n\nPer module as wasm-split wrote it (before wasm-bindgen and wasm-opt, so larger \
         than what ships; custom sections such as names and relocations left out), from `twiggy top`. A \
         function is counted to the first crate its name mentions other \
         than `core`, `alloc` and `std` (so `drop_in_place<leptos::…>` is leptos's); `data` is the data segments \
         (string literals, tables, panic locations).\n"
    );
    for module in modules(dist)? {
        attribute(&mut out, &module)?;
    }
    Ok(out)
}

/// The whole app before splitting, its split modules, then the validator module, of the last
/// release build.
pub(crate) fn modules(dist: &Path) -> Result<Vec<PathBuf>, BenchError> {
    let root = dist.parent().unwrap_or(dist);
    let target = std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| root.join("target"), PathBuf::from);
    let split = target.join("wasm-split/release/split");
    let entries = std::fs::read_dir(&split).map_err(|error| {
        BenchError::Io(format!("{}: {error} (run `trunk build --release` first)", split.display()))
    })?;
    let mut modules: Vec<PathBuf> = entries
        .flatten()
        .map(|entry| entry.path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "wasm"))
        .collect();
    modules.sort();
    modules.insert(0, target.join("wasm32-unknown-unknown/release/autoui.wasm"));
    let validator = target.join("wasm32-unknown-unknown/release/autoui_validator.wasm");
    if validator.is_file() {
        modules.push(validator);
    }
    Ok(modules)
}

fn attribute(out: &mut String, module: &Path) -> Result<(), BenchError> {
    let items = twiggy(module)?;
    let total: u64 = items.iter().map(|item| item.bytes).sum();
    let name = module.file_name().map_or_else(String::new, |name| name.to_string_lossy().into_owned());
    let _ = writeln!(out, "### `{name}`: {}\n", kb(total));
    let mut crates: BTreeMap<String, u64> = BTreeMap::new();
    for item in &items {
        *crates.entry(owner(&item.name)).or_default() += item.bytes;
    }
    let mut crates: Vec<(String, u64)> = crates.into_iter().collect();
    crates.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    let _ = writeln!(out, "| crate | bytes | share |\n|---|---|---|");
    for (name, bytes) in crates.iter().take(LISTED) {
        let _ = writeln!(out, "| {name} | {} | {} |", kb(*bytes), share(*bytes, total));
    }
    let rest: u64 = crates.iter().skip(LISTED).map(|(_, bytes)| bytes).sum();
    if rest > 0 {
        let _ = writeln!(out, "| {} other crates | {} | {} |", crates.len() - LISTED, kb(rest), share(rest, total));
    }
    let _ = writeln!(out, "\n| largest items | bytes |\n|---|---|");
    for item in items.iter().take(LISTED) {
        let shown: String = item.name.chars().take(110).collect();
        let _ = writeln!(out, "| `{}` | {} |", shown.replace('|', "\\|"), kb(item.bytes));
    }
    let _ = writeln!(out);
    Ok(())
}

/// Every item of `module`, largest first.
pub(crate) fn twiggy(module: &Path) -> Result<Vec<Item>, BenchError> {
    let output = Command::new("twiggy")
        .args(["top", "--format", "json"])
        .arg(module)
        .output()
        .map_err(|error| BenchError::Io(format!("cannot run twiggy: {error} (scripts/bench.sh installs it)")))?;
    if !output.status.success() {
        return Err(BenchError::Io(format!(
            "twiggy top {}: {}",
            module.display(),
            String::from_utf8_lossy(&output.stderr).trim()
        )));
    }
    let items: Value = serde_json::from_slice(&output.stdout)
        .map_err(|error| BenchError::Io(format!("twiggy's output is not JSON: {error}")))?;
    let items = items
        .as_array()
        .ok_or_else(|| BenchError::Io("twiggy's output is not a list".to_owned()))?;
    let mut items: Vec<Item> = items
        .iter()
        .filter_map(|item| {
            Some(Item { name: item["name"].as_str()?.to_owned(), bytes: item["shallow_size"].as_u64()? })
        })
        .filter(|item| ships(&item.name))
        .collect();
    items.sort_by_key(|item| std::cmp::Reverse(item.bytes));
    Ok(items)
}

/// Whether an item is in the shipped module: wasm-bindgen drops its describe functions, wasm-opt the
/// names, the relocations the linker kept for wasm-split, and debug information.
fn ships(name: &str) -> bool {
    !(name.starts_with("custom section") || name.ends_with("subsection") || name.contains("__wbindgen_describe"))
}

/// The crate an item's bytes are counted to (see the report's note).
fn owner(name: &str) -> String {
    if name.starts_with("data[") || name.starts_with("data segment") {
        return "data".to_owned();
    }
    if name.starts_with("__wbg") || name.starts_with("__wbindgen") || name.starts_with("wasm_bindgen") {
        return "wasm_bindgen".to_owned();
    }
    let mut crates = name
        .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
        .filter_map(|word| word.split_once("::").map(|(first, _)| first))
        .filter(|first| !first.is_empty() && !first.starts_with(|c: char| c.is_ascii_digit()));
    let first = crates.clone().next();
    crates
        .find(|name| !matches!(*name, "core" | "alloc" | "std"))
        .or(first)
        .map_or_else(|| "other (unnamed)".to_owned(), str::to_owned)
}

fn kb(bytes: u64) -> String {
    format!("{:.1} KB", bytes as f64 / 1_000.0)
}

fn share(bytes: u64, total: u64) -> String {
    format!("{:.1}%", bytes as f64 * 100.0 / total.max(1) as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_function_counts_to_the_first_crate_that_is_not_the_standard_library() {
        assert_eq!(owner("serde_json::de::Deserializer<R>::parse_any::h0123"), "serde_json");
        assert_eq!(owner("<serde_json::value::Value as core::fmt::Display>::fmt"), "serde_json");
        assert_eq!(owner("core::ptr::drop_in_place<leptos::view::AnyView>"), "leptos");
        assert_eq!(owner("<alloc::vec::Vec<T> as core::clone::Clone>::clone"), "alloc");
        assert_eq!(owner("data[12]"), "data");
        assert_eq!(owner("data segment \".rodata\""), "data");
        assert!(!ships("custom section 'linking'") && !ships("\"function names\" subsection"));
        assert!(!ships("export \"__wbindgen_describe___wbg_fetch\"") && ships("autoui::main"));
        assert_eq!(owner("__wbg_fetch_1234"), "wasm_bindgen");
        assert_eq!(owner("code[77]"), "other (unnamed)");
    }
}
