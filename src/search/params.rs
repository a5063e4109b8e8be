//! Tunable evaluation weights and search settings, with names for tuning tools.

use super::score::Value;

/// Evaluation weights (goat units: 100 = one goat) and search switches.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Params {
    /// Per captured goat.
    pub captured: Value,
    /// Extra once the tigers are one capture from winning.
    pub last_capture: Value,
    /// Per tiger move (steps and captures).
    pub tiger_mobility: Value,
    /// Per tiger with no move, by number of such tigers (the total for n trapped is the sum).
    pub trapped: Value,
    /// Extra per trapped tiger beyond the first.
    pub trapped_extra: Value,
    /// Per capture the goats cannot all answer (goats to move) or per threatened goat (tigers
    /// to move).
    pub en_prise: Value,
    /// Goats to move facing exactly one capture threat.
    pub single_threat: Value,
    /// Per goat open to a jump along some line.
    pub exposed: Value,
    /// Per goat on a corner.
    pub corner_goat: Value,
    /// Per goat on an edge (not a corner).
    pub edge_goat: Value,
    /// Per pair of goats joined by a line.
    pub goat_link: Value,
    /// Per empty point next to a tiger.
    pub tiger_space: Value,
    /// Per empty point the tigers can reach through empty points.
    pub tiger_region: Value,
    /// Reverse futility margin per ply (0 = off).
    pub futility_margin: Value,
    /// Late move reductions on (1) or off (0).
    pub reductions: Value,
    /// Null move pruning on (1) or off (0).
    pub null_move: Value,
    /// Goat turns in quiescence that try moves against capture threats.
    pub goat_evasions: Value,
    /// Goat moves into an immediate capture are ordered last (1) or not (0).
    pub goat_safety: Value,
    /// Captures are searched one ply deeper (1) or not (0).
    pub capture_extension: Value,
    /// Late move reduction divisor in hundredths (larger = smaller reductions).
    pub lmr_divisor: Value,
    /// Initial aspiration half-window.
    pub aspiration: Value,
}

impl Default for Params {
    fn default() -> Params {
        Params {
            captured: 100,
            last_capture: 60,
            tiger_mobility: 6,
            trapped: 70,
            trapped_extra: 40,
            en_prise: 55,
            single_threat: 15,
            exposed: 4,
            corner_goat: 8,
            edge_goat: 5,
            goat_link: 2,
            tiger_space: 3,
            tiger_region: 0,
            futility_margin: 90,
            reductions: 1,
            null_move: 0,
            goat_evasions: 0,
            goat_safety: 0,
            capture_extension: 0,
            lmr_divisor: 220,
            aspiration: 35,
        }
    }
}

impl Params {
    fn slot(&mut self, name: &str) -> Option<&mut Value> {
        Some(match name {
            "captured" => &mut self.captured,
            "last_capture" => &mut self.last_capture,
            "tiger_mobility" => &mut self.tiger_mobility,
            "trapped" => &mut self.trapped,
            "trapped_extra" => &mut self.trapped_extra,
            "en_prise" => &mut self.en_prise,
            "single_threat" => &mut self.single_threat,
            "exposed" => &mut self.exposed,
            "corner_goat" => &mut self.corner_goat,
            "edge_goat" => &mut self.edge_goat,
            "goat_link" => &mut self.goat_link,
            "tiger_space" => &mut self.tiger_space,
            "tiger_region" => &mut self.tiger_region,
            "futility_margin" => &mut self.futility_margin,
            "reductions" => &mut self.reductions,
            "null_move" => &mut self.null_move,
            "goat_evasions" => &mut self.goat_evasions,
            "goat_safety" => &mut self.goat_safety,
            "capture_extension" => &mut self.capture_extension,
            "lmr_divisor" => &mut self.lmr_divisor,
            "aspiration" => &mut self.aspiration,
            _ => return None,
        })
    }

    /// Sets the parameter called `name`.
    ///
    /// # Errors
    /// A message quoting an unknown name.
    pub fn set(&mut self, name: &str, value: Value) -> Result<(), String> {
        let slot = self
            .slot(name)
            .ok_or_else(|| format!("unknown search parameter \"{name}\""))?;
        *slot = value;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parameters_are_set_by_name() {
        let mut params = Params::default();
        params.set("en_prise", 70).unwrap();
        assert_eq!(params.en_prise, 70);
        assert_eq!(
            params.set("nonsense", 1).unwrap_err(),
            "unknown search parameter \"nonsense\""
        );
    }
}
