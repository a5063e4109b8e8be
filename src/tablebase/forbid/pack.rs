//! Proof packs: the proof files of a table directory (`tb forbid prove --entries --write`) in one
//! small file, so that an entry pass's work can move to another machine (`tb forbid export` and
//! `tb forbid import`): to go on there, or to join the work of several machines. A proof file
//! keeps two bits for every class of its layer; a pack keeps them only for the classes the
//! layer's forbid file leaves unknown (the only ones the entry pass searches), in class order,
//! so it holds no more than the directory's forbid files can check. Little-endian:
//!
//! | offset | size | field |
//! |---:|---:|---|
//! | 0 | 8 | magic `BAGHFP\r\n` |
//! | 8 | 4 | format version (1) |
//! | 12 | 1 | forced capture (0 or 1) |
//! | 13 | 1 | captures to win |
//! | 14 | 1 | layers in the pack |
//! | 15 | 1 | 0 |
//! | 16 | | per layer: a 40-byte record, then its codes |
//! | end - 4 | 4 | CRC-32 of everything before |
//!
//! A layer's record: goats captured (1 byte), whether the goats' and the tigers' codes follow (1
//! byte each), 5 zero bytes, classes per side (8), the proof file's node budget (8), the unknown
//! classes of the forbid file with goats to move, then with tigers to move (8 each). Then, for
//! each side whose codes follow, two bits per unknown class ([`pack_codes`]: four to a byte,
//! lowest bits first): the proof file's code there ([`ForbidValue::code`], 0 for not searched).

use super::file::{
    code_counts, forbid_path, pack_codes, proof_path, read_forbid, unknown_classes, unpack_codes,
    write_forbid, ForbidHeader,
};
use super::ForbidValue;
use crate::tablebase::file::{crc32, u32_at, u64_at, write_atomic};
use crate::tablebase::{TableRules, Tablebase, TablebaseError};
use crate::Side;
use std::fmt;
use std::path::{Path, PathBuf};

/// File magic.
pub const MAGIC: [u8; 8] = *b"BAGHFP\r\n";
/// Format version.
pub const VERSION: u32 = 1;
const HEADER_LEN: usize = 16;
const RECORD_LEN: usize = 40;

/// Why a pack could not be written or read in.
#[derive(Debug)]
pub enum PackError {
    /// The tables, forbid files or proof files of the directory, or writing a file.
    Tables(TablebaseError),
    /// The pack is damaged or not a pack.
    Corrupt {
        /// The pack.
        path: PathBuf,
        /// What is wrong.
        reason: String,
    },
    /// The pack was made beside other forbid files than the directory's: its layer's unknown
    /// classes are not theirs.
    OtherForbidFiles {
        /// The layer (goats captured).
        captured: u8,
    },
    /// The directory holds no proof file to export (`tb forbid prove --entries --write` makes
    /// them).
    NoProofFiles {
        /// The directory.
        dir: PathBuf,
    },
    /// The pack and the directory's proof file settle one class differently.
    Contradiction {
        /// The layer (goats captured).
        captured: u8,
        /// The side to move.
        side: Side,
        /// The class.
        class: u64,
    },
}

impl fmt::Display for PackError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PackError::Tables(error) => error.fmt(f),
            PackError::Corrupt { path, reason } => {
                write!(f, "\"{}\": corrupt proof pack: {reason}", path.display())
            }
            PackError::OtherForbidFiles { captured } => write!(
                f,
                "layer {captured}: the pack was made with other forbid files than this directory's"
            ),
            PackError::NoProofFiles { dir } => write!(
                f,
                "\"{}\": no proof files to export (run `tb forbid prove --entries --write` first)",
                dir.display()
            ),
            PackError::Contradiction {
                captured,
                side,
                class,
            } => write!(
                f,
                "layer {captured}, {side} to move, class {class}: the pack and the proof file \
                 disagree (nothing was written)"
            ),
        }
    }
}

impl std::error::Error for PackError {}

impl From<TablebaseError> for PackError {
    fn from(error: TablebaseError) -> Self {
        PackError::Tables(error)
    }
}

/// One layer of a pack, as written or read in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PackedLayer {
    /// Goats captured.
    pub captured: u8,
    /// The proof file's node budget (after a merge, the smaller where both hold unknowns).
    pub node_budget: u64,
    /// Per side (goats to move first): wins, losses and unknowns for the mover, as in the
    /// proof file's header (after an import, the merged file's).
    pub counts: [[u64; 3]; 2],
    /// Whether a proof file was there already and the pack was merged into it (import only).
    pub merged: bool,
}

/// A proof pack read and checked ([`read_pack`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProofPack {
    /// The rules of the tables it was made beside.
    pub rules: TableRules,
    /// Its layers, as stored (the last layer first when written by [`export_proofs`]).
    pub layers: Vec<PackRecord>,
}

/// One layer of a proof pack.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PackRecord {
    /// Goats captured.
    pub captured: u8,
    /// Classes a side.
    pub positions: u64,
    /// The proof file's node budget.
    pub node_budget: u64,
    /// Per side (goats to move first), the classes the forbid file leaves unknown.
    pub unknown: [u64; 2],
    /// Per side, one code per unknown class in class order ([`ForbidValue::code`], 0 for not
    /// searched); `None` when all are 0.
    pub codes: [Option<Vec<u8>>; 2],
}

/// The classes with each side to move that the forbid codes leave unknown.
fn unknown_both_sides(forbid: &[u8], positions: usize) -> [Vec<usize>; 2] {
    [0, 1].map(|side| unknown_classes(forbid, side, positions))
}

/// The movement tables of `dir` (for their rules and sizes).
fn open_tables(dir: &Path) -> Result<Tablebase, TablebaseError> {
    Tablebase::open_movement(dir, Tablebase::recorded_rules(dir)?)
}

/// Writes the proof files of `dir` into the pack `out` (atomically); one [`PackedLayer`] per
/// layer with a proof file, from the last layer down.
///
/// # Errors
/// Missing or damaged tables or forbid files, no proof file at all ([`PackError::NoProofFiles`]),
/// a damaged proof file, a proof file with a value where the forbid file is not unknown
/// ([`PackError::OtherForbidFiles`]), or a failure to write.
pub fn export_proofs(dir: &Path, out: &Path) -> Result<Vec<PackedLayer>, PackError> {
    let tables = open_tables(dir)?;
    let rules = tables.rules();
    let mut bytes = Vec::new();
    bytes.extend_from_slice(&MAGIC);
    bytes.extend_from_slice(&VERSION.to_le_bytes());
    bytes.extend_from_slice(&[u8::from(rules.forced_capture), rules.captures_to_win, 0, 0]);
    let mut layers = Vec::new();
    for captured in (0..rules.captures_to_win).rev() {
        let positions = tables.headers()[usize::from(captured)].positions;
        let (header, proofs) =
            match read_forbid(&proof_path(dir, captured), rules, captured, positions) {
                Ok(read) => read,
                Err(TablebaseError::NotFound { .. }) => continue,
                Err(error) => return Err(error.into()),
            };
        let (_, forbid) = read_forbid(&forbid_path(dir, captured), rules, captured, positions)?;
        let n = positions as usize;
        let unknown = unknown_both_sides(&forbid, n);
        let mut sides: [Vec<u8>; 2] = Default::default();
        for side in 0..2 {
            let on_unknown: usize = unknown[side]
                .iter()
                .filter(|&&class| proofs[side * n + class] != 0)
                .count();
            let anywhere = proofs[side * n..(side + 1) * n]
                .iter()
                .filter(|&&code| code != 0)
                .count();
            if on_unknown != anywhere {
                return Err(PackError::OtherForbidFiles { captured });
            }
            if anywhere != 0 {
                let codes: Vec<u8> = unknown[side]
                    .iter()
                    .map(|&c| proofs[side * n + c])
                    .collect();
                sides[side] = pack_codes(&codes);
            }
        }
        bytes.extend_from_slice(&[
            captured,
            u8::from(!sides[0].is_empty()),
            u8::from(!sides[1].is_empty()),
            0,
            0,
            0,
            0,
            0,
        ]);
        for value in [
            positions,
            header.node_budget,
            unknown[0].len() as u64,
            unknown[1].len() as u64,
        ] {
            bytes.extend_from_slice(&value.to_le_bytes());
        }
        bytes.extend_from_slice(&sides[0]);
        bytes.extend_from_slice(&sides[1]);
        bytes[14] += 1;
        layers.push(PackedLayer {
            captured,
            node_budget: header.node_budget,
            counts: header.counts,
            merged: false,
        });
    }
    if layers.is_empty() {
        return Err(PackError::NoProofFiles {
            dir: dir.to_path_buf(),
        });
    }
    let checksum = crc32(&bytes);
    write_atomic(out, &[&bytes, &checksum.to_le_bytes()])?;
    Ok(layers)
}

/// Reads a proof pack, checking its magic, version, checksum and lengths.
///
/// # Errors
/// [`TablebaseError::Io`] (through [`PackError::Tables`]) or [`PackError::Corrupt`].
pub fn read_pack(path: &Path) -> Result<ProofPack, PackError> {
    let bytes = std::fs::read(path).map_err(|source| TablebaseError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    let corrupt = |reason: &str| PackError::Corrupt {
        path: path.to_path_buf(),
        reason: reason.to_string(),
    };
    if bytes.len() < HEADER_LEN + 4 || bytes[..8] != MAGIC {
        return Err(corrupt("not a proof pack (bad magic or too short)"));
    }
    let version = u32_at(&bytes, 8);
    if version != VERSION {
        return Err(corrupt(&format!("version {version}, expected {VERSION}")));
    }
    let (body, checksum) = bytes.split_at(bytes.len() - 4);
    if crc32(body) != u32_at(checksum, 0) {
        return Err(corrupt("checksum mismatch"));
    }
    let rules = TableRules {
        forced_capture: body[12] != 0,
        captures_to_win: body[13],
    };
    let mut layers: Vec<PackRecord> = Vec::new();
    let mut at = HEADER_LEN;
    for _ in 0..body[14] {
        let head = body
            .get(at..at + RECORD_LEN)
            .ok_or_else(|| corrupt("a layer's record is cut short"))?;
        let captured = head[0];
        if captured >= rules.captures_to_win || layers.iter().any(|l| l.captured == captured) {
            return Err(corrupt("a layer out of range or given twice"));
        }
        let unknown = [u64_at(head, 24), u64_at(head, 32)];
        at += RECORD_LEN;
        let mut codes = [None, None];
        for side in 0..2 {
            if head[1 + side] != 0 {
                let count = usize::try_from(unknown[side])
                    .map_err(|_| corrupt("a layer's size is out of range"))?;
                let end = at
                    .checked_add(count.div_ceil(4))
                    .ok_or_else(|| corrupt("a layer's size is out of range"))?;
                let packed = body
                    .get(at..end)
                    .ok_or_else(|| corrupt("a layer's codes are cut short"))?;
                codes[side] = Some(unpack_codes(packed, count));
                at = end;
            }
        }
        layers.push(PackRecord {
            captured,
            positions: u64_at(head, 8),
            node_budget: u64_at(head, 16),
            unknown,
            codes,
        });
    }
    if at != body.len() {
        return Err(corrupt("bytes after the last layer"));
    }
    Ok(ProofPack { rules, layers })
}

/// Writes the proof files of `dir` from the pack `pack`, merged into the proof files already
/// there: a class keeps a settled value from either, and is unknown (searched) if either
/// searched it; the file's budget is the smaller one where both hold unknowns. Everything is
/// checked before anything is written. One [`PackedLayer`] per layer in the pack.
///
/// # Errors
/// A damaged pack or one for other rules, tables or forbid files; a damaged proof file in
/// `dir`; a class the pack and a proof file settle differently
/// ([`PackError::Contradiction`]); a failure to write.
pub fn import_proofs(dir: &Path, pack_path: &Path) -> Result<Vec<PackedLayer>, PackError> {
    let tables = open_tables(dir)?;
    let rules = tables.rules();
    let pack = read_pack(pack_path)?;
    if pack.rules != rules {
        return Err(TablebaseError::MismatchedRules {
            path: pack_path.to_path_buf(),
            expected: rules,
            found: pack.rules,
        }
        .into());
    }
    let mut merged_layers = Vec::new();
    for record in &pack.layers {
        let captured = record.captured;
        let positions = tables.headers()[usize::from(captured)].positions;
        if record.positions != positions {
            return Err(PackError::OtherForbidFiles { captured });
        }
        let n = positions as usize;
        let (_, forbid) = read_forbid(&forbid_path(dir, captured), rules, captured, positions)?;
        let unknown = unknown_both_sides(&forbid, n);
        let mut codes = vec![0u8; 2 * n];
        for side in 0..2 {
            if unknown[side].len() as u64 != record.unknown[side] {
                return Err(PackError::OtherForbidFiles { captured });
            }
            if let Some(side_codes) = &record.codes[side] {
                for (&class, &code) in unknown[side].iter().zip(side_codes) {
                    codes[side * n + class] = code;
                }
            }
        }
        let path = proof_path(dir, captured);
        let (node_budget, merged) = match read_forbid(&path, rules, captured, positions) {
            Ok((header, present)) => {
                let budget =
                    merged_budget((record.node_budget, &codes), (header.node_budget, &present));
                merge(&mut codes, &present, captured, n)?;
                (budget, true)
            }
            Err(TablebaseError::NotFound { .. }) => (record.node_budget, false),
            Err(error) => return Err(error.into()),
        };
        let header = ForbidHeader {
            rules,
            captured,
            positions,
            max_states: 0,
            node_budget,
            counts: code_counts(&codes, n),
        };
        merged_layers.push((path, header, codes, merged));
    }
    let mut layers = Vec::new();
    for (path, header, codes, merged) in merged_layers {
        write_forbid(&path, &header, &codes)?;
        layers.push(PackedLayer {
            captured: header.captured,
            node_budget: header.node_budget,
            counts: header.counts,
            merged,
        });
    }
    Ok(layers)
}

/// The budget of a merged proof file: every unknown in it was searched with at least that many
/// expansions.
fn merged_budget((a, a_codes): (u64, &[u8]), (b, b_codes): (u64, &[u8])) -> u64 {
    let unknown = ForbidValue::Unknown.code();
    let has_unknown = |codes: &[u8]| codes.contains(&unknown);
    match (has_unknown(a_codes), has_unknown(b_codes)) {
        (true, true) => a.min(b),
        (true, false) => a,
        (false, true) => b,
        (false, false) => a.max(b),
    }
}

/// Merges `present` (a proof file's codes) into `codes`: a settled value wins over unknown and
/// unknown over not searched; two settled values must agree.
fn merge(codes: &mut [u8], present: &[u8], captured: u8, n: usize) -> Result<(), PackError> {
    for (i, (code, &other)) in codes.iter_mut().zip(present).enumerate() {
        let value = ForbidValue::from_code(*code);
        let other_value = ForbidValue::from_code(other);
        *code = match (value, other_value) {
            (Some(a), Some(b)) if a.is_proven() && b.is_proven() && a != b => {
                let side = if i < n { Side::Goats } else { Side::Tigers };
                let class = (i % n) as u64;
                return Err(PackError::Contradiction {
                    captured,
                    side,
                    class,
                });
            }
            (Some(a), _) if a.is_proven() => *code,
            (_, Some(b)) if b.is_proven() => other,
            (Some(_), _) => *code,
            _ => other,
        };
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_merge_keeps_settled_values_over_unknown_ones_and_refuses_disagreement() {
        let (win, loss, unknown) = (1, 2, 3);
        // Goats to move: the first two classes; tigers to move: the last two.
        let mut codes = vec![0, unknown, win, 0];
        merge(&mut codes, &[unknown, loss, unknown, 0], 0, 2).expect("no disagreement");
        assert_eq!(codes, vec![unknown, loss, win, 0]);
        let mut codes = vec![0, 0, win, unknown];
        match merge(&mut codes, &[0, 0, loss, 0], 3, 2) {
            Err(PackError::Contradiction {
                captured: 3,
                side: Side::Tigers,
                class: 0,
            }) => {}
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn the_merged_budget_holds_for_every_unknown() {
        let (settled, with_unknown) = ([1u8, 0].as_slice(), [3u8, 1].as_slice());
        assert_eq!(merged_budget((10, with_unknown), (5, with_unknown)), 5);
        assert_eq!(merged_budget((10, with_unknown), (5, settled)), 10);
        assert_eq!(merged_budget((10, settled), (5, with_unknown)), 5);
        assert_eq!(merged_budget((10, settled), (5, settled)), 10);
    }
}
