// The app's IndexedDB database, asked for as soon as this module arrives (index.html loads it as a
// script of its own, scripts/split-wasm.sh), long before the wasm has been downloaded: a browser's
// first open of a database can take a tenth of a second, which then overlaps the download instead of
// following the start. `indexed_db.rs` takes this request's answer.
// The object stores are the core's `StoreName::ALL` (crates/core/tests/tidy.rs checks they agree).
const DATABASE = "autoui";
// IndexedDB's own schema version: which object stores exist (not the record layout's version).
const VERSION = 1;
const STORES = ["meta", "blocks", "messages", "results", "dashboards"];

function open() {
  return new Promise((resolve, reject) => {
    if (typeof indexedDB === "undefined") {
      reject(new Error("IndexedDB is not available here"));
      return;
    }
    // Throws (and so rejects) where storage is denied, as in an opaque origin.
    const request = indexedDB.open(DATABASE, VERSION);
    request.onupgradeneeded = () => {
      const database = request.result;
      for (const name of STORES) {
        if (!database.objectStoreNames.contains(name)) database.createObjectStore(name);
      }
    };
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

let early = open();
// A page may never ask for it (one that fails before reading its session): that is no unhandled error.
early.catch(() => {});

// The open database: the request made as the page started, the first time; a new one after that.
export function openStore() {
  const request = early ?? open();
  early = null;
  return request;
}
