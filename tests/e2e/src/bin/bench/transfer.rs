//! Sizes of the files the page fetched, as a static host would send them: raw, `gzip -9` and
//! `brotli -q 11` (the command-line tools, so the figures match what a deploy step would produce).

use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

use crate::BenchError;

/// One file of the release build and its sizes in bytes.
#[derive(Clone, Debug, PartialEq)]
pub struct FileSize {
    pub path: String,
    pub raw: u64,
    pub gzip: u64,
    pub brotli: u64,
}

/// The file of `dist` that serves `url` (the document for the app's routes), or `None` for URLs the
/// release build does not hold (another origin, `data:`).
pub fn dist_path(url: &str, origin: &str) -> Option<String> {
    let path = url.strip_prefix(origin)?;
    let path = path
        .split(['?', '#'])
        .next()
        .unwrap_or_default()
        .trim_start_matches('/');
    Some(if path.is_empty() {
        "index.html".to_owned()
    } else {
        path.to_owned()
    })
}

/// Measures each file once; paths are relative to `dist`.
#[derive(Default)]
pub struct Sizes {
    known: BTreeMap<String, FileSize>,
}

impl Sizes {
    pub fn of(&mut self, dist: &Path, path: &str) -> Result<FileSize, BenchError> {
        if let Some(size) = self.known.get(path) {
            return Ok(size.clone());
        }
        let file = dist.join(path);
        // A route the server answers with index.html (it is a single-page app).
        let file = if file.is_file() {
            file
        } else {
            dist.join("index.html")
        };
        let bytes = std::fs::read(&file)
            .map_err(|error| BenchError::Io(format!("{}: {error}", file.display())))?;
        let size = FileSize {
            path: path.to_owned(),
            raw: bytes.len() as u64,
            gzip: compressed_size("gzip", &["-9", "-c"], &bytes)?,
            brotli: compressed_size("brotli", &["-q", "11", "-c"], &bytes)?,
        };
        self.known.insert(path.to_owned(), size.clone());
        Ok(size)
    }
}

fn compressed_size(tool: &str, args: &[&str], bytes: &[u8]) -> Result<u64, BenchError> {
    let mut child = Command::new(tool)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .map_err(|error| {
            BenchError::Io(format!(
                "cannot run {tool}: {error} (scripts/bench.sh installs it)"
            ))
        })?;
    let mut input = child
        .stdin
        .take()
        .ok_or_else(|| BenchError::Io(format!("{tool} has no stdin")))?;
    let data = bytes.to_vec();
    let writer = std::thread::spawn(move || input.write_all(&data));
    let output = child
        .wait_with_output()
        .map_err(|error| BenchError::Io(format!("{tool}: {error}")))?;
    writer
        .join()
        .map_err(|_| BenchError::Io(format!("writing to {tool} failed")))?
        .map_err(|error| BenchError::Io(format!("writing to {tool}: {error}")))?;
    if !output.status.success() {
        return Err(BenchError::Io(format!(
            "{tool} {} failed: {}",
            args.join(" "),
            output.status
        )));
    }
    Ok(output.stdout.len() as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    const ORIGIN: &str = "http://127.0.0.1:4100";

    #[test]
    fn a_route_of_the_app_is_served_by_its_index_page() {
        assert_eq!(
            dist_path("http://127.0.0.1:4100/", ORIGIN).as_deref(),
            Some("index.html")
        );
        assert_eq!(
            dist_path("http://127.0.0.1:4100/#/gallery", ORIGIN).as_deref(),
            Some("index.html")
        );
    }

    #[test]
    fn a_fetched_file_maps_to_its_path_in_the_build_without_its_query() {
        let url = "http://127.0.0.1:4100/snippets/autoui-1a2b/inline0.js?v=3";
        assert_eq!(
            dist_path(url, ORIGIN).as_deref(),
            Some("snippets/autoui-1a2b/inline0.js")
        );
    }

    #[test]
    fn urls_from_elsewhere_are_not_files_of_the_build() {
        assert_eq!(dist_path("data:image/svg+xml,<svg/>", ORIGIN), None);
        assert_eq!(dist_path("https://example.com/app.js", ORIGIN), None);
    }

    #[test]
    fn compressed_sizes_come_from_the_command_line_tools_and_shrink_repetitive_text() {
        let dist = std::env::temp_dir().join(format!("autoui-bench-sizes-{}", std::process::id()));
        std::fs::create_dir_all(&dist).expect("temp dir");
        std::fs::write(dist.join("app.js"), "console.log('autoui');\n".repeat(400)).expect("write");
        let size = Sizes::default().of(&dist, "app.js").expect("sizes");
        let _ = std::fs::remove_dir_all(&dist);
        assert_eq!(size.raw, 9_200);
        assert!(size.gzip > 20 && size.gzip < 200, "{size:?}");
        assert!(size.brotli > 10 && size.brotli < 200, "{size:?}");
    }
}
