//! Opening tables and looking up positions.

use super::compressed::compressed_movement_path;
use super::compressed::movement::{open_movement, MovementValues};
use super::file::{
    layer_path, map_file, map_layer, LayerHeader, PayloadCheck, PayloadStatus, COMPRESSED_VERSION,
};
use super::index::{LayerIndex, CLASSES_PER_LAYER};
use super::placement::PlacementTables;
use super::solve::check_header;
use super::stamp::{FileIdentity, Stamps};
use super::value::{decode_value, TbValue, Wdl};
use super::{TableRules, TablebaseError};
use crate::{Move, Position, Repetition, Side};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A full set of movement-phase tables for one rule variant, and the placement layers present
/// beside them, memory-mapped from their files (so processes probing the same tables share them
/// in the page cache). The files must not be modified while the tables are open.
#[derive(Debug)]
pub struct Tablebase {
    rules: TableRules,
    /// Per layer (goats captured): goats-to-move values, then tigers-to-move values.
    layers: Vec<MovementValues>,
    /// Per layer: the file opened (uncompressed, else compressed).
    paths: Vec<PathBuf>,
    headers: Vec<LayerHeader>,
    /// Per layer: checked now, or vouched for by a verified stamp.
    statuses: Vec<PayloadStatus>,
    /// Per layer: the identity of its file as opened.
    identities: Vec<FileIdentity>,
    /// Placement layers, when any are present.
    placement: Option<PlacementTables>,
}

impl Tablebase {
    /// Opens and validates (magic, version, header checksum, sizes, rules, payload checksum)
    /// the tables in `dir` for `rules` (for a game's rules: [`TableRules::of`]; the repetition
    /// rule does not change stored values, cycles are draws). A file with a matching verified
    /// stamp ([`super::stamp`]) is not read for its payload checksum; the others are checked
    /// and stamped. Placement layers present are opened too; their payload checksums (where no
    /// stamp vouches for them) are checked in the background ([`PlacementTables`]).
    ///
    /// # Errors
    /// A missing, unreadable, corrupt or mismatched file, or rules the tables do not cover.
    pub fn open(dir: &Path, rules: TableRules) -> Result<Tablebase, TablebaseError> {
        Tablebase::open_with(dir, rules, PayloadCheck::TrustStamps)
    }

    /// Has every layer read at random from now on (see
    /// [`super::file::LayerValues::expect_random_reads`]): a probe of a cold table then waits
    /// for one page, not for the read-ahead around it. For a caller whose every probe must be
    /// quick (the engine on a clock); a caller probing many positions gets the pages in
    /// sooner with read-ahead.
    pub fn expect_random_reads(&self) {
        for layer in &self.layers {
            layer.expect_random_reads();
        }
        if let Some(placement) = &self.placement {
            placement.expect_random_reads();
        }
    }

    /// Bytes mapped from the tables' files.
    pub fn mapped_len(&self) -> u64 {
        let movement: u64 = self.layers.iter().map(MovementValues::mapped_len).sum();
        movement
            + self
                .placement
                .as_ref()
                .map_or(0, PlacementTables::mapped_len)
    }

    /// Brings the tables into the page cache ahead of the probes (movement layers, then the
    /// placement layers from the most goats in hand), a chunk at a time, returning early once
    /// `stop` is set: for a caller that will probe them for long and has the memory.
    pub fn prefetch(&self, stop: &std::sync::atomic::AtomicBool) {
        for layer in &self.layers {
            layer.prefetch(stop);
        }
        if let Some(placement) = &self.placement {
            placement.prefetch(stop);
        }
    }

    /// As [`Tablebase::open`], choosing whether verified stamps are trusted.
    ///
    /// # Errors
    /// As [`Tablebase::open`].
    pub fn open_with(
        dir: &Path,
        rules: TableRules,
        check: PayloadCheck,
    ) -> Result<Tablebase, TablebaseError> {
        let stamps = Arc::new(Stamps::load(dir));
        let mut tables = Tablebase::open_movement_with(dir, rules, &stamps, check)?;
        let placement = PlacementTables::open(dir, rules, stamps, check)?;
        tables.placement = (!placement.is_empty()).then_some(placement);
        Ok(tables)
    }

    /// As [`Tablebase::open`], without the placement layers (for their generator).
    ///
    /// # Errors
    /// As [`Tablebase::open`].
    pub fn open_movement(dir: &Path, rules: TableRules) -> Result<Tablebase, TablebaseError> {
        let stamps = Stamps::load(dir);
        Tablebase::open_movement_with(dir, rules, &stamps, PayloadCheck::TrustStamps)
    }

    fn open_movement_with(
        dir: &Path,
        rules: TableRules,
        stamps: &Stamps,
        check: PayloadCheck,
    ) -> Result<Tablebase, TablebaseError> {
        rules.check_covered()?;
        let mut layers = Vec::new();
        let mut paths = Vec::new();
        let mut headers = Vec::new();
        let mut statuses = Vec::new();
        let mut identities = Vec::new();
        let mut open_all = || -> Result<(), TablebaseError> {
            for captured in 0..rules.captures_to_win {
                let opened = open_movement(dir, captured, stamps, check)?;
                // The index itself is built on the first probe of the layer, not here.
                let positions = u64::from(CLASSES_PER_LAYER[usize::from(captured)]);
                check_header(&opened.path, &opened.header, rules, 0, captured, positions)?;
                layers.push(opened.values);
                paths.push(opened.path);
                headers.push(opened.header);
                statuses.push(opened.status);
                identities.push(opened.identity);
            }
            Ok(())
        };
        let opened = open_all();
        // Also after a failure: the layers checked before it keep their stamps.
        stamps.save();
        opened?;
        Ok(Tablebase {
            rules,
            layers,
            paths,
            headers,
            statuses,
            identities,
            placement: None,
        })
    }

    /// Opens the tables in `dir` with the rules recorded in their first layer's header.
    ///
    /// # Errors
    /// As [`Tablebase::open`].
    pub fn open_recorded(dir: &Path) -> Result<Tablebase, TablebaseError> {
        Tablebase::open_recorded_with(dir, PayloadCheck::TrustStamps)
    }

    /// As [`Tablebase::open_recorded`], choosing whether verified stamps are trusted.
    ///
    /// # Errors
    /// As [`Tablebase::open`].
    pub fn open_recorded_with(
        dir: &Path,
        check: PayloadCheck,
    ) -> Result<Tablebase, TablebaseError> {
        Tablebase::open_with(dir, Tablebase::recorded_rules(dir)?, check)
    }

    /// The rules recorded in the header of the first movement layer of `dir` (uncompressed,
    /// else compressed; the header checked, not the values).
    ///
    /// # Errors
    /// Neither file present ([`TablebaseError::NotFound`] naming the uncompressed one), or the
    /// one found unreadable or with a bad header.
    pub fn recorded_rules(dir: &Path) -> Result<TableRules, TablebaseError> {
        let mapped = match map_layer(&layer_path(dir, 0)) {
            Err(TablebaseError::NotFound { path }) => {
                match map_file(&compressed_movement_path(dir, 0), COMPRESSED_VERSION) {
                    Err(TablebaseError::NotFound { .. }) => Err(TablebaseError::NotFound { path }),
                    mapped => mapped,
                }
            }
            mapped => mapped,
        }?;
        Ok(mapped.header.rules)
    }

    /// The identities of the movement layers' files as opened (goats captured 0, 1, ...): what
    /// values derived from them are remembered with ([`Stamps::record_derived`]).
    pub fn layer_identities(&self) -> &[FileIdentity] {
        &self.identities
    }

    /// Every layer file opened (movement layers, then placement layers from the fewest goats in
    /// hand) with the state of its payload check: checked now, vouched for by a stamp, still
    /// pending (placement layers checked in the background) or corrupt (not used).
    pub fn payload_statuses(&self) -> Vec<(PathBuf, PayloadStatus)> {
        let movement = self
            .paths
            .iter()
            .cloned()
            .zip(self.statuses.iter().copied());
        let placement = self.placement.iter().flat_map(|placement| {
            placement.statuses().map(|(layer, status)| {
                let path = placement.path(layer).map(Path::to_path_buf);
                (path.unwrap_or_default(), status)
            })
        });
        movement.chain(placement).collect()
    }

    /// The rules the tables were opened for.
    pub fn rules(&self) -> TableRules {
        self.rules
    }

    /// The stored values of layer `captured`: goats to move, then tigers to move (a compressed
    /// layer decoded into memory on the first call).
    ///
    /// # Errors
    /// A compressed layer whose data is inconsistent.
    pub(crate) fn layer(&self, captured: u8) -> Result<&[u8], TablebaseError> {
        let captured = usize::from(captured);
        self.layers[captured].bytes(&self.paths[captured])
    }

    /// The files of the movement layers as opened (goats captured 0, 1, ...).
    pub fn layer_paths(&self) -> &[PathBuf] {
        &self.paths
    }

    /// The headers of the layers (goats captured 0, 1, ...).
    pub fn headers(&self) -> &[LayerHeader] {
        &self.headers
    }

    /// The placement layers, when any are present.
    pub fn placement(&self) -> Option<&PlacementTables> {
        self.placement.as_ref()
    }

    /// Value of a position for the side to move; `None` when not covered. Movement-phase
    /// positions (no goats in hand) come with their distance; placement positions, covered when
    /// their layer is present and checked, with none. A position where the tigers already
    /// reached captures_to_win with goats to move is a loss in 0 plies.
    pub fn probe(&self, position: &Position) -> Option<TbValue> {
        let captured = position.goats_captured();
        if captured >= self.rules.captures_to_win {
            return (position.side_to_move() == Side::Goats).then(|| TbValue::at_distance(0));
        }
        if position.goats_in_hand() != 0 {
            let movement = |tigers: u32, goats: u32, captured: u8| {
                self.movement_tigers(tigers, goats, captured)
            };
            let wdl = self.placement.as_ref()?.probe_with(position, &movement)?;
            return Some(TbValue {
                wdl,
                plies_to_end: None,
            });
        }
        let index = LayerIndex::get(usize::from(captured) + 1);
        let (class, _) = index.encode(position.tigers().0, position.empty().0);
        let side = position.side_to_move().index();
        let offset = side * index.len() as usize + class as usize;
        Some(decode_value(
            self.layers[usize::from(captured)].value(offset)?,
        ))
    }

    /// The value of tigers to move in the movement phase on this board (`captured` below
    /// captures to win).
    fn movement_tigers(&self, tigers: u32, goats: u32, captured: u8) -> Option<Wdl> {
        let values = self.layers.get(usize::from(captured))?;
        let index = LayerIndex::get(usize::from(captured) + 1);
        let empty = crate::tablebase::placement::index::FULL & !(tigers | goats);
        let (class, _) = index.encode(tigers, empty);
        let byte = values.value(index.len() as usize + class as usize)?;
        Some(decode_value(byte).wdl)
    }

    /// Every legal move with the value it leaves for the mover, keeping those that preserve the
    /// position's value, best first: fastest wins, slowest losses, or the drawing moves in move
    /// generation order. Empty when the position is not covered or has no moves.
    pub fn best_moves_with_values(&self, position: &Position) -> Vec<(Move, TbValue)> {
        let Some(value) = self.probe(position) else {
            return Vec::new();
        };
        // A position's legal moves ignore the repetition rule.
        let rules = self.rules.with_repetition(Repetition::default());
        let mut moves: Vec<(Move, TbValue)> = position
            .legal_moves(&rules)
            .iter()
            .filter_map(|&mv| {
                let child = self.probe(&position.played(mv))?.negate();
                let plies = child.plies_to_end.map(|d| d + 1);
                Some((
                    mv,
                    TbValue {
                        wdl: child.wdl,
                        plies_to_end: plies,
                    },
                ))
            })
            .filter(|(_, after)| after.wdl == value.wdl)
            .collect();
        match value.wdl {
            Wdl::Win => moves.sort_by_key(|(_, after)| after.plies_to_end),
            Wdl::Loss => moves.sort_by_key(|(_, after)| std::cmp::Reverse(after.plies_to_end)),
            Wdl::Draw => {}
        }
        moves
    }

    /// Legal moves that preserve the value, best first (see [`Tablebase::best_moves_with_values`]).
    pub fn best_moves(&self, position: &Position) -> Vec<Move> {
        self.best_moves_with_values(position)
            .into_iter()
            .map(|(mv, _)| mv)
            .collect()
    }
}
