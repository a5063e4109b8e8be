//! The session's use of the tables: the explorer of the position shown (in analysis, and after
//! a game, never during one), the review of a finished game, and the generation of the tables
//! on request.

use super::session::{Input, Mode, Session};
use super::tables::Explorer;
use crate::Game;

impl Session {
    /// The explorer for the position shown, when it may be shown.
    pub(crate) fn explorer(&self, shown: &Game) -> Option<Explorer> {
        let allowed = match self.mode {
            Mode::Analyse => true,
            Mode::Play => self.ending.is_some(),
            Mode::Watch => false,
        };
        if allowed {
            self.shared.tables.explore(shown)
        } else {
            None
        }
    }

    /// Reviews the finished game: the value-losing moves of the people who played it.
    pub(crate) fn ask_review(&mut self) -> Result<(), String> {
        if self.mode != Mode::Play || self.ending.is_none() {
            return Err("the review is for a finished game in Play".into());
        }
        let sides = [
            self.is_human(crate::Side::Goats),
            self.is_human(crate::Side::Tigers),
        ];
        self.review = Some(self.shared.tables.review(&self.game, sides)?);
        Ok(())
    }

    /// Starts generating the movement tables for the rules of the game shown.
    pub(crate) fn generate_tables(&mut self) -> Result<(), String> {
        let inputs = self.inputs.clone();
        self.shared
            .tables
            .start_generation(self.game.rules(), move || {
                let _ = inputs.send(Input::Tables);
            })
    }
}
