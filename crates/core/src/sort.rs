//! The app's one stable sort. std's `sort_by` is compiled anew for each element type and comparison,
//! about 4 KB of wasm each time, and the app sorted in a dozen places; these functions sort positions
//! through one comparison trait object, so std's sort is compiled once (issue 21). The order is
//! `slice::sort_by`'s: stable, equal items keep their order. `tests/tidy.rs` keeps other sorts out of
//! the app's code.

use std::cmp::Ordering;

/// The positions `0..len` in the stable order `compare` puts them.
pub fn stable_order(len: usize, compare: &dyn Fn(usize, usize) -> Ordering) -> Vec<usize> {
    let mut order: Vec<usize> = (0..len).collect();
    order.sort_by(|&a, &b| compare(a, b));
    order
}

/// `items.sort_by(compare)`.
pub fn sort_by<T>(items: &mut Vec<T>, compare: impl Fn(&T, &T) -> Ordering) {
    let order = stable_order(items.len(), &|a, b| compare(&items[a], &items[b]));
    let mut slots: Vec<Option<T>> = std::mem::take(items).into_iter().map(Some).collect();
    items.extend(order.into_iter().filter_map(|position| slots[position].take()));
}

/// `items.sort_by_key(key)`.
pub fn sort_by_key<T, K: Ord>(items: &mut Vec<T>, key: impl Fn(&T) -> K) {
    sort_by(items, |a, b| key(a).cmp(&key(b)));
}

/// `items.sort()`.
pub fn sort<T: Ord>(items: &mut Vec<T>) {
    sort_by(items, T::cmp);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orders_like_std_and_keeps_equal_items_in_place() {
        let words = ["pear", "fig", "apple", "kiwi", "plum", "date", "lime", "", "banana", "yuzu"];
        let mut ours: Vec<&str> = words.to_vec();
        sort_by_key(&mut ours, |word| word.len());
        let mut std: Vec<&str> = words.to_vec();
        std.sort_by_key(|word| word.len());
        assert_eq!(ours, std);
        assert_eq!(ours, ["", "fig", "pear", "kiwi", "plum", "date", "lime", "yuzu", "apple", "banana"]);
    }

    #[test]
    fn sorts_owned_values_descending_and_in_full() {
        let mut values: Vec<String> = (0..200).map(|n| format!("{:03}", (n * 37) % 200)).collect();
        sort_by(&mut values, |a, b| b.cmp(a));
        let expected: Vec<String> = (0..200).rev().map(|n| format!("{n:03}")).collect();
        assert_eq!(values, expected);
        sort(&mut values);
        assert_eq!(values.first().map(String::as_str), Some("000"));
        assert_eq!(values.len(), 200);
    }

    #[test]
    fn orders_positions_and_handles_nothing() {
        let heights = [3.0_f64, 1.0, 2.0, 1.0];
        assert_eq!(stable_order(heights.len(), &|a, b| heights[a].total_cmp(&heights[b])), [1, 3, 2, 0]);
        assert!(stable_order(0, &|_, _| Ordering::Equal).is_empty());
        let mut empty: Vec<u8> = Vec::new();
        sort(&mut empty);
        assert!(empty.is_empty());
    }
}
