//! The browser store: one IndexedDB database whose object stores and records the core lays out
//! (`autoui_core::store`). This adapter only opens it, reads every record back, and commits a
//! `WritePlan` as one readwrite transaction, reporting a quota refusal with the size that did not fit.

use std::future::IntoFuture;

use autoui_core::store::{StoreName, StoredRecords, WritePlan};
use idb::{Database, Transaction, TransactionMode, TransactionResult};
use wasm_bindgen::prelude::*;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

use crate::adapters::http::describe;

// The database is asked for by this module as soon as the page's JavaScript runs (its name, schema
// version and object stores are there).
#[wasm_bindgen(module = "/src/adapters/store_open.js")]
extern "C" {
    #[wasm_bindgen(js_name = openStore)]
    fn open_store() -> js_sys::Promise;
}

/// Why the store could not be used or did not take a write.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum StoreError {
    #[error("this browser gives the page no IndexedDB ({0})")]
    Unavailable(String),
    #[error("the browser refused {bytes} bytes: its storage quota for this site is used up")]
    Quota { bytes: usize },
    #[error("the browser did not take the write: {0}")]
    Failed(String),
    /// The code that writes is fetched on first use (`state/writing.rs`) and could not be.
    #[error("{0}")]
    NotLoaded(String),
}

/// The open database.
pub struct RecordStore {
    database: Database,
}

impl RecordStore {
    /// The database, with every object store the core lays records out in; the first call takes the
    /// request made as the page started.
    pub async fn open() -> Result<RecordStore, StoreError> {
        let database = JsFuture::from(open_store())
            .await
            .map_err(|error| StoreError::Unavailable(describe(&error)))?;
        Ok(RecordStore { database: Database::from(database.unchecked_into::<web_sys::IdbDatabase>()) })
    }

    /// Every record of every store, read in one transaction so they are consistent with each other.
    /// Every `getAll` is asked for before the first answer is awaited, so the browser reads them
    /// back to back instead of waiting on the page between stores.
    pub async fn read_all(&self) -> Result<StoredRecords, StoreError> {
        let failed = |error: idb::Error| StoreError::Failed(error.to_string());
        let names: Vec<&str> = StoreName::ALL.iter().map(|store| store.as_str()).collect();
        let transaction = self.database.transaction(&names, TransactionMode::ReadOnly).map_err(failed)?;
        let mut requests = Vec::with_capacity(StoreName::ALL.len());
        for store in StoreName::ALL {
            let object_store = transaction.object_store(store.as_str()).map_err(failed)?;
            // `into_future` listens for the answer now, before this task yields.
            let keys = object_store.get_all_keys(None, None).map_err(failed)?.into_future();
            let values = object_store.get_all(None, None).map_err(failed)?.into_future();
            requests.push((store, keys, values));
        }
        let mut records = StoredRecords::default();
        for (store, keys, values) in requests {
            let keys = keys.await.map_err(failed)?;
            let values = values.await.map_err(failed)?;
            let pairs = records.store_mut(store);
            for (key, value) in keys.into_iter().zip(values) {
                if let (Some(key), Some(value)) = (key.as_string(), value.as_string()) {
                    pairs.push((key, value));
                }
            }
        }
        Ok(records)
    }

    /// The records under `keys`, read in one transaction (a follower catching up with one write);
    /// a key with no record is left out.
    pub async fn read_keys(&self, keys: &[(StoreName, String)]) -> Result<StoredRecords, StoreError> {
        let failed = |error: idb::Error| StoreError::Failed(error.to_string());
        let names: Vec<&str> = StoreName::ALL
            .into_iter()
            .filter(|store| keys.iter().any(|(named, _)| named == store))
            .map(StoreName::as_str)
            .collect();
        let mut records = StoredRecords::default();
        if names.is_empty() {
            return Ok(records);
        }
        let transaction = self.database.transaction(&names, TransactionMode::ReadOnly).map_err(failed)?;
        let mut requests = Vec::with_capacity(keys.len());
        for (store, key) in keys {
            let object_store = transaction.object_store(store.as_str()).map_err(failed)?;
            requests.push((*store, key, object_store.get(JsValue::from_str(key)).map_err(failed)?.into_future()));
        }
        for (store, key, request) in requests {
            if let Some(value) = request.await.map_err(failed)?.and_then(|value| value.as_string()) {
                records.store_mut(store).push((key.clone(), value));
            }
        }
        Ok(records)
    }

    /// Hands `plan` to the browser now (the main-thread part of a write) and asks it to commit; the
    /// returned write says how it ended: whole or not at all, as IndexedDB rolls an aborted
    /// transaction back and the previous records stay as they were.
    pub fn begin(&self, plan: &WritePlan) -> Result<Commit, StoreError> {
        let failed = |error: idb::Error| StoreError::Failed(error.to_string());
        if plan.is_empty() {
            return Ok(Commit { transaction: None, bytes: 0 });
        }
        let names: Vec<&str> = plan.stores().iter().map(|store| store.as_str()).collect();
        // Two handles on one transaction: `raw` reads why it aborted once the other is awaited.
        let raw: web_sys::IdbTransaction =
            self.database.transaction(&names, TransactionMode::ReadWrite).map_err(failed)?.into();
        let transaction = Transaction::from(raw.clone());
        let requests = || -> Result<(), idb::Error> {
            for (store, key) in &plan.deletes {
                transaction.object_store(store.as_str())?.delete(JsValue::from_str(key))?;
            }
            for record in &plan.puts {
                let value = JsValue::from_str(&record.value);
                transaction.object_store(record.store.as_str())?.put(&value, Some(&JsValue::from_str(&record.key)))?;
            }
            Ok(())
        };
        if let Err(error) = requests() {
            let _ = raw.abort();
            // A put the browser refuses at once (its quota) throws instead of aborting the transaction.
            if let idb::Error::UpdateFailed(thrown) = &error
                && thrown.dyn_ref::<web_sys::DomException>().is_some_and(|e| e.name() == "QuotaExceededError")
            {
                return Err(StoreError::Quota { bytes: plan.bytes() });
            }
            return Err(refusal(&raw, plan.bytes()).unwrap_or_else(|| failed(error)));
        }
        // Committing now, not when the page next yields, so a write begun as the page unloads still lands.
        let transaction = transaction.commit().map_err(failed)?;
        Ok(Commit { transaction: Some((transaction, raw)), bytes: plan.bytes() })
    }
}

/// A write handed to the browser.
pub struct Commit {
    transaction: Option<(Transaction, web_sys::IdbTransaction)>,
    bytes: usize,
}

impl Commit {
    pub async fn finished(self) -> Result<(), StoreError> {
        let Some((transaction, raw)) = self.transaction else { return Ok(()) };
        let bytes = self.bytes;
        match transaction.await {
            Ok(TransactionResult::Committed) => Ok(()),
            Ok(TransactionResult::Aborted) => Err(refusal(&raw, bytes)
                .unwrap_or_else(|| StoreError::Failed("the transaction was aborted".to_owned()))),
            Err(error) => Err(refusal(&raw, bytes).unwrap_or_else(|| StoreError::Failed(error.to_string()))),
        }
    }
}

/// The transaction's own error, typed: a quota refusal carries the size of the write.
fn refusal(transaction: &web_sys::IdbTransaction, bytes: usize) -> Option<StoreError> {
    let error = transaction.error()?;
    Some(match error.name().as_str() {
        "QuotaExceededError" => StoreError::Quota { bytes },
        name => StoreError::Failed(format!("{name}: {}", error.message())),
    })
}
