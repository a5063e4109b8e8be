//! What the checker judges without an engine: option declarations, `info` lines and moves,
//! every move judged by our rules core ([`Game`]), never by the engine under test.

use crate::{Game, Move, Position, Rules};

/// A probe position: where a check sends the engine, as `position` text and as our game.
#[derive(Clone, Debug)]
pub struct Probe {
    /// A position string, or `None` for `startpos`.
    pub fen: Option<String>,
    /// The moves played from it.
    pub moves: Vec<String>,
    /// The rules the engine was told (and that judge its answers).
    pub rules: Rules,
}

impl Probe {
    /// A probe under the default rules.
    pub fn new(fen: Option<&str>, moves: &[&str]) -> Probe {
        Probe {
            fen: fen.map(str::to_string),
            moves: moves.iter().map(|m| m.to_string()).collect(),
            rules: Rules::default(),
        }
    }

    /// The `position` command.
    pub fn command(&self) -> String {
        let mut text = match &self.fen {
            Some(fen) => format!("position fen {fen}"),
            None => "position startpos".to_string(),
        };
        if !self.moves.is_empty() {
            text.push_str(" moves ");
            text.push_str(&self.moves.join(" "));
        }
        text
    }

    /// Our game for it: each move as the board allows it (the arbiter's moves, as an engine
    /// follows them).
    ///
    /// # Panics
    /// When the probe itself is not a game (a bug in the checker, found by its tests).
    pub fn game(&self) -> Game {
        let start = match &self.fen {
            Some(fen) => {
                Position::parse_with_move_number(fen)
                    .expect("probe position")
                    .0
            }
            None => Position::startpos(),
        };
        let mut game = Game::new(start, self.rules);
        let moves: Vec<Move> = self
            .moves
            .iter()
            .map(|m| m.parse().expect("probe move"))
            .collect();
        let followed = game.follow_all(&moves);
        assert!(followed.illegal.is_none(), "probe moves are board moves");
        game
    }
}

/// Judges the `bestmove` line of a search of `game`: a legal move, or `0000` exactly where
/// the board has no move (either is fine where our rules end the game but the board has
/// moves); a `ponder` move legal after it. `ugi`: a `ponder` word is a fault.
pub fn judge_bestmove(line: &str, game: &Game, ugi: bool) -> Result<(), String> {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    let Some(&text) = tokens.get(1) else {
        return Err("bestmove without a move".into());
    };
    let over = game.outcome().is_some();
    let no_move = game.legal_moves().is_empty();
    if text == "0000" || text == "(none)" {
        if no_move || over {
            return Ok(());
        }
        return Err(format!(
            "bestmove {text} where the game goes on ({} legal moves)",
            game.legal_moves().len()
        ));
    }
    let mv: Move = text
        .parse()
        .map_err(|error| format!("bestmove \"{text}\" is not a move: {error}"))?;
    if let Err(error) = game.check_move(mv) {
        if !(over && game.position().check_board_move(mv).is_ok()) {
            return Err(format!("illegal bestmove: {error}"));
        }
    }
    // Past our rules' end the engine searched on from the position as a new game.
    let searched = game.played_on().unwrap_or_else(|| game.clone());
    match &tokens[2..] {
        [] => Ok(()),
        _ if ugi => Err(format!(
            "bestmove line \"{line}\" has more than two words; UGI runners read only bestmove <move>"
        )),
        ["ponder", reply] => {
            let mut after = searched;
            after.play_unchecked(mv);
            let reply: Move = reply
                .parse()
                .map_err(|error| format!("ponder \"{reply}\" is not a move: {error}"))?;
            after
                .check_move(reply)
                .map_err(|error| format!("illegal ponder move after {mv}: {error}"))
        }
        [extra, ..] => Err(format!("unexpected token \"{extra}\" after the bestmove")),
    }
}

fn integer(tokens: &[&str], at: usize, key: &str) -> Result<i64, String> {
    let text = tokens
        .get(at)
        .ok_or_else(|| format!("info {key} without a value"))?;
    text.parse()
        .map_err(|_| format!("info {key} \"{text}\" is not an integer"))
}

/// Judges one `info` line of a search of `game`: every token known, numbers numeric, a score
/// `cp N` or `mate N` with an optional bound, `wdl` summing to 1000, `pv` and `currmove`
/// legal from the position.
pub fn judge_info(line: &str, game: &Game) -> Result<(), String> {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    let mut at = 1;
    while at < tokens.len() {
        let key = tokens[at];
        match key {
            "string" => return Ok(()),
            "depth" | "seldepth" | "time" | "nodes" | "nps" | "hashfull" | "tbhits" | "multipv"
            | "currmovenumber" | "cpuload" | "sbhits" => {
                let value = integer(&tokens, at + 1, key)?;
                if value < 0 {
                    return Err(format!("info {key} {value} is negative"));
                }
                at += 2;
            }
            "score" => {
                match tokens.get(at + 1) {
                    Some(&"cp") | Some(&"mate") => {
                        integer(&tokens, at + 2, tokens[at + 1])?;
                    }
                    other => {
                        return Err(format!(
                            "info score must be cp or mate, not \"{}\"",
                            other.unwrap_or(&"")
                        ))
                    }
                }
                at += 3;
                if matches!(tokens.get(at), Some(&"lowerbound") | Some(&"upperbound")) {
                    at += 1;
                }
            }
            "wdl" => {
                let mut sum = 0;
                for k in 1..=3 {
                    let value = integer(&tokens, at + k, "wdl")?;
                    if !(0..=1000).contains(&value) {
                        return Err(format!("info wdl value {value} outside 0..1000"));
                    }
                    sum += value;
                }
                if sum != 1000 {
                    return Err(format!("info wdl sums to {sum}, not 1000"));
                }
                at += 4;
            }
            "currmove" => {
                let text = tokens.get(at + 1).copied().unwrap_or("");
                let mv: Move = text
                    .parse()
                    .map_err(|error| format!("info currmove \"{text}\": {error}"))?;
                game.check_move(mv)
                    .map_err(|error| format!("info currmove illegal: {error}"))?;
                at += 2;
            }
            "pv" | "refutation" => return judge_pv(&tokens[at + 1..], game),
            other => return Err(format!("unknown info token \"{other}\"")),
        }
    }
    Ok(())
}

fn judge_pv(moves: &[&str], game: &Game) -> Result<(), String> {
    if moves.is_empty() {
        return Err("info pv without moves".into());
    }
    let mut game = game.clone();
    for (index, text) in moves.iter().enumerate() {
        let mv: Move = text
            .parse()
            .map_err(|error| format!("pv move {} \"{text}\": {error}", index + 1))?;
        game.check_move(mv)
            .map_err(|error| format!("pv move {} illegal: {error}", index + 1))?;
        game.play_unchecked(mv);
    }
    Ok(())
}

/// One `option` declaration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionDecl {
    /// Its name.
    pub name: String,
    /// `check`, `spin`, `combo`, `button` or `string`.
    pub kind: String,
    /// The default, if given.
    pub default: Option<String>,
    /// `min` and `max` of a spin.
    pub range: Option<(i64, i64)>,
    /// A combo's values.
    pub vars: Vec<String>,
}

/// Reads an `option name <name> type <type> [default <x>] [min <n>] [max <n>] [var <v>]...`
/// line and checks it: a known type, a spin's default an integer inside its range, a combo's
/// default among its values, a check's default true or false.
pub fn parse_option(line: &str) -> Result<OptionDecl, String> {
    const KEYS: [&str; 5] = ["type", "default", "min", "max", "var"];
    let tokens: Vec<&str> = line.split_whitespace().collect();
    if tokens.get(1) != Some(&"name") {
        return Err(format!("option line without name: \"{line}\""));
    }
    let mut fields: Vec<(&str, String)> = Vec::new();
    let mut at = 2;
    let mut key = "name";
    let mut value: Vec<&str> = Vec::new();
    while at <= tokens.len() {
        let token = tokens.get(at).copied();
        if token.is_none_or(|t| KEYS.contains(&t)) {
            fields.push((key, value.join(" ")));
            value.clear();
            key = token.unwrap_or("");
        } else if let Some(t) = token {
            value.push(t);
        }
        at += 1;
    }
    let get = |wanted: &str| {
        fields
            .iter()
            .find(|(k, _)| *k == wanted)
            .map(|(_, v)| v.clone())
    };
    let name = get("name").unwrap_or_default();
    if name.is_empty() {
        return Err(format!("option without a name: \"{line}\""));
    }
    let kind = get("type").ok_or_else(|| format!("option {name} has no type"))?;
    let default = get("default");
    let vars: Vec<String> = fields
        .iter()
        .filter(|(k, _)| *k == "var")
        .map(|(_, v)| v.clone())
        .collect();
    let mut range = None;
    match kind.as_str() {
        "check" => {
            if !matches!(default.as_deref(), Some("true") | Some("false")) {
                return Err(format!(
                    "check option {name}: default must be true or false"
                ));
            }
        }
        "spin" => {
            let number = |key: &str| -> Result<i64, String> {
                get(key).and_then(|v| v.parse().ok()).ok_or_else(|| {
                    format!("spin option {name}: {key} is missing or not an integer")
                })
            };
            let (value, min, max) = (number("default")?, number("min")?, number("max")?);
            if min > max || !(min..=max).contains(&value) {
                return Err(format!(
                    "spin option {name}: default {value} outside min {min} max {max}"
                ));
            }
            range = Some((min, max));
        }
        "combo" => {
            let value = default.clone().unwrap_or_default();
            if !vars.iter().any(|v| v.eq_ignore_ascii_case(&value)) {
                return Err(format!(
                    "combo option {name}: default \"{value}\" is not among its values"
                ));
            }
        }
        "button" | "string" => {}
        other => return Err(format!("option {name}: unknown type \"{other}\"")),
    }
    Ok(OptionDecl {
        name,
        kind,
        default,
        range,
        vars,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn option_lines_are_read_and_checked() {
        let spin =
            parse_option("option name Move Overhead type spin default 30 min 0 max 5000").unwrap();
        assert_eq!(spin.name, "Move Overhead");
        assert_eq!(spin.range, Some((0, 5000)));
        let combo =
            parse_option("option name Repetition type combo default forbid var forbid var draw")
                .unwrap();
        assert_eq!(combo.vars, ["forbid", "draw"]);
        assert!(parse_option("option name TablebasePath type string default <empty>").is_ok());
        assert!(parse_option("option name Clear Hash type button").is_ok());
        for (line, reason) in [
            (
                "option name Hash type spin default 0 min 1 max 4",
                "default 0 outside",
            ),
            (
                "option name X type combo default a var b var c",
                "not among its values",
            ),
            ("option name X type check default yes", "true or false"),
            ("option name X type slider default 1", "unknown type"),
            ("option name X", "has no type"),
            ("option type spin", "without name"),
            (
                "option name Hash type spin default 1 min 1",
                "max is missing",
            ),
        ] {
            let error = parse_option(line).unwrap_err();
            assert!(error.contains(reason), "{line}: {error}");
        }
    }

    #[test]
    fn info_lines_are_judged_against_the_position() {
        let game = Game::startpos(Rules::default());
        for good in [
            "info depth 3 seldepth 4 multipv 1 score cp -12 lowerbound wdl 300 400 300 nodes 50 nps 9 hashfull 0 tbhits 0 time 1 pv c3 a1b1",
            "info depth 0 score mate 0",
            "info string anything at all",
            "info depth 5 currmove c3 currmovenumber 1",
        ] {
            assert_eq!(judge_info(good, &game), Ok(()), "{good}");
        }
        for (bad, reason) in [
            ("info depth x", "not an integer"),
            ("info score 12", "cp or mate"),
            ("info wdl 500 400 50", "sums to 950"),
            ("info pv c3 c3", "pv move 2 illegal"),
            ("info pv a1b1", "pv move 1 illegal"),
            ("info depth 1 banana 3", "unknown info token \"banana\""),
            ("info currmove e1d1", "currmove illegal"),
        ] {
            let error = judge_info(bad, &game).unwrap_err();
            assert!(error.contains(reason), "{bad}: {error}");
        }
    }

    #[test]
    fn bestmoves_are_judged_by_our_rules() {
        let start = Game::startpos(Rules::default());
        assert_eq!(
            judge_bestmove("bestmove c3 ponder a1b1", &start, false),
            Ok(())
        );
        assert!(judge_bestmove("bestmove c3 ponder a1b1", &start, true)
            .unwrap_err()
            .contains("more than two words"));
        assert!(judge_bestmove("bestmove c3 ponder c4", &start, false)
            .unwrap_err()
            .contains("illegal ponder"));
        assert!(judge_bestmove("bestmove a1b1", &start, false)
            .unwrap_err()
            .contains("illegal bestmove"));
        assert!(judge_bestmove("bestmove xyz!", &start, false)
            .unwrap_err()
            .contains("not a move"));
        assert!(judge_bestmove("bestmove 0000", &start, false)
            .unwrap_err()
            .contains("where the game goes on"));
        let blocked = Probe::new(Some("TGGGT/GGGGG/GG1GG/GGGGG/TGGGT g 0 0"), &["c2c3"]).game();
        assert!(blocked.legal_moves().is_empty());
        assert_eq!(judge_bestmove("bestmove 0000", &blocked, false), Ok(()));
        let forced = Probe {
            rules: Rules {
                forced_capture: true,
                ..Rules::default()
            },
            ..Probe::new(Some("T3T/5/5/1G3/T3T t 19 0"), &[])
        };
        assert!(judge_bestmove("bestmove e1d1", &forced.game(), false).is_err());
        assert_eq!(
            judge_bestmove("bestmove a1c3", &forced.game(), false),
            Ok(())
        );
    }
}
