//! The benchmark driver behind `scripts/bench.sh`: serves the release build on 127.0.0.1, measures it
//! in headless Chromium with a fresh profile per browser (`--runs` times), reads the native benches'
//! outputs, and writes `BENCHMARKS.md` with every budget of issues 9 and 21 next to its figure.
//! `--size-report FILE` also writes the size report (`SIZE.md`): the download per visit and where
//! each wasm module's bytes go; `--download-only` measures only what that report needs;
//! `--storage-only` measures only the store's rows and prints them (writing no file); `--startup-only`
//! measures only the cold start's timings (first paint, interactive, the gallery) and prints them, to
//! compare two builds in alternating runs (`AUTOUI_DIST`); `--charts-only` measures only the
//! `vega-lite` widget's rows and prints them; `--apps-only` only the MCP Apps rows; `--live-only` only
//! the bound table's refresh, with the machine's load average before and after; `--mcp-only` only
//! the MCP client's row (a 200,000-row tool result); `--table-only` only the 10,000-row data-table's
//! display, printed.
//!
//! `cargo run -p autoui-e2e --bin bench -- --native DIR --out FILE [--runs N] [--started UNIX_SECONDS]
//!  [--size-report FILE] [--download-only | --storage-only | --startup-only | --charts-only | --apps-only | --live-only | --mcp-only | --table-only]`

mod apps;
mod attribution;
mod canvas;
mod charts;
mod display;
mod download;
mod gallery;
mod large_result;
mod live;
mod load;
mod machine;
mod native;
mod prompt;
mod report;
mod session;
mod stats;
mod storage;
mod table;
mod transfer;

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use autoui_e2e::app_server::{AppServer, dist_dir};
use serde_json::json;

use crate::canvas::CanvasFigures;
use crate::charts::ChartFigures;
use crate::display::DisplayFigures;
use crate::download::{DownloadFigures, Visit};
use crate::load::Load;
use crate::prompt::FirstRequest;
use crate::session::Session;
use crate::stats::Samples;
use crate::storage::StorageFigures;
use crate::table::TableFigures;
use crate::transfer::{FileSize, Sizes, dist_path};

/// Why a benchmark run cannot produce figures.
#[derive(Debug, thiserror::Error)]
pub enum BenchError {
    #[error("browser: {0}")]
    Browser(String),
    #[error("script failed while {what}: {error}")]
    Script { what: String, error: String },
    #[error("{0}")]
    Missing(String),
    #[error("file: {0}")]
    Io(String),
    #[error("native bench output: {0}")]
    Native(String),
    #[error("usage: {0}")]
    Usage(String),
}

/// Command-line options.
struct Options {
    runs: usize,
    native: PathBuf,
    out: PathBuf,
    started: Option<u64>,
    size_report: Option<PathBuf>,
    download_only: bool,
    storage_only: bool,
    startup_only: bool,
    charts_only: bool,
    apps_only: bool,
    live_only: bool,
    mcp_only: bool,
    table_only: bool,
}

impl Options {
    fn parse(mut args: impl Iterator<Item = String>) -> Result<Options, BenchError> {
        let mut options = Options {
            runs: 5,
            native: PathBuf::from("target/bench"),
            out: PathBuf::from("BENCHMARKS.md"),
            started: None,
            size_report: None,
            download_only: false,
            storage_only: false,
            startup_only: false,
            charts_only: false,
            apps_only: false,
            live_only: false,
            mcp_only: false,
            table_only: false,
        };
        while let Some(flag) = args.next() {
            let mut value = || {
                args.next()
                    .ok_or_else(|| BenchError::Usage(format!("{flag} needs a value")))
            };
            match flag.as_str() {
                "--runs" => {
                    let runs = value()?;
                    options.runs = runs.parse().map_err(|_| {
                        BenchError::Usage(format!("--runs takes a number, not {runs:?}"))
                    })?;
                }
                "--native" => options.native = PathBuf::from(value()?),
                "--size-report" => options.size_report = Some(PathBuf::from(value()?)),
                "--download-only" => options.download_only = true,
                "--storage-only" => options.storage_only = true,
                "--startup-only" => options.startup_only = true,
                "--charts-only" => options.charts_only = true,
                "--apps-only" => options.apps_only = true,
                "--live-only" => options.live_only = true,
                "--mcp-only" => options.mcp_only = true,
                "--table-only" => options.table_only = true,
                "--out" => options.out = PathBuf::from(value()?),
                "--started" => {
                    let started = value()?;
                    options.started = Some(started.parse().map_err(|_| {
                        BenchError::Usage(format!("--started takes Unix seconds, not {started:?}"))
                    })?);
                }
                other => return Err(BenchError::Usage(format!("unknown option {other:?}"))),
            }
        }
        let modes = [
            options.download_only,
            options.storage_only,
            options.startup_only,
            options.charts_only,
            options.apps_only,
            options.live_only,
            options.mcp_only,
            options.table_only,
        ];
        if modes.into_iter().filter(|on| *on).count() > 1 {
            return Err(BenchError::Usage(
                "--download-only, --storage-only, --startup-only, --charts-only, --apps-only, --live-only, --mcp-only and --table-only measure different things: pick one".to_owned(),
            ));
        }
        if options.download_only && options.size_report.is_none() {
            return Err(BenchError::Usage("--download-only writes only the --size-report file: name one".to_owned()));
        }
        if options.runs == 0 {
            return Err(BenchError::Usage(
                "--runs must be at least 1 (the report needs 5)".to_owned(),
            ));
        }
        Ok(options)
    }
}

/// A file the page fetched, across runs.
#[derive(Clone, Debug)]
pub struct Fetched {
    pub size: FileSize,
    /// When its request started, in ms from navigation (one sample per run that fetched it).
    pub start: Samples,
    /// In how many runs it was fetched before the page was interactive.
    pub before_interactive: usize,
    /// Where it was first fetched when not in the first load.
    pub later_in: Option<String>,
}

/// Everything measured in the browser.
#[derive(Debug, Default)]
pub struct BrowserFigures {
    pub runs: usize,
    pub browser: String,
    pub fcp: Samples,
    pub interactive: Samples,
    pub started: Samples,
    pub shell: Samples,
    pub long_tasks: Samples,
    pub first_load_raw: Samples,
    pub first_load_gzip: Samples,
    pub first_load_brotli: Samples,
    pub files: BTreeMap<String, Fetched>,
    pub other_origins: Vec<String>,
    pub gallery_dom: Samples,
    pub gallery_frame: Samples,
    /// The gallery's longest main-thread task before its widgets are in the DOM: its build, far less
    /// noisy than the time from navigation.
    pub gallery_build: Samples,
    pub js_heap: Samples,
    pub wasm_memory: Samples,
    pub memory: Samples,
    pub display: DisplayFigures,
    pub table: TableFigures,
    pub canvas: CanvasFigures,
    pub charts: ChartFigures,
    pub storage: StorageFigures,
    pub first_requests: Vec<FirstRequest>,
    pub load_average: Vec<String>,
    pub download: DownloadFigures,
    pub apps: apps::AppFigures,
    pub live: live::LiveFigures,
    pub large_result: large_result::LargeResultFigures,
}

#[tokio::main]
async fn main() -> ExitCode {
    let options = match Options::parse(std::env::args().skip(1)) {
        Ok(options) => options,
        Err(error) => {
            eprintln!("{error}");
            return ExitCode::from(2);
        }
    };
    match run(&options).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!(
                "benchmark failed, {} not written: {error}",
                options.out.display()
            );
            ExitCode::FAILURE
        }
    }
}

async fn run(options: &Options) -> Result<(), BenchError> {
    if options.storage_only {
        return measure_storage(options.runs).await;
    }
    if options.startup_only {
        return measure_startup(options.runs).await;
    }
    if options.charts_only {
        return measure_charts(options.runs).await;
    }
    if options.apps_only {
        return apps::print_only(options.runs).await;
    }
    if options.live_only {
        return live::print_only(options.runs).await;
    }
    if options.mcp_only {
        return large_result::print_only(options.runs).await;
    }
    if options.table_only {
        return table::print_only(options.runs, 6).await;
    }
    let native = if options.download_only { None } else { Some(report::Native::read(&options.native)?) };
    let app = AppServer::start().await;
    let outcome = if options.download_only {
        measure_download(&app.base_url(), options.runs).await
    } else {
        measure(&app.base_url(), options.runs).await
    };
    app.stop().await;
    let figures = outcome?;
    if let Some(path) = &options.size_report {
        let markdown = attribution::render(&figures, &dist_dir())?;
        std::fs::write(path, markdown).map_err(|error| BenchError::Io(format!("{}: {error}", path.display())))?;
        println!("wrote {}", path.display());
    }
    let Some(native) = native else { return Ok(()) };
    let elapsed = options.started.map(|started| {
        let now = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |now| now.as_secs());
        Duration::from_secs(now.saturating_sub(started))
    });
    let markdown = report::render(&report::Report {
        machine: machine::Machine::describe(),
        figures: &figures,
        native: &native,
        elapsed,
        commit: std::env::var("AUTOUI_BENCH_COMMIT")
            .unwrap_or_else(|_| "unknown commit".to_owned()),
        date: std::env::var("AUTOUI_BENCH_DATE").unwrap_or_else(|_| "unknown date".to_owned()),
    });
    std::fs::write(&options.out, markdown)
        .map_err(|error| BenchError::Io(format!("{}: {error}", options.out.display())))?;
    println!("wrote {}", options.out.display());
    Ok(())
}

async fn measure(base_url: &str, runs: usize) -> Result<BrowserFigures, BenchError> {
    let dist = dist_dir();
    let mut sizes = Sizes::default();
    let mut figures = BrowserFigures {
        runs,
        ..BrowserFigures::default()
    };
    figures.load_average.push(machine::load_average());
    for run in 1..=runs {
        println!("run {run} of {runs}: first load");
        let (session, load) = load::measure(base_url, "/").await?;
        let version = session.cdp("Browser.getVersion", json!({})).await;
        let first_request = prompt::measure(&session).await;
        session.close().await;
        figures.browser = version?["product"]
            .as_str()
            .unwrap_or("unknown browser")
            .to_owned();
        figures.first_requests.push(first_request?);
        let first_load = record_load(&mut figures, &load, base_url, &dist, &mut sizes)?;
        figures.download.record(Visit::Home, &load.requests, base_url, &dist, &mut sizes)?;

        println!("run {run} of {runs}: gallery");
        let gallery = gallery::measure(base_url).await?;
        record_gallery(&mut figures.download, &gallery, base_url, &dist, &mut sizes)?;
        figures.gallery_dom.push(gallery.in_dom);
        figures.gallery_frame.push(gallery.frame);
        figures.gallery_build.push(gallery.longest_task);
        figures.js_heap.push(gallery.js_heap);
        figures.wasm_memory.push(gallery.wasm_memory);
        figures.memory.push(gallery.js_heap + gallery.wasm_memory);

        println!("run {run} of {runs}: the store with 20 10,000-row tables");
        storage::measure(base_url, 5, &mut figures.storage).await?;

        println!("run {run} of {runs}: the first vega-lite chart, then charts of 1,000 points");
        charts::measure(base_url, &dist, &mut sizes, &mut figures.charts).await?;

        println!("run {run} of {runs}: widget_display, 10,000-row table, 100-widget canvas");
        let session = Session::open(base_url, "/").await?;
        let outcome = interact(&session, &mut figures).await;
        let fetched = load::timeline(&session).await;
        session.close().await;
        outcome?;
        println!("run {run} of {runs}: MCP Apps views");
        apps::measure(base_url, 10, &mut figures.apps).await?;
        for request in fetched?.requests {
            record_later(
                &mut figures,
                &request.url,
                "the tool-call session",
                base_url,
                &dist,
                &mut sizes,
                &first_load,
            )?;
        }

        println!("run {run} of {runs}: refreshing a 1,000-row table bound to a tool");
        live::measure(base_url, 5, &mut figures.live).await?;

        println!("run {run} of {runs}: a 200,000-row tool result");
        large_result::measure(base_url, &mut figures.large_result).await?;
    }
    figures.live.jq = Some(live::jq_bytes(&dist)?);
    figures.load_average.push(machine::load_average());
    figures.download.read_modules(&dist, &mut sizes)?;
    Ok(figures)
}

/// Only the store's rows, printed as the report would show them.
async fn measure_storage(runs: usize) -> Result<(), BenchError> {
    let app = AppServer::start().await;
    let mut figures = StorageFigures::default();
    let mut outcome = Ok(());
    for run in 1..=runs {
        println!("run {run} of {runs}: the store with 20 10,000-row tables");
        outcome = storage::measure(&app.base_url(), 5, &mut figures).await;
        if outcome.is_err() {
            break;
        }
    }
    app.stop().await;
    outcome?;
    for row in report::storage_rows(&figures) {
        println!("{}: {} ({})", row.figure, row.measured, row.limit);
    }
    Ok(())
}

/// Only the `vega-lite` rows, printed as the report would show them.
async fn measure_charts(runs: usize) -> Result<(), BenchError> {
    let app = AppServer::start().await;
    let (mut figures, mut sizes, mut outcome) = (ChartFigures::default(), Sizes::default(), Ok(()));
    println!("load average before: {}", machine::load_average());
    for run in 1..=runs {
        println!("run {run} of {runs}: the first vega-lite chart, then charts of 1,000 points");
        outcome = charts::measure(&app.base_url(), &dist_dir(), &mut sizes, &mut figures).await;
        if outcome.is_err() {
            break;
        }
    }
    app.stop().await;
    outcome?;
    println!("load average after: {}", machine::load_average());
    for row in charts::rows(&figures) {
        println!("{}: {} ({})", row.figure, row.measured, row.limit);
    }
    Ok(())
}

/// Only the cold start's timings, printed: first paint and interactive on `#/`, the gallery's widgets
/// in the DOM on `#/gallery`.
async fn measure_startup(runs: usize) -> Result<(), BenchError> {
    let app = AppServer::start().await;
    let (mut fcp, mut interactive, mut gallery, mut build) =
        (Samples::default(), Samples::default(), Samples::default(), Samples::default());
    let mut outcome = Ok(());
    println!("load average before: {}", machine::load_average());
    for run in 1..=runs {
        println!("run {run} of {runs}: `#/`, then `#/gallery`");
        let home = load::measure(&app.base_url(), "/").await;
        let page = match home {
            Ok((session, load)) => {
                session.close().await;
                fcp.push(load.fcp);
                interactive.push(load.interactive);
                gallery::measure(&app.base_url()).await
            }
            Err(error) => Err(error),
        };
        match page {
            Ok(page) => {
                gallery.push(page.in_dom);
                build.push(page.longest_task);
            }
            Err(error) => {
                outcome = Err(error);
                break;
            }
        }
    }
    app.stop().await;
    outcome?;
    println!("load average after: {}", machine::load_average());
    println!("first contentful paint: {}", fcp.show(1, "ms"));
    println!("interactive: {}", interactive.show(1, "ms"));
    println!("gallery, every widget in the DOM: {}", gallery.show(1, "ms"));
    println!("gallery, its longest task until then: {}", build.show(1, "ms"));
    Ok(())
}

/// Only the cold loads of `#/` and `#/gallery` the download figures need.
async fn measure_download(base_url: &str, runs: usize) -> Result<BrowserFigures, BenchError> {
    let dist = dist_dir();
    let mut sizes = Sizes::default();
    let mut figures = BrowserFigures { runs, ..BrowserFigures::default() };
    for run in 1..=runs {
        println!("run {run} of {runs}: `#/` until settled");
        let (session, load) = load::measure(base_url, "/").await?;
        session.close().await;
        figures.download.record(Visit::Home, &load.requests, base_url, &dist, &mut sizes)?;
        println!("run {run} of {runs}: `#/gallery` until settled");
        let gallery = gallery::measure(base_url).await?;
        record_gallery(&mut figures.download, &gallery, base_url, &dist, &mut sizes)?;
    }
    figures.download.read_modules(&dist, &mut sizes)?;
    Ok(figures)
}

fn record_gallery(
    download: &mut DownloadFigures,
    gallery: &gallery::GalleryLoad,
    origin: &str,
    dist: &std::path::Path,
    sizes: &mut Sizes,
) -> Result<(), BenchError> {
    download.record(Visit::Gallery, &gallery.requests, origin, dist, sizes)?;
    let before_rendered = gallery.requests.iter().filter(|request| request.start < gallery.in_dom);
    download.record(Visit::GalleryRender, before_rendered, origin, dist, sizes)
}

async fn interact(session: &Session, figures: &mut BrowserFigures) -> Result<(), BenchError> {
    session.wait_for_tools().await?;
    // The app may load modules once it has painted: the first call is still "first in the page".
    session.idle(1_000).await?;
    display::measure(session, 11, 6, &mut figures.display).await?;
    table::measure(session, 2, &mut figures.table).await?;
    canvas::measure(session, 10, 20, &mut figures.canvas).await
}

/// Adds one cold load's figures; returns the paths it fetched before it was interactive.
fn record_load(
    figures: &mut BrowserFigures,
    load: &Load,
    origin: &str,
    dist: &std::path::Path,
    sizes: &mut Sizes,
) -> Result<Vec<String>, BenchError> {
    figures.fcp.push(load.fcp);
    figures.interactive.push(load.interactive);
    if let Some(started) = load.started {
        figures.started.push(started);
    }
    figures.shell.push(load.shell);
    figures.long_tasks.push(load.long_tasks as f64);
    let (mut raw, mut gzip, mut brotli) = (0, 0, 0);
    let mut first_load = Vec::new();
    for request in load.first_load() {
        let Some(path) = dist_path(&request.url, origin) else {
            note_other_origin(figures, &request.url);
            continue;
        };
        let size = sizes.of(dist, &path)?;
        raw += size.raw;
        gzip += size.gzip;
        brotli += size.brotli;
        let entry = figures
            .files
            .entry(path.clone())
            .or_insert_with(|| Fetched {
                size,
                start: Samples::default(),
                before_interactive: 0,
                later_in: None,
            });
        entry.start.push(request.start);
        entry.before_interactive += 1;
        first_load.push(path);
    }
    figures.first_load_raw.push(raw as f64);
    figures.first_load_gzip.push(gzip as f64);
    figures.first_load_brotli.push(brotli as f64);
    for request in load.after_interactive() {
        record_later(
            figures,
            &request.url,
            "the first load, after it was interactive",
            origin,
            dist,
            sizes,
            &first_load,
        )?;
    }
    Ok(first_load)
}

/// Notes a file fetched outside the first load (a deferred module, or something a widget fetched).
fn record_later(
    figures: &mut BrowserFigures,
    url: &str,
    place: &str,
    origin: &str,
    dist: &std::path::Path,
    sizes: &mut Sizes,
    first_load: &[String],
) -> Result<(), BenchError> {
    let Some(path) = dist_path(url, origin) else {
        note_other_origin(figures, url);
        return Ok(());
    };
    if first_load.contains(&path) {
        return Ok(());
    }
    let size = sizes.of(dist, &path)?;
    let entry = figures.files.entry(path).or_insert_with(|| Fetched {
        size,
        start: Samples::default(),
        before_interactive: 0,
        later_in: None,
    });
    entry.later_in.get_or_insert_with(|| place.to_owned());
    Ok(())
}

fn note_other_origin(figures: &mut BrowserFigures, url: &str) {
    let shown: String = url.chars().take(120).collect();
    if !figures.other_origins.contains(&shown) {
        figures.other_origins.push(shown);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(list: &[&str]) -> impl Iterator<Item = String> {
        list.iter()
            .map(|arg| (*arg).to_owned())
            .collect::<Vec<_>>()
            .into_iter()
    }

    #[test]
    fn options_default_to_five_runs_and_read_every_flag() {
        let options = Options::parse(args(&[
            "--runs",
            "7",
            "--native",
            "out/native",
            "--out",
            "B.md",
            "--started",
            "1700000000",
        ]))
        .expect("valid options");
        assert_eq!((options.runs, options.started), (7, Some(1_700_000_000)));
        assert_eq!(
            (options.native, options.out),
            (PathBuf::from("out/native"), PathBuf::from("B.md"))
        );
        assert_eq!(Options::parse(args(&[])).expect("defaults").runs, 5);
        let sizes = Options::parse(args(&["--download-only", "--size-report", "SIZE.md", "--runs", "1"])).expect("valid");
        assert!(sizes.download_only);
        assert_eq!(sizes.size_report, Some(PathBuf::from("SIZE.md")));
    }

    #[test]
    fn download_only_needs_a_size_report_to_write() {
        let error = Options::parse(args(&["--download-only"])).err().expect("refused");
        assert!(error.to_string().contains("--size-report"), "{error}");
    }

    #[test]
    fn zero_runs_and_unknown_flags_are_refused() {
        let error = Options::parse(args(&["--runs", "0"]))
            .err()
            .expect("refused");
        assert!(error.to_string().contains("at least 1"), "{error}");
        let error = Options::parse(args(&["--download-only", "--storage-only"])).err().expect("refused");
        assert!(error.to_string().contains("pick one"), "{error}");
        let error = Options::parse(args(&["--startup-only", "--storage-only"])).err().expect("refused");
        assert!(error.to_string().contains("pick one"), "{error}");
        let error = Options::parse(args(&["--charts-only", "--startup-only"])).err().expect("refused");
        assert!(error.to_string().contains("pick one"), "{error}");
        let error = Options::parse(args(&["--fast"])).err().expect("refused");
        assert!(error.to_string().contains("--fast"), "{error}");
    }
}
