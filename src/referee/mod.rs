//! Engine-vs-engine matches: statistics (Elo estimates and SPRT) for match results.

pub mod stats;
