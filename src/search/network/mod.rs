//! A pattern (n-tuple) network evaluation learned from the tablebases (docs/eval.md), as in
//! Buro's Logistello: the sum of one table entry per tuple of points, indexed by the tuple's
//! contents, with one set of tables per phase bucket ([`shape`]). Its output is a logit of the
//! expected result for the side to move, stored in quarter goat units on the classic
//! evaluation's scale (a logit of 0.003 per goat unit, [`UNITS_PER_LOGIT`]). The tuples' indices
//! are read from the bitboards a board row at a time ([`rows`]).
//!
//! The weights are embedded (`network.bin`, written by `tools/network_train.rs` with the command
//! in its header) and checked when first used; a corrupt file is refused, never read.
//!
//! File format: a first line [`MAGIC`], header lines of text, an empty line, then little-endian
//! `u32` buckets, `u32` weights per bucket, the weights (`i16`, quarter goat units, per bucket
//! every shape's table in [`shape::SHAPES`] order), one `i16` bias per bucket, and the CRC-32 of
//! everything before it.

pub mod rows;
pub mod shape;

use std::fmt;
use std::sync::OnceLock;

use super::score::Value;
use crate::{Position, Rules};
use rows::RowDigits;
use shape::{bucket, bucket_len, instances, table_offsets, tuple_index, BUCKETS};

/// First line of a network file.
pub const MAGIC: &str = "baghchal n-tuple network v1";
/// Goat units per logit of the expected result (the classic fit's `K` of 0.003).
pub const UNITS_PER_LOGIT: f64 = 1.0 / 0.003;
/// Stored weights are in this fraction of a goat unit.
pub const QUANTUM: i32 = 4;
/// The network's values stay within this many goat units of a draw (well inside mate scores).
pub const LIMIT: Value = 10_000;

/// The network built into the binary.
const EMBEDDED: &[u8] = include_bytes!("network.bin");

/// A network file that cannot be used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NetworkError(pub String);

impl fmt::Display for NetworkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "corrupt network file: {}", self.0)
    }
}

impl std::error::Error for NetworkError {}

/// One point set of the folded tables: its squares and where its table starts.
#[derive(Clone, Debug)]
struct Tuple {
    squares: [u8; 6],
    len: u8,
    offset: u32,
}

/// A loaded network, its tables folded per point set for inference.
#[derive(Clone, Debug)]
pub struct Network {
    header: String,
    /// The tuples' entries read from the bitboards (the fast path of [`Network::evaluate`]).
    rows: RowDigits,
    /// Entries of one bucket's folded tables.
    bucket_entries: usize,
    /// `[bucket][entry]`, quarter goat units.
    tables: Vec<i16>,
    bias: Vec<i32>,
}

/// The parts of one evaluation ([`Network::parts`]), goat units, side to move's view.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Parts {
    /// The phase bucket whose tables were read ([`shape::bucket`]).
    pub bucket: usize,
    /// The tuples' entries summed.
    pub tuples: Value,
    /// The bucket's bias.
    pub bias: Value,
    /// The expected result for the side to move (0 loss, 1/2 draw, 1 win) of the value.
    pub expected: f64,
    /// The value ([`Network::evaluate`]): the sum of the two, held within [`LIMIT`].
    pub value: Value,
}

/// Weights as stored: per bucket, every shape's table, and one bias per bucket.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredWeights {
    /// `BUCKETS * shape::bucket_len()` weights, quarter goat units.
    pub weights: Vec<i16>,
    /// One per bucket.
    pub bias: Vec<i16>,
}

impl StoredWeights {
    /// The file holding these weights under `header` (lines of text, no empty line).
    pub fn to_file(&self, header: &str) -> Vec<u8> {
        let mut out = format!("{MAGIC}\n{}\n\n", header.trim_end()).into_bytes();
        out.extend_from_slice(&(BUCKETS as u32).to_le_bytes());
        out.extend_from_slice(&(bucket_len() as u32).to_le_bytes());
        for w in self.weights.iter().chain(&self.bias) {
            out.extend_from_slice(&w.to_le_bytes());
        }
        let crc = crc32fast::hash(&out);
        out.extend_from_slice(&crc.to_le_bytes());
        out
    }
}

fn read_u32(bytes: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(bytes[at..at + 4].try_into().expect("four bytes"))
}

impl Network {
    /// Reads a network file, checking its layout and checksum.
    ///
    /// # Errors
    /// [`NetworkError`] when the file is not a network of this layout or is damaged.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetworkError> {
        let error = |what: &str| NetworkError(what.to_string());
        let header_end = bytes
            .windows(2)
            .position(|w| w == b"\n\n")
            .ok_or_else(|| error("no end of header"))?;
        let header =
            std::str::from_utf8(&bytes[..header_end]).map_err(|_| error("header is not text"))?;
        if header.lines().next() != Some(MAGIC) {
            return Err(error("not a baghchal n-tuple network v1"));
        }
        let body = header_end + 2;
        let weights = BUCKETS * bucket_len();
        let expected = body + 8 + 2 * (weights + BUCKETS) + 4;
        if bytes.len() != expected {
            return Err(NetworkError(format!(
                "{} bytes, expected {expected}",
                bytes.len()
            )));
        }
        let crc = read_u32(bytes, expected - 4);
        if crc32fast::hash(&bytes[..expected - 4]) != crc {
            return Err(error("checksum mismatch"));
        }
        if read_u32(bytes, body) as usize != BUCKETS
            || read_u32(bytes, body + 4) as usize != bucket_len()
        {
            return Err(error("layout differs from this engine's"));
        }
        let values: Vec<i16> = bytes[body + 8..expected - 4]
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]))
            .collect();
        let stored = StoredWeights {
            weights: values[..weights].to_vec(),
            bias: values[weights..].to_vec(),
        };
        Ok(Network::from_weights(&stored, header))
    }

    /// The network of `stored` weights, folded for inference.
    pub fn from_weights(stored: &StoredWeights, header: &str) -> Network {
        let offsets = table_offsets();
        let per_bucket = bucket_len();
        let mut tuples = Vec::new();
        let mut folds = Vec::new();
        let mut bucket_entries = 0;
        for instance in instances() {
            let len = instance.squares.len();
            let mut squares = [0u8; 6];
            for (slot, &square) in squares.iter_mut().zip(&instance.squares) {
                *slot = square as u8;
            }
            tuples.push(Tuple {
                squares,
                len: len as u8,
                offset: bucket_entries as u32,
            });
            bucket_entries += 3usize.pow(len as u32);
            folds.push(instance);
        }
        // For each point set, each of its images and each entry: where that image reads in a
        // bucket's weights (the same in every bucket).
        let reads: Vec<Vec<Vec<usize>>> = folds
            .iter()
            .map(|instance| {
                let entries = 3usize.pow(instance.squares.len() as u32);
                let image_reads = |image: &shape::Image| -> Vec<usize> {
                    (0..entries)
                        .map(|entry| {
                            let mut cells = [0u8; 25];
                            let mut rest = entry;
                            for &square in &instance.squares {
                                cells[square] = (rest % 3) as u8;
                                rest /= 3;
                            }
                            offsets[image.shape] + tuple_index(&cells, &image.squares)
                        })
                        .collect()
                };
                instance.images.iter().map(image_reads).collect()
            })
            .collect();
        let mut tables = vec![0i16; BUCKETS * bucket_entries];
        for b in 0..BUCKETS {
            let weights = &stored.weights[b * per_bucket..(b + 1) * per_bucket];
            let table = &mut tables[b * bucket_entries..(b + 1) * bucket_entries];
            for (tuple, images) in tuples.iter().zip(&reads) {
                let folded = &mut table[tuple.offset as usize..][..images[0].len()];
                for (entry, slot) in folded.iter_mut().enumerate() {
                    let sum: i32 = images
                        .iter()
                        .map(|read| i32::from(weights[read[entry]]))
                        .sum();
                    *slot = sum.clamp(i16::MIN.into(), i16::MAX.into()) as i16;
                }
            }
        }
        let sets: Vec<(&[u8], usize)> = tuples
            .iter()
            .map(|t| (&t.squares[..usize::from(t.len)], t.offset as usize))
            .collect();
        let rows = RowDigits::new(&sets);
        Network {
            header: header.to_string(),
            rows,
            bucket_entries,
            tables,
            bias: stored.bias.iter().map(|&b| i32::from(b)).collect(),
        }
    }

    /// The file's header: the magic line, the command that wrote it and its figures.
    pub fn header(&self) -> &str {
        &self.header
    }

    /// The network's value of `position` from the side to move's view, in goat units.
    #[inline]
    pub fn evaluate(&self, position: &Position, rules: &Rules) -> Value {
        let b = bucket(position, rules);
        ((self.bias[b] + self.tuple_sum(b, position)) / QUANTUM).clamp(-LIMIT, LIMIT)
    }

    /// The sum of the tuples' entries of `position` in bucket `b`, in quarter goat units.
    #[inline]
    fn tuple_sum(&self, b: usize, position: &Position) -> i32 {
        let table = &self.tables[b * self.bucket_entries..(b + 1) * self.bucket_entries];
        let entries = self.rows.entries(position.goats().0, position.tigers().0);
        entries
            .0
            .iter()
            .map(|&entry| i32::from(table[usize::from(entry)]))
            .sum()
    }

    /// [`Network::evaluate`] in parts, for the protocol's `eval`.
    pub fn parts(&self, position: &Position, rules: &Rules) -> Parts {
        let bucket = bucket(position, rules);
        let tuples = self.tuple_sum(bucket, position);
        let value = self.evaluate(position, rules);
        Parts {
            bucket,
            tuples: tuples / QUANTUM,
            bias: self.bias[bucket] / QUANTUM,
            expected: 1.0 / (1.0 + (-f64::from(value) / UNITS_PER_LOGIT).exp()),
            value,
        }
    }
}

/// The network built into the binary.
///
/// # Panics
/// When the embedded file is corrupt (the tests read it, so a build that passes them has a
/// good one).
pub fn embedded() -> &'static Network {
    static NETWORK: OnceLock<Network> = OnceLock::new();
    NETWORK.get_or_init(|| {
        Network::from_bytes(EMBEDDED).unwrap_or_else(|e| panic!("embedded network: {e}"))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_network_reads_and_names_its_command() {
        let network = Network::from_bytes(EMBEDDED).unwrap();
        assert!(
            network.header().contains("Command:"),
            "{}",
            network.header()
        );
    }

    fn small_weights() -> StoredWeights {
        let n = BUCKETS * bucket_len();
        StoredWeights {
            weights: (0..n).map(|i| (i % 17) as i16 - 8).collect(),
            bias: (0..BUCKETS).map(|i| i as i16).collect(),
        }
    }

    #[test]
    fn files_round_trip_and_damage_is_refused() {
        let stored = small_weights();
        let bytes = stored.to_file("Command: test");
        let network = Network::from_bytes(&bytes).unwrap();
        let position: Position = "T3T/1GGG1/1G1G1/1GGG1/T3T t 12 0".parse().unwrap();
        let direct = Network::from_weights(&stored, "");
        let rules = Rules::default();
        assert_eq!(
            network.evaluate(&position, &rules),
            direct.evaluate(&position, &rules)
        );
        let mut flipped = bytes.clone();
        let last = flipped.len() - 10;
        flipped[last] ^= 1;
        assert_eq!(
            Network::from_bytes(&flipped).unwrap_err().to_string(),
            "corrupt network file: checksum mismatch"
        );
        assert!(Network::from_bytes(&bytes[..bytes.len() - 2]).is_err());
        assert!(Network::from_bytes(b"nonsense\n\n").is_err());
        assert!(Network::from_bytes(b"").is_err());
    }

    /// The folded tables give the sum over every image of every shape, computed directly.
    #[test]
    fn folded_tables_sum_every_image() {
        use rand::rngs::StdRng;
        use rand::{Rng, SeedableRng};
        let stored = small_weights();
        let network = Network::from_weights(&stored, "");
        let rules = Rules::default();
        let offsets = table_offsets();
        let images = shape::images();
        let mut rng = StdRng::seed_from_u64(5);
        for _ in 0..50 {
            let mut game = crate::Game::startpos(rules);
            for _ in 0..rng.random_range(0..60) {
                let moves = game.legal_moves();
                if game.outcome().is_some() || moves.is_empty() {
                    break;
                }
                game.play_unchecked(moves[rng.random_range(0..moves.len())]);
            }
            let position = game.position();
            let b = bucket(position, &rules);
            let cells = shape::cells(position);
            let weights = &stored.weights[b * bucket_len()..];
            let mut sum = i32::from(stored.bias[b]);
            for image in &images {
                sum +=
                    i32::from(weights[offsets[image.shape] + tuple_index(&cells, &image.squares)]);
            }
            assert_eq!(
                network.evaluate(position, &rules),
                sum / QUANTUM,
                "{position}"
            );
        }
    }

    /// [`Network::evaluate`] computed square by square from the point sets of
    /// [`shape::instances`] (the reference its fast path is tested against).
    fn evaluate_by_squares(network: &Network, position: &Position, rules: &Rules) -> Value {
        let cells = shape::cells(position);
        let b = bucket(position, rules);
        let table = &network.tables[b * network.bucket_entries..(b + 1) * network.bucket_entries];
        let mut sum = network.bias[b];
        let mut offset = 0;
        for instance in instances() {
            sum += i32::from(table[offset + tuple_index(&cells, &instance.squares)]);
            offset += 3usize.pow(instance.squares.len() as u32);
        }
        (sum / QUANTUM).clamp(-LIMIT, LIMIT)
    }

    /// A position with pieces on random squares: four tigers, 0 to 20 goats, the other goats
    /// split at random between hand and captured, either side to move.
    fn random_board(rng: &mut impl rand::Rng) -> Position {
        use crate::{Bitboard, Side};
        use rand::seq::SliceRandom;
        let mut squares: Vec<u32> = (0..25).collect();
        squares.shuffle(rng);
        let on_board = rng.random_range(0..=20);
        let bits = |squares: &[u32]| Bitboard(squares.iter().map(|s| 1 << s).sum());
        let captured = rng.random_range(0..=20 - on_board);
        let in_hand = 20 - on_board - captured;
        let side = if in_hand == 20 || rng.random_bool(0.5) {
            Side::Goats
        } else {
            Side::Tigers
        };
        Position::from_parts(
            bits(&squares[..4]),
            bits(&squares[4..4 + usize::from(on_board)]),
            side,
            in_hand,
            captured,
        )
        .unwrap()
    }

    /// The fast path (indices from the bitboards) gives the square-by-square value on random
    /// boards and positions of random games, for the embedded network and for random weights
    /// large enough that folded entries saturate, under both tigers' winning counts.
    #[test]
    fn fast_path_matches_square_by_square() {
        use rand::rngs::StdRng;
        use rand::{Rng, SeedableRng};
        let mut rng = StdRng::seed_from_u64(27);
        let n = BUCKETS * bucket_len();
        let random = StoredWeights {
            weights: (0..n).map(|_| rng.random_range(-20_000..=20_000)).collect(),
            bias: (0..BUCKETS)
                .map(|_| rng.random_range(-3000..=3000))
                .collect(),
        };
        let random = Network::from_weights(&random, "");
        let mut positions: Vec<Position> = (0..3000).map(|_| random_board(&mut rng)).collect();
        for _ in 0..300 {
            let mut game = crate::Game::startpos(Rules::default());
            for _ in 0..rng.random_range(0..80) {
                let moves = game.legal_moves();
                if game.outcome().is_some() || moves.is_empty() {
                    break;
                }
                game.play_unchecked(moves[rng.random_range(0..moves.len())]);
                positions.push(*game.position());
            }
        }
        let mut distinct_values = std::collections::HashSet::new();
        for rules in [
            Rules::default(),
            Rules {
                captures_to_win: 3,
                ..Rules::default()
            },
        ] {
            for position in &positions {
                for network in [embedded(), &random] {
                    let value = network.evaluate(position, &rules);
                    assert_eq!(
                        value,
                        evaluate_by_squares(network, position, &rules),
                        "{position}"
                    );
                    distinct_values.insert(value);
                }
            }
        }
        assert!(distinct_values.len() > 1000, "{}", distinct_values.len());
    }

    /// The board's symmetries share the tables: mirrored positions evaluate alike.
    #[test]
    fn mirrored_positions_evaluate_alike() {
        let network = embedded();
        let rules = Rules::default();
        // A position, its mirror image left to right and its transpose.
        for (a, b) in [
            ("GT2T/5/2G2/5/T3T t 18 0", "T2TG/5/2G2/5/T3T t 18 0"),
            ("GT2T/1G3/2G2/5/T3T g 17 0", "G3T/TG3/2G2/5/T3T g 17 0"),
        ] {
            let a: Position = a.parse().unwrap();
            let b: Position = b.parse().unwrap();
            assert_eq!(network.evaluate(&a, &rules), network.evaluate(&b, &rules));
        }
    }
}
