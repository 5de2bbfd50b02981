//! `recall`: the full stored result of an earlier tool call, read through `ResultStore`, whole or
//! one page at a time, with errors that list the ids that can be recalled.

mod common;

use common::autoui_server::Harness;
use serde_json::json;

#[test]
fn a_stored_result_comes_back_whole_and_unchanged() {
    let h = Harness::new();
    let full = format!("[{}]", vec!["{\"seats\": 577}"; 1_000].join(","));
    h.results.store("toolu_01", &full);
    let result = h.call("recall", json!({"id": "toolu_01"}));
    assert!(!result.is_error);
    assert!(
        result.text_content() == full,
        "the result came back changed"
    );
    assert_eq!(result.structured.unwrap()["next_offset"], json!(null));
}

#[test]
fn a_runaway_result_is_paged_even_without_a_length() {
    let h = Harness::new();
    h.results.store("toolu_big", &"x".repeat(250_000));
    let result = h.call("recall", json!({"id": "toolu_big"}));
    let text = result.text_content();
    assert!(text.ends_with("[recall: characters 0-20000 of 250000; next page: recall {\"id\": \"toolu_big\", \"offset\": 20000}]"));
    assert_eq!(text.len(), 20_000 + text.lines().last().unwrap().len() + 1);
}

#[test]
fn a_long_result_is_read_in_pages_with_the_next_offset() {
    let h = Harness::new();
    let full: String = (0..50).map(|i| format!("line {i:02}\n")).collect();
    h.results.store("toolu_02", &full);

    let first = h.call("recall", json!({"id": "toolu_02", "length": 80}));
    let text = first.text_content();
    assert!(text.starts_with(&full[..80]));
    assert!(text.ends_with("[recall: characters 0-80 of 400; next page: recall {\"id\": \"toolu_02\", \"offset\": 80}]"), "{text}");
    assert_eq!(first.structured.unwrap()["next_offset"], 80);

    let last = h.call(
        "recall",
        json!({"id": "toolu_02", "offset": "360", "length": "100"}),
    );
    assert_eq!(
        last.text_content(),
        format!(
            "{}\n[recall: characters 360-400 of 400; end of the result]",
            &full[360..]
        )
    );
}

#[test]
fn pages_are_cut_between_characters_not_bytes() {
    let h = Harness::new();
    h.results.store("toolu_03", "Élysée — Assemblée — Sénat");
    let page = h.call(
        "recall",
        json!({"id": "toolu_03", "offset": 9, "length": 9}),
    );
    assert!(page.text_content().starts_with("Assemblée\n"));
}

#[test]
fn an_unknown_id_lists_the_ids_that_can_be_recalled() {
    let h = Harness::new();
    h.results.store("toolu_a", "1");
    h.results.store("toolu_b", "2");
    let error = h.err("recall", json!({"id": "toolu_zz"}));
    assert_eq!(
        error,
        json!({"error": "no stored result for id \"toolu_zz\"", "known_ids": ["toolu_a", "toolu_b"]})
    );
}

#[test]
fn bad_offsets_and_lengths_are_explained() {
    let h = Harness::new();
    h.results.store("toolu_a", "short");
    let error = h.err("recall", json!({"id": "toolu_a", "offset": 10}));
    assert_eq!(
        error["error"],
        "offset 10 is past the end: the result has 5 characters"
    );
    let error = h.err("recall", json!({"id": "toolu_a", "length": 0}));
    assert_eq!(
        error["error"],
        "length must be a whole number of characters, at least 1; got number 0"
    );
    let error = h.err("recall", json!({}));
    assert_eq!(
        error["error"],
        "recall needs \"id\": the id of an earlier tool call"
    );
}
