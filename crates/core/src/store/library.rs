//! Saved dashboards in records: one record per dashboard, keyed by its name, so saving or deleting
//! one never rewrites the others.

use serde_json::Value;

use crate::canvas::decode::SetAside;
use crate::canvas::persist::{Dashboard, DashboardLibrary, Loaded};
use crate::ports::Random;
use crate::store::{StoreName, StoredRecords, WritePlan};

/// The write that stores `dashboard` (replacing one of the same name).
pub fn put_dashboard(dashboard: &Dashboard) -> WritePlan {
    let mut plan = WritePlan::default();
    plan.put(StoreName::Dashboards, dashboard.name.clone(), dashboard.entry().to_string());
    plan
}

pub fn delete_dashboard(name: &str) -> WritePlan {
    let mut plan = WritePlan::default();
    plan.delete(StoreName::Dashboards, name);
    plan
}

/// Every dashboard of `library`, one record each (a move from local storage, an import).
pub fn put_library(library: &DashboardLibrary) -> WritePlan {
    let mut plan = WritePlan::default();
    for dashboard in library.dashboards() {
        plan.extend(put_dashboard(dashboard));
    }
    plan
}

/// The saved dashboards; a record that is not JSON is set aside, the others load.
pub fn read_library(records: &StoredRecords, random: &dyn Random, now_ms: f64) -> Loaded<DashboardLibrary> {
    let mut set_aside = Vec::new();
    let mut entries = Vec::new();
    for (key, text) in &records.dashboards {
        match serde_json::from_str::<Value>(text) {
            Ok(entry) => entries.push(entry),
            Err(error) => set_aside.push(SetAside {
                what: format!("dashboard \"{key}\""),
                reason: error.to_string(),
                raw: Value::String(text.clone()),
            }),
        }
    }
    let mut loaded = DashboardLibrary::from_entries(&entries, random, now_ms);
    set_aside.append(&mut loaded.set_aside);
    Loaded { value: loaded.value, set_aside }
}
