//! Writes `BENCHMARKS.md`: the budgets of issues 9 and 21 with their figures and verdicts first, then
//! the detail behind each figure, how it was measured, and the native benches' own tables.

use std::fmt::Write;
use std::path::Path;
use std::time::Duration;

use crate::download;
use crate::machine::Machine;
use crate::native::{self, Context, DivanRow, Models};
use crate::stats::Samples;
use crate::storage::StorageFigures;
use crate::{BenchError, BrowserFigures};

/// The native benches' outputs, as `scripts/bench.sh` saved them.
pub struct Native {
    pub widget_display: Vec<DivanRow>,
    pub table: Vec<DivanRow>,
    pub context: Context,
    pub context_output: String,
    pub models: Models,
    pub models_output: String,
}

impl Native {
    pub fn read(dir: &Path) -> Result<Native, BenchError> {
        let read = |bench: &str| {
            let file = dir.join(format!("{bench}.txt"));
            std::fs::read_to_string(&file).map_err(|error| {
                BenchError::Io(format!(
                    "{}: {error} (scripts/bench.sh runs the native benches first)",
                    file.display()
                ))
            })
        };
        let context_output = read("context")?;
        let models_output = read("models")?;
        Ok(Native {
            widget_display: native::divan("widget_display", &read("widget_display")?)?,
            table: native::divan("table", &read("table")?)?,
            context: native::context(&context_output)?,
            context_output,
            models: native::models(&models_output)?,
            models_output,
        })
    }
}

pub struct Report<'a> {
    pub machine: Machine,
    pub figures: &'a BrowserFigures,
    pub native: &'a Native,
    pub elapsed: Option<Duration>,
    pub commit: String,
    pub date: String,
}

const KB: f64 = 1_000.0;
const MB: f64 = 1_000_000.0;

/// A budget: the figure's median must not exceed `limit`.
pub struct Budget<'a> {
    pub figure: &'a str,
    pub limit: &'a str,
    pub measured: String,
    verdict: Verdict,
}

impl<'a> Budget<'a> {
    /// A budget met when `met` says so (not measured when it is `None`).
    pub fn new(figure: &'a str, limit: &'a str, measured: String, met: Option<bool>) -> Budget<'a> {
        Budget { figure, limit, measured, verdict: Verdict::of(met) }
    }

    /// A figure reported without a limit.
    pub fn reported(figure: &'a str, measured: String, was_measured: bool) -> Budget<'a> {
        let verdict = if was_measured { Verdict::Reported } else { Verdict::NotMeasured };
        Budget { figure, limit: "reported", measured, verdict }
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Verdict {
    Met,
    NotMet,
    /// Later calls meet it, the first call in a page does not.
    FirstCallNotMet,
    /// A size to report, without a limit.
    Reported,
    NotMeasured,
}

impl Verdict {
    fn of(met: Option<bool>) -> Verdict {
        match met {
            Some(true) => Verdict::Met,
            Some(false) => Verdict::NotMet,
            None => Verdict::NotMeasured,
        }
    }

    /// Both the first call in a page and the later calls must meet the budget.
    fn of_calls(later: Option<bool>, first: Option<bool>) -> Verdict {
        match (later, first) {
            (Some(true), Some(true)) => Verdict::Met,
            (Some(true), Some(false)) => Verdict::FirstCallNotMet,
            (Some(false), _) => Verdict::NotMet,
            _ => Verdict::NotMeasured,
        }
    }

    fn text(self) -> &'static str {
        match self {
            Verdict::Met => "**met**",
            Verdict::NotMet => "**not met**",
            Verdict::FirstCallNotMet => {
                "**not met** by the first call in a page (met by later calls)"
            }
            Verdict::Reported => "reported",
            Verdict::NotMeasured => "not measured",
        }
    }
}

fn within(samples: &Samples, limit: f64) -> Option<bool> {
    samples.median().map(|median| median <= limit)
}

/// `median (min–max)` of `samples` after dividing by `scale`.
fn show_scaled(samples: &Samples, scale: f64, decimals: usize, unit: &str) -> String {
    samples.scaled(scale).show(decimals, unit)
}

fn ms(samples: &Samples) -> String {
    samples.show(1, "ms")
}

pub fn render(report: &Report) -> String {
    let figures = report.figures;
    let native = report.native;
    let mut out = String::new();
    let runs = figures.runs;

    let _ = writeln!(out, "# Benchmarks\n");
    let _ = writeln!(
        out,
        "Written by `scripts/bench.sh` on {} from commit {}{}.",
        report.date,
        report.commit,
        report.elapsed.map_or(String::new(), |elapsed| format!(", in {} for the whole command (set-up check, release build, native benches, {runs} browser runs)", minutes(elapsed)))
    );
    if runs < 5 {
        let _ = writeln!(
            out,
            "\n**Only {runs} run(s): these figures do not meet the 5-run rule of issue 9.**"
        );
    }
    let machine = &report.machine;
    let _ = writeln!(
        out,
        "\n- Machine: {}, {} cores, {:.0} GB RAM, {}; load average {} before the browser runs and {} after \
         (other builds may share the machine).",
        machine.cpu,
        machine.cores,
        machine.memory_gb,
        machine.system,
        figures
            .load_average
            .first()
            .map_or("unknown", String::as_str),
        figures
            .load_average
            .last()
            .map_or("unknown", String::as_str),
    );
    let _ = writeln!(
        out,
        "- Browser: {} (headless), {}; {}.",
        figures.browser, machine.chromedriver, machine.rustc
    );
    let _ = writeln!(
        out,
        "- Browser figures: the release build (`trunk build --release`) served on 127.0.0.1 by the e2e crate's \
         server (no HTTP compression, `Cache-Control: no-store`), in headless Chromium started with a fresh \
         profile for every page load measured (cold cache); {runs} runs, each figure given as median (min–max) \
         over all its samples. Native figures: divan, 100 samples each, median (fastest–slowest).\n\
         - Units: 1 KB = 1,000 bytes, 1 MB = 1,000,000 bytes."
    );

    budgets(&mut out, figures, native);
    first_load(&mut out, figures);
    download::section(&mut out, &figures.download);
    page_load(&mut out, figures);
    tool_calls(&mut out, figures);
    big_table(&mut out, figures);
    canvas(&mut out, figures);
    requests(&mut out, figures, native);
    model_profiles(&mut out, native);
    memory(&mut out, figures);
    divan_tables(&mut out, native);
    method(&mut out);
    out
}

fn minutes(elapsed: Duration) -> String {
    let seconds = elapsed.as_secs();
    format!("{} min {:02} s", seconds / 60, seconds % 60)
}

fn budgets(out: &mut String, figures: &BrowserFigures, native: &Native) {
    let display = &figures.display;
    let table = &figures.table;
    let canvas = &figures.canvas;
    let last_request = native
        .context
        .iterations
        .last()
        .map(|(iteration, budget, _)| (*iteration, *budget));
    let prompt_chars = figures
        .first_requests
        .first()
        .map(|request| request.system_chars);
    let reachable = !table.unreachable.is_empty()
        && table
            .unreachable
            .iter()
            .chain(&table.misplaced)
            .all(|count| *count == 0);
    let worst = |a: &Samples, b: &Samples| a.median().zip(b.median()).map(|(a, b)| a.max(b));

    let downloads = download::rows(&figures.download);
    let mut rows = vec![
        Budget {
            figure: "First-load transfer of the release build: every file fetched before the app is interactive, gzip -9",
            limit: "≤ 450 KB",
            measured: format!(
                "{} gzip -9 ({} brotli -q 11, {} raw); deferred files: see below",
                show_scaled(&figures.first_load_gzip, KB, 1, "KB"),
                show_scaled(&figures.first_load_brotli, KB, 1, "KB"),
                show_scaled(&figures.first_load_raw, KB, 1, "KB"),
            ),
            verdict: Verdict::of(within(&figures.first_load_gzip, 450.0 * KB)),
        },
        Budget {
            figure: "Gallery page: all 26 widgets in the DOM, from navigation, cold cache",
            limit: "≤ 300 ms",
            measured: format!(
                "{} (next frame: {})",
                ms(&figures.gallery_dom),
                ms(&figures.gallery_frame)
            ),
            verdict: Verdict::of(within(&figures.gallery_dom, 300.0)),
        },
        Budget {
            figure: "First contentful paint of the app shell (cold)",
            limit: "≤ 200 ms",
            measured: ms(&figures.fcp),
            verdict: Verdict::of(within(&figures.fcp, 200.0)),
        },
        Budget {
            figure: "`widget_display` call → stat-card painted (next animation frame)",
            limit: "≤ 16 ms",
            measured: format!(
                "{} (first call in a page: {})",
                ms(&display.stat_card.frame),
                ms(&display.stat_card.first_frame)
            ),
            verdict: Verdict::of_calls(
                within(&display.stat_card.frame, 16.0),
                within(&display.stat_card.first_frame, 16.0),
            ),
        },
        Budget {
            figure: "`widget_display` call → 1,000-row data-table painted (next animation frame)",
            limit: "≤ 50 ms",
            measured: format!(
                "{} (first table in a page: {})",
                ms(&display.table.frame),
                ms(&display.table.first_frame)
            ),
            verdict: Verdict::of_calls(
                within(&display.table.frame, 50.0),
                within(&display.table.first_frame, 50.0),
            ),
        },
        Budget {
            figure: "10,000-row data-table displayed (`widget_display` call → painted)",
            limit: "≤ 50 ms",
            measured: ms(&table.display_frame),
            verdict: Verdict::of(within(&table.display_frame, 50.0)),
        },
        Budget {
            figure: "10,000-row data-table sorted by a column (header click → painted)",
            limit: "≤ 50 ms",
            measured: format!(
                "number column {}; text column {}",
                ms(&table.sort_number),
                ms(&table.sort_text)
            ),
            verdict: Verdict::of(
                worst(&table.sort_number, &table.sort_text).map(|worst| worst <= 50.0),
            ),
        },
        Budget {
            figure: "10,000-row data-table filtered (query typed → painted)",
            limit: "≤ 50 ms",
            measured: format!(
                "first query (builds the search index) {}; later queries {}",
                ms(&table.filter_first),
                ms(&table.filter)
            ),
            verdict: Verdict::of(
                worst(&table.filter_first, &table.filter).map(|worst| worst <= 50.0),
            ),
        },
        Budget {
            figure: "10,000-row data-table: every row reachable by scrolling",
            limit: "all 10,000 rows",
            measured: format!(
                "rows never shown: {:?}; rows shown with another row's data: {:?} (per run)",
                table.unreachable, table.misplaced
            ),
            verdict: Verdict::of((!table.unreachable.is_empty()).then_some(reachable)),
        },
        Budget {
            figure: "Update one widget on a 100-widget canvas (`canvas` update call → DOM updated)",
            limit: "≤ 2 ms",
            measured: format!(
                "{} (to the next frame: {})",
                ms(&canvas.update_dom),
                ms(&canvas.update_frame)
            ),
            verdict: Verdict::of(within(&canvas.update_dom, 2.0)),
        },
        Budget {
            figure: "… and only that widget's DOM nodes change (MutationObserver on the whole page)",
            limit: "0 nodes outside it",
            measured: format!(
                "{} nodes touched per update, all inside the widget; outside it: {} in {} updates{}",
                canvas.update_touched.show(0, ""),
                canvas.update_outside,
                canvas.update_touched.len(),
                if canvas.outside_sample.is_empty() {
                    String::new()
                } else {
                    format!(" ({})", canvas.outside_sample.join(", "))
                }
            ),
            verdict: Verdict::of(
                (!canvas.update_touched.is_empty()).then_some(canvas.update_outside == 0),
            ),
        },
        Budget {
            figure: "Request body at iteration 10 of the scripted session with 50 KB MCP results (native `context` bench)",
            limit: "≤ 25 KB",
            measured: last_request.map_or("not measured".to_owned(), |(iteration, bytes)| {
                format!(
                    "{:.1} KB at iteration {iteration} (deterministic)",
                    bytes as f64 / KB
                )
            }),
            verdict: Verdict::of(
                last_request.map(|(iteration, bytes)| iteration >= 10 && bytes as f64 <= 25.0 * KB),
            ),
        },
        Budget {
            figure: "Request body at iteration 10 of that session under an 8k-context and a 200k-context model profile (native `models` bench)",
            limit: "≤ each profile's request budget",
            measured: profile_list(native, |p| {
                format!("{}: {} (budget {})", p.name, bytes(p.request_10), bytes(p.request_budget))
            }),
            verdict: Verdict::of(
                (!native.models.profiles.is_empty())
                    .then(|| native.models.profiles.iter().all(|p| p.request_10 > 0 && p.request_10 <= p.request_budget)),
            ),
        },
        Budget {
            figure: "Iterations used for the same dashboard (100 orders, read as many rows per call as the last result showed) under each profile",
            limit: "report (within each profile's cap)",
            measured: profile_list(native, |p| {
                format!(
                    "{}: {} of {} iterations, {} widgets{}",
                    p.name,
                    p.dashboard_iterations,
                    p.iteration_cap,
                    p.dashboard_widgets,
                    if p.dashboard_completed { "" } else { ", NOT completed" }
                )
            }),
            verdict: Verdict::Reported,
        },
        Budget {
            figure: "Total input of a one-call-per-turn flow on a 3,000-tool server, with staged activation against without",
            limit: "report",
            measured: profile_list(native, |p| {
                format!(
                    "{}: {} ≈ {} k tokens staged (largest request {}) against {} ≈ {} k tokens (largest {})",
                    p.name,
                    bytes(p.staged_input),
                    p.staged_input / 3_000,
                    bytes(p.staged_largest),
                    bytes(p.unstaged_input),
                    p.unstaged_input / 3_000,
                    bytes(p.unstaged_largest)
                )
            }),
            verdict: Verdict::Reported,
        },
        Budget {
            figure: "System prompt of the first request",
            limit: "≤ 2,400 characters",
            measured: format!(
                "{} characters in the app's first request; {} in the native `context` bench (one MCP server more)",
                prompt_chars.map_or("?".to_owned(), |chars| chars.to_string()),
                native.context.system_chars
            ),
            verdict: Verdict::of(
                prompt_chars.map(|chars| chars <= 2_400 && native.context.system_chars <= 2_400),
            ),
        },
        Budget {
            figure: "Discovery tool definitions of the first request",
            limit: "report the size",
            measured: format!(
                "{} in the app ({} tools); {:.1} KB in the native bench ({} tools)",
                figures
                    .first_requests
                    .first()
                    .map_or("?".to_owned(), |request| format!(
                        "{:.1} KB",
                        request.tools_bytes as f64 / KB
                    )),
                figures
                    .first_requests
                    .first()
                    .map_or(0, |request| request.tools.len()),
                native.context.tools_bytes as f64 / KB,
                native.context.tools
            ),
            verdict: Verdict::Reported,
        },
        Budget {
            figure: "Memory after loading the gallery: JS heap (after GC) + WebAssembly linear memory",
            limit: "≤ 10 MB",
            measured: format!(
                "{} (JS heap {}, wasm {})",
                show_scaled(&figures.memory, MB, 2, "MB"),
                show_scaled(&figures.js_heap, MB, 2, "MB"),
                show_scaled(&figures.wasm_memory, MB, 2, "MB")
            ),
            verdict: Verdict::of(within(&figures.memory, 10.0 * MB)),
        },
    ];
    rows.extend(storage_rows(&figures.storage));
    rows.extend(crate::charts::rows(&figures.charts));
    rows.extend(crate::live::rows(&figures.live).into_iter().map(|(figure, limit, measured, met)| Budget {
        figure, limit, measured, verdict: Verdict::of(met),
    }));
    rows.extend(crate::large_result::rows(&figures.large_result).into_iter().map(|(figure, limit, measured, met)| Budget {
        figure, limit, measured, verdict: Verdict::of(met),
    }));
    let apps = crate::apps::rows(&figures.apps);
    rows.extend(downloads.iter().chain(&apps).map(|row| Budget {
        figure: row.figure,
        limit: row.limit,
        measured: row.measured.clone(),
        verdict: Verdict::of(row.met),
    }));

    let _ = writeln!(out, "\n## Budgets (issues 9 and 21)\n");
    let _ = writeln!(
        out,
        "| figure | budget | measured: median (min–max) | verdict |\n|---|---|---|---|"
    );
    for row in &rows {
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} |",
            row.figure,
            row.limit,
            row.measured,
            row.verdict.text()
        );
    }
    let judged: Vec<&Budget> = rows
        .iter()
        .filter(|row| row.verdict != Verdict::Reported)
        .collect();
    let met = judged
        .iter()
        .filter(|row| row.verdict == Verdict::Met)
        .count();
    let not_met: Vec<&str> = judged
        .iter()
        .filter(|row| row.verdict != Verdict::Met)
        .map(|row| row.figure)
        .collect();
    let _ = writeln!(out, "\n{}", summary(met, judged.len(), &not_met));
}

/// The line under the budget table: how many are met, and which are not.
fn summary(met: usize, judged: usize, not_met: &[&str]) -> String {
    let rule = "A budget is met when the median meets it (both medians where a first call is reported apart).";
    match not_met.is_empty() {
        true => format!("{met} of {judged} budgets met. {rule} Every budget is met."),
        false => format!("{met} of {judged} budgets met. {rule} Not met: {}.", not_met.join("; ")),
    }
}

fn first_load(out: &mut String, figures: &BrowserFigures) {
    let _ = writeln!(out, "\n## First-load transfer, per file\n");
    let fonts = figures
        .files
        .keys()
        .filter(|path| {
            [".woff2", ".woff", ".ttf", ".otf"]
                .iter()
                .any(|ext| path.ends_with(ext))
        })
        .count();
    let _ = writeln!(
        out,
        "Every file the page fetched before it was interactive (median first contentful paint {}, median \
         time to interactive {}), with its size as a static host would send it; the request start times show \
         which came after first paint. Font files fetched: {}.\n",
        figures
            .fcp
            .median()
            .map_or("?".to_owned(), |fcp| format!("{fcp:.0} ms")),
        figures
            .interactive
            .median()
            .map_or("?".to_owned(), |tti| format!("{tti:.0} ms")),
        if fonts == 0 {
            "none (the app uses the system font stack)".to_owned()
        } else {
            fonts.to_string()
        }
    );
    let _ = writeln!(
        out,
        "| file | request starts (ms from navigation) | raw | gzip -9 | brotli -q 11 |\n|---|---|---|---|---|"
    );
    let mut first: Vec<_> = figures
        .files
        .iter()
        .filter(|(_, file)| file.before_interactive > 0)
        .collect();
    first.sort_by(|a, b| {
        a.1.start
            .median()
            .unwrap_or(0.0)
            .total_cmp(&b.1.start.median().unwrap_or(0.0))
    });
    for (path, file) in &first {
        let runs = if file.before_interactive == figures.runs {
            String::new()
        } else {
            format!(" (in {} of {} runs)", file.before_interactive, figures.runs)
        };
        let _ = writeln!(
            out,
            "| `{path}`{runs} | {} | {} | {} | {} |",
            file.start.show(0, "ms"),
            bytes(file.size.raw),
            bytes(file.size.gzip),
            bytes(file.size.brotli)
        );
    }
    let _ = writeln!(
        out,
        "| **total** | | {} | {} | {} |",
        show_scaled(&figures.first_load_raw, KB, 1, "KB"),
        show_scaled(&figures.first_load_gzip, KB, 1, "KB"),
        show_scaled(&figures.first_load_brotli, KB, 1, "KB")
    );

    let later: Vec<_> = figures
        .files
        .iter()
        .filter(|(_, file)| file.before_interactive == 0)
        .collect();
    let _ = writeln!(
        out,
        "\n### Deferred: fetched only after the app was interactive\n"
    );
    if later.is_empty() {
        let _ = writeln!(
            out,
            "None: the page fetched no file of the build after it was interactive, in any session."
        );
    } else {
        let _ = writeln!(
            out,
            "| file | first fetched during | raw | gzip -9 | brotli -q 11 |\n|---|---|---|---|---|"
        );
        for (path, file) in &later {
            let _ = writeln!(
                out,
                "| `{path}` | {} | {} | {} | {} |",
                file.later_in.as_deref().unwrap_or("?"),
                bytes(file.size.raw),
                bytes(file.size.gzip),
                bytes(file.size.brotli)
            );
        }
        let total = |pick: fn(&crate::transfer::FileSize) -> u64| {
            later.iter().map(|(_, file)| pick(&file.size)).sum::<u64>()
        };
        let _ = writeln!(
            out,
            "| **total deferred** | | {} | {} | {} |",
            bytes(total(|size| size.raw)),
            bytes(total(|size| size.gzip)),
            bytes(total(|size| size.brotli))
        );
    }
    if !figures.other_origins.is_empty() {
        let _ = writeln!(
            out,
            "\nRequests to other origins (not counted): {}.",
            figures.other_origins.join(", ")
        );
    }
}

fn bytes(count: u64) -> String {
    if count as f64 >= KB {
        format!("{:.1} KB", count as f64 / KB)
    } else {
        format!("{count} B")
    }
}

fn page_load(out: &mut String, figures: &BrowserFigures) {
    let _ = writeln!(out, "\n## Page load (cold, `/`)\n");
    let _ = writeln!(out, "| figure | median (min–max) |\n|---|---|");
    let _ = writeln!(out, "| first contentful paint | {} |", ms(&figures.fcp));
    let _ = writeln!(
        out,
        "| wasm app started (Trunk's `TrunkApplicationStarted`) | {} |",
        ms(&figures.started)
    );
    let _ = writeln!(
        out,
        "| app shell (chat input) in the DOM | {} |",
        ms(&figures.shell)
    );
    let _ = writeln!(
        out,
        "| time to interactive | {} |",
        ms(&figures.interactive)
    );
    let _ = writeln!(
        out,
        "| long tasks (> 50 ms) during the load | {} |",
        figures.long_tasks.show(0, "")
    );
    let _ = writeln!(
        out,
        "| gallery: 26 widgets in the DOM | {} |",
        ms(&figures.gallery_dom)
    );
    let _ = writeln!(
        out,
        "| gallery: next animation frame after that | {} |",
        ms(&figures.gallery_frame)
    );
    let _ = writeln!(
        out,
        "| gallery: its longest task until its widgets are in the DOM (its build) | {} |",
        ms(&figures.gallery_build)
    );
}

fn tool_calls(out: &mut String, figures: &BrowserFigures) {
    let display = &figures.display;
    let _ = writeln!(out, "\n## `widget_display` → painted\n");
    let _ = writeln!(
        out,
        "Called through `document.modelContext.executeTool` (the app's built-in registry; headless Chromium has \
         no native one without a flag) on an empty canvas, timed in the page. \"DOM\" is the first \
         MutationObserver callback after which the new widget is in the document (for tables, with its rows); \
         \"painted\" is the start of the next animation frame after that. The canvas is cleared after each call.\n"
    );
    let _ = writeln!(
        out,
        "| widget | call | samples | result returned | in the DOM | painted |\n|---|---|---|---|---|---|"
    );
    for (name, figures) in [
        ("stat-card", &display.stat_card),
        ("data-table, 1,000 rows", &display.table),
    ] {
        let _ = writeln!(
            out,
            "| {name} | first of its kind in the page | {} | | {} | {} |",
            figures.first_frame.len(),
            ms(&figures.first_dom),
            ms(&figures.first_frame)
        );
        let _ = writeln!(
            out,
            "| {name} | repeat | {} | {} | {} | {} |",
            figures.frame.len(),
            ms(&figures.returned),
            ms(&figures.dom),
            ms(&figures.frame)
        );
    }
}

fn big_table(out: &mut String, figures: &BrowserFigures) {
    let table = &figures.table;
    let _ = writeln!(out, "\n## 10,000-row data-table\n");
    let _ = writeln!(
        out,
        "| action | samples | tool result returned | in the DOM | painted |\n|---|---|---|---|---|"
    );
    // One row per action: its sample count, then each column it was measured at (blank where not).
    let mut row = |action: &str, samples: &Samples, returned: Option<&Samples>, dom: Option<&Samples>, frame: Option<&Samples>| {
        let cell = |column: Option<&Samples>| column.map_or(" ".to_owned(), |samples| format!(" {} ", ms(samples)));
        let _ = writeln!(
            out,
            "| {action} | {} |{}|{}|{}|",
            samples.len(),
            cell(returned),
            cell(dom),
            cell(frame)
        );
    };
    row(
        "`widget_display` with 10,000 rows",
        &table.display_frame,
        Some(&table.display_returned),
        Some(&table.display_dom),
        Some(&table.display_frame),
    );
    row("sort by a number column (asc, desc)", &table.sort_number, None, None, Some(&table.sort_number));
    row("sort by a text column (asc, desc)", &table.sort_text, None, None, Some(&table.sort_text));
    row("sort, either column", &table.sort_dom, None, Some(&table.sort_dom), None);
    row(
        "filter, first query (builds the search index)",
        &table.filter_first,
        None,
        None,
        Some(&table.filter_first),
    );
    row("filter, later queries (incl. clearing)", &table.filter, None, None, Some(&table.filter));
    row("filter, any query", &table.filter_dom, None, Some(&table.filter_dom), None);
    row("scroll to the last row (scrollbar jump)", &table.jump_to_end, None, None, Some(&table.jump_to_end));
    let _ = writeln!(
        out,
        "\nScrolling through: the table's scroller is paged down one viewport (less a row) at a time, {} steps \
         per run; every row must appear inside the viewport with its own data (`aria-rowindex` and row id agree). \
         Rows never shown, per run: {:?}; rows shown with another row's data: {:?}.",
        table.scroll_steps.first().copied().unwrap_or(0),
        table.unreachable,
        table.misplaced
    );
}

fn canvas(out: &mut String, figures: &BrowserFigures) {
    let canvas = &figures.canvas;
    let display = &figures.display;
    let _ = writeln!(out, "\n## Canvas\n");
    let _ = writeln!(
        out,
        "The 100-widget canvas holds every gallery widget four times, added with the gallery's own buttons. \
         Adding is a stat-card through `widget_display` (removed again after each sample); updating changes a \
         stat-card's value through the `canvas` tool's `update` action. A MutationObserver on the whole \
         `<body>` records every node changed, added or removed from the call until 400 ms after the frame. \
         This session emulates `prefers-reduced-motion: reduce`: otherwise the four carousels' auto-play \
         (a timer, unrelated to the update) would move their slides while nodes are counted.\n"
    );
    let _ = writeln!(
        out,
        "| action | samples | in the DOM | painted |\n|---|---|---|---|"
    );
    let _ = writeln!(
        out,
        "| add one widget to an empty canvas | {} | {} | {} |",
        display.stat_card.frame.len(),
        ms(&display.stat_card.dom),
        ms(&display.stat_card.frame)
    );
    let _ = writeln!(
        out,
        "| add one widget to a 100-widget canvas | {} | {} | {} |",
        canvas.add_frame.len(),
        ms(&canvas.add_dom),
        ms(&canvas.add_frame)
    );
    let _ = writeln!(
        out,
        "| update one widget on a 100-widget canvas | {} | {} | {} |",
        canvas.update_dom.len(),
        ms(&canvas.update_dom),
        ms(&canvas.update_frame)
    );
    let _ = writeln!(
        out,
        "\nDOM nodes touched per update: {}; nodes touched outside the updated widget, over all {} updates: {}.",
        canvas.update_touched.show(0, ""),
        canvas.update_touched.len(),
        canvas.update_outside
    );
}

fn requests(out: &mut String, figures: &BrowserFigures, native: &Native) {
    let context = &native.context;
    let _ = writeln!(out, "\n## Request size\n");
    let _ = writeln!(
        out,
        "From the native `context` bench (`cargo bench -p autoui-core --bench context`): a scripted \
         10-iteration session on the real autoui and samples servers plus an MCP server whose results are \
         50 KB each; Anthropic request body per iteration with the request budget, and with no compression.\n"
    );
    let _ = writeln!(
        out,
        "| iteration | request body | not compressed |\n|---|---|---|"
    );
    for (iteration, budget, full) in &context.iterations {
        let _ = writeln!(
            out,
            "| {iteration} | {} | {} |",
            bytes(*budget),
            bytes(*full)
        );
    }
    let _ = writeln!(
        out,
        "\nFirst request: system prompt {} characters, {} discovery tools in {} of JSON (native bench, with \
         one MCP server configured).",
        context.system_chars,
        context.tools,
        bytes(context.tools_bytes)
    );
    if let Some(first) = figures.first_requests.first() {
        let same = figures
            .first_requests
            .iter()
            .all(|request| request == first);
        let _ = writeln!(
            out,
            "In the app (the scripted LLM server records the first request after a person types a message on a \
             fresh page, no MCP server configured): system prompt {} characters, {} tools in {} of JSON ({}), \
             whole body {}; {} in all {} runs.",
            first.system_chars,
            first.tools.len(),
            bytes(first.tools_bytes as u64),
            first.tools.join(", "),
            bytes(first.body_bytes as u64),
            if same { "identical" } else { "NOT identical" },
            figures.first_requests.len()
        );
    }
    let _ = writeln!(
        out,
        "\n<details><summary>The <code>context</code> bench's full output</summary>\n\n```text\n{}```\n</details>",
        native.context_output
    );
}

/// Each model profile's figure, `; `-separated.
fn profile_list(native: &Native, each: impl Fn(&native::ProfileFigures) -> String) -> String {
    match native.models.profiles.is_empty() {
        true => "not measured".to_owned(),
        false => native.models.profiles.iter().map(each).collect::<Vec<_>>().join("; "),
    }
}

fn model_profiles(out: &mut String, native: &Native) {
    let _ = writeln!(out, "\n## Model profiles\n");
    let _ = writeln!(
        out,
        "From the native `models` bench (`cargo bench -p autoui-core --bench models`): the agent loop, dispatcher \
         and autoui and samples servers with a scripted model and fake MCP servers, sized as the app sizes a run \
         from the model profile (request budget, result limit, iteration cap, tool budget; see ARCHITECTURE.md). \
         Tokens are estimated at 3 bytes a token, the profiles' own estimate.\n"
    );
    let _ = writeln!(
        out,
        "| profile | request budget | request 10 (50 KB results) | 100-order dashboard | 3,000-tool flow, staged | same, not staged |\n\
         |---|---|---|---|---|---|"
    );
    for p in &native.models.profiles {
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} of {} iterations{} | {} in all, largest {} | {} in all, largest {} |",
            p.name,
            bytes(p.request_budget),
            bytes(p.request_10),
            p.dashboard_iterations,
            p.iteration_cap,
            if p.dashboard_completed { "" } else { " (not completed)" },
            bytes(p.staged_input),
            bytes(p.staged_largest),
            bytes(p.unstaged_input),
            bytes(p.unstaged_largest)
        );
    }
    let _ = writeln!(
        out,
        "\n<details><summary>The <code>models</code> bench's full output</summary>\n\n```text\n{}```\n</details>",
        native.models_output
    );
}

fn memory(out: &mut String, figures: &BrowserFigures) {
    let _ = writeln!(out, "\n## Memory\n");
    let _ = writeln!(
        out,
        "After the gallery has shown its 26 widgets and 1.5 s more: `HeapProfiler.collectGarbage`, then \
         `Runtime.getHeapUsage().usedSize` (JS heap), plus the `byteLength` of every WebAssembly memory the \
         page instantiated (the probe wraps `WebAssembly.instantiate*`).\n"
    );
    let _ = writeln!(out, "| part | median (min–max) |\n|---|---|");
    let _ = writeln!(
        out,
        "| JS heap used | {} |",
        show_scaled(&figures.js_heap, MB, 2, "MB")
    );
    let _ = writeln!(
        out,
        "| WebAssembly linear memory | {} |",
        show_scaled(&figures.wasm_memory, MB, 2, "MB")
    );
    let _ = writeln!(
        out,
        "| total | {} |",
        show_scaled(&figures.memory, MB, 2, "MB")
    );
}

fn divan_tables(out: &mut String, native: &Native) {
    let _ = writeln!(out, "\n## Native (divan)\n");
    let _ = writeln!(
        out,
        "`cargo bench -p autoui-core --bench widget_display --bench table`, built with the release profile \
         (`opt-level = \"z\"`, LTO, like the wasm).\n"
    );
    for (bench, rows) in [
        ("widget_display", &native.widget_display),
        ("table", &native.table),
    ] {
        let _ = writeln!(
            out,
            "| `{bench}` | median | fastest | slowest | samples |\n|---|---|---|---|---|"
        );
        for row in rows {
            let _ = writeln!(
                out,
                "| {} | {} | {} | {} | {} |",
                row.name,
                duration(row.median),
                duration(row.fastest),
                duration(row.slowest),
                row.samples
            );
        }
        let _ = writeln!(out);
    }
}

fn duration(ms: f64) -> String {
    if ms >= 1.0 {
        format!("{ms:.2} ms")
    } else {
        format!("{:.1} µs", ms * 1_000.0)
    }
}

fn method(out: &mut String) {
    let _ = writeln!(
        out,
        "## How each figure is taken\n\n\
         - A probe script is installed with `Page.addScriptToEvaluateOnNewDocument` (CDP through chromedriver) \
         so it runs before the app. It only observes: long tasks, WebAssembly memories, and when the shell's \
         chat input and the gallery's widgets first reach the DOM (a MutationObserver it disconnects as soon as \
         both are seen). The app has no benchmark hook.\n\
         - First contentful paint: the `first-contentful-paint` paint entry.\n\
         - Time to interactive: Lighthouse's definition (the end of the last long task before the first \
         {quiet} s window with no long task and at most two requests in flight), never earlier than first \
         contentful paint, DOMContentLoaded or the chat input being in the DOM.\n\
         - First-load transfer: every request (Resource Timing, plus the document) that started before time to \
         interactive; each file's size is measured on `dist/` with `gzip -9` and `brotli -q 11`. Files fetched \
         later, in any session, are listed as deferred.\n\
         - Interaction timings run `__bench.timed` in the page: the clock starts just before the action (a \
         `document.modelContext.executeTool` call, a header button's `click()`, the filter input's value and \
         `input` event, a scroller's `scrollTop`), \"in the DOM\" is the first MutationObserver callback after \
         which the expected change is visible, \"painted\" is the next `requestAnimationFrame` callback after \
         that. 400 ms pass between samples so the debounced save of the canvas (250 ms) never falls inside one.\n",
        quiet = crate::load::QUIET_MS / 1_000.0
    );
}

/// The store's rows: the save of a small edit, the full restore and the stored size.
pub fn storage_rows(storage: &StorageFigures) -> Vec<Budget<'static>> {
    vec![
        Budget {
            figure: "Save after one small edit on a canvas of 20 × 10,000-row tables (main thread: plan the records and hand them to IndexedDB)",
            limit: "≤ 16 ms",
            measured: ms(&storage.save),
            verdict: Verdict::of(within(&storage.save, 16.0)),
        },
        Budget {
            figure: "Full restore of that canvas at start (open IndexedDB, read and decode every record)",
            limit: "≤ 500 ms",
            measured: format!(
                "{} (of which opening the database and reading the records: {}; from navigation to the 20 tables on screen with every row: {})",
                ms(&storage.restore),
                ms(&storage.restore_read),
                ms(&storage.restore_dom)
            ),
            verdict: Verdict::of(within(&storage.restore, 500.0)),
        },
        Budget {
            figure: "Stored size of that canvas",
            limit: "reported",
            measured: format!(
                "{} of records ({} used by the origin, per `navigator.storage.estimate()`)",
                show_scaled(&storage.stored_chars, MB, 1, "M characters"),
                show_scaled(&storage.usage, MB, 1, "MB")
            ),
            verdict: if storage.stored_chars.is_empty() { Verdict::NotMeasured } else { Verdict::Reported },
        },
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::machine::Machine;

    fn samples(values: &[f64]) -> Samples {
        let mut samples = Samples::default();
        samples.extend(values.iter().copied());
        samples
    }

    fn native() -> Native {
        Native {
            widget_display: vec![],
            table: vec![],
            context: Context {
                iterations: vec![(10, 24_930, 120_304)],
                system_chars: 1_839,
                tools_bytes: 4_240,
                tools: 13,
            },
            context_output: String::new(),
            models: Models::default(),
            models_output: String::new(),
        }
    }

    fn machine() -> Machine {
        Machine {
            cpu: "test CPU".to_owned(),
            cores: 2,
            memory_gb: 8.0,
            system: "test system".to_owned(),
            rustc: "rustc".to_owned(),
            chromedriver: "chromedriver".to_owned(),
        }
    }

    fn budget_line<'a>(markdown: &'a str, figure: &str) -> &'a str {
        markdown
            .lines()
            .find(|line| line.starts_with(&format!("| {figure}")))
            .unwrap_or_default()
    }

    fn render_with(figures: &BrowserFigures) -> String {
        let native = native();
        render(&Report {
            machine: machine(),
            figures,
            native: &native,
            elapsed: Some(Duration::from_secs(754)),
            commit: "abc1234".to_owned(),
            date: "2026-01-01 00:00 UTC".to_owned(),
        })
    }

    #[test]
    fn a_figure_whose_median_is_over_its_budget_is_not_met_and_one_under_it_is() {
        let figures = BrowserFigures {
            runs: 5,
            fcp: samples(&[180.0, 250.0, 260.0, 270.0, 190.0]),
            memory: samples(&[4e6; 5]),
            ..BrowserFigures::default()
        };
        let markdown = render_with(&figures);
        let paint = budget_line(&markdown, "First contentful paint");
        assert!(
            paint.contains("250.0 ms (180.0–270.0)") && paint.ends_with("| **not met** |"),
            "{paint}"
        );
        let memory = budget_line(&markdown, "Memory after loading the gallery");
        assert!(
            memory.contains("4.00 MB (all 5)") && memory.ends_with("| **met** |"),
            "{memory}"
        );
    }

    #[test]
    fn a_slow_first_call_fails_the_budget_even_when_later_calls_meet_it() {
        let mut figures = BrowserFigures {
            runs: 5,
            ..BrowserFigures::default()
        };
        figures.display.stat_card.frame = samples(&[3.0, 4.0, 5.0]);
        figures.display.stat_card.first_frame = samples(&[80.0, 90.0, 70.0]);
        let markdown = render_with(&figures);
        let line = budget_line(&markdown, "`widget_display` call → stat-card");
        assert!(
            line.contains("**not met** by the first call in a page (met by later calls)"),
            "{line}"
        );
        assert!(
            markdown.contains("`widget_display` call → stat-card painted (next animation frame); "),
            "listed as not met"
        );
    }

    #[test]
    fn unmeasured_figures_say_so_and_the_header_names_commit_date_and_duration() {
        let markdown = render_with(&BrowserFigures {
            runs: 5,
            ..BrowserFigures::default()
        });
        assert!(
            markdown.contains("on 2026-01-01 00:00 UTC from commit abc1234, in 12 min 34 s"),
            "{markdown}"
        );
        assert!(budget_line(&markdown, "Gallery page").ends_with("| not measured |"));
        let request = budget_line(&markdown, "Request body at iteration 10");
        assert!(
            request.contains("24.9 KB at iteration 10") && request.ends_with("| **met** |"),
            "{request}"
        );
    }

    #[test]
    fn the_summary_lists_the_budgets_not_met_or_says_every_one_is() {
        assert_eq!(
            summary(12, 14, &["Gallery page", "First contentful paint"]),
            "12 of 14 budgets met. A budget is met when the median meets it (both medians where a first \
             call is reported apart). Not met: Gallery page; First contentful paint."
        );
        let all = summary(14, 14, &[]);
        assert!(all.ends_with("Every budget is met."), "{all}");
        assert!(!all.contains("Not met"), "{all}");
    }

    #[test]
    fn a_profiles_request_over_its_budget_is_not_met_and_the_profiles_table_lists_each() {
        let mut native = native();
        let profile = |name: &str, request_10| native::ProfileFigures {
            name: name.to_owned(),
            request_budget: 12_288,
            iteration_cap: 12,
            request_10,
            dashboard_iterations: 6,
            dashboard_widgets: 3,
            dashboard_completed: true,
            ..native::ProfileFigures::default()
        };
        native.models.profiles = vec![profile("8k", 16_402), profile("200k", 11_000)];
        let figures = BrowserFigures { runs: 5, ..BrowserFigures::default() };
        let markdown = render(&Report {
            machine: machine(),
            figures: &figures,
            native: &native,
            elapsed: None,
            commit: "abc1234".to_owned(),
            date: "2026-01-01 00:00 UTC".to_owned(),
        });
        let line = budget_line(&markdown, "Request body at iteration 10 of that session under");
        assert!(line.contains("8k: 16.4 KB (budget 12.3 KB)") && line.ends_with("| **not met** |"), "{line}");
        assert!(markdown.contains("| 8k | 12.3 KB | 16.4 KB | 6 of 12 iterations |"), "{markdown}");
    }

    #[test]
    fn fewer_than_five_runs_are_flagged_in_the_report() {
        let markdown = render_with(&BrowserFigures {
            runs: 1,
            ..BrowserFigures::default()
        });
        assert!(markdown.contains("**Only 1 run(s)"), "{markdown}");
    }
}

