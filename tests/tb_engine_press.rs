//! The engine inside table draws (issue 23 part 5): a drawn root keeps the draw, never ends the
//! game by repetition while it can go on, and among drawing moves presses: under the draw rule
//! towards the move leaving the opponent the fewest drawing replies, under the forbid rule
//! towards the move keeping the most fresh drawing continuations. Counts are checked by a
//! separate count over the rules core (`Game`), not by the engine's code.

mod tb_common;

use baghchal::engine::{Engine, EngineOptions, Evaluation, Limits};
use baghchal::search::eval::evaluate;
use baghchal::search::params::Params;
use baghchal::search::tb::press::{fewest_continuations, pressing_moves, FRESH_CAP};
use baghchal::tablebase::placement::generate::generate_placement;
use baghchal::tablebase::placement::index::{Frames, Layer, PlacementIndex};
use baghchal::tablebase::{TableRules, Tablebase, Wdl};
use baghchal::{Bitboard, Game, Move, Position, Repetition, Rules, Side};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::path::Path;
use tb_common::{rules, sample, search_with_tables_to, tables};

/// Whether `mv` keeps the mover of `game` from a table loss (a repetition under the draw rule
/// ends the game drawn).
fn keeps_draw(game: &Game, mv: Move) -> bool {
    let mut after = game.clone();
    after.play(mv).expect("a legal move");
    if after.is_repetition_draw() {
        return true;
    }
    match after.outcome() {
        Some(outcome) => outcome.winner() != Some(after.position().side_to_move()),
        None => tables().probe(after.position()).expect("covered").wdl != Wdl::Win,
    }
}

/// The drawing moves of `game`.
fn drawing_moves(game: &Game) -> Vec<Move> {
    let legal = game.legal_moves();
    legal
        .iter()
        .copied()
        .filter(|&mv| keeps_draw(game, mv))
        .collect()
}

/// The replies keeping the draw after `mv`, and all replies (the game's legal moves).
fn drawing_replies(game: &Game, mv: Move) -> (usize, usize) {
    let mut after = game.clone();
    after.play(mv).unwrap();
    (drawing_moves(&after).len(), after.legal_moves().len())
}

/// Whether the table value of `game` is a draw (and the game goes on).
fn is_table_draw(game: &Game) -> bool {
    game.outcome().is_none() && tables().probe(game.position()).unwrap().wdl == Wdl::Draw
}

/// Searches `game` at depth 1 among `moves` with the tables; the move chosen.
fn choose_among(game: &Game, moves: &[Move]) -> Move {
    let limits = Limits {
        depth: Some(1),
        search_moves: moves.to_vec(),
        ..Limits::default()
    };
    let (result, _) = search_with_tables_to(game, classic(), limits);
    result.best_move.expect("a move")
}

/// The classic evaluation: its coarse values often tie, which the tie-break tests need (the
/// network's rarely do, so they would find no positions). Without the proof search at the
/// root, which would settle these small components before the bonus is looked at.
fn classic() -> EngineOptions {
    EngineOptions {
        evaluation: Evaluation::Classic,
        forbid_proof: false,
        ..EngineOptions::default()
    }
}

/// The static evaluation of the position after `mv` for the side to move there, and whether a
/// capture is possible there (then a depth-1 search looks beyond the evaluation).
fn quiet_evaluation(position: &Position, mv: Move, rules: &Rules) -> Option<i32> {
    let child = position.played(mv);
    (!child.has_capture()).then(|| {
        evaluate(
            &child,
            rules,
            &Params::default().with_evaluation(Evaluation::Classic),
        )
    })
}

/// Reverses a step (not a jump, not a placement).
fn reversed(mv: Move) -> Option<Move> {
    match mv {
        Move::Step { from, to } => Some(Move::Step { from: to, to: from }),
        _ => None,
    }
}

#[test]
fn a_drawn_root_does_not_end_the_game_by_repetition_while_it_can_go_on() {
    let rules = rules(Repetition::Draw);
    let mut rng = StdRng::seed_from_u64(2305);
    let mut checked = 0;
    for start in sample(2305, 400, |_, value| value.wdl == Wdl::Draw) {
        // start -m-> -r-> -m back->: now `r` back recreates `start`, ending the game drawn.
        let mut game = Game::new(start, rules);
        let moves = drawing_moves(&game);
        let Some(&m) = moves.get(rng.random_range(0..moves.len().max(1))) else {
            continue;
        };
        let (Some(m_back), true) = (reversed(m), game.play(m).is_ok()) else {
            continue;
        };
        let replies = drawing_moves(&game);
        let Some(&r) = replies.iter().find(|&&r| reversed(r).is_some()) else {
            continue;
        };
        game.play(r).unwrap();
        if !game.legal_moves().contains(&m_back) || !keeps_draw(&game, m_back) {
            continue;
        }
        game.play(m_back).unwrap();
        let r_back = reversed(r).unwrap();
        if !is_table_draw(&game) || !game.legal_moves().contains(&r_back) {
            continue;
        }
        let others = drawing_moves(&game);
        assert!(others.contains(&r_back), "a repetition is a draw");
        if others.len() < 2 {
            continue;
        }
        let limits = tb_common::nodes(3000);
        let (result, _) = search_with_tables_to(&game, EngineOptions::default(), limits);
        let chosen = result.best_move.unwrap();
        assert_ne!(chosen, r_back, "ended the game by repetition in {game:?}");
        assert!(
            keeps_draw(&game, chosen),
            "{chosen} gives the draw away in {game:?}"
        );
        checked += 1;
        if checked == 12 {
            break;
        }
    }
    assert!(checked >= 6, "only {checked} roots with a repetition found");
}

#[test]
fn the_bonus_follows_the_drawing_replies_left_to_the_opponent() {
    let rules = rules(Repetition::Draw);
    let mut pressed = 0;
    for start in sample(2306, 40, |_, value| value.wdl == Wdl::Draw) {
        let game = Game::new(start, rules);
        let draws = drawing_moves(&game);
        let pressing = pressing_moves(tables(), &game, &draws, &|| false);
        assert_eq!(pressing.len(), draws.len(), "no repetition without history");
        for &(mv, bias) in &pressing {
            let (drawing, total) = drawing_replies(&game, mv);
            assert!(drawing >= 1, "{mv} is a drawing move of {start}");
            if drawing == total {
                assert_eq!(bias, 0, "{mv} of {start}: no reply loses");
            } else {
                assert!(
                    bias > 0,
                    "{mv} of {start}: {drawing} of {total} replies draw"
                );
                pressed += 1;
            }
        }
        // Fewer drawing replies (among losing ones) never earn less.
        for &(a, bias_a) in &pressing {
            for &(b, bias_b) in &pressing {
                let ((da, ta), (db, tb)) = (drawing_replies(&game, a), drawing_replies(&game, b));
                if da < db && da < ta && db < tb {
                    assert!(bias_a >= bias_b, "{a} ({da}) and {b} ({db}) in {start}");
                }
            }
        }
    }
    assert!(pressed > 0);
}

#[test]
fn once_the_time_is_up_the_moves_left_keep_their_place_without_a_bonus() {
    let rules = rules(Repetition::Draw);
    let mut cut = 0;
    for start in sample(2306, 40, |_, value| value.wdl == Wdl::Draw) {
        let game = Game::new(start, rules);
        let draws = drawing_moves(&game);
        let full = pressing_moves(tables(), &game, &draws, &|| false);
        for allowed in 0..draws.len() {
            // The clock is asked once before each move: the first `allowed` get their bonus.
            let asked = std::cell::Cell::new(0);
            let time_is_up = || {
                asked.set(asked.get() + 1);
                asked.get() > allowed
            };
            let hurried = pressing_moves(tables(), &game, &draws, &time_is_up);
            assert_eq!(
                hurried.len(),
                full.len(),
                "{start}: every drawing move kept"
            );
            for (i, (&(mv, bias), &(full_mv, full_bias))) in hurried.iter().zip(&full).enumerate() {
                assert_eq!(mv, full_mv, "{start}: the order of the moves");
                let expected = if i < allowed { full_bias } else { 0 };
                assert_eq!(bias, expected, "{start}: {mv}, move {i}, {allowed} in time");
                cut += usize::from(i >= allowed && full_bias != 0);
            }
        }
    }
    assert!(cut > 0, "no bonus was cut");
}

#[test]
fn a_drawn_root_prefers_the_move_leaving_a_single_drawing_reply() {
    let rules = rules(Repetition::Draw);
    let mut checked = 0;
    for start in sample(2307, 600, |_, value| value.wdl == Wdl::Draw) {
        let game = Game::new(start, rules);
        let draws = drawing_moves(&game);
        // A move leaving one drawing reply among losing ones, and one where no reply loses, with
        // the same evaluation (so that a depth-1 search values them alike).
        let mut single = None;
        let mut safe = None;
        for &mv in &draws {
            let Some(eval) = quiet_evaluation(&start, mv, &rules) else {
                continue;
            };
            match drawing_replies(&game, mv) {
                (1, total) if total > 1 => single = Some((mv, eval)),
                (drawing, total) if drawing == total => safe = Some((mv, eval)),
                _ => {}
            }
        }
        let (Some((pressing, eval_a)), Some((passive, eval_b))) = (single, safe) else {
            continue;
        };
        if eval_a != eval_b {
            continue;
        }
        for order in [[pressing, passive], [passive, pressing]] {
            assert_eq!(choose_among(&game, &order), pressing, "in {start}");
        }
        checked += 1;
        if checked == 6 {
            break;
        }
    }
    assert!(checked >= 2, "only {checked} positions found");
}

/// The fewest fresh drawing moves the opponent's drawing replies leave the mover after `mv`,
/// counted through `Game` (the forbid rule removes repetitions), capped like the engine's.
fn fresh_continuations(game: &Game, mv: Move) -> usize {
    let mut after = game.clone();
    after.play(mv).unwrap();
    drawing_moves(&after)
        .into_iter()
        .map(|reply| {
            let mut next = after.clone();
            next.play(reply).unwrap();
            drawing_moves(&next).len().min(FRESH_CAP)
        })
        .min()
        .unwrap_or(FRESH_CAP)
}

/// A game under forbid from a sampled table draw, `plies` random drawing moves on (so that the
/// forbid rule has a history to remove moves with), if it stays in the table draws.
fn walk(start: Position, plies: usize, rng: &mut StdRng) -> Option<Game> {
    let mut game = Game::new(start, rules(Repetition::Forbid));
    for _ in 0..plies {
        let draws = drawing_moves(&game);
        let quiet: Vec<Move> = draws.into_iter().filter(|mv| !mv.is_capture()).collect();
        if quiet.is_empty() {
            return None;
        }
        game.play(quiet[rng.random_range(0..quiet.len())]).unwrap();
    }
    is_table_draw(&game).then_some(game)
}

#[test]
fn under_forbid_the_defender_keeps_the_most_fresh_drawing_continuations() {
    let mut rng = StdRng::seed_from_u64(2308);
    let mut compared = 0;
    let mut checked = 0;
    for start in sample(2308, 800, |_, value| value.wdl == Wdl::Draw) {
        let Some(game) = walk(start, rng.random_range(2..10), &mut rng) else {
            continue;
        };
        let rules = *game.rules();
        let draws = drawing_moves(&game);
        let mut counted = Vec::new();
        for &mv in &draws {
            let mut after = game.clone();
            after.play(mv).unwrap();
            // The engine's count against the one made here.
            let ours = fresh_continuations(&game, mv);
            assert_eq!(
                fewest_continuations(tables(), &after),
                ours,
                "{mv} in {game:?}"
            );
            compared += 1;
            let theirs = drawing_moves(&after).len().min(FRESH_CAP);
            if let Some(eval) = quiet_evaluation(game.position(), mv, &rules) {
                counted.push((mv, ours, theirs, eval));
            }
        }
        // Two moves alike for the opponent (same evaluation, same fresh drawing replies) but
        // one keeps the mover more fresh continuations.
        let pair = counted.iter().find_map(|&(a, ours_a, theirs_a, eval_a)| {
            counted
                .iter()
                .find(|&&(_, ours_b, theirs_b, eval_b)| {
                    ours_b < ours_a && theirs_b == theirs_a && eval_b == eval_a
                })
                .map(|&(b, ..)| (a, b))
        });
        let Some((keeping, squeezed)) = pair else {
            continue;
        };
        for order in [[keeping, squeezed], [squeezed, keeping]] {
            assert_eq!(choose_among(&game, &order), keeping, "in {game:?}");
        }
        checked += 1;
        if checked == 6 {
            break;
        }
    }
    assert!(compared > 50, "only {compared} counts compared");
    assert!(checked >= 2, "only {checked} positions found");
}

/// A random position of placement layer `layer` (goats in hand) with `side` to move.
fn random_placement(rng: &mut StdRng, layer: Layer, side: Side) -> Position {
    let index = PlacementIndex::new(layer);
    let (class, goats) = index.decode(rng.random_range(0..index.len()));
    let frames = Frames::get();
    let image = rng.random_range(0..8);
    Position::from_parts(
        Bitboard(frames.transform(frames.classes[class].tigers, image)),
        Bitboard(frames.transform(goats, image)),
        side,
        layer.in_hand,
        layer.captured,
    )
    .expect("a decoded board is a position")
}

#[test]
fn drawn_placement_roots_keep_the_draw_under_both_rules() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("tb-press-placement-ctw2");
    let table_rules = TableRules::of(&rules(Repetition::Draw));
    generate_placement(&dir, table_rules, 2, 2, &|_: &str, _: u64, _: u64| {}).expect("generation");
    let placement = Tablebase::open(&dir, table_rules).expect("open");
    assert!(placement
        .placement()
        .expect("layers")
        .wait_checked()
        .is_empty());
    let mut rng = StdRng::seed_from_u64(2309);
    let mut checked = 0;
    while checked < 24 {
        let layer = Layer {
            in_hand: rng.random_range(1..=2),
            captured: rng.random_range(0..2),
        };
        let side = [Side::Goats, Side::Tigers][checked % 2];
        let position = random_placement(&mut rng, layer, side);
        if placement.probe(&position).expect("covered").wdl != Wdl::Draw {
            continue;
        }
        let repetition = [Repetition::Draw, Repetition::Forbid][checked / 2 % 2];
        let game = Game::new(position, rules(repetition));
        let legal = game.legal_moves();
        let losing = legal.iter().filter(|&&mv| {
            let child = position.played(mv);
            child.goats_captured() < 2 && placement.probe(&child).unwrap().wdl == Wdl::Win
        });
        if losing.count() == 0 {
            continue;
        }
        let mut engine = Engine::new(EngineOptions {
            rules: *game.rules(),
            tablebase_path: Some(dir.clone()),
            ..EngineOptions::default()
        });
        engine.set_game(game.clone());
        let chosen = engine
            .search_blocking(tb_common::nodes(2000))
            .best_move
            .unwrap();
        let child = position.played(chosen);
        let kept = child.goats_captured() >= 2 || placement.probe(&child).unwrap().wdl != Wdl::Win;
        assert!(
            kept,
            "{chosen} gives the draw of {position} away ({repetition:?})"
        );
        checked += 1;
    }
}

/// Whether, after `mv`, the opponent can end the game by repetition, counted through `Game`:
/// a reply that repeats, or a drawing reply after which every drawing move repeats.
fn opponent_can_repeat(game: &Game, mv: Move) -> bool {
    let mut after = game.clone();
    after.play(mv).unwrap();
    let repeats = |game: &Game, mv: Move| {
        let mut next = game.clone();
        next.play(mv).unwrap();
        next.is_repetition_draw()
    };
    after.legal_moves().iter().any(|&reply| {
        if repeats(&after, reply) {
            return true;
        }
        let mut next = after.clone();
        next.play(reply).unwrap();
        if next.outcome().is_some() || !keeps_draw(&after, reply) {
            return false;
        }
        let ours = drawing_moves(&next);
        !ours.is_empty() && ours.iter().all(|&mv| repeats(&next, mv))
    })
}

#[test]
fn under_draw_a_drawn_root_leaves_the_opponent_no_repetition_while_it_can() {
    let rules = rules(Repetition::Draw);
    let mut rng = StdRng::seed_from_u64(2309);
    let (mut filtered, mut all_open) = (0, 0);
    for start in sample(2309, 200, |_, value| value.wdl == Wdl::Draw) {
        // Random quiet drawing moves, so that the history holds states to come back to.
        let mut game = Game::new(start, rules);
        for _ in 0..rng.random_range(2..10) {
            let quiet: Vec<Move> = drawing_moves(&game)
                .into_iter()
                .filter(|mv| !mv.is_capture())
                .collect();
            if quiet.is_empty() || !is_table_draw(&game) {
                break;
            }
            game.play(quiet[rng.random_range(0..quiet.len())]).unwrap();
            if !is_table_draw(&game) {
                break;
            }
            let draws: Vec<Move> = drawing_moves(&game)
                .into_iter()
                .filter(|&mv| {
                    let mut after = game.clone();
                    after.play(mv).unwrap();
                    !after.is_repetition_draw()
                })
                .collect();
            let (open, closed): (Vec<Move>, Vec<Move>) = draws
                .iter()
                .partition(|&&mv| opponent_can_repeat(&game, mv));
            if open.is_empty() {
                continue;
            }
            let chosen: Vec<Move> =
                pressing_moves(tables(), &game, &drawing_moves(&game), &|| false)
                    .into_iter()
                    .map(|(mv, _)| mv)
                    .collect();
            if closed.is_empty() {
                assert_eq!(
                    chosen, open,
                    "every move lets the opponent repeat in {game:?}"
                );
                all_open += 1;
            } else {
                assert_eq!(
                    chosen,
                    closed,
                    "a repetition left open in {}",
                    game.position()
                );
                filtered += 1;
            }
        }
    }
    assert!(
        filtered >= 5 && all_open >= 1,
        "{filtered} filtered, {all_open} all open"
    );
}
