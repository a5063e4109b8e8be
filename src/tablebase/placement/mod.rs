//! Placement-phase tables: the value (win, draw or loss for the side to move, no distance) of
//! every position with goats in hand, solved layer by layer from the movement tables up (see
//! docs/tablebase.md).
//!
//! - [`index`]: positions of a layer (goats in hand, captured), reduced by the tiger set's
//!   symmetry; [`packed`]: 2-bit values.
//! - [`solve`]: one side of one layer from its children; [`generate`]: the whole run, resumable.
//! - [`verify`]: every stored value recomputed from its children, independently of the solver.
//!
//! Opened tables map their files. A layer with a matching verified stamp ([`super::stamp`])
//! answers at once; the others have their payload checksum checked on a background thread, from
//! 20 goats in hand down: such a layer answers probes only once its checksum is known to be
//! good (and is then stamped), so a large set of files costs no start-up time, and a corrupt
//! file is reported and never used. The engine's `isready` waits for the check (see
//! protocol.md).

pub mod generate;
pub mod index;
mod moves;
pub mod packed;
pub mod solve;
pub mod verify;

use super::file::{
    check_and_stamp, is_stamped, map_layer, placement_path, LayerHeader, MappedLayer, PayloadCheck,
    PayloadStatus,
};
use super::stamp::Stamps;
use super::{TableRules, TablebaseError};
use crate::{Position, Side};
use generate::{check_placement_header, MAX_IN_HAND};
use index::{Layer, PlacementIndex};
use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

pub use super::value::Wdl;

/// Checksum state of a layer: not yet checked.
const PENDING: u8 = 0;
/// Checksum state of a layer: checked and good, the layer answers probes.
const GOOD: u8 = 1;
/// Checksum state of a layer: bad, the layer is never used.
const CORRUPT: u8 = 2;
/// Checksum state of a layer: vouched for by a verified stamp, the layer answers probes.
const STAMPED: u8 = 3;
/// The bit shared by the states in which a layer answers probes.
const USABLE: u8 = 1;

/// One opened placement layer file.
struct OpenLayer {
    index: PlacementIndex,
    mapped: MappedLayer,
    state: AtomicU8,
}

/// The verification thread's progress, for callers that wait for it.
#[derive(Default)]
struct Checked {
    done: Mutex<bool>,
    finished: Condvar,
}

/// The placement layers found in a table directory.
pub struct PlacementTables {
    dir: PathBuf,
    layers: Arc<BTreeMap<Layer, OpenLayer>>,
    checked: Arc<Checked>,
}

impl fmt::Debug for PlacementTables {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PlacementTables")
            .field("layers", &self.layers.len())
            .finish()
    }
}

impl PlacementTables {
    /// Opens every placement layer file present in `dir` for `rules` (absent layers are left
    /// out). Layers that `stamps` vouch for (when `check` trusts them) answer at once; the
    /// others are checked in the background, and stamped (the stamp file written) when good.
    ///
    /// # Errors
    /// An unreadable file, a file whose header or length is wrong, or one for other rules.
    pub fn open(
        dir: &Path,
        rules: TableRules,
        stamps: Arc<Stamps>,
        check: PayloadCheck,
    ) -> Result<PlacementTables, TablebaseError> {
        let mut layers = BTreeMap::new();
        for layer in solve::layers(rules, MAX_IN_HAND) {
            let path = placement_path(dir, layer.in_hand, layer.captured);
            let mapped = match map_layer(&path) {
                Ok(opened) => opened,
                Err(TablebaseError::NotFound { .. }) => continue,
                Err(error) => return Err(error),
            };
            check_placement_header(&path, &mapped.header, rules, layer)?;
            let state = if is_stamped(&path, &mapped.identity, &stamps, check) {
                STAMPED
            } else {
                PENDING
            };
            layers.insert(
                layer,
                OpenLayer {
                    index: PlacementIndex::new(layer),
                    mapped,
                    state: AtomicU8::new(state),
                },
            );
        }
        let tables = PlacementTables {
            dir: dir.to_path_buf(),
            layers: Arc::new(layers),
            checked: Arc::new(Checked::default()),
        };
        let (layers, checked, owned_dir) = (
            Arc::clone(&tables.layers),
            Arc::clone(&tables.checked),
            dir.to_path_buf(),
        );
        std::thread::Builder::new()
            .name("tb-checksums".into())
            .spawn(move || {
                // From 20 goats in hand down: the layers a game meets first come first.
                let pending = layers
                    .iter()
                    .rev()
                    .filter(|(_, open)| open.state.load(Ordering::Acquire) == PENDING);
                for (layer, open) in pending {
                    let path = placement_path(&owned_dir, layer.in_hand, layer.captured);
                    let state = match check_and_stamp(&path, &open.mapped, &stamps) {
                        Ok(()) => GOOD,
                        Err(error) => {
                            log::error!("{error}: the layer is not used");
                            CORRUPT
                        }
                    };
                    open.state.store(state, Ordering::Release);
                    if state == GOOD {
                        // Saved layer by layer: an interrupted check keeps what it proved.
                        stamps.save();
                    }
                }
                if let Ok(mut done) = checked.done.lock() {
                    *done = true;
                }
                checked.finished.notify_all();
            })
            .map_err(|source| TablebaseError::Io {
                path: dir.to_path_buf(),
                source,
            })?;
        Ok(tables)
    }

    /// Whether every layer's checksum has been checked.
    pub fn is_checked(&self) -> bool {
        self.checked.done.lock().map(|done| *done).unwrap_or(true)
    }

    /// Waits until every layer's checksum is checked; returns the corrupt layers' paths.
    pub fn wait_checked(&self) -> Vec<PathBuf> {
        self.wait_checked_for(None)
            .expect("no time limit, no time out")
    }

    /// As [`PlacementTables::wait_checked`], for at most `limit`; `None` when the check is
    /// still running then (it goes on in the background).
    pub fn wait_checked_for(&self, limit: Option<Duration>) -> Option<Vec<PathBuf>> {
        let deadline = limit.map(|limit| Instant::now() + limit);
        let mut done = self.checked.done.lock().unwrap_or_else(|e| e.into_inner());
        while !*done {
            done = match deadline {
                None => self
                    .checked
                    .finished
                    .wait(done)
                    .unwrap_or_else(|e| e.into_inner()),
                Some(deadline) => {
                    let left = deadline.checked_duration_since(Instant::now())?;
                    self.checked
                        .finished
                        .wait_timeout(done, left)
                        .unwrap_or_else(|e| e.into_inner())
                        .0
                }
            };
        }
        Some(
            self.layers
                .iter()
                .filter(|(_, open)| open.state.load(Ordering::Acquire) == CORRUPT)
                .map(|(layer, _)| placement_path(&self.dir, layer.in_hand, layer.captured))
                .collect(),
        )
    }

    /// Whether the file of `layer` was opened.
    pub fn contains(&self, layer: Layer) -> bool {
        self.layers.contains_key(&layer)
    }

    /// Number of layer files opened.
    pub fn len(&self) -> usize {
        self.layers.len()
    }

    /// Whether no placement layer is present.
    pub fn is_empty(&self) -> bool {
        self.layers.is_empty()
    }

    /// Whether every layer up to 20 goats in hand is present (the whole game is covered).
    pub fn is_complete(&self, rules: TableRules) -> bool {
        solve::layers(rules, MAX_IN_HAND)
            .iter()
            .all(|layer| self.layers.contains_key(layer))
    }

    /// The headers of the opened layers (win/draw/loss counts).
    pub fn headers(&self) -> impl Iterator<Item = &LayerHeader> {
        self.layers.values().map(|open| &open.mapped.header)
    }

    /// The opened layers, from the fewest goats in hand, with the state of their payload check.
    pub fn statuses(&self) -> impl Iterator<Item = (Layer, PayloadStatus)> + '_ {
        self.layers.iter().map(|(&layer, open)| {
            let status = match open.state.load(Ordering::Acquire) {
                PENDING => PayloadStatus::Pending,
                GOOD => PayloadStatus::Checked,
                STAMPED => PayloadStatus::Stamped,
                _ => PayloadStatus::Corrupt,
            };
            (layer, status)
        })
    }

    /// The value for the side to move of a position with goats in hand; `None` when its layer
    /// is absent, not yet checked, or corrupt.
    pub fn probe(&self, position: &Position) -> Option<Wdl> {
        let layer = Layer {
            in_hand: position.goats_in_hand(),
            captured: position.goats_captured(),
        };
        let open = self.layers.get(&layer)?;
        if open.state.load(Ordering::Acquire) & USABLE == 0 {
            return None;
        }
        let at = open.index.encode(position.tigers().0, position.goats().0);
        let side = match position.side_to_move() {
            Side::Goats => 0,
            Side::Tigers => open.mapped.header.side_bytes() as usize,
        };
        let byte = open.mapped.values[side + (at >> 2) as usize];
        packed::wdl_of((byte >> ((at & 3) * 2)) & 3)
    }
}
