//! Playing strength in the words players know: levels 1 to 8 (as lichess offers for
//! Stockfish), "Full strength" and, with tables, "Perfect". Each level is an engine `Skill Level`
//! (the engine's calibrated ladder, docs/strength.md) and a move time; the options are sent in
//! the engine's handshake (a new engine process when the level changes), so a level holds for
//! the whole game. The Elo shown is read from [`LEVEL_ELO`], the one table that owns it.

use crate::referee::time_control::Limits;
use crate::search::skill_elo::LEVEL_ELO;
use serde::{Deserialize, Serialize};
use std::path::Path;
use std::time::Duration;

/// The engine's `Skill Level` of levels 1..=8 (index 0 = level 1).
pub const LEVEL_SKILL: [u8; 8] = [0, 2, 4, 6, 8, 11, 14, 17];

/// Move time of the levels: an upper bound; the level's own node budget usually ends the search
/// sooner (docs/strength.md).
pub const LEVEL_MOVE_TIME: Duration = Duration::from_millis(500);

/// The `Skill Level` of full strength.
const FULL_SKILL: u8 = 20;

/// A strength choice.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    /// The engine unweakened, under the limits the player chose.
    Full,
    /// Full strength with the server's tablebases (exact play wherever the tables decide).
    Perfect,
    /// Level 1..=8 (a number in JSON).
    #[serde(untagged)]
    Level(u8),
}

impl Level {
    /// Checks the level number.
    ///
    /// # Errors
    /// A level outside 1..=8.
    pub fn check(self) -> Result<Level, String> {
        match self {
            Level::Level(n) if !(1..=8).contains(&n) => {
                Err(format!("level {n}: expected 1..8, \"full\" or \"perfect\""))
            }
            _ => Ok(self),
        }
    }

    /// The engine's `Skill Level`.
    pub fn skill(self) -> u8 {
        match self {
            Level::Level(n) => LEVEL_SKILL[usize::from(n.clamp(1, 8) - 1)],
            Level::Full | Level::Perfect => FULL_SKILL,
        }
    }

    /// The measured Elo of the level (docs/strength.md).
    pub fn elo(self) -> i32 {
        LEVEL_ELO[usize::from(self.skill())]
    }

    /// `level 3`, `full strength`, `perfect`: shown with the engine's name and in records.
    pub fn label(self) -> String {
        match self {
            Level::Level(n) => format!("level {n}"),
            Level::Full => "full strength".to_string(),
            Level::Perfect => "perfect".to_string(),
        }
    }

    /// The options the engine is started with: `Skill Level` (with `UCI_LimitStrength` off so
    /// that it counts) and, for Perfect, `TablebasePath` = the server's tables directory.
    pub fn options(self, tables: Option<&Path>) -> Vec<(String, String)> {
        let mut options = vec![
            ("UCI_LimitStrength".to_string(), "false".to_string()),
            ("Skill Level".to_string(), self.skill().to_string()),
        ];
        if let (Level::Perfect, Some(dir)) = (self, tables) {
            options.push(("TablebasePath".to_string(), dir.display().to_string()));
        }
        options
    }

    /// The engine's limits: a level's move time (the player's clock kept), or the player's
    /// own limits at full strength and perfect.
    pub fn limits(self, chosen: Limits) -> Limits {
        match self {
            Level::Level(_) => Limits {
                move_time: Some(LEVEL_MOVE_TIME),
                depth: None,
                nodes: None,
                ..chosen
            },
            Level::Full | Level::Perfect => chosen,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_climb_the_calibrated_ladder() {
        let elos: Vec<i32> = (1..=8).map(|n| Level::Level(n).elo()).collect();
        assert!(elos.windows(2).all(|w| w[0] < w[1]), "{elos:?}");
        assert!(Level::Level(8).elo() < Level::Full.elo());
        assert_eq!(Level::Level(1).skill(), 0);
        assert!(Level::Level(9).check().is_err() && Level::Level(0).check().is_err());
        let level: Level = serde_json::from_str("3").unwrap();
        assert_eq!(level, Level::Level(3));
        let perfect: Level = serde_json::from_str("\"perfect\"").unwrap();
        let options = perfect.options(Some(Path::new("/t")));
        assert!(options.contains(&("TablebasePath".into(), "/t".into())));
        assert!(!Level::Full
            .options(Some(Path::new("/t")))
            .iter()
            .any(|(n, _)| n == "TablebasePath"));
    }
}
