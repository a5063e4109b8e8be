//! Movement-phase tablebases: every position with all 20 goats placed, 0..captures_to_win-1
//! goats captured, either side to move, solved by retrograde analysis (see docs/tablebase.md).
//!
//! Layers are solved from the most captures down; within a layer, values are found in order of
//! increasing distance and positions never resolved are draws (cycles). Positions are stored
//! once per class under the 8 symmetries of the board ([`index`]).

pub mod builtin;
pub mod cli;
pub mod compressed;
pub mod file;
pub mod forbid;
pub mod generate;
pub mod graph;
pub mod index;
pub mod placement;
pub mod probe;
pub mod probe_text;
mod progress;
pub mod rules;
pub mod solve;
pub mod stamp;
pub mod symmetry;
pub mod value;
pub mod verify;

pub use probe::Tablebase;
pub use rules::{ParseTableRulesError, TableRules};
pub use value::{TbValue, Wdl};

use std::fmt;
use std::path::PathBuf;

/// Largest `captures_to_win` the tables support (layers of up to 4 captured goats).
pub const MAX_CAPTURES_TO_WIN: u8 = 5;

/// What the `tb` commands answer when the reader of their output closed it (`tb probe ... |
/// head`): the binary then stops quietly, as command-line tools do.
pub const OUTPUT_CLOSED: &str = "the output was closed";

/// The message of a failed write of a `tb` command's output ([`OUTPUT_CLOSED`] when the reader
/// closed it).
pub fn output_error(error: std::io::Error) -> String {
    if error.kind() == std::io::ErrorKind::BrokenPipe {
        OUTPUT_CLOSED.to_string()
    } else {
        format!("cannot write the output: {error}")
    }
}

/// How a table file is damaged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Corruption {
    /// The file does not start with the format's magic bytes.
    BadMagic,
    /// A format version this build does not read.
    BadVersion(u32),
    /// The header's checksum does not match.
    HeaderChecksum,
    /// Header fields contradict each other or the layer they should describe.
    BadHeader,
    /// The file is shorter or longer than its header says.
    Truncated {
        /// Expected length in bytes.
        expected: u64,
        /// Actual length in bytes.
        found: u64,
    },
    /// The values' checksum does not match.
    PayloadChecksum,
    /// A compressed layer's directory or tables contradict themselves.
    BadData,
}

impl fmt::Display for Corruption {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Corruption::BadMagic => f.write_str("bad magic: not a baghchal tablebase file"),
            Corruption::BadVersion(version) => {
                write!(
                    f,
                    "bad version {version}: expected {} (.bctb) or {} or {} (.bctz)",
                    file::VERSION,
                    file::COMPRESSED_VERSION_2,
                    file::COMPRESSED_VERSION
                )
            }
            Corruption::HeaderChecksum => f.write_str("header checksum mismatch"),
            Corruption::BadHeader => f.write_str("inconsistent header"),
            Corruption::Truncated { expected, found } => {
                write!(f, "wrong length: {found} bytes, expected {expected}")
            }
            Corruption::PayloadChecksum => f.write_str("checksum mismatch"),
            Corruption::BadData => f.write_str("inconsistent compressed data"),
        }
    }
}

/// Why tables cannot be generated, opened or verified.
#[derive(Debug)]
pub enum TablebaseError {
    /// Reading or writing a file failed.
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// A table file is missing.
    NotFound {
        /// The missing file.
        path: PathBuf,
    },
    /// A table file is damaged; it is never used.
    Corrupt {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        reason: Corruption,
    },
    /// A table file was generated for other rules.
    MismatchedRules {
        /// The file.
        path: PathBuf,
        /// Rules asked for.
        expected: TableRules,
        /// Rules the file was made for.
        found: TableRules,
    },
    /// Rules the tables do not cover (captures to win outside 1..=5).
    UnsupportedRules(TableRules),
    /// A distance does not fit the one-byte format.
    DistanceOverflow {
        /// The layer being solved.
        captured: u8,
    },
    /// Placement values under forbid (`tb forbid start`) made from other movement values than
    /// the tables and forbid files beside them: their directory's checksum is not theirs. Never
    /// used.
    StaleForbidPlacement {
        /// The directory found.
        path: PathBuf,
        /// The directory the files beside it would need.
        expected: PathBuf,
    },
}

impl fmt::Display for TablebaseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TablebaseError::Io { path, source } => write!(f, "\"{}\": {source}", path.display()),
            TablebaseError::NotFound { path } => {
                write!(f, "\"{}\": table file not found", path.display())
            }
            TablebaseError::Corrupt { path, reason } => {
                write!(f, "\"{}\": corrupt table file: {reason}", path.display())
            }
            TablebaseError::MismatchedRules {
                path,
                expected,
                found,
            } => write!(
                f,
                "\"{}\": table file made for rules \"{found}\", not \"{expected}\"",
                path.display()
            ),
            TablebaseError::UnsupportedRules(rules) => write!(
                f,
                "invalid captures to win {}: tablebases cover 1..{MAX_CAPTURES_TO_WIN}",
                rules.captures_to_win
            ),
            TablebaseError::DistanceOverflow { captured } => write!(
                f,
                "layer with {captured} captured: a distance exceeds {} plies",
                value::MAX_DISTANCE
            ),
            TablebaseError::StaleForbidPlacement { path, expected } => write!(
                f,
                "\"{}\": placement values under forbid made from other forbid values than \
                 those beside the tables (they would be in \"{}\": run `tb forbid start`)",
                path.display(),
                expected.display()
            ),
        }
    }
}

impl std::error::Error for TablebaseError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            TablebaseError::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}
