//! Plays one game between two running engines, checking every move with the referee's own
//! rules code, keeping both clocks and applying adjudication.

use super::adjudication::{adjudicate, capitalized, Adjudication};
use super::engine_process::{EngineError, EngineProcess, SearchReply, Timeouts};
use super::openings::Opening;
use super::outcome::{judge, leaves_engine_usable, Deadline, GameResult, Termination, Verdict};
use super::record::{today, GameRecord, MoveDetails, RecordedMove, TimeUse};
use super::spec::EngineSpec;
use super::tb_adjudication::TbAdjudicator;
use super::time_control::{Clock, Limits};
use crate::{Game, Move, Outcome, Position, Rules, Side};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// One game to play.
#[derive(Clone, Debug)]
pub struct GameSetup<'a> {
    /// Game number (1-based, whole schedule).
    pub number: u64,
    /// Game pair number (1-based).
    pub pair: u64,
    /// Round (1-based).
    pub round: u32,
    /// Event tag.
    pub event: &'a str,
    /// Site tag.
    pub site: &'a str,
    /// Where the game starts.
    pub opening: &'a Opening,
    /// The rule variant.
    pub rules: Rules,
    /// The goats' engine.
    pub goat: &'a EngineSpec,
    /// The tigers' engine.
    pub tiger: &'a EngineSpec,
    /// Adjudication rules.
    pub adjudication: Adjudication,
    /// Tablebase adjudication, when the match has tables.
    pub tablebase: Option<&'a TbAdjudicator>,
    /// Handshake and stall timeouts.
    pub timeouts: Timeouts,
    /// Let an engine that declares the `Ponder` option think on the opponent's time
    /// (`-pondering`).
    pub pondering: bool,
}

/// How a game ended for the runner.
#[derive(Clone, Debug, PartialEq)]
pub enum GameEnd {
    /// A finished game, and the side whose engine was left unusable (it ended, or gave no
    /// answer within its allowance), if any: that engine is to be killed and restarted, or the
    /// run stops. An engine that lost by an illegal move or on time but answered plays on.
    Finished(Box<GameRecord>, Option<Side>),
    /// Interrupted: not recorded.
    Interrupted,
}

impl GameSetup<'_> {
    /// The engine spec playing `side`.
    pub fn spec(&self, side: Side) -> &EngineSpec {
        match side {
            Side::Goats => self.goat,
            Side::Tigers => self.tiger,
        }
    }

    fn record(
        &self,
        moves: Vec<RecordedMove>,
        result: GameResult,
        termination: Termination,
        reason: String,
    ) -> GameRecord {
        GameRecord {
            event: self.event.to_string(),
            site: self.site.to_string(),
            date: today(),
            round: self.round,
            number: self.number,
            pair: self.pair,
            goat: self.goat.name.clone(),
            tiger: self.tiger.name.clone(),
            start: self.opening.start,
            rules: self.rules,
            goat_time_control: self.goat.limits.to_string(),
            tiger_time_control: self.tiger.limits.to_string(),
            moves,
            result,
            termination,
            reason,
            time_forfeit: None,
        }
    }

    /// The record of a game lost by `side`'s engine before or during play.
    pub fn forfeit(
        &self,
        moves: Vec<RecordedMove>,
        side: Side,
        termination: Termination,
        comment: &str,
    ) -> GameRecord {
        let loser = capitalized(side);
        let reason =
            if comment.starts_with(termination.as_str()) || comment.starts_with("malformed") {
                format!("{loser} lose: {comment}")
            } else {
                format!("{loser} lose: {termination}: {comment}")
            };
        self.record(
            moves,
            GameResult::win_for(side.opposite()),
            termination,
            reason,
        )
    }

    /// What an engine error before the first move means: the verdict for that side.
    pub fn setup_failure(&self, side: Side, error: &EngineError) -> GameEnd {
        let (termination, comment) = match error {
            EngineError::Interrupted => return GameEnd::Interrupted,
            EngineError::Spawn(message) => (Termination::Disconnect, message.clone()),
            EngineError::Disconnected => (
                Termination::Disconnect,
                "the engine closed its pipes before the game started".into(),
            ),
            EngineError::Exited(reason) => (
                Termination::Disconnect,
                format!("{} before the game started", reason.describe()),
            ),
            EngineError::Timeout {
                waiting_for,
                waited,
            } => (
                Termination::Stall,
                format!("no {waiting_for} within {} ms", waited.as_millis()),
            ),
        };
        let moves = self
            .opening
            .moves
            .iter()
            .map(|&mv| RecordedMove::book(mv))
            .collect();
        GameEnd::Finished(
            Box::new(self.forfeit(moves, side, termination, &comment)),
            Some(side),
        )
    }
}

/// The final comment for a game the rules ended.
pub fn outcome_reason(outcome: Outcome, rules: &Rules) -> String {
    match outcome {
        Outcome::CapturesReached => format!("Tigers win: {} goats captured", rules.captures_to_win),
        Outcome::TigersBlocked => "Goats win: tigers blocked".to_string(),
        Outcome::GoatsBlocked => "Tigers win: goats blocked".to_string(),
        Outcome::Repetition => "Draw by repetition".to_string(),
    }
}

/// The `position` command for a game so far.
pub fn position_command(start: &Position, game: &Game) -> String {
    let mut command = if *start == Position::startpos() {
        "position startpos".to_string()
    } else {
        format!("position fen {start}")
    };
    if !game.moves().is_empty() {
        command.push_str(" moves");
        for mv in game.moves() {
            command.push(' ');
            command.push_str(&mv.to_string());
        }
    }
    command
}

/// The `go` command for `side` and how its answer will be judged.
pub fn go_command(
    side: Side,
    limits: &Limits,
    clocks: &[Option<Clock>; 2],
    stall: Duration,
) -> (String, Deadline, Duration) {
    let mut go = "go".to_string();
    let mut allowed: Option<Duration> = None;
    if clocks[side.index()].is_some() {
        for (index, (time, increment)) in [("wtime", "winc"), ("btime", "binc")].iter().enumerate()
        {
            if let Some(clock) = &clocks[index] {
                go.push_str(&format!(
                    " {time} {} {increment} {}",
                    clock.remaining().as_millis(),
                    clock.increment().as_millis()
                ));
            }
        }
        let own = clocks[side.index()].as_ref().expect("checked above");
        if let Some(moves) = own.moves_to_go() {
            go.push_str(&format!(" movestogo {moves}"));
        }
        allowed = Some(own.remaining() + limits.margin);
    }
    if let Some(move_time) = limits.move_time {
        go.push_str(&format!(" movetime {}", move_time.as_millis()));
        let limit = move_time + limits.margin;
        allowed = Some(allowed.map_or(limit, |a| a.min(limit)));
    }
    if let Some(depth) = limits.depth {
        go.push_str(&format!(" depth {depth}"));
    }
    if let Some(nodes) = limits.nodes {
        go.push_str(&format!(" nodes {nodes}"));
    }
    match allowed {
        Some(allowed) => (go, Deadline::Timed { allowed }, allowed),
        None => (go, Deadline::Untimed, stall),
    }
}

/// Whole milliseconds, saturating.
fn millis(duration: Duration) -> u64 {
    u64::try_from(duration.as_millis()).unwrap_or(u64::MAX)
}

/// The time an answer took; for no answer, how long the referee waited (`wait` for `bestmove`,
/// then the wait after `stop`).
fn time_used(reply: &Result<SearchReply, EngineError>, wait: Duration) -> Duration {
    match reply {
        Ok(reply) => reply.elapsed,
        Err(EngineError::Timeout {
            waiting_for: "bestmove",
            waited,
        }) => *waited,
        Err(EngineError::Timeout { waited, .. }) => wait + *waited,
        Err(_) => wait,
    }
}

/// Sees a game while [`play_game_observed`] plays it (the GUI shows games live with it).
pub trait GameObserver {
    /// `side` is about to be asked for a move, with these clocks (goats first).
    fn turn(&mut self, _side: Side, _clocks: &[Option<Clock>; 2]) {}
    /// A move was played (engine moves only; opening moves are in the setup); `game` is the
    /// game after it.
    fn moved(&mut self, _game: &Game, _mv: &RecordedMove) {}
}

/// The observer that sees nothing.
impl GameObserver for () {}

/// Plays one game; `engines` is indexed by [`Side::index`] and both have done their handshake.
pub fn play_game(
    setup: &GameSetup,
    engines: [&mut EngineProcess; 2],
    interrupt: &AtomicBool,
) -> GameEnd {
    play_game_observed(setup, engines, interrupt, &mut ())
}

/// [`play_game`], telling `observer` about each turn and move as the game goes.
pub fn play_game_observed(
    setup: &GameSetup,
    mut engines: [&mut EngineProcess; 2],
    interrupt: &AtomicBool,
    observer: &mut dyn GameObserver,
) -> GameEnd {
    let end = play_moves(setup, &mut engines, interrupt, observer);
    // The game is over for a ponder search still running: stopped, its answer dropped. An
    // engine that does not answer stays pondering, and the runner restarts it (as it restarts
    // an engine left unusable, which is not asked again).
    let GameEnd::Finished(_, unusable) = &end else {
        return end;
    };
    let unusable = *unusable;
    for side in [Side::Goats, Side::Tigers] {
        let engine = &mut engines[side.index()];
        if engine.is_pondering() && unusable != Some(side) {
            if let Err(error) = engine.stop_ponder(setup.timeouts.handshake, interrupt) {
                log::warn!(
                    "{}: after game {}: {error}",
                    setup.spec(side).name,
                    setup.number
                );
            }
        }
    }
    end
}

/// The moves of a game, up to its end (ponder searches may still run).
fn play_moves(
    setup: &GameSetup,
    engines: &mut [&mut EngineProcess; 2],
    interrupt: &AtomicBool,
    observer: &mut dyn GameObserver,
) -> GameEnd {
    for side in [Side::Goats, Side::Tigers] {
        let engine = &mut engines[side.index()];
        if setup.pondering && engine.offers_ponder() {
            if let Err(error) = engine.send("setoption name Ponder value true") {
                return setup.setup_failure(side, &error);
            }
        }
        let ready = engine
            .send("ucinewgame")
            .and_then(|()| engine.sync(setup.timeouts.handshake, interrupt));
        if let Err(error) = ready {
            return setup.setup_failure(side, &error);
        }
    }
    let mut game = setup
        .opening
        .game(setup.rules)
        .expect("openings are checked when read");
    let mut moves: Vec<RecordedMove> = setup
        .opening
        .moves
        .iter()
        .map(|&mv| RecordedMove::book(mv))
        .collect();
    let mut clocks = [
        setup.goat.limits.clock.map(Clock::new),
        setup.tiger.limits.clock.map(Clock::new),
    ];
    let mut scores: [Vec<i32>; 2] = [Vec::new(), Vec::new()];
    // The reply each side's engine is pondering on, if it is.
    let mut pondered: [Option<Move>; 2] = [None, None];
    loop {
        if let Some(outcome) = game.outcome() {
            let result = outcome
                .winner()
                .map_or(GameResult::Draw, GameResult::win_for);
            let reason = outcome_reason(outcome, &setup.rules);
            return GameEnd::Finished(
                setup
                    .record(moves, result, Termination::Normal, reason)
                    .into(),
                None,
            );
        }
        if let Some((result, reason)) = setup.tablebase.and_then(|tb| tb.adjudicate(&game)) {
            return GameEnd::Finished(
                setup
                    .record(moves, result, Termination::Adjudication, reason)
                    .into(),
                None,
            );
        }
        let max = setup.adjudication.max_plies as usize;
        if max > 0 && moves.len() >= max {
            let reason = format!("Draw by adjudication: {max} plies");
            return GameEnd::Finished(
                setup
                    .record(moves, GameResult::Draw, Termination::Adjudication, reason)
                    .into(),
                None,
            );
        }
        let side = game.position().side_to_move();
        let limits = &setup.spec(side).limits;
        let (go, deadline, wait) = go_command(side, limits, &clocks, setup.timeouts.stall);
        let command = position_command(game.start_position(), &game);
        observer.turn(side, &clocks);
        let engine = &mut engines[side.index()];
        let expected = pondered[side.index()].take();
        let ponderhit = expected.is_some() && expected.as_ref() == game.moves().last();
        let mut reply = if ponderhit {
            engine.ponderhit(wait, interrupt)
        } else if expected.is_some() {
            engine
                .stop_ponder(setup.timeouts.handshake, interrupt)
                .and_then(|()| engine.go(&command, &go, wait, interrupt))
        } else {
            engine.go(&command, &go, wait, interrupt)
        };
        if let (
            Deadline::Timed { .. },
            Err(EngineError::Timeout {
                waiting_for: "bestmove",
                ..
            }),
        ) = (deadline, &reply)
        {
            // Lost on time. Whether it can play on depends on whether it answers `stop`; its
            // late `bestmove` is read here, so it cannot answer the next `go`.
            reply = engine.stop_search(setup.timeouts.handshake, interrupt);
        }
        // The allowance the engine was told: clock or move time without the margin.
        let allowed = match deadline {
            Deadline::Timed { allowed } => Some(allowed.saturating_sub(limits.margin)),
            Deadline::Untimed => None,
        };
        match judge(&reply, deadline, &game) {
            Verdict::Interrupted => return GameEnd::Interrupted,
            Verdict::Fault(termination, comment) => {
                let unusable = (!leaves_engine_usable(&reply)).then_some(side);
                let mut record = setup.forfeit(moves, side, termination, &comment);
                if termination == Termination::TimeForfeit {
                    record.time_forfeit = allowed.map(|allowed| TimeUse {
                        time_ms: millis(time_used(&reply, wait)),
                        allowed_ms: millis(allowed),
                    });
                }
                return GameEnd::Finished(record.into(), unusable);
            }
            Verdict::Play(mv) => {
                let reply = reply.expect("a played move comes from a reply");
                if let Some(clock) = &mut clocks[side.index()] {
                    clock.charge(reply.elapsed, limits.margin);
                }
                let time_left = clocks[side.index()].as_ref().map(|c| millis(c.remaining()));
                let mut details = MoveDetails::of(&reply.info, millis(reply.elapsed), time_left);
                if ponderhit {
                    // Timed from ponderhit, the engine's own time from go ponder: no latency.
                    details.latency_ms = None;
                }
                game.play_unchecked(mv);
                moves.push(RecordedMove {
                    mv,
                    book: false,
                    score: reply.score,
                    depth: reply.depth,
                    time_ms: Some(millis(reply.elapsed)),
                    allowed_ms: allowed.map(millis),
                    details,
                });
                observer.moved(&game, moves.last().expect("just pushed"));
                if let Some(score) = reply.score {
                    scores[side.index()].push(score.as_centi());
                } else {
                    scores[side.index()].clear();
                }
                if let Some((result, reason)) =
                    adjudicate(&setup.adjudication, moves.len(), side, &scores)
                {
                    return GameEnd::Finished(
                        setup
                            .record(moves, result, Termination::Adjudication, reason)
                            .into(),
                        None,
                    );
                }
                let Some(expected) = ponder_move(setup, engine, &reply, &game) else {
                    continue;
                };
                let mut after = game.clone();
                after.play_unchecked(expected);
                let (go, _, _) = go_command(side, limits, &clocks, setup.timeouts.stall);
                let go = go.replacen("go", "go ponder", 1);
                let position = position_command(game.start_position(), &after);
                match engine.ponder(&position, &go, interrupt) {
                    Ok(()) => pondered[side.index()] = Some(expected),
                    Err(error) => {
                        // Not its turn, but it cannot play on: a fault all the same.
                        let reply = Err(error);
                        return match judge(&reply, Deadline::Untimed, &game) {
                            Verdict::Fault(termination, comment) => GameEnd::Finished(
                                setup.forfeit(moves, side, termination, &comment).into(),
                                Some(side),
                            ),
                            _ => GameEnd::Interrupted,
                        };
                    }
                }
            }
        }
    }
}

/// The reply to ponder on after `reply` was played (the game is now `game`): with pondering on,
/// an engine that declares `Ponder`, a `ponder` move legal here and a game not over.
fn ponder_move(
    setup: &GameSetup,
    engine: &EngineProcess,
    reply: &SearchReply,
    game: &Game,
) -> Option<Move> {
    if !setup.pondering || !engine.offers_ponder() || game.outcome().is_some() {
        return None;
    }
    let expected: Move = reply.ponder.as_deref()?.parse().ok()?;
    game.check_move(expected).ok().map(|()| expected)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_commands_send_both_clocks() {
        let limits = Limits {
            clock: Some("40/10+0.1".parse().unwrap()),
            margin: Duration::from_millis(50),
            ..Limits::default()
        };
        let clocks = [
            limits.clock.map(Clock::new),
            Some(Clock::new("5+0".parse().unwrap())),
        ];
        let (go, deadline, wait) =
            go_command(Side::Goats, &limits, &clocks, Duration::from_secs(9));
        assert_eq!(go, "go wtime 10000 winc 100 btime 5000 binc 0 movestogo 40");
        assert_eq!(
            deadline,
            Deadline::Timed {
                allowed: Duration::from_millis(10_050)
            }
        );
        assert_eq!(wait, Duration::from_millis(10_050));
        let depth = Limits {
            depth: Some(3),
            nodes: Some(500),
            ..Limits::default()
        };
        let (go, deadline, wait) =
            go_command(Side::Tigers, &depth, &[None, None], Duration::from_secs(9));
        assert_eq!(
            (go.as_str(), deadline, wait),
            (
                "go depth 3 nodes 500",
                Deadline::Untimed,
                Duration::from_secs(9)
            )
        );
    }

    #[test]
    fn position_commands_use_startpos_or_fen() {
        let mut game = Game::startpos(Rules::default());
        assert_eq!(
            position_command(&Position::startpos(), &game),
            "position startpos"
        );
        game.play("c3".parse().unwrap()).unwrap();
        assert_eq!(
            position_command(&Position::startpos(), &game),
            "position startpos moves c3"
        );
        let start: Position = "T3T/5/2G2/5/T3T t 19 0".parse().unwrap();
        let game = Game::new(start, Rules::default());
        assert_eq!(
            position_command(&start, &game),
            "position fen T3T/5/2G2/5/T3T t 19 0"
        );
    }
}
