//! Sankey layout: nodes placed in columns by their longest path from a source, node heights and flow
//! band widths proportional to value, bands stacked at each node to limit crossings, and cubic Bezier
//! band outlines. Links that cannot be drawn (cycles, self loops, zero or negative values) are left
//! out with a [`SankeyNote`] saying why.

use std::collections::HashMap;
use std::fmt;
use std::fmt::Write;

use crate::sort::{sort_by, stable_order};
use crate::view::chart::num;

/// One flow as the data gives it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LinkSpec<'a> {
    pub source: &'a str,
    pub target: &'a str,
    pub value: f64,
}

/// The drawing area and node proportions, in pixels.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SankeyConfig {
    pub width: f64,
    pub height: f64,
    pub node_width: f64,
    /// Preferred vertical gap between nodes of a column; shrunk when a column is crowded.
    pub node_gap: f64,
}

/// A placed node. Its index is its position in `nodes` (listed nodes first, then implicit ones).
#[derive(Clone, Debug, PartialEq)]
pub struct NodeBox {
    pub id: String,
    pub column: usize,
    pub x0: f64,
    pub x1: f64,
    pub y0: f64,
    pub y1: f64,
    pub value_in: f64,
    pub value_out: f64,
    /// False for a listed node that no drawn flow touches; it gets no box.
    pub placed: bool,
}

impl NodeBox {
    /// The larger of what flows in and what flows out.
    pub fn value(&self) -> f64 {
        self.value_in.max(self.value_out)
    }
}

/// A placed flow band between two nodes.
#[derive(Clone, Debug, PartialEq)]
pub struct FlowBand {
    /// Position of the link in the input.
    pub link: usize,
    pub source: usize,
    pub target: usize,
    pub value: f64,
    /// Top of the band where it leaves the source and where it enters the target.
    pub y_source: f64,
    pub y_target: f64,
    pub width: f64,
}

/// Why part of the data is not drawn as given.
#[derive(Clone, Debug, PartialEq)]
pub enum SankeyNote {
    /// A link names a node that `nodes` does not list; it is drawn with its id as label.
    MissingNode { id: String },
    /// A node id listed twice; the first one is used.
    DuplicateNode { id: String },
    /// A listed node that no drawable flow touches.
    Unconnected { id: String },
    /// A link whose value is zero, negative or not a number.
    NotPositive {
        source: String,
        target: String,
        value: f64,
    },
    /// A link from a node to itself.
    SelfLoop { id: String },
    /// A link that would close a cycle; a sankey flows one way.
    Cycle { source: String, target: String },
}

impl fmt::Display for SankeyNote {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SankeyNote::MissingNode { id } => {
                write!(f, "node \"{id}\" is used by a flow but not listed in nodes")
            }
            SankeyNote::DuplicateNode { id } => {
                write!(f, "node \"{id}\" is listed twice; the first one is used")
            }
            SankeyNote::Unconnected { id } => write!(f, "node \"{id}\" has no flows"),
            SankeyNote::NotPositive {
                source,
                target,
                value,
            } => {
                write!(
                    f,
                    "flow {source} → {target} has value {value}; only positive flows are drawn"
                )
            }
            SankeyNote::SelfLoop { id } => {
                write!(f, "flow {id} → {id} loops on itself and is not drawn")
            }
            SankeyNote::Cycle { source, target } => {
                write!(
                    f,
                    "flow {source} → {target} would close a cycle and is not drawn"
                )
            }
        }
    }
}

/// The whole layout.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SankeyLayout {
    pub nodes: Vec<NodeBox>,
    /// Drawn flows, widest first so narrow ones stay visible and clickable on top.
    pub flows: Vec<FlowBand>,
    pub notes: Vec<SankeyNote>,
    pub columns: usize,
}

impl SankeyLayout {
    /// The filled outline of `flow`: two cubic Bezier curves from the source's right edge to the
    /// target's left edge.
    pub fn band_path(&self, flow: &FlowBand) -> String {
        let (Some(source), Some(target)) =
            (self.nodes.get(flow.source), self.nodes.get(flow.target))
        else {
            return String::new();
        };
        let (x0, x1) = (source.x1, target.x0);
        let xm = (x0 + x1) / 2.0;
        let (s0, t0) = (flow.y_source, flow.y_target);
        let (s1, t1) = (s0 + flow.width, t0 + flow.width);
        let mut path = String::with_capacity(96);
        let _ = write!(
            path,
            "M{} {}C{} {} {} {} {} {}L{} {}C{} {} {} {} {} {}Z",
            num(x0),
            num(s0),
            num(xm),
            num(s0),
            num(xm),
            num(t0),
            num(x1),
            num(t0),
            num(x1),
            num(t1),
            num(xm),
            num(t1),
            num(xm),
            num(s1),
            num(x0),
            num(s1)
        );
        path
    }
}

/// Lays out `nodes` (ids in the data's order) and `links` in `config`'s area.
pub fn layout(nodes: &[&str], links: &[LinkSpec<'_>], config: &SankeyConfig) -> SankeyLayout {
    let mut notes = Vec::new();
    let mut index: HashMap<&str, usize> = HashMap::with_capacity(nodes.len());
    let mut ids: Vec<&str> = Vec::with_capacity(nodes.len());
    for id in nodes {
        if index.contains_key(id) {
            notes.push(SankeyNote::DuplicateNode {
                id: (*id).to_owned(),
            });
        } else {
            index.insert(id, ids.len());
            ids.push(id);
        }
    }

    let mut edges: Vec<(usize, usize, usize, f64)> = Vec::with_capacity(links.len());
    for (position, link) in links.iter().enumerate() {
        let mut node_of = |id: &str, notes: &mut Vec<SankeyNote>| -> usize {
            if let Some(&found) = index.get(id) {
                return found;
            }
            // Borrowing the id from `links` keeps `index` keyed by input strings.
            let id: &str = if link.source == id {
                link.source
            } else {
                link.target
            };
            notes.push(SankeyNote::MissingNode { id: id.to_owned() });
            index.insert(id, ids.len());
            ids.push(id);
            ids.len() - 1
        };
        let source = node_of(link.source, &mut notes);
        let target = node_of(link.target, &mut notes);
        if !(link.value.is_finite() && link.value > 0.0) {
            notes.push(SankeyNote::NotPositive {
                source: link.source.to_owned(),
                target: link.target.to_owned(),
                value: link.value,
            });
        } else if source == target {
            notes.push(SankeyNote::SelfLoop {
                id: link.source.to_owned(),
            });
        } else {
            edges.push((position, source, target, link.value));
        }
    }

    let kept = forward_edges(ids.len(), &edges);
    for (&(_, source, target, _), _) in edges.iter().zip(&kept).filter(|(_, kept)| !**kept) {
        notes.push(SankeyNote::Cycle {
            source: ids[source].to_owned(),
            target: ids[target].to_owned(),
        });
    }
    let edges: Vec<(usize, usize, usize, f64)> = edges
        .into_iter()
        .zip(kept)
        .filter_map(|(edge, kept)| kept.then_some(edge))
        .collect();

    let mut boxes: Vec<NodeBox> = ids
        .iter()
        .map(|id| NodeBox {
            id: (*id).to_owned(),
            column: 0,
            x0: 0.0,
            x1: 0.0,
            y0: 0.0,
            y1: 0.0,
            value_in: 0.0,
            value_out: 0.0,
            placed: false,
        })
        .collect();
    for &(_, source, target, value) in &edges {
        boxes[source].value_out += value;
        boxes[target].value_in += value;
        boxes[source].placed = true;
        boxes[target].placed = true;
    }
    for node in boxes.iter().filter(|node| !node.placed) {
        notes.push(SankeyNote::Unconnected {
            id: node.id.clone(),
        });
    }
    if edges.is_empty() {
        return SankeyLayout {
            nodes: boxes,
            flows: Vec::new(),
            notes,
            columns: 0,
        };
    }

    let columns = assign_columns(&mut boxes, &edges);
    place_horizontally(&mut boxes, columns, config);
    let scale = place_vertically(&mut boxes, &edges, columns, config);
    let flows = stack_flows(&boxes, &edges, scale);
    SankeyLayout {
        nodes: boxes,
        flows,
        notes,
        columns,
    }
}

/// Which of `edges` to keep: all but the back edges a depth-first walk finds, visiting nodes and their
/// links in input order so the choice is stable.
fn forward_edges(node_count: usize, edges: &[(usize, usize, usize, f64)]) -> Vec<bool> {
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        New,
        Open,
        Done,
    }
    let mut outgoing: Vec<Vec<(usize, usize)>> = vec![Vec::new(); node_count];
    for (edge, &(_, source, target, _)) in edges.iter().enumerate() {
        outgoing[source].push((edge, target));
    }
    let mut marks = vec![Mark::New; node_count];
    let mut kept = vec![false; edges.len()];
    for root in 0..node_count {
        if marks[root] != Mark::New {
            continue;
        }
        // Iterative walk: (node, next outgoing edge to look at).
        let mut stack = vec![(root, 0usize)];
        marks[root] = Mark::Open;
        while let Some((node, next)) = stack.last_mut().map(|(node, next)| (*node, next)) {
            if let Some(&(edge, target)) = outgoing[node].get(*next) {
                *next += 1;
                match marks[target] {
                    Mark::Open => {}
                    Mark::Done => kept[edge] = true,
                    Mark::New => {
                        kept[edge] = true;
                        marks[target] = Mark::Open;
                        stack.push((target, 0));
                    }
                }
            } else {
                marks[node] = Mark::Done;
                stack.pop();
            }
        }
    }
    kept
}

/// Column = longest path from a source; nodes without outgoing flows go to the last column so every
/// ending lines up on the right. Returns the number of columns.
fn assign_columns(boxes: &mut [NodeBox], edges: &[(usize, usize, usize, f64)]) -> usize {
    let count = boxes.len();
    let mut incoming = vec![0usize; count];
    let mut outgoing: Vec<Vec<usize>> = vec![Vec::new(); count];
    for &(_, source, target, _) in edges {
        incoming[target] += 1;
        outgoing[source].push(target);
    }
    let mut depth = vec![0usize; count];
    let mut ready: Vec<usize> = (0..count).filter(|&n| incoming[n] == 0).collect();
    while let Some(node) = ready.pop() {
        for &target in &outgoing[node] {
            depth[target] = depth[target].max(depth[node] + 1);
            incoming[target] -= 1;
            if incoming[target] == 0 {
                ready.push(target);
            }
        }
    }
    let last = depth
        .iter()
        .zip(boxes.iter())
        .filter(|(_, b)| b.placed)
        .map(|(d, _)| *d)
        .max()
        .unwrap_or(0);
    for (node, node_box) in boxes.iter_mut().enumerate() {
        node_box.column = if outgoing[node].is_empty() {
            last
        } else {
            depth[node]
        };
    }
    last + 1
}

fn place_horizontally(boxes: &mut [NodeBox], columns: usize, config: &SankeyConfig) {
    let node_width = config
        .node_width
        .min(config.width / columns as f64 / 2.0)
        .max(1.0);
    let spacing = if columns > 1 {
        (config.width - node_width) / (columns - 1) as f64
    } else {
        0.0
    };
    for node in boxes.iter_mut().filter(|n| n.placed) {
        node.x0 = node.column as f64 * spacing;
        node.x1 = node.x0 + node_width;
    }
}

/// Sizes nodes by value with one scale for all columns, then relaxes their vertical positions
/// towards the nodes they exchange with. Returns the pixels per unit of value.
fn place_vertically(
    boxes: &mut [NodeBox],
    edges: &[(usize, usize, usize, f64)],
    columns: usize,
    config: &SankeyConfig,
) -> f64 {
    let mut by_column: Vec<Vec<usize>> = vec![Vec::new(); columns];
    for (node, node_box) in boxes.iter().enumerate().filter(|(_, b)| b.placed) {
        by_column[node_box.column].push(node);
    }
    let crowd = by_column.iter().map(Vec::len).max().unwrap_or(1);
    let gap = if crowd > 1 {
        config
            .node_gap
            .min(config.height * 0.5 / (crowd - 1) as f64)
    } else {
        0.0
    };
    let scale = by_column
        .iter()
        .filter(|column| !column.is_empty())
        .map(|column| {
            let total: f64 = column.iter().map(|&n| boxes[n].value()).sum();
            (config.height - gap * (column.len() - 1) as f64) / total
        })
        .fold(f64::INFINITY, f64::min);
    let scale = if scale.is_finite() && scale > 0.0 {
        scale
    } else {
        1.0
    };

    for column in &by_column {
        let mut y = 0.0;
        for &node in column {
            boxes[node].y0 = y;
            boxes[node].y1 = y + boxes[node].value() * scale;
            y = boxes[node].y1 + gap;
        }
        resolve_collisions(boxes, column, gap, config.height);
    }

    let mut alpha = 1.0;
    for _ in 0..8 {
        for column in by_column.iter_mut().skip(1) {
            relax(boxes, edges, column, Direction::TowardsSources, alpha);
            resolve_collisions(boxes, column, gap, config.height);
        }
        for column in by_column.iter_mut().rev().skip(1) {
            relax(boxes, edges, column, Direction::TowardsTargets, alpha);
            resolve_collisions(boxes, column, gap, config.height);
        }
        alpha *= 0.9;
    }
    scale
}

#[derive(Clone, Copy, PartialEq)]
enum Direction {
    TowardsSources,
    TowardsTargets,
}

/// Moves each node of `column` towards the value-weighted centre of the nodes it is linked to.
fn relax(
    boxes: &mut [NodeBox],
    edges: &[(usize, usize, usize, f64)],
    column: &mut [usize],
    direction: Direction,
    alpha: f64,
) {
    for &node in column.iter() {
        let (mut weighted, mut weight) = (0.0, 0.0);
        for &(_, source, target, value) in edges {
            let other = match direction {
                Direction::TowardsSources if target == node => source,
                Direction::TowardsTargets if source == node => target,
                _ => continue,
            };
            weighted += centre(&boxes[other]) * value;
            weight += value;
        }
        if weight > 0.0 {
            let shift = (weighted / weight - centre(&boxes[node])) * alpha;
            boxes[node].y0 += shift;
            boxes[node].y1 += shift;
        }
    }
    // Top to bottom; equal tops keep node order.
    let top = |position: usize| (boxes[column[position]].y0, column[position]);
    let sorted: Vec<usize> = stable_order(column.len(), &|a, b| {
        let ((y_a, node_a), (y_b, node_b)) = (top(a), top(b));
        y_a.total_cmp(&y_b).then(node_a.cmp(&node_b))
    })
    .into_iter()
    .map(|position| column[position])
    .collect();
    column.copy_from_slice(&sorted);
}

/// Pushes overlapping nodes of a column apart (downwards, then back up from the bottom edge).
fn resolve_collisions(boxes: &mut [NodeBox], column: &[usize], gap: f64, height: f64) {
    let mut y = 0.0;
    for &node in column {
        let shift = (y - boxes[node].y0).max(0.0);
        boxes[node].y0 += shift;
        boxes[node].y1 += shift;
        y = boxes[node].y1 + gap;
    }
    let mut bottom = height;
    for &node in column.iter().rev() {
        let shift = (boxes[node].y1 - bottom).max(0.0);
        boxes[node].y0 -= shift;
        boxes[node].y1 -= shift;
        bottom = boxes[node].y0 - gap;
    }
}

fn centre(node: &NodeBox) -> f64 {
    (node.y0 + node.y1) / 2.0
}

/// Stacks each node's outgoing bands by target position and incoming bands by source position, so
/// bands leave and arrive in the order they travel and cross as little as possible.
fn stack_flows(
    boxes: &[NodeBox],
    edges: &[(usize, usize, usize, f64)],
    scale: f64,
) -> Vec<FlowBand> {
    let mut flows: Vec<FlowBand> = edges
        .iter()
        .map(|&(link, source, target, value)| FlowBand {
            link,
            source,
            target,
            value,
            y_source: 0.0,
            y_target: 0.0,
            width: value * scale,
        })
        .collect();
    let order = stable_order(flows.len(), &|a, b| {
        boxes[flows[a].target]
            .y0
            .total_cmp(&boxes[flows[b].target].y0)
            .then(flows[a].link.cmp(&flows[b].link))
    });
    let mut next_out: Vec<f64> = boxes.iter().map(|b| b.y0).collect();
    for &flow in &order {
        let source = flows[flow].source;
        flows[flow].y_source = next_out[source];
        next_out[source] += flows[flow].width;
    }
    let order = stable_order(flows.len(), &|a, b| {
        boxes[flows[a].source]
            .y0
            .total_cmp(&boxes[flows[b].source].y0)
            .then(flows[a].link.cmp(&flows[b].link))
    });
    let mut next_in: Vec<f64> = boxes.iter().map(|b| b.y0).collect();
    for &flow in &order {
        let target = flows[flow].target;
        flows[flow].y_target = next_in[target];
        next_in[target] += flows[flow].width;
    }
    sort_by(&mut flows, |a, b| b.value.total_cmp(&a.value).then(a.link.cmp(&b.link)));
    flows
}

#[cfg(test)]
mod tests {
    use super::*;

    const AREA: SankeyConfig = SankeyConfig {
        width: 600.0,
        height: 300.0,
        node_width: 10.0,
        node_gap: 10.0,
    };

    fn link<'a>(source: &'a str, target: &'a str, value: f64) -> LinkSpec<'a> {
        LinkSpec {
            source,
            target,
            value,
        }
    }

    fn node<'a>(layout: &'a SankeyLayout, id: &str) -> &'a NodeBox {
        layout
            .nodes
            .iter()
            .find(|n| n.id == id)
            .unwrap_or_else(|| panic!("node {id}"))
    }

    fn height(node: &NodeBox) -> f64 {
        node.y1 - node.y0
    }

    #[test]
    fn nodes_sit_in_columns_by_longest_path_and_endings_line_up_on_the_right() {
        let links = [
            link("a", "b", 5.0),
            link("b", "c", 5.0),
            link("a", "c", 2.0),
            link("a", "d", 1.0),
        ];
        let layout = layout(&["a", "b", "c", "d"], &links, &AREA);
        assert_eq!(layout.columns, 3);
        assert_eq!(node(&layout, "a").column, 0);
        assert_eq!(node(&layout, "b").column, 1);
        assert_eq!(
            node(&layout, "c").column,
            2,
            "c is two steps from a through b"
        );
        assert_eq!(
            node(&layout, "d").column,
            2,
            "d has no outgoing flow, so it ends on the right"
        );
        assert_eq!(node(&layout, "a").x0, 0.0);
        assert_eq!(node(&layout, "c").x1, 600.0);
    }

    #[test]
    fn node_heights_and_band_widths_are_proportional_to_value() {
        let links = [
            link("tax", "schools", 300.0),
            link("tax", "roads", 100.0),
            link("fees", "roads", 100.0),
        ];
        let layout = layout(&["tax", "fees", "schools", "roads"], &links, &AREA);
        let tax = node(&layout, "tax");
        let fees = node(&layout, "fees");
        assert!(
            (height(tax) / height(fees) - 4.0).abs() < 1e-9,
            "tax carries four times what fees carry"
        );
        let schools = node(&layout, "schools");
        let roads = node(&layout, "roads");
        assert!((height(schools) / height(roads) - 1.5).abs() < 1e-9);
        let widths: Vec<f64> = layout.flows.iter().map(|f| f.width).collect();
        assert!(
            (widths[0] / widths[1] - 3.0).abs() < 1e-9,
            "bands widest first: {widths:?}"
        );
        assert!(
            (widths[0] - height(schools)).abs() < 1e-9,
            "schools is fed by that single band"
        );
    }

    #[test]
    fn nodes_fit_the_area_without_overlapping() {
        let links: Vec<LinkSpec> = ["a", "b", "c", "d", "e", "f"]
            .iter()
            .enumerate()
            .flat_map(|(i, s)| [link(s, "x", 10.0 + i as f64), link(s, "y", 3.0)])
            .collect();
        let layout = layout(&["a", "b", "c", "d", "e", "f", "x", "y"], &links, &AREA);
        for column in 0..layout.columns {
            let mut nodes: Vec<&NodeBox> =
                layout.nodes.iter().filter(|n| n.column == column).collect();
            nodes.sort_by(|a, b| a.y0.total_cmp(&b.y0));
            for pair in nodes.windows(2) {
                assert!(
                    pair[1].y0 >= pair[0].y1 - 1e-6,
                    "{} overlaps {}",
                    pair[0].id,
                    pair[1].id
                );
            }
            for n in nodes {
                assert!(
                    n.y0 >= -1e-6 && n.y1 <= AREA.height + 1e-6,
                    "{} inside the area: {n:?}",
                    n.id
                );
            }
        }
    }

    #[test]
    fn bands_stack_inside_their_nodes_in_travel_order() {
        let links = [link("s", "low", 1.0), link("s", "high", 1.0)];
        let layout = layout(&["s", "high", "low"], &links, &AREA);
        let s = node(&layout, "s");
        let high = node(&layout, "high");
        let low = node(&layout, "low");
        assert!(high.y0 < low.y0, "listed first, placed first");
        let to_high = layout
            .flows
            .iter()
            .find(|f| layout.nodes[f.target].id == "high")
            .expect("band to high");
        let to_low = layout
            .flows
            .iter()
            .find(|f| layout.nodes[f.target].id == "low")
            .expect("band to low");
        assert_eq!(
            to_high.y_source, s.y0,
            "the band to the upper node leaves from the top"
        );
        assert!((to_low.y_source - (s.y0 + to_high.width)).abs() < 1e-9);
        assert_eq!(to_low.y_target, low.y0);
        let total_out: f64 = layout.flows.iter().map(|f| f.width).sum();
        assert!(
            (total_out - height(s)).abs() < 1e-9,
            "the bands fill their source exactly"
        );
    }

    #[test]
    fn cycles_drop_the_closing_flow_with_a_note() {
        let links = [
            link("a", "b", 4.0),
            link("b", "c", 4.0),
            link("c", "a", 1.0),
        ];
        let layout = layout(&["a", "b", "c"], &links, &AREA);
        assert_eq!(layout.flows.len(), 2);
        assert!(
            layout.flows.iter().all(|f| f.link != 2),
            "c → a is the flow that closes the loop"
        );
        assert_eq!(
            layout.notes,
            vec![SankeyNote::Cycle {
                source: "c".into(),
                target: "a".into()
            }]
        );
        assert_eq!(
            layout.notes[0].to_string(),
            "flow c → a would close a cycle and is not drawn"
        );
        assert_eq!(layout.columns, 3);
    }

    #[test]
    fn zero_negative_and_self_flows_are_noted_and_skipped() {
        let links = [
            link("a", "b", 3.0),
            link("a", "c", 0.0),
            link("b", "c", -2.0),
            link("b", "b", 1.0),
            link("a", "c", f64::NAN),
        ];
        let layout = layout(&["a", "b", "c"], &links, &AREA);
        assert_eq!(layout.flows.len(), 1);
        assert_eq!(layout.notes.len(), 5, "{:?}", layout.notes);
        assert!(
            layout
                .notes
                .contains(&SankeyNote::SelfLoop { id: "b".into() })
        );
        assert!(
            layout
                .notes
                .contains(&SankeyNote::Unconnected { id: "c".into() }),
            "c is left with nothing to draw"
        );
        assert!(!node(&layout, "c").placed);
        assert!(
            layout
                .notes
                .iter()
                .any(|n| n.to_string() == "flow b → c has value -2; only positive flows are drawn")
        );
    }

    #[test]
    fn flows_to_unlisted_nodes_still_draw_and_say_so() {
        let layout = layout(&["a", "a"], &[link("a", "ghost", 2.0)], &AREA);
        assert_eq!(layout.flows.len(), 1);
        assert_eq!(node(&layout, "ghost").column, 1);
        assert_eq!(
            layout.notes,
            vec![
                SankeyNote::DuplicateNode { id: "a".into() },
                SankeyNote::MissingNode { id: "ghost".into() }
            ]
        );
    }

    #[test]
    fn nothing_drawable_gives_an_empty_layout() {
        let layout = layout(&["a"], &[], &AREA);
        assert!(layout.flows.is_empty());
        assert_eq!(layout.columns, 0);
    }

    #[test]
    fn band_outlines_run_from_source_edge_to_target_edge() {
        let layout = layout(&["a", "b"], &[link("a", "b", 1.0)], &AREA);
        let path = layout.band_path(&layout.flows[0]);
        assert_eq!(
            path,
            "M10 0C300 0 300 0 590 0L590 300C300 300 300 300 10 300Z"
        );
    }

    #[test]
    fn crowded_columns_shrink_their_gaps_to_fit() {
        let targets: Vec<String> = (0..40).map(|i| format!("t{i}")).collect();
        let links: Vec<LinkSpec> = targets.iter().map(|t| link("s", t, 1.0)).collect();
        let mut nodes = vec!["s"];
        nodes.extend(targets.iter().map(String::as_str));
        let layout = layout(&nodes, &links, &AREA);
        let bottom = layout.nodes.iter().map(|n| n.y1).fold(0.0, f64::max);
        assert!(bottom <= AREA.height + 1e-6);
        assert!(layout.nodes.iter().all(|n| height(n) > 0.0));
    }
}
