//! The browser store with 20 data-tables of 10,000 rows on the canvas: the main-thread time of the
//! save that follows one small edit (a stat-card's value, through the `canvas` tool), the time to
//! read and decode the whole session at start after a reload (and until the 20 tables are on
//! screen), and the size stored. The app measures its save and its restore as User Timing entries
//! (`autoui-save`, `autoui-restore` and its part `autoui-restore-read`); the bench reads them.

use std::time::{Duration, Instant};

use serde::Deserialize;
use serde_json::{Value, json};

use crate::BenchError;
use crate::session::Session;
use crate::stats::Samples;

pub const TABLES: usize = 20;
pub const ROWS: usize = 10_000;
/// Waits for the saves of the 20 tables (about 25 MB) and for the restore after a reload.
const PATIENCE: Duration = Duration::from_secs(120);

#[derive(Debug, Default)]
pub struct StorageFigures {
    /// Main-thread time of each save after one small edit.
    pub save: Samples,
    /// Reading and decoding the whole session at start (`autoui-restore`).
    pub restore: Samples,
    /// The part of it that opens the database and reads the records (`autoui-restore-read`).
    pub restore_read: Samples,
    /// From navigation to the 20 tables in the DOM with their rows (polled every 20 ms).
    pub restore_dom: Samples,
    /// Characters in the stored records.
    pub stored_chars: Samples,
    /// What `navigator.storage.estimate()` reports as used.
    pub usage: Samples,
}

const ADD_TABLE: &str = r#"
const params = __bench.table(arguments[0]);
params.title = `Stored ${arguments[1]}`;
return __bench.callTool('widget_display', { name: 'data-table', params }).then((result) => result.structuredContent?.id ?? null);"#;

const ADD_CARD: &str = r#"
return __bench.callTool('widget_display', { name: 'stat-card', params: { label: 'Edited', value: '0' } })
  .then((result) => result.structuredContent?.id ?? null);"#;

/// The number of `autoui-save` entries and the last one's duration.
const SAVES: &str = r#"
const saves = performance.getEntriesByName('autoui-save');
return { count: saves.length, last: saves.length ? saves[saves.length - 1].duration : null };"#;

const UPDATE: &str = r#"
return __bench.callTool('canvas', { action: 'update', id: arguments[0], params: { data: { value: arguments[1] } } }).then(() => null);"#;

/// The stored records: the session index's block count, every value's length, and the estimate.
const STORED: &str = r#"
return new Promise((resolve) => {
  const open = indexedDB.open('autoui');
  open.onupgradeneeded = () => open.transaction.abort();
  open.onerror = () => resolve({ blocks: 0, chars: 0 });
  open.onsuccess = () => {
    const db = open.result;
    const names = [...db.objectStoreNames];
    const tx = db.transaction(names, 'readonly');
    let chars = 0;
    let blocks = 0;
    for (const name of names) {
      const all = tx.objectStore(name).getAll();
      all.onsuccess = () => { for (const value of all.result) chars += value.length; };
    }
    const index = tx.objectStore('meta').get('session');
    index.onsuccess = () => { if (index.result) blocks = JSON.parse(index.result).blocks.length; };
    tx.oncomplete = async () => {
      db.close();
      const estimate = await navigator.storage.estimate();
      resolve({ blocks, chars, usage: estimate.usage ?? null });
    };
  };
});"#;

const TABLES_SHOWN: &str = r#"
const tables = [...document.querySelectorAll('[data-widget-type=data-table] table')];
return { shown: tables.filter((t) => t.getAttribute('aria-rowcount') === String(arguments[0] + 1)).length, now: performance.now() };"#;

#[derive(Deserialize)]
struct Saves {
    count: usize,
    last: Option<f64>,
}

#[derive(Deserialize)]
struct Stored {
    blocks: usize,
    chars: f64,
    usage: Option<f64>,
}

#[derive(Deserialize)]
struct Shown {
    shown: usize,
    now: f64,
}

/// One browser: fill, edit `edits` times, reload once.
pub async fn measure(base_url: &str, edits: usize, figures: &mut StorageFigures) -> Result<(), BenchError> {
    let session = Session::open(base_url, "/").await?;
    let outcome = run(&session, edits, figures).await;
    session.close().await;
    outcome
}

async fn run(session: &Session, edits: usize, figures: &mut StorageFigures) -> Result<(), BenchError> {
    session.wait_for_tools().await?;
    for table in 0..TABLES {
        session
            .eval::<Option<String>>("adding a 10,000-row table", ADD_TABLE, vec![json!(ROWS), json!(table)])
            .await?
            .ok_or_else(|| BenchError::Missing("widget_display gave no id".to_owned()))?;
    }
    let card = session
        .eval::<Option<String>>("adding a stat-card", ADD_CARD, vec![])
        .await?
        .ok_or_else(|| BenchError::Missing("widget_display gave no id".to_owned()))?;
    let stored = wait_for_blocks(session, TABLES + 1).await?;
    figures.stored_chars.push(stored.chars);
    if let Some(usage) = stored.usage {
        figures.usage.push(usage);
    }
    for edit in 0..edits {
        let before: Saves = session.eval("reading the saves", SAVES, vec![]).await?;
        session
            .eval::<Value>("editing the stat-card", UPDATE, vec![json!(card), json!(edit.to_string())])
            .await?;
        let deadline = Instant::now() + PATIENCE;
        loop {
            let saves: Saves = session.eval("reading the saves", SAVES, vec![]).await?;
            if saves.count > before.count {
                figures.save.extend(saves.last);
                break;
            }
            if Instant::now() > deadline {
                return Err(BenchError::Missing("the edit was never saved".to_owned()));
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        session.idle(300).await?;
    }

    session.navigate("/").await?;
    let deadline = Instant::now() + PATIENCE;
    loop {
        let shown: Shown = session.eval("waiting for the tables", TABLES_SHOWN, vec![json!(ROWS)]).await?;
        if shown.shown == TABLES {
            figures.restore_dom.push(shown.now);
            break;
        }
        if Instant::now() > deadline {
            return Err(BenchError::Missing(format!("only {} of {TABLES} tables came back", shown.shown)));
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    for (name, samples) in [("autoui-restore", &mut figures.restore), ("autoui-restore-read", &mut figures.restore_read)] {
        let duration: Option<f64> = session
            .eval("reading the restore", "return performance.getEntriesByName(arguments[0])[0]?.duration ?? null;", vec![json!(name)])
            .await?;
        samples.extend(duration);
    }
    Ok(())
}

async fn wait_for_blocks(session: &Session, blocks: usize) -> Result<Stored, BenchError> {
    let deadline = Instant::now() + PATIENCE;
    loop {
        let stored: Stored = session.eval("reading the store", STORED, vec![]).await?;
        if stored.blocks == blocks {
            return Ok(stored);
        }
        if Instant::now() > deadline {
            return Err(BenchError::Missing(format!("the store holds {} of {blocks} widgets", stored.blocks)));
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}
