//! The exact values of the crowded movement layers, built into the binary: every position with
//! all goats placed and at most [`BUILTIN_CAPTURED`] captured (1 to 4 empty points), under the
//! default table rules. Only tigers to move are stored (win, draw or loss, coded as the
//! compressed placement layers are, [`super::compressed`]); a goats-to-move value is the best
//! of the goats' moves, which stay in the layer. With one goat in hand a value is found from
//! the placements into these layers. The engine uses them at the root without a tablebase
//! (docs/tablebase.md, "Built-in values").
//!
//! `builtin.bin` is written by `tools/tb_builtin.rs` from the movement tables of `tb gen`;
//! `tests/tablebase_builtin.rs` generates those tables and checks that they give the same bytes.

use super::compressed::encode::encode_side;
use super::compressed::{CompressedLayer, Stored, SEGMENT_VALUES};
use super::file::{crc32, layer_path, open_layer, u32_at, u64_at};
use super::index::LayerIndex;
use super::placement::packed::{code_of, wdl_of};
use super::value::{decode_value, Wdl};
use super::{Corruption, TableRules, TablebaseError};
use crate::{Position, Repetition, Rules, Side};
use std::path::Path;
use std::sync::LazyLock;

/// Layers stored: goats captured 0 to `BUILTIN_CAPTURED`.
pub const BUILTIN_CAPTURED: u8 = 3;
/// The rules the built-in values are for.
pub const BUILTIN_RULES: TableRules = TableRules::DEFAULT;
/// First bytes of the built-in data.
const MAGIC: [u8; 8] = *b"BAGHBI1\n";
/// Magic, rules (forced capture, captures to win), layers, a reserved byte.
const HEAD: usize = 12;
/// Block size of the coded values.
const BLOCK_BYTES: usize = 64;

/// The data as built into this binary.
static DATA: &[u8] = include_bytes!("builtin.bin");

/// The built-in values, read from [`DATA`] once.
static BUILTIN: LazyLock<Option<BuiltinTables>> = LazyLock::new(|| {
    let tables = BuiltinTables::parse(DATA);
    if tables.is_none() {
        log::warn!("built-in tablebase values are damaged: not used");
    }
    tables
});

/// The tigers-to-move values of the crowded movement layers (see the module).
#[derive(Debug)]
pub struct BuiltinTables {
    /// Per layer (goats captured): tigers-to-move codes by class index.
    layers: Vec<CompressedLayer>,
}

impl BuiltinTables {
    /// The values built into this binary; `None` (and a warning, once) if they are damaged.
    pub fn get() -> Option<&'static BuiltinTables> {
        BUILTIN.as_ref()
    }

    /// Reads built-in data: magic, rules, layer count, each layer's size against its index, the
    /// CRC-32 of everything before it, and every segment's tables; `None` on any failure.
    pub fn parse(bytes: &[u8]) -> Option<BuiltinTables> {
        let body_len = bytes.len().checked_sub(4)?;
        let (body, crc) = (&bytes[..body_len], u32_at(bytes, body_len));
        if body.len() < HEAD || body[..8] != MAGIC || crc32(body) != crc {
            return None;
        }
        let rules = [
            u8::from(BUILTIN_RULES.forced_capture),
            BUILTIN_RULES.captures_to_win,
        ];
        if body[8..10] != rules || body[10] != BUILTIN_CAPTURED + 1 || body[11] != 0 {
            return None;
        }
        let mut at = HEAD;
        let mut layers = Vec::new();
        for captured in 0..=BUILTIN_CAPTURED {
            let positions = u64_at(body.get(at..at + 16)?, 0);
            let len = usize::try_from(u64_at(body, at + 8)).ok()?;
            if positions != u64::from(LayerIndex::get(usize::from(captured) + 1).len()) {
                return None;
            }
            let payload = body.get(at + 16..at.checked_add(16 + len)?)?;
            let layer =
                CompressedLayer::from_payload(payload.to_vec(), positions, Stored::PlacementCodes)?;
            layer.check_tables(Path::new("built-in")).ok()?;
            layers.push(layer);
            at += 16 + len;
        }
        (at == body.len()).then_some(BuiltinTables { layers })
    }

    /// The built-in data made from the movement tables in `dir` (default rules), coded on
    /// `threads` threads (the bytes do not depend on their number).
    ///
    /// # Errors
    /// A missing, unreadable or corrupt layer file, or tables for other rules.
    pub fn encode(dir: &Path, threads: usize) -> Result<Vec<u8>, TablebaseError> {
        let mut out = MAGIC.to_vec();
        out.extend([
            u8::from(BUILTIN_RULES.forced_capture),
            BUILTIN_RULES.captures_to_win,
            BUILTIN_CAPTURED + 1,
            0,
        ]);
        for captured in 0..=BUILTIN_CAPTURED {
            let path = layer_path(dir, captured);
            let (header, values) = open_layer(&path)?;
            let positions = u64::from(LayerIndex::get(usize::from(captured) + 1).len());
            if header.rules != BUILTIN_RULES
                || header.captured != captured
                || header.positions != positions
            {
                return Err(TablebaseError::Corrupt {
                    path,
                    reason: Corruption::BadHeader,
                });
            }
            // Tigers to move follow the goats-to-move values.
            let code = |at: u64| Some(code_of(decode_value(values[(positions + at) as usize]).wdl));
            let payload = encode_side(
                positions,
                Stored::PlacementCodes,
                SEGMENT_VALUES,
                BLOCK_BYTES,
                threads,
                &code,
                &|_| {},
            );
            out.extend(positions.to_le_bytes());
            out.extend((payload.len() as u64).to_le_bytes());
            out.extend(payload);
        }
        let crc = crc32(&out);
        out.extend(crc.to_le_bytes());
        Ok(out)
    }

    /// The value of `position` for the side to move under [`BUILTIN_RULES`] (repetition aside:
    /// the values are those of the tables), when it is covered: no goats in hand and at most
    /// [`BUILTIN_CAPTURED`] captured, or one goat in hand and every placement (for the tigers:
    /// after each of their moves) into a covered layer, or the game over. A tigers' capture out
    /// of the last layer stored leaves it uncovered unless another move already wins.
    pub fn wdl(&self, position: &Position) -> Option<Wdl> {
        self.value(position, 2)
    }

    /// [`BuiltinTables::wdl`], looking at most `depth` plies ahead for positions not stored.
    fn value(&self, position: &Position, depth: u8) -> Option<Wdl> {
        let rules = BUILTIN_RULES.with_repetition(Repetition::default());
        if let Some(outcome) = position.outcome(&rules) {
            let won = outcome.winner() == Some(position.side_to_move());
            return Some(if won { Wdl::Win } else { Wdl::Loss });
        }
        let captured = position.goats_captured();
        if captured > BUILTIN_CAPTURED || position.goats_in_hand() > 1 {
            return None;
        }
        if position.goats_in_hand() == 0 && position.side_to_move() == Side::Tigers {
            return self.stored(position);
        }
        best_child(position, &rules, depth, &mut |child, depth| {
            self.value(child, depth)
        })
    }

    /// The stored value of tigers to move in the movement phase.
    fn stored(&self, position: &Position) -> Option<Wdl> {
        let captured = position.goats_captured();
        let layer = self.layers.get(usize::from(captured))?;
        let index = LayerIndex::get(usize::from(captured) + 1);
        let (class, _) = index.encode(position.tigers().0, position.empty().0);
        wdl_of(layer.code(u64::from(class))?)
    }
}

/// The best value of `position`'s moves for its side to move, each child valued by
/// `child_value(child, depth - 1)`: a win as soon as one child is lost for its side to move,
/// else `None` if a child is not valued (or `depth` is 0).
fn best_child(
    position: &Position,
    rules: &Rules,
    depth: u8,
    child_value: &mut dyn FnMut(&Position, u8) -> Option<Wdl>,
) -> Option<Wdl> {
    let depth = depth.checked_sub(1)?;
    let (mut best, mut unknown) = (Wdl::Loss, false);
    for &mv in position.legal_moves(rules).iter() {
        match child_value(&position.played(mv), depth) {
            Some(Wdl::Loss) => return Some(Wdl::Win),
            Some(Wdl::Draw) => best = Wdl::Draw,
            Some(Wdl::Win) => {}
            None => unknown = true,
        }
    }
    (!unknown).then_some(best)
}
