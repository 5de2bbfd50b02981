//! Build step: compiles `recipes/*.md` (YAML frontmatter + markdown body) into one JSON file that
//! `recipes/embedded.rs` includes, so no YAML or markdown parser ships in the wasm bundle; and a
//! small one with what the gallery shows of each recipe (`recipes/showcase.rs`), so the gallery does
//! not need the whole registry.
//!
//! A recipe that does not parse is embedded as an error entry (and reported as a cargo warning)
//! instead of failing the build: the native self-check test (`tests/recipes.rs`) fails on it, while
//! the rest of the tree keeps compiling for everyone else.

use std::path::{Path, PathBuf};
use std::{env, fs};

use pulldown_cmark::{CodeBlockKind, Event, Parser, Tag, TagEnd};
use serde_json::{Value, json};

fn main() {
    let manifest_dir =
        PathBuf::from(env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let recipes_dir = manifest_dir.join("../../recipes");
    println!("cargo::rerun-if-changed={}", recipes_dir.display());

    let mut files: Vec<PathBuf> = fs::read_dir(&recipes_dir)
        .map(|entries| {
            entries
                .filter_map(|entry| entry.ok().map(|entry| entry.path()))
                .filter(|path| path.extension().is_some_and(|ext| ext == "md"))
                .collect()
        })
        .unwrap_or_default();
    files.sort();

    let compiled: Vec<Value> = files.iter().map(|path| compile(path)).collect();
    let showcase: Vec<Value> = compiled.iter().filter_map(showcase_entry).collect();
    let out_dir = PathBuf::from(env::var("OUT_DIR").expect("cargo sets OUT_DIR"));
    fs::write(out_dir.join("recipes.json"), Value::Array(compiled).to_string())
        .expect("OUT_DIR is writable");
    fs::write(out_dir.join("showcase.json"), Value::Array(showcase).to_string())
        .expect("OUT_DIR is writable");
}

/// What the gallery shows of a loaded recipe: `{widget, description, examples}`, the examples being
/// the `params` of its example calls.
fn showcase_entry(compiled: &Value) -> Option<Value> {
    let frontmatter = compiled.get("frontmatter")?;
    let examples: Vec<Value> = compiled["examples"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|call| call.get("params").cloned().unwrap_or(Value::Null))
        .collect();
    Some(json!({
        "widget": frontmatter.get("widget")?,
        "description": frontmatter.get("description")?,
        "examples": examples,
    }))
}

/// One recipe file as `{status: "loaded", file, frontmatter, body, examples}` or `{status: "failed", file, error}`.
fn compile(path: &Path) -> Value {
    let file = path
        .file_stem()
        .map(|stem| stem.to_string_lossy().into_owned())
        .unwrap_or_default();
    let parsed = fs::read_to_string(path)
        .map_err(|error| format!("cannot read: {error}"))
        .and_then(|text| parse(&text));
    match parsed {
        Ok((frontmatter, body, examples)) => {
            json!({ "status": "loaded", "file": file, "frontmatter": frontmatter, "body": body, "examples": examples })
        }
        Err(error) => {
            println!("cargo::warning=recipe {file}.md: {error}");
            json!({ "status": "failed", "file": file, "error": error })
        }
    }
}

fn parse(text: &str) -> Result<(Value, String, Vec<Value>), String> {
    let text = text.replace("\r\n", "\n");
    let (yaml, body) = split_frontmatter(&text)?;
    let frontmatter: Value = serde_norway::from_str(yaml)
        .map_err(|error| format!("frontmatter is not valid YAML: {error}"))?;
    let examples = json_examples(body)?;
    Ok((frontmatter, body.trim().to_owned(), examples))
}

/// Splits `---\n<yaml>\n---\n<body>`.
fn split_frontmatter(text: &str) -> Result<(&str, &str), String> {
    let rest = text.strip_prefix('\u{feff}').unwrap_or(text);
    let rest = rest
        .strip_prefix("---\n")
        .ok_or("the file must start with a `---` frontmatter line")?;
    let end = rest
        .find("\n---\n")
        .ok_or("the frontmatter has no closing `---` line")?;
    Ok((&rest[..end], &rest[end + "\n---\n".len()..]))
}

/// The parsed contents of every fenced ```json block in the body, in order.
fn json_examples(body: &str) -> Result<Vec<Value>, String> {
    let mut examples = Vec::new();
    let mut current: Option<String> = None;
    for event in Parser::new(body) {
        match event {
            Event::Start(Tag::CodeBlock(CodeBlockKind::Fenced(info))) if info.trim() == "json" => {
                current = Some(String::new());
            }
            Event::Text(text) => {
                if let Some(block) = current.as_mut() {
                    block.push_str(&text);
                }
            }
            Event::End(TagEnd::CodeBlock) => {
                if let Some(block) = current.take() {
                    let value = serde_json::from_str(&block).map_err(|error| {
                        format!("example #{} is not valid JSON: {error}", examples.len() + 1)
                    })?;
                    examples.push(value);
                }
            }
            _ => {}
        }
    }
    Ok(examples)
}
