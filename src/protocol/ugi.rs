//! The UGI dialect (the Universal Game Interface of generic match runners such as cutegames):
//! UCI with `ugi`/`ugiok`, `uginewgame`, `p1time`-style clocks, and `query` questions about the
//! game, answered with `response <word>`. Player 1 is the goats. Since such a runner knows no
//! Bagh Chal rules, it trusts these answers to end the game.

use super::error::CommandError;
use crate::{Game, Side};
use std::fmt;
use std::str::FromStr;

/// Which protocol the session speaks, fixed by its first `uci` or `ugi` (UCI before either).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub enum Dialect {
    /// UCI: `uciok`, `bestmove <move> [ponder <move>]`.
    #[default]
    Uci,
    /// UGI: `ugiok`, `bestmove <move>` alone (runners read exactly two words).
    Ugi,
}

impl Dialect {
    /// The command that opens the dialect: `uci` or `ugi`.
    pub const fn handshake(self) -> &'static str {
        match self {
            Dialect::Uci => "uci",
            Dialect::Ugi => "ugi",
        }
    }

    /// The line that ends the handshake: `uciok` or `ugiok`.
    pub const fn handshake_ok(self) -> &'static str {
        match self {
            Dialect::Uci => "uciok",
            Dialect::Ugi => "ugiok",
        }
    }

    /// Whether `bestmove` may carry `ponder <move>` (UCI only: UGI runners ignore a
    /// `bestmove` line of more than two words and then wait for ever).
    pub const fn has_ponder_move(self) -> bool {
        matches!(self, Dialect::Uci)
    }
}

/// A `query` question.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Query {
    /// `gameover`: is the game over? `true` or `false`.
    GameOver,
    /// `p1turn`: are the goats (player 1) to move? `true` or `false`.
    P1Turn,
    /// `result`: `p1win` (goats won), `p2win` (tigers won), `draw`, or `none` while the game
    /// goes on.
    Result,
}

impl Query {
    /// Every query, in the order protocol.md lists them.
    pub const ALL: [Query; 3] = [Query::GameOver, Query::P1Turn, Query::Result];

    /// The query's word: `gameover`, `p1turn` or `result`.
    pub const fn name(self) -> &'static str {
        match self {
            Query::GameOver => "gameover",
            Query::P1Turn => "p1turn",
            Query::Result => "result",
        }
    }

    /// The answer word for `game` under its rules ([`Game::outcome`]).
    pub fn answer(self, game: &Game) -> &'static str {
        let outcome = game.outcome();
        match self {
            Query::GameOver => bool_word(outcome.is_some()),
            Query::P1Turn => bool_word(game.position().side_to_move() == Side::Goats),
            Query::Result => match outcome.map(|outcome| outcome.winner()) {
                None => "none",
                Some(Some(Side::Goats)) => "p1win",
                Some(Some(Side::Tigers)) => "p2win",
                Some(None) => "draw",
            },
        }
    }

    /// The answer word when the engine has no game (the last `position` could not be
    /// followed): the game is over for us, with no result and nobody to move, so a runner that
    /// trusts the answers ends the game rather than asking for moves for ever.
    pub const fn answer_without_game(self) -> &'static str {
        match self {
            Query::GameOver => "true",
            Query::P1Turn => "false",
            Query::Result => "none",
        }
    }
}

/// The answer to a `query` that could not be read (unknown or missing question): no question
/// has this answer, but a runner waiting for a `response` line gets one.
pub const UNREADABLE_QUERY_ANSWER: &str = "none";

fn bool_word(value: bool) -> &'static str {
    if value {
        "true"
    } else {
        "false"
    }
}

impl fmt::Display for Query {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Query {
    type Err = CommandError;

    /// `gameover`, `p1turn` or `result` (case-sensitive, like every protocol keyword).
    fn from_str(text: &str) -> Result<Query, CommandError> {
        Query::ALL
            .into_iter()
            .find(|query| query.name() == text)
            .ok_or_else(|| CommandError::UnknownQuery(text.to_string()))
    }
}

/// `response <answer>`.
pub fn format_response(answer: &str) -> String {
    format!("response {answer}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Move, Position, Repetition, Rules};

    fn game(position: &str, moves: &str, rules: Rules) -> Game {
        let mut game = Game::new(position.parse::<Position>().unwrap(), rules);
        for mv in moves.split_whitespace() {
            game.play_unchecked(mv.parse::<Move>().unwrap());
        }
        game
    }

    fn answers(game: &Game) -> [&'static str; 3] {
        Query::ALL.map(|query| query.answer(game))
    }

    #[test]
    fn query_words_round_trip() {
        for query in Query::ALL {
            assert_eq!(query.to_string().parse::<Query>(), Ok(query));
        }
        assert_eq!(
            "GAMEOVER".parse::<Query>(),
            Err(CommandError::UnknownQuery("GAMEOVER".to_string()))
        );
    }

    #[test]
    fn answers_follow_the_outcome_with_goats_as_player_one() {
        let rules = Rules::default();
        let start = game("T3T/5/5/5/T3T g 20 0", "", rules);
        assert_eq!(answers(&start), ["false", "true", "none"]);
        let tigers_to_move = game("T3T/5/5/5/T3T g 20 0", "c3", rules);
        assert_eq!(answers(&tigers_to_move), ["false", "false", "none"]);
        let tigers_blocked = game("TGGGT/GGGGG/GG1GG/GGGGG/TGGGT g 0 0", "c2c3", rules);
        assert_eq!(answers(&tigers_blocked), ["true", "false", "p1win"]);
        let captures = game("T3T/5/5/5/T3T g 15 5", "", rules);
        assert_eq!(answers(&captures), ["true", "true", "p2win"]);
        let draw_rules = Rules {
            repetition: Repetition::Draw,
            captures_to_win: 20,
            ..rules
        };
        let repeated = game("T3T/5/5/1G3/T3T t 0 19", "a1a2 b2b3 a2a1 b3b2", draw_rules);
        assert_eq!(answers(&repeated), ["true", "false", "draw"]);
        assert_eq!(
            Query::ALL.map(Query::answer_without_game),
            ["true", "false", "none"]
        );
    }

    #[test]
    fn only_uci_names_a_ponder_move() {
        assert!(Dialect::Uci.has_ponder_move());
        assert!(!Dialect::Ugi.has_ponder_move());
        assert_eq!(Dialect::default(), Dialect::Uci);
        assert_eq!(Dialect::Ugi.handshake_ok(), "ugiok");
    }
}
