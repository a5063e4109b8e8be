//! The game kept on disk, so that it survives a page reload and a server restart: one JSON
//! file, `game.json` in the data folder, written after every change (to a temporary file, then
//! renamed over the old one, so a crash leaves the old or the new file, never half of one).
//! The game itself is the referee's JSON record line; beside it what only the GUI knows (mode,
//! who plays, level, limits, the clocks at every ply). A file that cannot be read, or whose
//! moves do not replay, is reported and set aside as `game.json.corrupt-<seconds>`; it is never
//! loaded in part.

use super::levels::Level;
use super::messages::LimitsMessage;
use super::records::game_of;
use crate::referee::record::{json, parse_records, GameRecord};
use crate::Game;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The store file's format version.
const VERSION: u32 = 1;

/// Who plays the game in progress (absent in analysis).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlaySettings {
    /// The engine's index, or `None` when two people play.
    pub engine: Option<usize>,
    /// The user's side against the engine (`goats`/`tigers`).
    pub human: Option<String>,
    /// The engine's level.
    pub level: Option<Level>,
    /// The limits chosen on the page (the clock too).
    pub limits: LimitsMessage,
}

/// What is stored.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Saved {
    /// Format version.
    pub version: u32,
    /// `play` or `analyse`.
    pub mode: String,
    /// The game as the referee's JSON record line.
    pub record: String,
    /// Whether the game has ended (else the record's result is a placeholder).
    pub finished: bool,
    /// The ply shown.
    pub cursor: usize,
    /// Play settings, in play.
    pub play: Option<PlaySettings>,
    /// In timed play, both clocks' remaining ms (goats, tigers) after each ply, from ply 0.
    pub clocks: Vec<[u64; 2]>,
}

impl Saved {
    /// The game and its record, every move replayed with the rules.
    ///
    /// # Errors
    /// The record does not read or a move is illegal.
    pub fn game(&self) -> Result<(Game, GameRecord), String> {
        let mut records = parse_records(&self.record)?;
        if records.len() != 1 {
            return Err(format!("{} games in the record, expected 1", records.len()));
        }
        let record = records.remove(0);
        let game = game_of(&record)?;
        Ok((game, record))
    }

    /// Checks everything a session relies on.
    fn check(&self) -> Result<(), String> {
        if self.version != VERSION {
            return Err(format!("version {}, expected {VERSION}", self.version));
        }
        if !matches!(self.mode.as_str(), "play" | "analyse") {
            return Err(format!("mode \"{}\"", self.mode));
        }
        let (game, _) = self.game()?;
        if self.cursor > game.ply() {
            return Err(format!("ply {} shown of {}", self.cursor, game.ply()));
        }
        if !self.clocks.is_empty() && self.clocks.len() != game.ply() + 1 {
            return Err(format!(
                "{} clock entries for {} plies",
                self.clocks.len(),
                game.ply()
            ));
        }
        if let Some(play) = &self.play {
            if let Some(level) = play.level {
                level.check()?;
            }
            play.limits.parse()?;
        }
        Ok(())
    }
}

/// The record line of a game.
pub fn record_line(record: &GameRecord) -> String {
    json::write_line(record)
}

/// The store file in the data folder.
pub struct Store {
    path: PathBuf,
    last: Option<String>,
}

impl Store {
    /// The store of the data folder `dir`.
    pub fn new(dir: &Path) -> Store {
        Store {
            path: dir.join("game.json"),
            last: None,
        }
    }

    /// The store file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Reads the stored game: `Ok(None)` when there is none; `Err(notice)` when the file is
    /// damaged (it was moved aside, the notice says where).
    ///
    /// # Errors
    /// See above.
    pub fn load(&mut self) -> Result<Option<Saved>, String> {
        let text = match std::fs::read_to_string(&self.path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(self.set_aside(&format!("cannot read it: {e}"))),
        };
        let saved: Result<Saved, String> = serde_json::from_str(&text).map_err(|e| e.to_string());
        match saved.and_then(|saved| saved.check().map(|()| saved)) {
            Ok(saved) => {
                self.last = Some(text);
                Ok(Some(saved))
            }
            Err(reason) => Err(self.set_aside(&reason)),
        }
    }

    /// Moves a damaged file aside; returns the notice for the log and the page.
    fn set_aside(&self, reason: &str) -> String {
        let seconds = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        let aside = self.path.with_extension(format!("json.corrupt-{seconds}"));
        let moved = std::fs::rename(&self.path, &aside);
        let notice = match moved {
            Ok(()) => format!(
                "the saved game \"{}\" is corrupt ({reason}): it was set aside as \"{}\" and not loaded",
                self.path.display(),
                aside.display()
            ),
            Err(e) => format!(
                "the saved game \"{}\" is corrupt ({reason}) and could not be set aside ({e}): it was not loaded",
                self.path.display()
            ),
        };
        log::error!("{notice}");
        notice
    }

    /// Writes `saved` if it changed since the last write (temporary file, then rename).
    pub fn save(&mut self, saved: &Saved) {
        let text = match serde_json::to_string_pretty(saved) {
            Ok(text) => text,
            Err(e) => return log::error!("cannot encode the game: {e}"),
        };
        if self.last.as_deref() == Some(text.as_str()) {
            return;
        }
        let temporary = self.path.with_extension("json.tmp");
        let written = self
            .path
            .parent()
            .map_or(Ok(()), std::fs::create_dir_all)
            .and_then(|()| std::fs::write(&temporary, &text))
            .and_then(|()| std::fs::rename(&temporary, &self.path));
        match written {
            Ok(()) => self.last = Some(text),
            Err(e) => log::error!("cannot save the game to \"{}\": {e}", self.path.display()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gui::records::record_of;
    use crate::referee::record::RecordedMove;
    use crate::Rules;

    fn saved() -> Saved {
        let mut game = Game::startpos(Rules::default());
        let mut moves = Vec::new();
        for text in ["c3", "a1b2"] {
            let mv = text.parse().unwrap();
            game.play(mv).unwrap();
            moves.push(RecordedMove::book(mv));
        }
        let record = record_of(&game, &moves, ["a", "b"], ["-".into(), "-".into()], &None);
        Saved {
            version: VERSION,
            mode: "analyse".into(),
            record: record_line(&record),
            finished: false,
            cursor: 1,
            play: None,
            clocks: Vec::new(),
        }
    }

    #[test]
    fn a_saved_game_reads_back_and_a_damaged_one_is_set_aside() {
        let dir = std::env::temp_dir().join(format!("gui-store-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let mut store = Store::new(&dir);
        assert_eq!(store.load(), Ok(None));
        store.save(&saved());
        let back = Store::new(&dir).load().unwrap().unwrap();
        assert_eq!(back, saved());
        assert_eq!(back.game().unwrap().0.ply(), 2);
        // An illegal move in the record: reported, set aside, not loaded.
        let text = std::fs::read_to_string(store.path()).unwrap();
        std::fs::write(store.path(), text.replace("a1b2", "a1a3")).unwrap();
        let notice = Store::new(&dir).load().unwrap_err();
        assert!(notice.contains("corrupt"), "{notice}");
        assert!(!store.path().exists());
        let aside = std::fs::read_dir(&dir).unwrap().flatten().any(|e| {
            e.file_name()
                .to_string_lossy()
                .starts_with("game.json.corrupt-")
        });
        assert!(aside);
        // Truncated JSON too.
        std::fs::write(store.path(), &text[..text.len() / 2]).unwrap();
        assert!(Store::new(&dir).load().is_err());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
