//! The fixed action space and observation planes for learning (docs/python.md, "Encoding").
//!
//! Actions, `NUM_ACTIONS` = 425, points indexed `rank * 5 + file` (a1 = 0, e1 = 4, e5 = 24):
//! - `0..25`: place a goat on point `to`;
//! - `25 + 8 * from + dir`: step from `from` one point along direction `dir`;
//! - `225 + 8 * from + dir`: jump from `from` over the next point along `dir` to the one beyond.
//!
//! Directions are the engine's ([`DIRECTIONS`]). Every move has exactly one action; actions that
//! leave the board or follow no line name no move.

use baghchal::tablebase::symmetry::{SQUARE_MAPS, SYMMETRIES};
use baghchal::tables::{step, DIRECTIONS};
use baghchal::{Game, Move, Position, Side, Square};

/// Size of the action space.
pub const NUM_ACTIONS: usize = 425;
/// First step action.
const STEPS: usize = 25;
/// First jump action.
const JUMPS: usize = 225;
/// Observation planes of 5x5.
pub const NUM_PLANES: usize = 8;
/// Floats in one observation.
pub const OBSERVATION_LEN: usize = NUM_PLANES * 25;

/// The action of a move.
pub fn encode(mv: Move) -> usize {
    match mv {
        Move::Place { to } => to.index(),
        Move::Step { from, to } => STEPS + 8 * from.index() + direction(from, to, 1),
        Move::Jump { from, to, .. } => JUMPS + 8 * from.index() + direction(from, to, 2),
    }
}

/// The direction from `from` to `to`, `distance` points apart along a line.
fn direction(from: Square, to: Square, distance: i8) -> usize {
    let (df, dr) = (to.file() - from.file(), to.rank() - from.rank());
    DIRECTIONS
        .iter()
        .position(|&(f, r)| f * distance == df && r * distance == dr)
        .expect("a move follows a line")
}

/// The move an action names, `None` for an action out of range or off the lines of the board.
pub fn decode(action: usize) -> Option<Move> {
    if action < STEPS {
        return Some(Move::Place {
            to: Square::new(action as u8),
        });
    }
    if action >= NUM_ACTIONS {
        return None;
    }
    let (jump, offset) = if action >= JUMPS {
        (true, action - JUMPS)
    } else {
        (false, action - STEPS)
    };
    let from = Square::new((offset / 8) as u8);
    let dir = offset % 8;
    let next = step(from, dir)?;
    if !jump {
        return Some(Move::Step { from, to: next });
    }
    let to = step(next, dir)?;
    Some(Move::Jump {
        from,
        over: next,
        to,
    })
}

/// The direction `dir` maps to under symmetry `g` (as the points map, [`SQUARE_MAPS`]).
fn map_direction(dir: usize, g: usize) -> usize {
    let (mut df, mut dr) = DIRECTIONS[dir];
    if g & 1 != 0 {
        df = -df;
    }
    if g & 2 != 0 {
        dr = -dr;
    }
    if g & 4 != 0 {
        std::mem::swap(&mut df, &mut dr);
    }
    DIRECTIONS
        .iter()
        .position(|&d| d == (df, dr))
        .expect("the directions are closed under the symmetries")
}

/// `permutation[a]`: the action of action `a`'s move on the board transformed by symmetry `g`
/// (a permutation of all actions, also those that name no move).
pub fn action_permutation(g: usize) -> Vec<usize> {
    let map = &SQUARE_MAPS[g];
    (0..NUM_ACTIONS)
        .map(|action| {
            if action < STEPS {
                usize::from(map[action])
            } else {
                let base = if action >= JUMPS { JUMPS } else { STEPS };
                let offset = action - base;
                base + 8 * usize::from(map[offset / 8]) + map_direction(offset % 8, g)
            }
        })
        .collect()
}

/// The image of a position under symmetry `g` (`g` < [`SYMMETRIES`]).
pub fn transform_position(position: &Position, g: usize) -> Position {
    let image = |bits: u32| baghchal::Bitboard(baghchal::tablebase::symmetry::transform(bits, g));
    Position::from_parts(
        image(position.tigers().0),
        image(position.goats().0),
        position.side_to_move(),
        position.goats_in_hand(),
        position.goats_captured(),
    )
    .expect("a symmetric image of a position is a position")
}

/// The image of a move under symmetry `g`.
pub fn transform_move(mv: Move, g: usize) -> Move {
    let image = |square: Square| Square::new(SQUARE_MAPS[g][square.index()]);
    match mv {
        Move::Place { to } => Move::Place { to: image(to) },
        Move::Step { from, to } => Move::Step {
            from: image(from),
            to: image(to),
        },
        Move::Jump { from, over, to } => Move::Jump {
            from: image(from),
            over: image(over),
            to: image(to),
        },
    }
}

/// The game with every position and move transformed by symmetry `g`.
pub fn transform_game(game: &Game, g: usize) -> Game {
    debug_assert!(g < SYMMETRIES);
    let mut image = Game::new(transform_position(game.start_position(), g), *game.rules());
    for &mv in game.moves() {
        image.play_unchecked(transform_move(mv, g));
    }
    image
}

/// Writes the legal-action mask of `moves` into `mask` (cleared first).
pub fn write_mask(moves: &[Move], mask: &mut [bool]) {
    mask.fill(false);
    for &mv in moves {
        mask[encode(mv)] = true;
    }
}

/// Writes the observation planes of a game whose legal moves are `moves` into `out`
/// ([`OBSERVATION_LEN`] floats, plane by plane, each 5x5 indexed `[rank][file]`):
/// 0 tigers, 1 goats, 2 empty points, 3 tigers to move (all ones) or goats (all zeros),
/// 4 goats in hand / 20, 5 goats captured / captures to win, 6 targets of legal moves,
/// 7 the current state occurred before in the game (all ones) or not.
pub fn write_observation(game: &Game, moves: &[Move], out: &mut [f32]) {
    let position = game.position();
    let rules = game.rules();
    out.fill(0.0);
    let bits = [position.tigers(), position.goats(), position.empty()];
    for (plane, set) in bits.into_iter().enumerate() {
        for square in set {
            out[plane * 25 + square.index()] = 1.0;
        }
    }
    let constant = [
        (
            3,
            f32::from(u8::from(position.side_to_move() == Side::Tigers)),
        ),
        (4, f32::from(position.goats_in_hand()) / 20.0),
        (
            5,
            f32::from(position.goats_captured()) / f32::from(rules.captures_to_win),
        ),
        (
            7,
            f32::from(u8::from(
                !position.is_placement_phase() && game.is_repeated(),
            )),
        ),
    ];
    for (plane, value) in constant {
        out[plane * 25..plane * 25 + 25].fill(value);
    }
    for mv in moves {
        out[6 * 25 + mv.to().index()] = 1.0;
    }
}
