//! Tunable evaluation weights and search settings, with names for tuning tools.

use super::eval::{Weights, FEATURE_NAMES};
use super::options::Evaluation;
use super::score::Value;

/// Evaluation weights and search settings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Params {
    /// Evaluation weights per feature and phase.
    pub weights: Weights,
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
    /// Least depth for a singular extension test (0 = off).
    pub singular_depth: Value,
    /// Singular margin per ply of depth below the hash value.
    pub singular_margin: Value,
    /// Moves into a movement-phase position whose side to move has at most this many legal
    /// moves are searched one ply deeper (0 = off).
    pub narrow_extension: Value,
    /// Goat moves that are among at most this many that parry the tigers' capture threat
    /// are searched one ply deeper (0 = off).
    pub parry_extension: Value,
    /// Movement-phase nodes with at most this many empty points are neither reduced nor
    /// pruned by reverse futility (0 = off); see `crowded_sides`.
    pub crowded_empty: Value,
    /// Which sides' nodes `crowded_empty` applies to: 1 the goats', 2 both.
    pub crowded_sides: Value,
    /// Evaluation by the pattern network learned from the tables (1) or by the weighted
    /// features (0); the engine's `Eval` option sets it, [`Evaluation::DEFAULT`] by default.
    pub network: Value,
}

impl Default for Params {
    fn default() -> Params {
        Params {
            weights: Weights::default(),
            futility_margin: 90,
            reductions: 1,
            null_move: 0,
            goat_evasions: 0,
            goat_safety: 0,
            capture_extension: 0,
            lmr_divisor: 220,
            aspiration: 35,
            singular_depth: 6,
            singular_margin: 2,
            narrow_extension: 0,
            parry_extension: 0,
            crowded_empty: 0,
            crowded_sides: 1,
            network: Value::from(Evaluation::DEFAULT == Evaluation::Network),
        }
    }
}

impl Params {
    /// These settings with `evaluation` as the static evaluation.
    pub fn with_evaluation(mut self, evaluation: Evaluation) -> Params {
        self.network = Value::from(evaluation == Evaluation::Network);
        if evaluation == Evaluation::Network {
            // Fold the network's tables now (a few ms), off the clock, not in the first search.
            super::network::embedded();
        }
        self
    }

    fn slot(&mut self, name: &str) -> Option<&mut Value> {
        Some(match name {
            "futility_margin" => &mut self.futility_margin,
            "reductions" => &mut self.reductions,
            "null_move" => &mut self.null_move,
            "goat_evasions" => &mut self.goat_evasions,
            "goat_safety" => &mut self.goat_safety,
            "capture_extension" => &mut self.capture_extension,
            "lmr_divisor" => &mut self.lmr_divisor,
            "aspiration" => &mut self.aspiration,
            "singular_depth" => &mut self.singular_depth,
            "singular_margin" => &mut self.singular_margin,
            "narrow_extension" => &mut self.narrow_extension,
            "parry_extension" => &mut self.parry_extension,
            "crowded_empty" => &mut self.crowded_empty,
            "crowded_sides" => &mut self.crowded_sides,
            "network" => &mut self.network,
            _ => return None,
        })
    }

    /// Sets the parameter called `name`: a search setting, or an evaluation weight named after
    /// its feature (both phases) or as `placement.FEATURE` or `movement.FEATURE`.
    ///
    /// # Errors
    /// A message quoting an unknown name.
    pub fn set(&mut self, name: &str, value: Value) -> Result<(), String> {
        let (phase, feature) = name.split_once('.').unwrap_or(("", name));
        if let Some(i) = FEATURE_NAMES.iter().position(|&f| f == feature) {
            match phase {
                "" => {
                    self.weights.placement[i] = value;
                    self.weights.movement[i] = value;
                }
                "placement" => self.weights.placement[i] = value,
                "movement" => self.weights.movement[i] = value,
                _ => return Err(format!("unknown search parameter \"{name}\"")),
            }
            return Ok(());
        }
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

    /// The settings' evaluation is the engine's default one, so a tool that starts from
    /// `Params::default()` searches as the engine does.
    #[test]
    fn default_settings_use_the_default_evaluation() {
        assert_eq!(Evaluation::default(), Evaluation::Network);
        assert_eq!(
            Params::default(),
            Params::default().with_evaluation(Evaluation::default())
        );
        assert_ne!(
            Params::default(),
            Params::default().with_evaluation(Evaluation::Classic)
        );
    }

    #[test]
    fn parameters_are_set_by_name() {
        let mut params = Params::default();
        let threatened = FEATURE_NAMES
            .iter()
            .position(|&f| f == "threatened")
            .unwrap();
        params.set("threatened", 70).unwrap();
        assert_eq!(params.weights.placement[threatened], 70);
        assert_eq!(params.weights.movement[threatened], 70);
        params.set("movement.threatened", 60).unwrap();
        assert_eq!(params.weights.placement[threatened], 70);
        assert_eq!(params.weights.movement[threatened], 60);
        params.set("lmr_divisor", 300).unwrap();
        assert_eq!(params.lmr_divisor, 300);
        params.set("singular_depth", 0).unwrap();
        params.set("singular_margin", 3).unwrap();
        assert_eq!((params.singular_depth, params.singular_margin), (0, 3));
        for (name, value) in [
            ("narrow_extension", 3),
            ("parry_extension", 2),
            ("crowded_empty", 4),
            ("crowded_sides", 2),
        ] {
            params.set(name, value).unwrap();
        }
        assert_eq!(
            (
                params.narrow_extension,
                params.parry_extension,
                params.crowded_empty,
                params.crowded_sides
            ),
            (3, 2, 4, 2)
        );
        assert!(params.set("middle.threatened", 1).is_err());
        assert_eq!(
            params.set("nonsense", 1).unwrap_err(),
            "unknown search parameter \"nonsense\""
        );
    }
}
