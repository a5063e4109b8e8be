//! Tablebase adjudication and game history: a table win is adjudicated only when no earlier
//! movement-phase position of the game could stand in the winner's way (placement-phase boards
//! are deliberately not obstacles); which values are adjudicated follows `-tbadjudicate` and
//! the repetition rule.

use baghchal::referee::outcome::GameResult;
use baghchal::referee::tb_adjudication::{TbAdjudicator, TbResults};
use baghchal::tablebase::solve::generate_tables;
use baghchal::tablebase::{TableRules, Tablebase, TbValue, Wdl};
use baghchal::{Bitboard, Game, Position, Repetition, Rules, Side};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

fn quiet(_: &str, _: u64, _: u64) {}

/// Tables for CapturesToWin=2 without forced capture, generated once per test run.
fn tables_dir() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("referee-tb-history-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        generate_tables(&dir, TableRules::of(&rules(Repetition::Forbid)), 2, &quiet)
            .expect("generation");
        dir
    })
}

fn rules(repetition: Repetition) -> Rules {
    Rules {
        forced_capture: false,
        captures_to_win: 2,
        repetition,
    }
}

/// Positions with `goats_on_board` goats (the rest captured, or in hand when `in_hand`), both
/// sides to move, in a fixed order.
fn positions(goats_on_board: u32, in_hand: u8) -> impl Iterator<Item = Position> {
    (0u32..1 << 25)
        .filter(|mask| mask.count_ones() == 4)
        .flat_map(move |tigers| {
            let free: Vec<u32> = (0..25).filter(|s| tigers & (1 << s) == 0).collect();
            let empties = 21 - goats_on_board;
            combinations(&free, empties as usize)
                .into_iter()
                .flat_map(move |empty| {
                    let empty_mask: u32 = empty.iter().map(|s| 1 << s).sum();
                    let goats = !(tigers | empty_mask) & ((1 << 25) - 1);
                    let captured = 20 - goats_on_board as u8 - in_hand;
                    [Side::Goats, Side::Tigers]
                        .into_iter()
                        .filter_map(move |side| {
                            Position::from_parts(
                                Bitboard(tigers),
                                Bitboard(goats),
                                side,
                                in_hand,
                                captured,
                            )
                            .ok()
                        })
                })
        })
}

fn combinations(items: &[u32], k: usize) -> Vec<Vec<u32>> {
    if k == 0 {
        return vec![Vec::new()];
    }
    let mut all = Vec::new();
    for (i, &first) in items.iter().enumerate() {
        for mut rest in combinations(&items[i + 1..], k - 1) {
            rest.insert(0, first);
            all.push(rest);
        }
    }
    all
}

/// The value of `position` from `side`'s view.
fn value_for(tables: &Tablebase, position: &Position, side: Side) -> TbValue {
    let value = tables.probe(position).expect("covered");
    if position.side_to_move() == side {
        value
    } else {
        value.negate()
    }
}

fn is_win_within(value: TbValue, plies: u16) -> bool {
    value.wdl == Wdl::Win && value.plies_to_end.is_some_and(|d| d < plies)
}

#[test]
fn an_earlier_faster_win_blocks_adjudication() {
    let dir = tables_dir();
    let rules = rules(Repetition::Draw);
    let tables = Tablebase::open(dir, TableRules::of(&rules)).unwrap();
    let adjudicator = TbAdjudicator::open(dir, &rules, None).unwrap();
    assert_eq!(adjudicator.results(), TbResults::Both);
    // A won position, a slow winning move, then a defence that leaves a longer win: the start
    // is an earlier, faster win for the same side, so the loser might repeat it (draw rule).
    let mut checked = 0;
    for start in positions(19, 0) {
        let game = Game::new(start, rules);
        let value = tables.probe(&start).unwrap();
        if value.wdl != Wdl::Win || game.outcome().is_some() {
            continue;
        }
        let winner = start.side_to_move();
        let d0 = value.plies_to_end.unwrap();
        // From a fresh game the start is adjudicated for its winner.
        let (result, reason) = adjudicator.adjudicate(&game).expect("adjudicated");
        assert_eq!(result, GameResult::win_for(winner));
        assert!(reason.ends_with(&format!(" win in {d0} plies")), "{reason}");
        for &slow in game.legal_moves().iter() {
            let mut after = game.clone();
            after.play_unchecked(slow);
            let for_winner = value_for(&tables, after.position(), winner);
            if after.outcome().is_some() || for_winner.wdl != Wdl::Win {
                continue;
            }
            let d1 = for_winner.plies_to_end.unwrap();
            // One move later nothing earlier is a faster win: adjudicated.
            assert!(d1 < d0 || adjudicator.adjudicate(&after).is_none());
            if d1 + 1 == d0 {
                assert!(adjudicator.adjudicate(&after).is_some());
            }
            for &reply in after.legal_moves().iter() {
                let mut last = after.clone();
                last.play_unchecked(reply);
                if last.outcome().is_some() || last.position().goats_captured() > 1 {
                    continue;
                }
                let current = value_for(&tables, last.position(), winner);
                if current.wdl == Wdl::Win && current.plies_to_end.unwrap() > d0 {
                    assert_eq!(
                        adjudicator.adjudicate(&last),
                        None,
                        "{start} {slow} {reply}"
                    );
                    let fresh = Game::new(*last.position(), rules);
                    assert!(adjudicator.adjudicate(&fresh).is_some());
                    checked += 1;
                }
            }
        }
        if checked >= 3 {
            break;
        }
    }
    assert!(checked >= 3, "found {checked} games");
}

#[test]
fn placement_positions_are_not_obstacles() {
    let dir = tables_dir();
    let rules = rules(Repetition::Draw);
    let tables = Tablebase::open(dir, TableRules::of(&rules)).unwrap();
    let adjudicator = TbAdjudicator::open(dir, &rules, None).unwrap();
    // Goats place their last goat; the placement position has the board of a position with
    // one goat captured that is a faster win for the same side. The game could in principle
    // recreate that board, but such boards are not obstacles (docs/referee.md): adjudicated.
    let found = positions(19, 1)
        .filter(|p| p.side_to_move() == Side::Goats)
        .find_map(|start| {
            let game = Game::new(start, rules);
            let twin = Position::from_parts(start.tigers(), start.goats(), Side::Goats, 0, 1)
                .expect("the movement twin");
            game.legal_moves().iter().find_map(|&mv| {
                let mut next = game.clone();
                next.play_unchecked(mv);
                let value = tables.probe(next.position())?;
                let winner = match value.wdl {
                    Wdl::Win => next.position().side_to_move(),
                    Wdl::Loss => next.position().side_to_move().opposite(),
                    Wdl::Draw => return None,
                };
                let d = value.plies_to_end?;
                (next.outcome().is_none() && is_win_within(value_for(&tables, &twin, winner), d))
                    .then_some(next)
            })
        })
        .expect("a placement position whose board is a faster win");
    assert_eq!(
        adjudicator.adjudicate(&found),
        adjudicator.adjudicate(&Game::new(*found.position(), rules))
    );
    assert!(adjudicator.adjudicate(&found).is_some());
}

#[test]
fn which_values_are_adjudicated() {
    let dir = tables_dir();
    let forbid = rules(Repetition::Forbid);
    let tables = Tablebase::open(dir, TableRules::of(&forbid)).unwrap();
    let live = |wdl: Wdl| {
        positions(20, 0)
            .find(|p| {
                Game::new(*p, forbid).outcome().is_none() && tables.probe(p).unwrap().wdl == wdl
            })
            .unwrap()
    };
    let (draw, win) = (
        Game::new(live(Wdl::Draw), forbid),
        Game::new(live(Wdl::Win), forbid),
    );
    let open = |results| TbAdjudicator::open(dir, &forbid, results).unwrap();
    // Forbid: wins and losses by default; table draws only on request.
    assert_eq!(open(None).results(), TbResults::WinLoss);
    assert_eq!(open(None).adjudicate(&draw), None);
    assert!(open(None).adjudicate(&win).is_some());
    let both = open(Some(TbResults::Both));
    assert_eq!(
        both.adjudicate(&draw),
        Some((GameResult::Draw, "Tablebase: draw".to_string()))
    );
    let draws_only = open(Some(TbResults::Draw));
    assert!(draws_only.adjudicate(&draw).is_some());
    assert_eq!(draws_only.adjudicate(&win), None);
    // Placement positions are not covered.
    let start = Game::startpos(forbid);
    assert_eq!(both.adjudicate(&start), None);
}
