//! Runs axe-core (npm, installed in `tests/e2e/node_modules` by `scripts/setup.sh --test`) in the
//! page under test and reports its violations; the app itself never loads axe.

use std::fmt;
use std::path::PathBuf;
use std::sync::OnceLock;

use serde::Deserialize;
use serde_json::Value;

use crate::page::Page;

/// One rule axe found broken, with the elements that break it.
#[derive(Debug, Deserialize)]
pub struct Violation {
    pub id: String,
    /// `minor`, `moderate`, `serious` or `critical`.
    pub impact: Option<String>,
    pub help: String,
    #[serde(rename = "helpUrl")]
    pub help_url: String,
    pub nodes: Vec<Node>,
}

#[derive(Debug, Deserialize)]
pub struct Node {
    /// CSS selectors leading to the element (one per frame or shadow root it sits in).
    pub target: Vec<Value>,
    pub html: String,
    #[serde(rename = "failureSummary")]
    pub failure_summary: Option<String>,
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let impact = self.impact.as_deref().unwrap_or("unknown impact");
        writeln!(
            f,
            "  {} ({impact}, {} nodes): {} <{}>",
            self.id,
            self.nodes.len(),
            self.help,
            self.help_url
        )?;
        for node in &self.nodes {
            let target: Vec<String> = node.target.iter().map(|part| part.to_string()).collect();
            writeln!(f, "    at {}", target.join(" >> "))?;
            writeln!(f, "       {}", one_line(&node.html, 160))?;
            if let Some(summary) = &node.failure_summary {
                writeln!(f, "       {}", one_line(summary, 400))?;
            }
        }
        Ok(())
    }
}

fn one_line(text: &str, limit: usize) -> String {
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    match flat.char_indices().nth(limit) {
        Some((cut, _)) => format!("{}…", &flat[..cut]),
        None => flat,
    }
}

/// axe-core's browser build, read once per test binary.
fn axe_source() -> &'static str {
    static SOURCE: OnceLock<String> = OnceLock::new();
    SOURCE.get_or_init(|| {
        let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("node_modules/axe-core/axe.min.js");
        std::fs::read_to_string(&path).unwrap_or_else(|error| {
            panic!(
                "cannot read {}: {error} (run `scripts/setup.sh --test`, which installs axe-core)",
                path.display()
            )
        })
    })
}

/// Runs every axe rule on the whole document as it is now (hidden elements are skipped by axe) and
/// returns the violations. axe is injected first if this page load has not got it yet.
pub async fn audit(page: &Page) -> Vec<Violation> {
    let loaded = page.eval("return typeof window.axe === 'object';", vec![]).await;
    if loaded != Value::Bool(true) {
        // WebDriver runs the script as a function body, outside the page's script-src policy.
        page.eval(&format!("{}\nreturn true;", axe_source()), vec![])
            .await;
    }
    let result = page
        .client()
        .execute_async(
            // A finite animation still running (a notice fading in) would be audited at a
            // blended colour, so axe waits for those to end; endless ones (spinners) never do.
            "const done = arguments[arguments.length - 1];
             const finite = document.getAnimations()
               .filter((a) => a.effect && a.effect.getComputedTiming().endTime !== Infinity);
             Promise.all(finite.map((a) => a.finished.catch(() => null)))
               .then(() => axe.run(document, { resultTypes: ['violations'] }))
               .then((results) => done(JSON.stringify(results.violations)))
               .catch((error) => done(JSON.stringify({ error: String(error) })));",
            vec![],
        )
        .await
        .unwrap_or_else(|error| panic!("axe.run failed: {error}"));
    let text = result.as_str().unwrap_or_default();
    serde_json::from_str(text).unwrap_or_else(|error| panic!("axe.run gave {text}: {error}"))
}
