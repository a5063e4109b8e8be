//! The checks other than `go`'s timing: handshake, options, `isready`, new game, `position`
//! in every phase and rule variant the engine declares, the end of a game, bad input, UGI's
//! `query`, and `quit`.

use super::judge::{parse_option, Probe};
use super::searches;
use super::{CheckDialect, Checker};
use crate::{Game, Move, Repetition, Rules, Side};
use std::time::{Duration, Instant};

/// A movement-phase position (no goat in hand, one captured).
pub const MOVEMENT: &str = "GGGGT/GT1GG/GGGGG/GGTG1/TGGGG g 0 1";
/// Tigers to move, a capture (a1c3) and steps available.
pub const CAPTURE_READY: &str = "T3T/5/5/1G3/T3T t 19 0";
/// Tigers to move and blocked after the move c2c3: the goats have won.
pub const BLOCKED: (&str, &str) = ("TGGGT/GGGGG/GG1GG/GGGGG/TGGGT g 0 0", "c2c3");

/// Runs every check in order.
pub fn run_all(checker: &mut Checker<'_>) {
    checker.check("handshake", handshake);
    checker.check("options", options);
    checker.check("isready", |c| c.sync().map(|_| ()));
    let new_game = checker.dialect.new_game();
    checker.check(new_game, |c| {
        let command = c.dialect.new_game();
        c.wire().send(command)?;
        c.sync().map(|_| ())
    });
    for (name, probe) in position_probes() {
        checker.check(name, |c| {
            c.search(&probe, "go movetime 100", c.limits.timeout)
                .map(|_| ())
        });
    }
    variants(checker);
    checker.check("game-over", |c| {
        let probe = Probe::new(Some(BLOCKED.0), &[BLOCKED.1]);
        c.search(&probe, "go depth 1", c.limits.timeout).map(|_| ())
    });
    searches::run_all(checker);
    checker.check("bad-input", bad_input);
    if checker.dialect == CheckDialect::Ugi {
        checker.check("query", query);
    }
    checker.check("quit", quit);
}

fn handshake(checker: &mut Checker<'_>) -> Result<(), String> {
    let lines = checker.handshake()?;
    let has = |prefix: &str| lines.iter().any(|l| l.starts_with(prefix));
    if !has("id name ") {
        return Err("no \"id name <name>\" line before the handshake's end".into());
    }
    if !has("id author ") {
        return Err("no \"id author <author>\" line before the handshake's end".into());
    }
    checker.declared.clear();
    let mut first_error = None;
    for line in lines.iter().filter(|l| l.starts_with("option")) {
        match parse_option(line) {
            Ok(option) => checker.declared.push(option),
            Err(error) => {
                first_error.get_or_insert(error);
            }
        }
    }
    checker.option_error = first_error;
    Ok(())
}

/// The option declarations read by the handshake: each well formed, defaults in range.
fn options(checker: &mut Checker<'_>) -> Result<(), String> {
    if let Some(error) = checker.option_error.clone() {
        return Err(error);
    }
    for name in ["ForcedCapture", "CapturesToWin", "Repetition"] {
        let kind = checker.declared(name).map(|o| o.kind.clone());
        let expected = match name {
            "ForcedCapture" => "check",
            "CapturesToWin" => "spin",
            _ => "combo",
        };
        if let Some(kind) = kind.filter(|k| k != expected) {
            return Err(format!(
                "option {name} is declared as {kind}; protocol.md declares it {expected}"
            ));
        }
    }
    Ok(())
}

/// A game of at most `plies` moves played by a fixed rule on our rules core (no engine
/// involved), stopped before it would end.
fn long_game(plies: usize) -> Vec<String> {
    let mut game = Game::startpos(Rules::default());
    let mut moves = Vec::new();
    for ply in 0..plies {
        // Quiet moves where there are any, so the game lasts.
        let all = game.legal_moves();
        let quiet: Vec<Move> = all.iter().copied().filter(|m| !m.is_capture()).collect();
        let legal: Vec<Move> = if quiet.is_empty() {
            all.to_vec()
        } else {
            quiet
        };
        if legal.is_empty() {
            break;
        }
        let mv = legal[(ply * 7 + 3) % legal.len()];
        game.play(mv).expect("a legal move");
        if game.outcome().is_some() {
            // Stop short of the end: the probe is a game that goes on.
            game.undo();
            break;
        }
        moves.push(mv.to_string());
    }
    moves
}

/// The `position` checks: every phase, captures, position strings with a move number.
pub fn position_probes() -> Vec<(&'static str, Probe)> {
    let long = long_game(60);
    let long: Vec<&str> = long.iter().map(String::as_str).collect();
    vec![
        ("position-startpos", Probe::new(None, &[])),
        (
            "position-placement",
            Probe::new(None, &["c3", "a1b2", "b3"]),
        ),
        ("position-step", Probe::new(Some(MOVEMENT), &[])),
        (
            "position-capture",
            Probe::new(Some(CAPTURE_READY), &["a1c3"]),
        ),
        (
            "position-after-captures",
            Probe::new(Some("T1G1T/GGGG1/GGGGG/1GGGG/T1GGT g 0 4"), &[]),
        ),
        (
            "position-fen-move-number",
            Probe::new(Some("T3T/5/2G2/5/T3T t 19 0 1"), &["a1b1"]),
        ),
        ("position-long-game", Probe::new(None, &long)),
    ]
}

fn reverse(mv: Move) -> Option<Move> {
    let from = mv.from()?;
    format!("{}{}", mv.to(), from).parse().ok()
}

/// A shuttle in the movement phase, under `Repetition forbid`: goat, tiger, goat back; the
/// tigers' step back, which the board allows, would recreate the start and is forbidden.
/// Returns the probe and that forbidden move.
pub fn forbid_shuttle() -> Option<(Probe, Move)> {
    let rules = Rules {
        repetition: Repetition::Forbid,
        ..Rules::default()
    };
    let start = Probe::new(Some(MOVEMENT), &[]).game();
    for &goat in start.legal_moves().iter() {
        let Some(goat_back) = reverse(goat).filter(|_| !goat.is_capture()) else {
            continue;
        };
        let mut after_goat = Game::new(*start.position(), rules);
        after_goat.play(goat).ok()?;
        for tiger in after_goat.legal_moves().iter().filter(|m| !m.is_capture()) {
            let mut game = after_goat.clone();
            game.play(*tiger).ok()?;
            if game.play(goat_back).is_err() {
                continue;
            }
            let Some(tiger_back) = reverse(*tiger) else {
                continue;
            };
            let board_allows = game.position().check_board_move(tiger_back).is_ok();
            if board_allows && game.check_move(tiger_back).is_err() {
                let moves = [goat, *tiger, goat_back].map(|m| m.to_string());
                let moves: Vec<&str> = moves.iter().map(String::as_str).collect();
                return Some((
                    Probe {
                        rules,
                        ..Probe::new(Some(MOVEMENT), &moves)
                    },
                    tiger_back,
                ));
            }
        }
    }
    None
}

/// One check per rule variant the engine declares, each under the variant's rules (the spec's
/// rules are restored after).
fn variants(checker: &mut Checker<'_>) {
    let base = checker.rules;
    if checker.declares("ForcedCapture") {
        checker.check("variant-forced-capture", |c| {
            c.set_rules(Rules {
                forced_capture: true,
                ..base
            })?;
            let probe = Probe::new(Some(CAPTURE_READY), &[]);
            c.search(&probe, "go movetime 100", c.limits.timeout)?;
            c.set_rules(base)
        });
    }
    if let Some((min, _)) = checker.declared("CapturesToWin").and_then(|o| o.range) {
        checker.check("variant-captures-to-win", |c| {
            c.set_rules(Rules {
                captures_to_win: min.clamp(1, 20) as u8,
                ..base
            })?;
            // One capture made: the tigers have won when one is enough; either way the engine
            // answers (0000 or a move the board allows, as the arbiter plays on).
            let probe = Probe::new(Some(CAPTURE_READY), &["a1c3"]);
            c.search(&probe, "go movetime 100", c.limits.timeout)?;
            c.set_rules(base)
        });
    }
    let vars = checker
        .declared("Repetition")
        .map(|o| o.vars.clone())
        .unwrap_or_default();
    let has = |v: &str| vars.iter().any(|x| x.eq_ignore_ascii_case(v));
    if has("forbid") {
        checker.check("variant-repetition-forbid", |c| {
            let (probe, _) = forbid_shuttle().ok_or("no shuttle found (a checker bug)")?;
            c.set_rules(probe.rules)?;
            c.search(&probe, "go movetime 100", c.limits.timeout)?;
            c.set_rules(base)
        });
    }
    if has("draw") {
        checker.check("variant-repetition-draw", |c| {
            let (mut probe, back) = forbid_shuttle().ok_or("no shuttle found (a checker bug)")?;
            probe.rules.repetition = Repetition::Draw;
            // The tigers step back: the start recurs, a draw under `draw`.
            probe.moves.push(back.to_string());
            c.set_rules(probe.rules)?;
            c.search(&probe, "go movetime 100", c.limits.timeout)?;
            c.set_rules(base)
        });
    }
}

/// Unknown commands, malformed and illegal `position` lines, a bad `go`: the engine stays up
/// and answers `isready`, and then searches a good position.
fn bad_input(checker: &mut Checker<'_>) -> Result<(), String> {
    for line in [
        "bogus-command",
        "position fen this is no position",
        "position startpos moves c3 c3",
        "position startpos moves zz",
        "go depth banana",
        "setoption name NoSuchOption value 3",
    ] {
        survive(checker, line).map_err(|error| format!("after \"{line}\": {error}"))?;
    }
    let timeout = checker.limits.timeout;
    checker.search(&Probe::new(None, &["c3"]), "go movetime 100", timeout)?;
    Ok(())
}

/// Sends a bad `line`, then `isready`: `readyok` must come.
fn survive(checker: &mut Checker<'_>, line: &str) -> Result<(), String> {
    checker.wire().send(line)?;
    // A `go` the engine could not read may still start a search: stop it.
    if line.starts_with("go") {
        checker.wire().send("stop")?;
        let at_once = checker.limits.at_once;
        checker
            .wire()
            .listen(at_once.min(Duration::from_millis(200)))?;
    }
    let timeout = checker.limits.timeout;
    checker.wire().send("isready")?;
    checker.wire().expect("readyok", timeout).map(|_| ())
}

/// UGI's `query gameover|p1turn|result`, answered as our rules core sees the game.
fn query(checker: &mut Checker<'_>) -> Result<(), String> {
    let probes = [
        Probe::new(None, &[]),
        Probe::new(None, &["c3"]),
        Probe::new(Some(BLOCKED.0), &[BLOCKED.1]),
    ];
    for probe in probes {
        let game = Probe {
            rules: checker.rules,
            ..probe.clone()
        }
        .game();
        let outcome = game.outcome();
        let result = match outcome.map(|o| o.winner()) {
            None => "none",
            Some(None) => "draw",
            Some(Some(Side::Goats)) => "p1win",
            Some(Some(Side::Tigers)) => "p2win",
        };
        let expected = [
            ("gameover", outcome.is_some().to_string()),
            (
                "p1turn",
                (game.position().side_to_move() == Side::Goats).to_string(),
            ),
            ("result", result.to_string()),
        ];
        checker.wire().send(&probe.command())?;
        for (question, answer) in expected {
            checker.wire().send(&format!("query {question}"))?;
            let timeout = checker.limits.timeout;
            let (_, line, _) = checker.wire().expect("response", timeout)?;
            if line != format!("response {answer}") {
                return Err(format!(
                    "query {question} after \"{}\": \"{line}\", expected \"response {answer}\"",
                    probe.command()
                ));
            }
        }
    }
    Ok(())
}

fn quit(checker: &mut Checker<'_>) -> Result<(), String> {
    let limit = checker.limits.quit;
    checker.wire().send("quit")?;
    let started = Instant::now();
    while started.elapsed() < limit {
        if checker.wire().exit_reason().is_some() {
            return Ok(());
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    checker.wire().kill();
    Err(format!("still running {} ms after quit", limit.as_millis()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn probes_are_games_and_the_shuttle_bites() {
        for (name, probe) in position_probes() {
            let game = probe.game();
            assert!(game.outcome().is_none(), "{name} is a game that goes on");
        }
        assert!(position_probes()[6].1.moves.len() >= 30);
        let (probe, back) = forbid_shuttle().expect("a shuttle");
        let game = probe.game();
        assert!(game.position().check_board_move(back).is_ok());
        assert!(game.check_move(back).is_err(), "forbidden under forbid");
        let forced = Probe {
            rules: Rules {
                forced_capture: true,
                ..Rules::default()
            },
            ..Probe::new(Some(CAPTURE_READY), &[])
        };
        assert!(forced.game().legal_moves().iter().all(|m| m.is_capture()));
        assert!(
            Probe::new(Some(CAPTURE_READY), &[])
                .game()
                .legal_moves()
                .len()
                > 1
        );
        let blocked = Probe::new(Some(BLOCKED.0), &[BLOCKED.1]).game();
        assert!(blocked.legal_moves().is_empty());
    }
}
