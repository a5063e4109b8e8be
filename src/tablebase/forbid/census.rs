//! `tb forbid census`: the table-draw states of each layer (raw states), the strongly connected
//! components of their move graph, and the exits from them.

use super::raw::DrawStates;
use super::scc::strongly_connected;
use super::{ForbidValue, LayerContext, Successor};
use crate::tablebase::generate::Progress;
use crate::tablebase::graph::{GOATS, TIGERS};
use crate::tablebase::{TableRules, Tablebase, TablebaseError};
use std::cell::Cell;
use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;
use std::time::Instant;

/// Per layer and side to move: the table draws and the moves from them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SideCensus {
    /// Table-draw symmetry classes.
    pub draw_classes: u64,
    /// Table-draw raw states (every board of those classes).
    pub draw_states: u64,
    /// Moves from draw states to draw states of the layer (edges of the graph).
    pub moves_to_draws: u64,
    /// Moves from draw states out of the draws within the layer (each a table loss for the
    /// mover).
    pub losing_steps: u64,
    /// Captures from draw states into a table draw of the next layer.
    pub captures_to_draws: u64,
    /// Captures from draw states into a table loss for the capturer.
    pub losing_captures: u64,
    /// Draw states with at least one capture into a table draw.
    pub states_with_capture_exit: u64,
}

/// The census of one layer.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LayerCensus {
    /// Goats captured in the layer.
    pub captured: u8,
    /// Goats to move, tigers to move.
    pub sides: [SideCensus; 2],
    /// Component sizes (draw states of both sides) and how many components have each size.
    pub sizes: BTreeMap<u64, u64>,
    /// Per side to move, the states in the largest component.
    pub largest_by_side: [u64; 2],
    /// Components with at least one capture into a table draw.
    pub components_with_capture_exit: u64,
    /// Wall time, seconds.
    pub seconds: f64,
    /// Bytes held by the draw-state sets, and the peak of the process so far (resident set).
    pub set_bytes: u64,
    /// Peak resident memory of the process so far, when the system reports it.
    pub peak_rss_bytes: Option<u64>,
}

impl LayerCensus {
    /// Number of components.
    pub fn components(&self) -> u64 {
        self.sizes.values().sum()
    }

    /// Size of the largest component (0 without draws).
    pub fn largest(&self) -> u64 {
        self.sizes.keys().next_back().copied().unwrap_or(0)
    }

    /// Draw states of both sides.
    pub fn states(&self) -> u64 {
        self.sizes.iter().map(|(size, count)| size * count).sum()
    }

    /// The smallest size `s` such that at least `fraction` of the components have size <= `s`
    /// (`by_states`: of the states lie in components of size <= `s`).
    pub fn percentile(&self, fraction: f64, by_states: bool) -> u64 {
        let weight = |size: u64, count: u64| if by_states { size * count } else { count };
        let total: u64 = self.sizes.iter().map(|(&s, &c)| weight(s, c)).sum();
        let mut seen = 0;
        for (&size, &count) in &self.sizes {
            seen += weight(size, count);
            if seen as f64 >= fraction * total as f64 {
                return size;
            }
        }
        0
    }

    /// Components and their states with sizes in `low..=high`.
    pub fn in_range(&self, low: u64, high: u64) -> (u64, u64) {
        self.sizes
            .range(low..=high)
            .fold((0, 0), |(c, s), (&size, &count)| {
                (c + count, s + size * count)
            })
    }
}

/// Peak resident memory of this process (Linux `VmHWM`), if known.
pub fn peak_rss_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|line| line.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// Takes the census of every layer of the movement tables in `dir` (rules as recorded there),
/// from the last layer down.
///
/// # Errors
/// A missing, corrupt or mismatched table file.
pub fn census(dir: &Path, progress: Progress) -> Result<Vec<LayerCensus>, TablebaseError> {
    let tables = Tablebase::open_movement(dir, Tablebase::recorded_rules(dir)?)?;
    let rules = tables.rules();
    (0..rules.captures_to_win)
        .rev()
        .map(|captured| layer_census(&tables, captured, progress))
        .collect()
}

/// The census of layer `captured`.
///
/// # Errors
/// A compressed movement layer whose data is inconsistent.
pub fn layer_census(
    tables: &Tablebase,
    captured: u8,
    progress: Progress,
) -> Result<LayerCensus, TablebaseError> {
    let started = Instant::now();
    let values = tables.layer(captured)?;
    let draws = DrawStates::new(captured, values);
    let context = LayerContext::new(tables, captured, &draws, None)?;
    let mut census = LayerCensus {
        captured,
        set_bytes: draws.bytes(),
        ..LayerCensus::default()
    };
    let len = values.len() / 2;
    for side in [GOATS, TIGERS] {
        let slice = &values[side * len..(side + 1) * len];
        census.sides[side].draw_classes = slice.iter().filter(|&&v| v == 0).count() as u64;
        census.sides[side].draw_states = u64::from(draws.sides[side].len());
    }
    let n = draws.len();
    let phase = format!("census layer {captured}");
    let mut done = 0u64;
    let goats = draws.sides[GOATS].len();
    let mut sides = std::mem::take(&mut census.sides);
    // Vertices with a capture into a table draw, set while expanding, read per component.
    let capture_exits: Vec<Cell<u64>> = vec![Cell::new(0); n.div_ceil(64) as usize];
    let has_exit = |v: u32| capture_exits[(v / 64) as usize].get() & (1 << (v % 64)) != 0;
    strongly_connected(
        n,
        |v, out| {
            let (board, side) = draws.state(v);
            let stats = &mut sides[side];
            let mut exit = false;
            context.for_each_successor(board, side, |successor| match successor {
                Successor::Draw { vertex, .. } => {
                    out.push(vertex);
                    stats.moves_to_draws += 1;
                }
                Successor::Exit { value, capture } => match (capture, value) {
                    (true, ForbidValue::Unknown) => {
                        stats.captures_to_draws += 1;
                        exit = true;
                    }
                    (true, _) => stats.losing_captures += 1,
                    (false, _) => stats.losing_steps += 1,
                },
            });
            if exit {
                stats.states_with_capture_exit += 1;
                let word = &capture_exits[(v / 64) as usize];
                word.set(word.get() | 1 << (v % 64));
            }
        },
        |members| {
            *census.sizes.entry(members.len() as u64).or_default() += 1;
            if members.iter().any(|&v| has_exit(v)) {
                census.components_with_capture_exit += 1;
            }
            if members.len() as u64 > census.largest_by_side.iter().sum::<u64>() {
                let in_goats = members.iter().filter(|&&v| v < goats).count() as u64;
                census.largest_by_side = [in_goats, members.len() as u64 - in_goats];
            }
            done += members.len() as u64;
            if done % 4096 < members.len() as u64 || done == u64::from(n) {
                progress(&phase, done, u64::from(n));
            }
        },
    );
    census.sides = sides;
    census.seconds = started.elapsed().as_secs_f64();
    census.peak_rss_bytes = peak_rss_bytes();
    Ok(census)
}

/// Writes the census as tables (results, on `out`).
///
/// # Errors
/// A failure to write.
pub fn print_census(
    rules: TableRules,
    layers: &[LayerCensus],
    out: &mut dyn Write,
) -> std::io::Result<()> {
    writeln!(out, "rules: {rules}")?;
    writeln!(
        out,
        "layer side   draw-classes  draw-states  moves-to-draws losing-steps captures-to-draws losing-captures states-with-capture-exit"
    )?;
    for layer in layers {
        for (side, name) in ["goats", "tigers"].iter().enumerate() {
            let s = &layer.sides[side];
            writeln!(
                out,
                "{:>5} {name:<6} {:>12} {:>12} {:>15} {:>12} {:>17} {:>15} {:>24}",
                layer.captured,
                s.draw_classes,
                s.draw_states,
                s.moves_to_draws,
                s.losing_steps,
                s.captures_to_draws,
                s.losing_captures,
                s.states_with_capture_exit
            )?;
        }
    }
    writeln!(out)?;
    writeln!(
        out,
        "layer  components  singletons      largest (goats+tigers)  p50 p90 p99 p99.9 (by states)  with-capture-exit  seconds  peak-rss-MB"
    )?;
    for layer in layers {
        let percentiles: Vec<String> = [0.5, 0.9, 0.99, 0.999]
            .iter()
            .map(|&p| layer.percentile(p, true).to_string())
            .collect();
        writeln!(
            out,
            "{:>5} {:>11} {:>11} {:>12} ({}+{})  {}  {:>17} {:>8.2} {:>12}",
            layer.captured,
            layer.components(),
            layer.in_range(1, 1).0,
            layer.largest(),
            layer.largest_by_side[GOATS],
            layer.largest_by_side[TIGERS],
            percentiles.join(" "),
            layer.components_with_capture_exit,
            layer.seconds,
            layer
                .peak_rss_bytes
                .map_or("?".to_string(), |b| (b / (1 << 20)).to_string())
        )?;
    }
    writeln!(out)?;
    writeln!(
        out,
        "component sizes: components / draw states in each range"
    )?;
    let ranges = [
        (1, 1),
        (2, 8),
        (9, 16),
        (17, 32),
        (33, 64),
        (65, 1024),
        (1025, 65_536),
        (65_537, u64::MAX),
    ];
    let header: Vec<String> = ranges
        .iter()
        .map(|&(low, high)| match (low, high) {
            (l, h) if l == h => format!("{l}"),
            (l, u64::MAX) => format!(">={l}"),
            (l, h) => format!("{l}-{h}"),
        })
        .collect();
    writeln!(out, "layer  {}", header.join(" | "))?;
    for layer in layers {
        let cells: Vec<String> = ranges
            .iter()
            .map(|&(low, high)| {
                let (components, states) = layer.in_range(low, high);
                format!("{components}/{states}")
            })
            .collect();
        writeln!(out, "{:>5}  {}", layer.captured, cells.join(" | "))?;
    }
    Ok(())
}
