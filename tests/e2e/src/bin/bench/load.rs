//! Loading the app shell in a cold browser: first contentful paint, time to interactive, and every
//! file the page fetched, split into those fetched before it was interactive and those after.
//!
//! Time to interactive follows Lighthouse's definition, with two floors of our own: the first
//! moment after which there are `QUIET_MS` with no long task (over 50 ms) and never more than two
//! requests in flight; TTI is the end of the last long task before that window, and never earlier
//! than first contentful paint, DOMContentLoaded, or the app shell's chat input being in the DOM.

use std::time::{Duration, Instant};

use serde::Deserialize;

use crate::BenchError;
use crate::session::Session;

/// The quiet window that ends the search for time to interactive.
pub const QUIET_MS: f64 = 5_000.0;
/// How long a page may take to become quiet before the run is declared broken.
const GIVE_UP: Duration = Duration::from_secs(40);

/// What the page's performance timeline says about its load.
#[derive(Clone, Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Timeline {
    pub now: f64,
    pub fcp: Option<f64>,
    pub dcl: Option<f64>,
    pub shell: Option<f64>,
    pub started: Option<f64>,
    pub long_tasks: Vec<(f64, f64)>,
    pub requests: Vec<Request>,
}

/// One fetch: the document (start 0) or a resource, in ms from navigation start.
#[derive(Clone, Debug, Deserialize, PartialEq)]
pub struct Request {
    pub url: String,
    pub start: f64,
    pub end: f64,
    pub kind: String,
}

const TIMELINE: &str = r#"
const navigation = performance.getEntriesByType('navigation')[0];
const paint = performance.getEntriesByName('first-contentful-paint')[0];
const requests = [];
if (navigation) requests.push({ url: navigation.name, start: 0, end: navigation.responseEnd, kind: 'document' });
for (const entry of performance.getEntriesByType('resource')) {
  requests.push({ url: entry.name, start: entry.startTime, end: entry.responseEnd, kind: entry.initiatorType });
}
return {
  now: performance.now(),
  fcp: paint ? paint.startTime : null,
  dcl: navigation && navigation.domContentLoadedEventEnd > 0 ? navigation.domContentLoadedEventEnd : null,
  shell: __bench.marks.shell ?? null,
  started: __bench.marks.started ?? null,
  longTasks: __bench.longTasks,
  requests,
};"#;

pub async fn timeline(session: &Session) -> Result<Timeline, BenchError> {
    session
        .eval("reading the performance timeline", TIMELINE, vec![])
        .await
}

/// One cold load of a route, measured.
#[derive(Clone, Debug)]
pub struct Load {
    pub fcp: f64,
    pub interactive: f64,
    /// When Trunk's loader reported the wasm app started, if it did.
    pub started: Option<f64>,
    pub shell: f64,
    pub long_tasks: usize,
    pub requests: Vec<Request>,
}

impl Load {
    /// Requests started before the page was interactive (the document included).
    pub fn first_load(&self) -> impl Iterator<Item = &Request> {
        self.requests
            .iter()
            .filter(|request| request.start < self.interactive)
    }

    /// Requests started once the page was interactive.
    pub fn after_interactive(&self) -> impl Iterator<Item = &Request> {
        self.requests
            .iter()
            .filter(|request| request.start >= self.interactive)
    }
}

/// Opens `path` in a cold browser and waits until time to interactive is known.
pub async fn measure(base_url: &str, path: &str) -> Result<(Session, Load), BenchError> {
    let session = Session::open(base_url, path).await?;
    match wait_until_interactive(&session, path).await {
        Ok(load) => Ok((session, load)),
        Err(error) => {
            session.close().await;
            Err(error)
        }
    }
}

async fn wait_until_interactive(session: &Session, path: &str) -> Result<Load, BenchError> {
    let deadline = Instant::now() + GIVE_UP;
    loop {
        let timeline = timeline(session).await?;
        if let Some(load) = settle(&timeline) {
            return Ok(load);
        }
        if Instant::now() > deadline {
            return Err(BenchError::Missing(format!(
                "{path} never became interactive within {GIVE_UP:?} (first paint {:?}, shell {:?}, {} long tasks)",
                timeline.fcp,
                timeline.shell,
                timeline.long_tasks.len()
            )));
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
}

/// The load's figures once the page has been quiet long enough, else `None`.
pub fn settle(timeline: &Timeline) -> Option<Load> {
    let interactive = interactive(timeline)?;
    Some(Load {
        fcp: timeline.fcp?,
        interactive,
        started: timeline.started,
        shell: timeline.shell?,
        long_tasks: timeline.long_tasks.len(),
        requests: timeline.requests.clone(),
    })
}

/// Time to interactive (see the module comment), or `None` while it cannot be known yet.
pub fn interactive(timeline: &Timeline) -> Option<f64> {
    let floor = [timeline.fcp?, timeline.dcl?, timeline.shell?]
        .into_iter()
        .fold(0.0, f64::max);
    let mut window = floor;
    loop {
        let end = window + QUIET_MS;
        let overlapping = timeline
            .long_tasks
            .iter()
            .filter(|(start, finish)| *finish > window && *start < end)
            .map(|(_, finish)| *finish)
            .fold(None, |latest: Option<f64>, finish| {
                Some(latest.map_or(finish, |l| l.max(finish)))
            });
        if let Some(finish) = overlapping {
            window = finish;
            continue;
        }
        if let Some(calm) = busy_until(&timeline.requests, window, end) {
            window = calm;
            continue;
        }
        break;
    }
    if timeline.now < window + QUIET_MS {
        return None;
    }
    let last_task = timeline
        .long_tasks
        .iter()
        .map(|(_, finish)| *finish)
        .filter(|finish| *finish <= window);
    Some(last_task.fold(floor, f64::max))
}

/// When more than two requests are in flight somewhere in `[from, to)`, the first moment after
/// that at which at most two are.
fn busy_until(requests: &[Request], from: f64, to: f64) -> Option<f64> {
    let in_flight = |at: f64| {
        requests
            .iter()
            .filter(|r| r.start <= at && at < r.end)
            .count()
    };
    let mut moments: Vec<f64> = std::iter::once(from)
        .chain(requests.iter().flat_map(|r| [r.start, r.end]))
        .filter(|moment| *moment >= from)
        .collect();
    moments.sort_by(f64::total_cmp);
    let busy = moments
        .iter()
        .position(|moment| *moment < to && in_flight(*moment) > 2)?;
    moments[busy..]
        .iter()
        .copied()
        .find(|moment| in_flight(*moment) <= 2)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(url: &str, start: f64, end: f64) -> Request {
        Request {
            url: url.to_owned(),
            start,
            end,
            kind: "script".to_owned(),
        }
    }

    fn timeline(now: f64, long_tasks: Vec<(f64, f64)>, requests: Vec<Request>) -> Timeline {
        Timeline {
            now,
            fcp: Some(120.0),
            dcl: Some(60.0),
            shell: Some(110.0),
            started: Some(105.0),
            long_tasks,
            requests,
        }
    }

    #[test]
    fn without_long_tasks_the_page_is_interactive_at_its_first_paint() {
        let quiet = timeline(6_000.0, vec![], vec![request("/", 0.0, 5.0)]);
        assert_eq!(interactive(&quiet), Some(120.0));
    }

    #[test]
    fn the_page_is_interactive_when_its_last_long_task_before_a_quiet_window_ends() {
        let busy = timeline(
            9_000.0,
            vec![(30.0, 100.0), (150.0, 260.0), (900.0, 980.0)],
            vec![],
        );
        assert_eq!(interactive(&busy), Some(980.0));
    }

    #[test]
    fn nothing_is_decided_before_the_quiet_window_has_passed() {
        let early = timeline(4_000.0, vec![(150.0, 260.0)], vec![]);
        assert_eq!(interactive(&early), None);
    }

    #[test]
    fn a_long_task_after_a_quiet_window_does_not_move_the_figure() {
        let late = timeline(20_000.0, vec![(150.0, 260.0), (8_000.0, 8_100.0)], vec![]);
        assert_eq!(interactive(&late), Some(260.0));
    }

    #[test]
    fn the_quiet_window_waits_for_at_most_two_requests_in_flight() {
        let requests = vec![
            request("/a", 100.0, 400.0),
            request("/b", 110.0, 500.0),
            request("/c", 120.0, 450.0),
        ];
        let loaded = timeline(6_000.0, vec![(600.0, 700.0)], requests.clone());
        // The long task at 600 ms breaks the first window; the next one starts when it ends.
        assert_eq!(interactive(&loaded), Some(700.0));
        // Three requests in flight until 400 ms: the window starts then and ends at 5,400 ms.
        assert_eq!(
            interactive(&timeline(5_300.0, vec![], requests.clone())),
            None
        );
        assert_eq!(
            interactive(&timeline(5_600.0, vec![], requests)),
            Some(120.0)
        );
    }

    #[test]
    fn a_page_without_its_shell_is_not_interactive() {
        let mut blank = timeline(10_000.0, vec![], vec![]);
        blank.shell = None;
        assert_eq!(interactive(&blank), None);
    }

    #[test]
    fn files_fetched_before_interactive_are_first_load_and_later_ones_are_not() {
        let load = Load {
            fcp: 120.0,
            interactive: 300.0,
            started: None,
            shell: 110.0,
            long_tasks: 1,
            requests: vec![
                request("/", 0.0, 5.0),
                request("/app.wasm", 20.0, 90.0),
                request("/validator.wasm", 400.0, 420.0),
            ],
        };
        let first: Vec<&str> = load.first_load().map(|r| r.url.as_str()).collect();
        let later: Vec<&str> = load.after_interactive().map(|r| r.url.as_str()).collect();
        assert_eq!(first, ["/", "/app.wasm"]);
        assert_eq!(later, ["/validator.wasm"]);
    }
}
