//! Timing sanity check for the data-table core on 10,000 rows (issue 9: sort and filter fit in a
//! 50 ms frame budget with room for the DOM): `cargo bench -p autoui-core --bench table`.

use autoui_core::view::table::{Direction, SearchIndex, columns, original_order, sort_order, to_csv};
use divan::{Bencher, black_box};
use serde_json::{Value, json};

fn main() {
    divan::main();
}

const ROWS: usize = 10_000;
const REGIONS: [&str; 6] = [
    "Île-de-France",
    "Occitanie",
    "Bretagne",
    "Grand Est",
    "Normandie",
    "Hauts-de-France",
];

fn rows() -> Vec<Value> {
    (0..ROWS)
        .map(|i| {
            // A cheap deterministic shuffle so the sorts have real work to do.
            let scrambled = (i * 7919) % ROWS;
            json!({
                "id": i,
                "city": format!("Commune {scrambled}"),
                "region": REGIONS[i % REGIONS.len()],
                "population": (scrambled * 137) % 250_000,
                "area_km2": (scrambled as f64) / 7.0,
                "created": format!("20{:02}-{:02}-{:02}", i % 25, i % 12 + 1, i % 28 + 1),
                "site": format!("https://commune-{i}.example.fr"),
            })
        })
        .collect()
}

#[divan::bench]
fn sort_10k_rows_by_a_number_column(bencher: Bencher) {
    let rows = rows();
    let columns = columns(None, &rows);
    let population = columns.iter().find(|c| c.key == "population").cloned();
    bencher.bench(|| {
        population
            .as_ref()
            .map(|column| sort_order(black_box(&rows), column, Direction::Descending))
    });
}

#[divan::bench]
fn sort_10k_rows_by_a_text_column(bencher: Bencher) {
    let rows = rows();
    let columns = columns(None, &rows);
    let city = columns.iter().find(|c| c.key == "city").cloned();
    bencher.bench(|| {
        city.as_ref()
            .map(|column| sort_order(black_box(&rows), column, Direction::Ascending))
    });
}

#[divan::bench]
fn build_the_search_index_of_10k_rows(bencher: Bencher) {
    let rows = rows();
    let columns = columns(None, &rows);
    bencher.bench(|| SearchIndex::new(black_box(&rows), &columns));
}

#[divan::bench]
fn filter_10k_rows(bencher: Bencher) {
    let rows = rows();
    let columns = columns(None, &rows);
    let index = SearchIndex::new(&rows, &columns);
    let order = original_order(&rows);
    bencher.bench(|| index.filter(black_box(&order), "occitanie 12"));
}

#[divan::bench]
fn infer_the_columns_of_10k_rows(bencher: Bencher) {
    let rows = rows();
    bencher.bench(|| columns(None, black_box(&rows)));
}

#[divan::bench]
fn export_10k_rows_as_csv(bencher: Bencher) {
    let rows = rows();
    let columns = columns(None, &rows);
    let order = original_order(&rows);
    bencher.bench(|| to_csv(black_box(&rows), &columns, &order));
}
