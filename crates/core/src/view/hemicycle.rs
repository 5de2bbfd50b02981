//! Hemicycle layout: seats as dots on concentric half rings, each group a contiguous wedge from left
//! to right in the given order, vacant seats last; plus the majority threshold.

use std::f64::consts::PI;

use crate::sort::{sort_by, stable_order};

/// Inner ring radius as a share of the outer one; the hollow centre holds the seat count.
const INNER: f64 = 0.4;
/// Outer ring radius in layout units.
const RADIUS: f64 = 100.0;

/// One seat: its centre and the group holding it (`None`: vacant).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Seat {
    pub x: f64,
    pub y: f64,
    pub group: Option<usize>,
}

/// A laid-out chamber, in a `width` x `height` box whose bottom centre is the rings' centre.
#[derive(Clone, Debug, PartialEq)]
pub struct Chamber {
    pub seats: Vec<Seat>,
    pub seat_radius: f64,
    pub rows: usize,
    pub width: f64,
    pub height: f64,
    /// Centre of the rings and the inner and outer ring radii.
    pub centre: (f64, f64),
    pub inner_radius: f64,
    pub outer_radius: f64,
}

/// Seats needed for an absolute majority of `total`.
pub fn majority(total: u32) -> u32 {
    total / 2 + 1
}

/// A ring count that keeps seats about as far apart along a ring as the rings are apart.
pub fn default_rows(total: u32) -> usize {
    // With n rings from INNER to 1, seats per ring proportional to radius, equal spacing gives
    // n (n - 1) = 2 total (1 - INNER) / (pi (1 + INNER)).
    let product = 2.0 * f64::from(total) * (1.0 - INNER) / (PI * (1.0 + INNER));
    let rows = (1.0 + (1.0 + 4.0 * product).sqrt()) / 2.0;
    (rows.round() as usize).clamp(1, 12)
}

/// Lays out `total` seats on `rows` rings (a sensible count when `None`), giving `group_seats[i]`
/// seats to group `i` in order, left to right; seats beyond the groups' sum are vacant. When the
/// groups hold more than `total`, the chamber grows to fit them.
pub fn chamber(group_seats: &[u32], total: u32, rows: Option<usize>) -> Chamber {
    let held: u32 = group_seats
        .iter()
        .fold(0u32, |sum, seats| sum.saturating_add(*seats));
    let total = total.max(held);
    let rows = rows
        .unwrap_or_else(|| default_rows(total))
        .clamp(1, 12)
        .min(total.max(1) as usize);
    let radii: Vec<f64> = (0..rows)
        .map(|row| {
            if rows == 1 {
                (1.0 + INNER) / 2.0
            } else {
                INNER + (1.0 - INNER) * row as f64 / (rows - 1) as f64
            }
        })
        .collect();
    let per_row = seats_per_row(total, &radii);

    let ring_gap = if rows > 1 {
        (1.0 - INNER) / (rows - 1) as f64
    } else {
        1.0 - INNER
    };
    let arc_gap = radii
        .iter()
        .zip(&per_row)
        .filter(|(_, seats)| **seats > 1)
        .map(|(radius, seats)| PI * radius / (*seats - 1) as f64)
        .fold(f64::INFINITY, f64::min);
    let seat_radius = 0.42 * ring_gap.min(arc_gap).min(0.2) * RADIUS;

    let pad = seat_radius + 2.0;
    let centre = (RADIUS + pad, RADIUS + pad);
    let mut seats: Vec<(f64, f64, f64)> = Vec::with_capacity(total as usize);
    for (radius, count) in radii.iter().zip(&per_row) {
        for index in 0..*count {
            let angle = if *count == 1 {
                PI / 2.0
            } else {
                PI * (1.0 - index as f64 / (*count - 1) as f64)
            };
            seats.push((angle, *radius, 0.0));
        }
    }
    // Left to right by angle (inner rings first on ties), so consecutive seats make wedges.
    sort_by(&mut seats, |a, b| b.0.total_cmp(&a.0).then(a.1.total_cmp(&b.1)));

    let mut owners = group_seats
        .iter()
        .enumerate()
        .flat_map(|(group, seats)| std::iter::repeat_n(group, *seats as usize));
    let seats = seats
        .into_iter()
        .map(|(angle, radius, _)| Seat {
            x: centre.0 + radius * RADIUS * angle.cos(),
            y: centre.1 - radius * RADIUS * angle.sin(),
            group: owners.next(),
        })
        .collect();
    Chamber {
        seats,
        seat_radius,
        rows,
        width: 2.0 * centre.0,
        height: centre.1 + pad,
        centre,
        inner_radius: INNER * RADIUS,
        outer_radius: RADIUS,
    }
}

/// Shares `total` seats among rings in proportion to their radius (largest remainders first).
fn seats_per_row(total: u32, radii: &[f64]) -> Vec<usize> {
    let sum: f64 = radii.iter().sum();
    let exact: Vec<f64> = radii.iter().map(|r| f64::from(total) * r / sum).collect();
    let mut counts: Vec<usize> = exact.iter().map(|e| e.floor() as usize).collect();
    let mut left = total as usize - counts.iter().sum::<usize>();
    let order = stable_order(radii.len(), &|a, b| {
        (exact[b] - exact[b].floor())
            .total_cmp(&(exact[a] - exact[a].floor()))
            .then(b.cmp(&a))
    });
    for row in order {
        if left == 0 {
            break;
        }
        counts[row] += 1;
        left -= 1;
    }
    counts
}

#[cfg(test)]
mod tests {
    use super::*;

    fn angle(chamber: &Chamber, seat: &Seat) -> f64 {
        (chamber.centre.1 - seat.y).atan2(seat.x - chamber.centre.0)
    }

    #[test]
    fn every_seat_is_drawn_and_groups_get_exactly_their_seats() {
        let chamber = chamber(
            &[71, 17, 38, 66, 23, 36, 92, 34, 47, 16, 123, 14],
            577,
            None,
        );
        assert_eq!(chamber.seats.len(), 577);
        assert_eq!(
            chamber.seats.iter().filter(|s| s.group == Some(10)).count(),
            123
        );
        assert_eq!(
            chamber.seats.iter().filter(|s| s.group.is_none()).count(),
            0
        );
        assert_eq!(chamber.rows, 12);
    }

    #[test]
    fn groups_form_wedges_from_left_to_right_in_the_given_order() {
        let chamber = chamber(&[30, 50, 20], 100, None);
        let mut previous_group = 0;
        let mut seats: Vec<&Seat> = chamber.seats.iter().collect();
        seats.sort_by(|a, b| angle(&chamber, b).total_cmp(&angle(&chamber, a)));
        for seat in seats {
            let group = seat.group.expect("no vacancy");
            assert!(
                group >= previous_group,
                "going left to right, group {group} comes after {previous_group}"
            );
            previous_group = group;
        }
        let first = chamber
            .seats
            .iter()
            .find(|s| s.group == Some(0))
            .expect("group 0 has seats");
        assert!(
            first.x < chamber.centre.0,
            "the first group sits on the left"
        );
    }

    #[test]
    fn vacant_seats_fill_up_to_the_total_after_the_groups() {
        let chamber = chamber(&[10, 5], 20, None);
        assert_eq!(chamber.seats.len(), 20);
        assert_eq!(
            chamber.seats.iter().filter(|s| s.group.is_none()).count(),
            5
        );
        let rightmost = chamber
            .seats
            .iter()
            .max_by(|a, b| a.x.total_cmp(&b.x))
            .expect("seats");
        assert_eq!(rightmost.group, None, "vacancies come last, on the right");
    }

    #[test]
    fn a_total_below_the_groups_grows_to_fit_them() {
        let chamber = chamber(&[10, 5], 12, Some(3));
        assert_eq!(chamber.seats.len(), 15);
        assert_eq!(chamber.rows, 3);
    }

    #[test]
    fn seats_sit_on_half_rings_inside_the_box_without_touching() {
        let chamber = chamber(&[200, 148], 348, None);
        for seat in &chamber.seats {
            let distance =
                ((seat.x - chamber.centre.0).powi(2) + (seat.y - chamber.centre.1).powi(2)).sqrt();
            assert!(
                distance >= chamber.inner_radius - 1e-9 && distance <= chamber.outer_radius + 1e-9
            );
            assert!(seat.y <= chamber.centre.1 + 1e-9, "upper half only");
            assert!(
                seat.x - chamber.seat_radius >= 0.0
                    && seat.x + chamber.seat_radius <= chamber.width
            );
            assert!(
                seat.y - chamber.seat_radius >= 0.0
                    && seat.y + chamber.seat_radius <= chamber.height
            );
        }
        let mut closest = f64::INFINITY;
        for (i, a) in chamber.seats.iter().enumerate() {
            for b in &chamber.seats[i + 1..] {
                closest = closest.min(((a.x - b.x).powi(2) + (a.y - b.y).powi(2)).sqrt());
            }
        }
        assert!(
            closest > 2.0 * chamber.seat_radius,
            "seats of radius {} are {closest} apart",
            chamber.seat_radius
        );
    }

    #[test]
    fn outer_rings_hold_more_seats() {
        let radii = [0.4, 0.7, 1.0];
        let rows = seats_per_row(100, &radii);
        assert_eq!(rows.iter().sum::<usize>(), 100);
        assert!(rows[0] < rows[1] && rows[1] < rows[2], "{rows:?}");
    }

    #[test]
    fn ring_count_follows_the_chamber_size() {
        assert_eq!(default_rows(1), 1);
        assert_eq!(default_rows(20), 3);
        assert!((5..=7).contains(&default_rows(100)));
        assert_eq!(default_rows(577), 12);
        assert_eq!(default_rows(5000), 12);
    }

    #[test]
    fn majority_is_more_than_half() {
        assert_eq!(majority(577), 289);
        assert_eq!(majority(100), 51);
        assert_eq!(majority(1), 1);
    }

    #[test]
    fn an_empty_chamber_has_no_seats() {
        let chamber = chamber(&[], 0, None);
        assert!(chamber.seats.is_empty());
    }
}
