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

use super::compressed::convert::capture_wins;
use super::compressed::{compressed_path, CompressedLayer};
use super::file::{
    check_and_stamp, is_stamped, map_layer, placement_path, LayerHeader, MappedLayer, PayloadCheck,
    PayloadStatus,
};
use super::stamp::Stamps;
use super::{TableRules, TablebaseError};
use crate::tables::JUMPS;
use crate::{Position, Side};
use generate::{check_placement_header, MAX_IN_HAND};
use index::{Frames, Layer, PlacementIndex, FULL};
use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU8, Ordering};
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
    path: PathBuf,
    file: LayerFile,
    state: AtomicU8,
}

/// A layer file in either format.
enum LayerFile {
    /// Both sides, 2 bits a value (`.bctb`).
    Plain(MappedLayer),
    /// Tigers to move only, compressed (`.bctz`).
    Compressed(CompressedLayer),
}

impl LayerFile {
    fn mapped(&self) -> &MappedLayer {
        match self {
            LayerFile::Plain(mapped) => mapped,
            LayerFile::Compressed(layer) => &layer.mapped,
        }
    }

    /// Opens the compressed file of `layer` in `dir`, else its uncompressed one; `None` when
    /// neither exists.
    fn open(dir: &Path, layer: Layer) -> Result<Option<(PathBuf, LayerFile)>, TablebaseError> {
        let compressed = compressed_path(dir, layer.in_hand, layer.captured);
        match CompressedLayer::open(&compressed) {
            Ok(opened) => return Ok(Some((compressed, LayerFile::Compressed(opened)))),
            Err(TablebaseError::NotFound { .. }) => {}
            Err(error) => return Err(error),
        }
        let plain = placement_path(dir, layer.in_hand, layer.captured);
        match map_layer(&plain) {
            Ok(opened) => Ok(Some((plain, LayerFile::Plain(opened)))),
            Err(TablebaseError::NotFound { .. }) => Ok(None),
            Err(error) => Err(error),
        }
    }
}

/// Whether a tiger can capture on this board (tiger and goat point sets).
#[inline]
pub fn has_capture(tigers: u32, goats: u32) -> bool {
    let empty = FULL & !(tigers | goats);
    let mut rest = tigers;
    while rest != 0 {
        let from = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        let jumps = &JUMPS[from];
        for i in 0..usize::from(jumps.len) {
            let over = 1u32 << jumps.over[i].index();
            let land = 1u32 << jumps.land[i].index();
            if goats & over != 0 && empty & land != 0 {
                return true;
            }
        }
    }
    false
}

/// The verification thread's progress, for callers that wait for it.
#[derive(Default)]
struct Checked {
    done: Mutex<bool>,
    finished: Condvar,
}

/// The placement layers found in a table directory.
pub struct PlacementTables {
    rules: TableRules,
    layers: Arc<BTreeMap<Layer, OpenLayer>>,
    checked: Arc<Checked>,
    /// Whether the layers are to be read at random once usable (see
    /// [`PlacementTables::expect_random_reads`]).
    random_reads: Arc<AtomicBool>,
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
    /// out; a layer with a compressed file is read from it, else from its uncompressed one,
    /// so a directory may mix both). Layers that `stamps` vouch for (when `check` trusts them) answer at once; the
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
            let Some((path, file)) = LayerFile::open(dir, layer)? else {
                continue;
            };
            let mapped = file.mapped();
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
                    path,
                    file,
                    state: AtomicU8::new(state),
                },
            );
        }
        let tables = PlacementTables {
            rules,
            layers: Arc::new(layers),
            checked: Arc::new(Checked::default()),
            random_reads: Arc::new(AtomicBool::new(false)),
        };
        let (layers, checked) = (Arc::clone(&tables.layers), Arc::clone(&tables.checked));
        let random_reads = Arc::clone(&tables.random_reads);
        std::thread::Builder::new()
            .name("tb-checksums".into())
            .spawn(move || {
                // From 20 goats in hand down: the layers a game meets first come first.
                let pending = layers
                    .iter()
                    .rev()
                    .filter(|(_, open)| open.state.load(Ordering::Acquire) == PENDING);
                for (_, open) in pending {
                    let state = match check_and_stamp(&open.path, open.file.mapped(), &stamps) {
                        Ok(()) => GOOD,
                        Err(error) => {
                            log::error!("{error}: the layer is not used");
                            CORRUPT
                        }
                    };
                    open.state.store(state, Ordering::SeqCst);
                    if state == GOOD && random_reads.load(Ordering::SeqCst) {
                        open.file.mapped().values.expect_random_reads();
                    }
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
                .map(|(_, open)| open.path.clone())
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

    /// Has the usable layers read at random from now on, and each layer still being checked
    /// once its check passes (see [`super::file::LayerValues::expect_random_reads`]):
    /// for probing, not for reading whole layers.
    pub fn expect_random_reads(&self) {
        self.random_reads.store(true, Ordering::SeqCst);
        for open in self.layers.values() {
            if open.state.load(Ordering::SeqCst) & USABLE != 0 {
                open.file.mapped().values.expect_random_reads();
            }
        }
    }

    /// Bytes mapped from the layers' files.
    pub fn mapped_len(&self) -> u64 {
        let layers = self.layers.values();
        layers
            .map(|open| open.file.mapped().values.mapped_len())
            .sum()
    }

    /// Brings the usable layers into the page cache, from the most goats in hand (the layers a
    /// game meets first) down (see [`super::file::LayerValues::prefetch`]); returns early once
    /// `stop` is set.
    pub fn prefetch(&self, stop: &AtomicBool) {
        for open in self.layers.values().rev() {
            if open.state.load(Ordering::SeqCst) & USABLE != 0 {
                open.file.mapped().values.prefetch(stop);
            }
        }
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
        self.layers.values().map(|open| &open.file.mapped().header)
    }

    /// The file opened for `layer` (compressed or not).
    pub fn path(&self, layer: Layer) -> Option<&Path> {
        self.layers.get(&layer).map(|open| open.path.as_path())
    }

    /// Whether `layer` was opened from a compressed file.
    pub fn is_compressed(&self, layer: Layer) -> bool {
        self.layers
            .get(&layer)
            .is_some_and(|open| matches!(open.file, LayerFile::Compressed(_)))
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
    /// is absent, not yet checked, or corrupt. Goats to move in a compressed layer with one goat
    /// in hand are derived from the movement tables, which this type does not hold: `None`
    /// (see [`PlacementTables::probe_with`]).
    pub fn probe(&self, position: &Position) -> Option<Wdl> {
        self.probe_with(position, &|_, _, _| None)
    }

    /// As [`PlacementTables::probe`], with `movement(tigers, goats, captured)` giving the value
    /// of tigers to move in the movement phase (for goats to move with one goat in hand in a
    /// compressed layer, whose values are derived from their children).
    pub fn probe_with(&self, position: &Position, movement: Movement) -> Option<Wdl> {
        let layer = Layer {
            in_hand: position.goats_in_hand(),
            captured: position.goats_captured(),
        };
        let open = self.usable(layer)?;
        let (tigers, goats) = (position.tigers().0, position.goats().0);
        match (position.side_to_move(), &open.file) {
            (Side::Goats, LayerFile::Plain(mapped)) => {
                let at = open.index.encode(tigers, goats);
                packed::wdl_of(packed::get(&mapped.values, at))
            }
            (Side::Goats, LayerFile::Compressed(_)) => {
                self.derive_goats(layer, tigers, goats, movement)
            }
            (Side::Tigers, _) => {
                let at = open.index.encode(tigers, goats);
                packed::wdl_of(self.tiger_code(layer, open, at, tigers, goats)?)
            }
        }
    }

    /// A layer that is open and may answer probes.
    fn usable(&self, layer: Layer) -> Option<&OpenLayer> {
        let open = self.layers.get(&layer)?;
        (open.state.load(Ordering::Acquire) & USABLE != 0).then_some(open)
    }

    /// The code of tigers-to-move position `at` of `open` (whose board is `tigers`, `goats`, in
    /// any frame).
    #[inline]
    fn tiger_code(
        &self,
        layer: Layer,
        open: &OpenLayer,
        at: u64,
        tigers: u32,
        goats: u32,
    ) -> Option<u8> {
        match &open.file {
            LayerFile::Plain(mapped) => Some(packed::get(
                &mapped.values,
                mapped.header.side_bytes() * 4 + at,
            )),
            LayerFile::Compressed(compressed) => {
                // Don't-care positions: a capture that reaches captures to win.
                if capture_wins(self.rules, layer, tigers, goats) {
                    return Some(packed::WIN);
                }
                compressed.code(at)
            }
        }
    }

    /// The value of goats to move on this board in `layer`: the best of its placements.
    fn derive_goats(
        &self,
        layer: Layer,
        tigers: u32,
        goats: u32,
        movement: Movement,
    ) -> Option<Wdl> {
        let frames = Frames::get();
        let (class, g) = frames.class_of(tigers);
        let points = &frames.classes[class];
        let goats = frames.transform(goats, g);
        let below = Layer {
            in_hand: layer.in_hand - 1,
            captured: layer.captured,
        };
        let open = if below.in_hand > 0 {
            Some(self.usable(below)?)
        } else {
            None
        };
        if let Some(OpenLayer {
            file: LayerFile::Compressed(compressed),
            index,
            ..
        }) = open
        {
            return self.derive_goats_compressed(below, compressed, index, class, goats);
        }
        let mut best = Wdl::Loss;
        let mut empties = FULL & !(points.tigers | goats);
        while empties != 0 {
            let point = empties & empties.wrapping_neg();
            empties ^= point;
            let child = goats | point;
            let value = match open {
                None => movement(points.tigers, child, layer.captured)?,
                Some(open) => {
                    let at = open.index.encode_in_class(class, points, child);
                    packed::wdl_of(self.tiger_code(below, open, at, points.tigers, child)?)?
                }
            };
            match value {
                Wdl::Loss => return Some(Wdl::Win),
                Wdl::Draw => best = Wdl::Draw,
                Wdl::Win => {}
            }
        }
        Some(best)
    }

    /// As [`PlacementTables::derive_goats`] when the placements are in the compressed layer
    /// `below` (`goats` in the frame of `class`'s representative): their values are read
    /// together ([`CompressedLayer::codes_of`]), a block holding several decoded once, until a
    /// tigers' loss (a goats' win) is met.
    fn derive_goats_compressed(
        &self,
        below: Layer,
        compressed: &CompressedLayer,
        index: &PlacementIndex,
        class: usize,
        goats: u32,
    ) -> Option<Wdl> {
        let points = &Frames::get().classes[class];
        let mut children = [0u64; super::symmetry::NON_TIGER_POINTS];
        let mut count = 0;
        let mut empties = FULL & !(points.tigers | goats);
        while empties != 0 {
            let point = empties & empties.wrapping_neg();
            empties ^= point;
            let child = goats | point;
            // A don't-care placement (the tigers capture to win) is a tigers' win: it does not
            // raise the goats' best.
            if !capture_wins(self.rules, below, points.tigers, child) {
                *children.get_mut(count)? = index.encode_in_class(class, points, child);
                count += 1;
            }
        }
        let (mut best, mut valid) = (Wdl::Loss, true);
        compressed.codes_of(&children[..count], &mut |_, code| {
            match packed::wdl_of(code) {
                Some(Wdl::Loss) => best = Wdl::Win,
                Some(Wdl::Draw) => best = Wdl::Draw,
                Some(Wdl::Win) => {}
                None => valid = false,
            }
            valid && best != Wdl::Win
        })?;
        valid.then_some(best)
    }
}

/// The value of tigers to move in the movement phase: `(tigers, goats, captured)`.
pub type Movement<'a> = &'a dyn Fn(u32, u32, u8) -> Option<Wdl>;
