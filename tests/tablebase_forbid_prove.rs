//! `tb forbid prove`: the proof-number search under `Repetition forbid`, checked against the
//! component solver's stored values (which it can ignore) and against the full-history search
//! of the game itself.

use baghchal::tablebase::forbid::prove::{ProveOptions, Prover};
use baghchal::tablebase::forbid::tables::ForbidTables;
use baghchal::tablebase::forbid::ForbidValue;
use baghchal::tablebase::index::LayerIndex;
use baghchal::tablebase::verify::board_position;
use baghchal::tablebase::{Tablebase, Wdl};
use baghchal::{Game, Position, Side};
use forbid_common::{
    forbid_rules, full_history_winner, private_ctw2, run_tb, solved_dir, table_rules, QUIET,
};
use rand::rngs::StdRng;
use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};

mod forbid_common;

/// The tables and forbid values of CapturesToWin `captures_to_win`.
fn opened(captures_to_win: u8) -> (Tablebase, ForbidTables) {
    let dir = solved_dir(captures_to_win);
    let tables = Tablebase::open(dir, table_rules(captures_to_win)).expect("open");
    let (forbid, errors) = ForbidTables::open(dir, &tables);
    assert!(errors.is_empty(), "{errors:?}");
    (tables, forbid.expect("forbid files"))
}

/// Every `stride`th class of every layer and side that is a table draw, with its stored value.
fn table_draws(
    captures_to_win: u8,
    tables: &Tablebase,
    forbid: &ForbidTables,
    stride: usize,
) -> Vec<(Position, ForbidValue)> {
    let mut found = Vec::new();
    for captured in 0..captures_to_win {
        let index = LayerIndex::get(usize::from(captured) + 1);
        for side in 0..2 {
            for class in (0..index.len()).step_by(stride) {
                let position = board_position(index.decode(class), side, captured);
                if tables.probe(&position).unwrap().wdl == Wdl::Draw {
                    let stored = forbid.stored(&position).expect("a forbid file per layer");
                    found.push((position, stored));
                }
            }
        }
    }
    found
}

/// The mover's value of a winner.
fn value_of(winner: Side, mover: Side) -> ForbidValue {
    if winner == mover {
        ForbidValue::Win
    } else {
        ForbidValue::Loss
    }
}

fn options(max_nodes: u64, use_stored: bool) -> ProveOptions {
    ProveOptions {
        max_nodes,
        table_entries: 1 << 20,
        use_stored,
    }
}

/// The unknown table draws of CapturesToWin 2 (every 7th class), 50 of them evenly spread.
fn unknown_sample(tables: &Tablebase, forbid: &ForbidTables) -> Vec<Position> {
    let unknown: Vec<Position> = table_draws(2, tables, forbid, 7)
        .into_iter()
        .filter(|(_, stored)| *stored == ForbidValue::Unknown)
        .map(|(position, _)| position)
        .collect();
    assert!(unknown.len() >= 50, "{} unknown table draws", unknown.len());
    let step = unknown.len() / 50;
    unknown.into_iter().step_by(step).take(50).collect()
}

/// Without the stored values the search settles table draws from the tables' wins and losses
/// and the end of the game only: what it settles must be the component solver's value.
fn check_against_the_solver(captures_to_win: u8, stride: usize) {
    let (tables, forbid) = opened(captures_to_win);
    let mut prover = Prover::new(&tables, Some(&forbid), options(20_000, false));
    let (mut wins, mut losses, mut open) = (0, 0, 0);
    for (position, stored) in table_draws(captures_to_win, &tables, &forbid, stride) {
        if stored == ForbidValue::Unknown {
            continue;
        }
        let found = prover.prove(&[position], QUIET);
        match found.value {
            ForbidValue::Unknown => open += 1,
            value => {
                assert_eq!(value, stored, "{position}");
                if value == ForbidValue::Win {
                    wins += 1;
                } else {
                    losses += 1;
                }
            }
        }
    }
    eprintln!("{wins} wins and {losses} losses agree, {open} not settled");
    assert!(wins >= 20 && losses >= 20, "{wins} wins, {losses} losses");
}

#[test]
fn without_stored_values_the_proof_search_finds_the_solved_values_captures_to_win_1() {
    check_against_the_solver(1, 1);
}

#[test]
fn without_stored_values_the_proof_search_finds_the_solved_values_captures_to_win_2() {
    check_against_the_solver(2, 61);
}

#[test]
fn the_proof_search_settles_unknown_table_draws_and_a_search_without_them_agrees() {
    // CapturesToWin 2 has table draws in components too large for the solver (unknown); the
    // proof search from each, on the stored values, settles some. Each settled value is
    // checked by a search that does not use them (or by the full-history search of the game).
    let (tables, forbid) = opened(2);
    let mut with_stored = Prover::new(&tables, Some(&forbid), options(200_000, true));
    let mut without = Prover::new(&tables, Some(&forbid), options(2_000_000, false));
    let (mut settled, mut checked) = (0, 0);
    for position in &unknown_sample(&tables, &forbid) {
        let found = with_stored.prove(&[*position], QUIET).value;
        if found == ForbidValue::Unknown {
            continue;
        }
        settled += 1;
        let mut independent = without.prove(&[*position], QUIET).value;
        if independent == ForbidValue::Unknown {
            let mut game = Game::new(*position, forbid_rules(2));
            if let Some(winner) = full_history_winner(&mut game, &tables, &mut 200_000) {
                independent = value_of(winner, position.side_to_move());
            }
        }
        if independent != ForbidValue::Unknown {
            assert_eq!(found, independent, "{position}");
            checked += 1;
        }
    }
    eprintln!("{settled} of 50 unknown table draws settled, {checked} checked independently");
    assert!(
        settled >= 5 && checked >= 3,
        "{settled} settled, {checked} checked"
    );
}

#[test]
fn a_stop_hook_ends_the_search_and_more_expansions_go_on_from_the_table() {
    // The unknown draws that a search of 20,000 expansions leaves open: a stop hook that says
    // "stop" ends each within one check (1,024 expansions) of its first question, unsettled; a
    // prover without a hook spends its whole budget on them.
    let (tables, forbid) = opened(2);
    let asked = std::sync::atomic::AtomicU64::new(0);
    let stop = || asked.fetch_add(1, std::sync::atomic::Ordering::Relaxed) >= 1;
    let mut stopped = Prover::new(&tables, Some(&forbid), options(200_000, true)).with_stop(&stop);
    let mut free = Prover::new(&tables, Some(&forbid), options(20_000, true));
    let mut open = 0;
    for position in &unknown_sample(&tables, &forbid) {
        let full = free.prove(&[*position], QUIET);
        if full.value != ForbidValue::Unknown {
            continue;
        }
        open += 1;
        assert_eq!(full.nodes, 20_000, "{position}");
        asked.store(0, std::sync::atomic::Ordering::Relaxed);
        let cut = stopped.prove(&[*position], QUIET);
        assert_eq!(cut.value, ForbidValue::Unknown);
        assert!(
            cut.nodes <= 2 * 1024,
            "{} expansions after the stop",
            cut.nodes
        );
    }
    assert!(open >= 3, "only {open} open draws");
    // More expansions for the same root settle what fewer did not, reusing the table.
    let mut growing = Prover::new(&tables, Some(&forbid), options(1_000, true));
    let mut settled_later = 0;
    for position in &unknown_sample(&tables, &forbid) {
        if growing.prove(&[*position], QUIET).value != ForbidValue::Unknown {
            continue;
        }
        growing.set_max_nodes(200_000);
        let later = growing.prove(&[*position], QUIET).value;
        growing.set_max_nodes(1_000);
        if later != ForbidValue::Unknown {
            let mut reference = Prover::new(&tables, Some(&forbid), options(400_000, true));
            assert_eq!(
                later,
                reference.prove(&[*position], QUIET).value,
                "{position}"
            );
            settled_later += 1;
        }
    }
    assert!(
        settled_later >= 3,
        "only {settled_later} settled with more expansions"
    );
}

#[test]
fn a_full_transposition_table_drops_entries_without_changing_a_value() {
    // A table of 1024 entries fills again and again on these searches (its cheapest half is
    // dropped each time): what it still settles must be what a large table settles.
    let (tables, forbid) = opened(2);
    let mut large = Prover::new(&tables, Some(&forbid), options(50_000, true));
    let small_options = ProveOptions {
        table_entries: 1024,
        ..options(50_000, true)
    };
    let mut small = Prover::new(&tables, Some(&forbid), small_options);
    let (mut both, mut entries_seen) = (0, 0);
    for position in &unknown_sample(&tables, &forbid) {
        let found = small.prove(&[*position], QUIET);
        entries_seen = entries_seen.max(found.table_entries);
        let reference = large.prove(&[*position], QUIET).value;
        if found.value != ForbidValue::Unknown && reference != ForbidValue::Unknown {
            assert_eq!(found.value, reference, "{position}");
            both += 1;
        }
    }
    assert!(entries_seen <= 1024, "{entries_seen} entries kept");
    assert!(both >= 10, "{both} settled by both");
}

#[test]
fn tb_forbid_prove_entries_reports_every_layer() {
    let dir = solved_dir(2).to_str().unwrap();
    let args = [
        "forbid",
        "prove",
        dir,
        "--entries",
        "--sample",
        "20",
        "--nodes",
        "20000",
        "--after-captures",
    ];
    let (ok, out, err) = run_tb(&args);
    assert!(ok, "{err}");
    let rows: Vec<(String, Vec<u64>)> = out
        .lines()
        .filter(|line| line.trim_start().starts_with(|c: char| c.is_ascii_digit()))
        .map(|line| {
            let mut fields = line.split_whitespace();
            let layer = fields.next().expect("a layer");
            let side = fields.next().expect("a side").to_string();
            let counts = std::iter::once(layer).chain(fields.take(5));
            (side, counts.map(|f| f.parse().expect("a count")).collect())
        })
        .collect();
    // Layers 1 then 0, each with the tigers then the goats to move: unknown, searched, tigers
    // win, goats win, unsettled.
    let order: Vec<(u64, &str)> = rows.iter().map(|(s, r)| (r[0], s.as_str())).collect();
    assert_eq!(
        order,
        [(1, "tigers"), (1, "goats"), (0, "tigers"), (0, "goats")],
        "{out}"
    );
    let rows: Vec<Vec<u64>> = rows.into_iter().map(|(_, r)| r).collect();
    for row in &rows {
        let [_, unknown, searched, tigers, goats, open] = row[..] else {
            panic!("{out}");
        };
        assert!(searched <= unknown && searched >= unknown.min(20), "{out}");
        assert_eq!(tigers + goats + open, searched, "{out}");
    }
    assert!(
        rows.iter().any(|r| r[3] + r[4] > 0),
        "nothing settled: {out}"
    );
    // --sample needs --entries.
    let (ok, _, _) = run_tb(&["forbid", "prove", dir, "--sample", "3"]);
    assert!(!ok);
}

#[test]
fn the_proof_search_respects_the_games_history() {
    // Random games of table-draw steps from solved table draws: the search from the last
    // state, given the game, against the full-history search of the same game. Some games
    // must have a value that differs from the last state's value from an empty history
    // (else the history was not shown to matter).
    let (tables, forbid) = opened(1);
    let rules = forbid_rules(1);
    let mut prover = Prover::new(&tables, Some(&forbid), options(100_000, true));
    let mut rng = StdRng::seed_from_u64(61);
    let draws = table_draws(1, &tables, &forbid, 1);
    let (mut agreed, mut changed) = (0, 0);
    for (start, _) in draws.choose_multiple(&mut rng, 600) {
        let mut game = Game::new(*start, rules);
        for _ in 0..rng.random_range(1..10) {
            let position = *game.position();
            let steps: Vec<_> = game
                .legal_moves()
                .iter()
                .copied()
                .filter(|&mv| {
                    let child = position.played(mv);
                    child.goats_captured() == position.goats_captured()
                        && tables.probe(&child).unwrap().wdl == Wdl::Draw
                })
                .collect();
            let Some(&mv) = steps.choose(&mut rng) else {
                break;
            };
            game.play(mv).expect("legal");
        }
        let found = prover.prove(game.positions(), QUIET).value;
        let Some(winner) = full_history_winner(&mut game.clone(), &tables, &mut 50_000) else {
            continue;
        };
        let expected = value_of(winner, game.position().side_to_move());
        if found != ForbidValue::Unknown {
            assert_eq!(found, expected, "{:?}", game.positions());
            agreed += 1;
            let alone = prover.prove(&[*game.position()], QUIET).value;
            changed += usize::from(alone == expected.negate());
        }
    }
    eprintln!("{agreed} agree, {changed} differ from the value without the history");
    assert!(
        agreed >= 100 && changed >= 1,
        "{agreed} agreed, {changed} changed"
    );
}

#[test]
fn tb_forbid_prove_prints_the_winner_and_the_root_moves() {
    let (tables, forbid) = opened(1);
    let (win, _) = table_draws(1, &tables, &forbid, 1)
        .into_iter()
        .find(|(_, stored)| *stored == ForbidValue::Win)
        .expect("a solved win");
    let dir = solved_dir(1).to_str().unwrap();
    let text = win.to_string();
    // A stored win is settled at the root.
    let (ok, out, err) = run_tb(&["forbid", "prove", dir, "--position", &text]);
    assert!(ok, "{err}");
    let mover = win.side_to_move();
    assert!(out.contains(&format!("forbid: {mover} win")), "{out}");
    // Each move searched alone: one line a move, and the same winner.
    let (ok, out, err) = run_tb(&["forbid", "prove", dir, "--position", &text, "--each-move"]);
    assert!(ok, "{err}");
    assert!(
        out.contains(&format!("forbid: {mover} win (each move searched alone")),
        "{out}"
    );
    let moves = win.legal_moves(&forbid_rules(1)).len();
    assert_eq!(
        out.lines().filter(|l| l.starts_with("move ")).count(),
        moves
    );
    // Each move's line is printed as it is done, so the winner comes after them all.
    let lines: Vec<&str> = out.lines().collect();
    let last_move = lines.iter().rposition(|l| l.starts_with("move ")).unwrap();
    let winner = lines
        .iter()
        .position(|l| l.starts_with("forbid: "))
        .unwrap();
    assert!(last_move < winner, "{out}");
    // The start position needs the placement values under forbid for 20 goats in hand (`tb
    // forbid start`; other tests make them up to 2 at most in this directory).
    let (ok, _, err) = run_tb(&["forbid", "prove", dir]);
    assert!(
        !ok && err.contains("tb forbid start --max-in-hand 20"),
        "{err}"
    );
    let (ok, _, err) = run_tb(&["forbid", "prove", dir, "--position", "nonsense"]);
    assert!(!ok && !err.is_empty());
}

#[test]
fn entries_keep_their_values_resume_and_narrow_the_start_bounds() {
    use baghchal::tablebase::forbid::entries::{prove_entries, EntryOptions};
    use baghchal::tablebase::forbid::file::{proof_path, read_forbid};
    use baghchal::tablebase::forbid::start::{start_bounds, start_bounds_with};
    use baghchal::tablebase::placement::PlacementTables;
    use baghchal::tablebase::stamp::Stamps;
    let dir = private_ctw2("entries");
    let options = EntryOptions {
        nodes_per_entry: 20_000,
        table_entries: 1 << 20,
        sample: Some(40),
        threads: 2,
        write: true,
        after_captures: false,
        part: None,
        layers: None,
    };
    let first = prove_entries(&dir, options, QUIET).expect("entries");
    let settled: u64 = first.iter().map(|l| l.tigers_win + l.goats_win).sum();
    assert!(settled >= 20, "{first:?}");
    // The file holds exactly the values found, each confirmed by a search that does not use
    // the stored values where that search settles.
    let (tables, forbid) = opened(2);
    let mut independent = Prover::new(&tables, Some(&forbid), options_for_check());
    let (mut in_files, mut confirmed) = (0, 0);
    for layer in &first {
        let positions = tables.headers()[usize::from(layer.captured)].positions;
        let path = proof_path(&dir, layer.captured);
        let (header, codes) =
            read_forbid(&path, table_rules(2), layer.captured, positions).expect("proof file");
        assert_eq!(header.counts[1][0], layer.tigers_win);
        assert_eq!(header.counts[1][1], layer.goats_win);
        let index = LayerIndex::get(usize::from(layer.captured) + 1);
        for (class, &code) in codes[positions as usize..].iter().enumerate() {
            let value = match ForbidValue::from_code(code) {
                Some(value @ (ForbidValue::Win | ForbidValue::Loss)) => value,
                _ => continue,
            };
            in_files += 1;
            let position = board_position(index.decode(class as u32), 1, layer.captured);
            assert_eq!(forbid.stored(&position), Some(ForbidValue::Unknown));
            let check = independent.prove(&[position], QUIET).value;
            if check != ForbidValue::Unknown {
                assert_eq!(check, value, "{position}");
                confirmed += 1;
            }
        }
    }
    assert_eq!(in_files, settled);
    assert!(confirmed >= 10, "{confirmed} confirmed");
    // A second run does not search the settled entries again.
    let second = prove_entries(&dir, options, QUIET).expect("entries again");
    let before: u64 = second.iter().map(|l| l.settled_before).sum();
    assert_eq!(before, settled, "{second:?}");
    // Nor those it left unknown at this budget; with a larger budget it searches them again.
    let unsettled = |run: &[baghchal::tablebase::forbid::entries::EntryLayer]| -> Vec<u64> {
        run.iter()
            .map(|l| l.searched - l.tigers_win - l.goats_win)
            .collect()
    };
    let unsettled_before = |run: &[baghchal::tablebase::forbid::entries::EntryLayer]| {
        run.iter().map(|l| l.unsettled_before).collect::<Vec<u64>>()
    };
    assert!(unsettled(&first).iter().sum::<u64>() > 0, "{first:?}");
    assert_eq!(unsettled_before(&second), unsettled(&first));
    let larger = EntryOptions {
        nodes_per_entry: 40_000,
        sample: Some(1),
        ..options
    };
    let third = prove_entries(&dir, larger, QUIET).expect("entries with a larger budget");
    assert!(third.iter().all(|l| l.unsettled_before == 0), "{third:?}");
    let again = prove_entries(&dir, larger, QUIET).expect("entries with that budget again");
    assert_eq!(unsettled_before(&again), unsettled(&third));
    // The placement pass with the proofs: fewer unknown entries, and no value decided without
    // them changes (a sample of positions with 1 and 2 goats in hand).
    let plain = start_bounds(&dir, 2, 2, QUIET).expect("start");
    let proved = start_bounds_with(&dir, 2, 2, true, QUIET).expect("start with proofs");
    assert_ne!(plain.dir, proved.dir);
    let unknown = |run: &baghchal::tablebase::forbid::start::StartRun| -> u64 {
        run.unknown_entries.iter().sum()
    };
    assert_eq!(unknown(&proved) + settled_entries(&again), unknown(&plain));
    let open = |dir: &std::path::Path| {
        let stamps = std::sync::Arc::new(Stamps::load(dir));
        let check = baghchal::tablebase::file::PayloadCheck::Always;
        let tables = PlacementTables::open(dir, table_rules(2), stamps, check).expect("placement");
        assert!(tables.wait_checked().is_empty(), "no corrupt layer");
        tables
    };
    let (before, after) = (open(&plain.dir), open(&proved.dir));
    let mut rng = StdRng::seed_from_u64(5);
    let mut newly = Vec::new();
    for _ in 0..20_000 {
        let in_hand = rng.random_range(1..=2u8);
        let side = if rng.random_bool(0.5) {
            Side::Goats
        } else {
            Side::Tigers
        };
        let position = forbid_common::random_placement(&mut rng, in_hand, side);
        let (was, now) = (before.probe(&position), after.probe(&position));
        match was.expect("covered") {
            Wdl::Draw if now != Some(Wdl::Draw) => newly.push((position, now.unwrap())),
            Wdl::Draw => {}
            decided => assert_eq!(now, Some(decided), "{position}"),
        }
    }
    assert!(!newly.is_empty(), "no position newly decided");
    // `prove --with-proofs` reads those values: a position they newly decide is settled at
    // the root, where `prove` without them has to search (and with one node stays unknown).
    let (position, wdl) = newly[0];
    let winner = match wdl {
        Wdl::Win => position.side_to_move(),
        _ => position.side_to_move().opposite(),
    };
    let (text, dir_text) = (position.to_string(), dir.to_str().unwrap());
    let prove = |extra: &[&str]| {
        let mut args = vec![
            "forbid",
            "prove",
            dir_text,
            "--position",
            &text,
            "--nodes",
            "1",
        ];
        args.extend_from_slice(extra);
        let (ok, out, err) = run_tb(&args);
        assert!(ok, "{err}");
        out
    };
    let out = prove(&["--with-proofs"]);
    assert!(out.contains(&format!("forbid: {winner} win")), "{out}");
    let out = prove(&[]);
    assert!(
        !out.contains("forbid: goats win") && !out.contains("forbid: tigers win"),
        "{out}"
    );
    // A damaged proof file is reported, never used.
    let path = proof_path(&dir, 1);
    let mut bytes = std::fs::read(&path).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 0x10;
    std::fs::write(&path, bytes).unwrap();
    let error = start_bounds_with(&dir, 2, 2, true, QUIET).expect_err("corrupt proof file");
    assert!(error.to_string().contains("forbid-proof-1"), "{error}");
    let (ok, _, err) = run_tb(&[
        "forbid",
        "prove",
        dir_text,
        "--position",
        &text,
        "--with-proofs",
    ]);
    assert!(!ok && err.contains("forbid-proof-1"), "{err}");
}

/// Settled entries counted by a run that found them all settled before.
fn settled_entries(run: &[baghchal::tablebase::forbid::entries::EntryLayer]) -> u64 {
    run.iter()
        .map(|l| l.settled_before + l.tigers_win + l.goats_win)
        .sum()
}

/// A search without the stored values, for confirming theirs.
fn options_for_check() -> ProveOptions {
    options(200_000, false)
}

#[test]
fn each_move_searched_alone_agrees_with_the_game_and_shares_the_images() {
    // Placement roots of CapturesToWin 1 whose empty points are images of one another under a
    // reflection (b1 and d1), without the stored values: a placement's child has no history,
    // so the images share one search; every value is checked by the full-history search.
    let (tables, forbid) = opened(1);
    let mut prover = Prover::new(&tables, Some(&forbid), options(200_000, false));
    let roots = [
        "TGGGT/GGGGG/GGGGG/GGGGG/T1G1T g 1 0",
        "TGGGT/GGGGG/GGGGG/GGGGG/T3T g 2 0",
        "TGGGT/GGGGG/GG1GG/GGGGG/T1G1T g 2 0",
    ];
    let mut shared = 0;
    for text in roots {
        let root: Position = text.parse().unwrap();
        let mut told = Vec::new();
        let each = prover.prove_each_move(&[root], QUIET, &mut |proof| told.push(proof.clone()));
        assert_eq!(each.moves.len(), root.legal_moves(&forbid_rules(1)).len());
        assert_eq!(
            told, each.moves,
            "each move is told once, in order, as it is"
        );
        for proof in &each.moves {
            let child = root.played(proof.mv);
            if let Some(earlier) = proof.same_as {
                shared += 1;
                // Only an image of the earlier move's position shares its result.
                let image = root.played(earlier);
                let mirrored: String = image
                    .to_string()
                    .split(' ')
                    .next()
                    .unwrap()
                    .split('/')
                    .map(|row| row.chars().rev().collect::<String>())
                    .collect::<Vec<_>>()
                    .join("/");
                assert_eq!(child.to_string().split(' ').next().unwrap(), mirrored);
            }
            let mut game = Game::new(child, forbid_rules(1));
            let winner = full_history_winner(&mut game, &tables, &mut 2_000_000).expect("small");
            assert_eq!(proof.result.value, value_of(winner, child.side_to_move()));
        }
        let mut game = Game::new(root, forbid_rules(1));
        let winner = full_history_winner(&mut game, &tables, &mut 2_000_000).expect("small");
        assert_eq!(each.value, value_of(winner, root.side_to_move()), "{text}");
    }
    assert_eq!(shared, 3, "d1 shares b1's search in each root");

    // Movement roots of CapturesToWin 2 whose values the stored ones leave unknown: where the
    // root's own search settles, the moves searched alone agree with it.
    let (tables, forbid) = opened(2);
    let mut alone = Prover::new(&tables, Some(&forbid), options(20_000, true));
    let mut whole = Prover::new(&tables, Some(&forbid), options(200_000, true));
    let mut agreed = 0;
    for position in unknown_sample(&tables, &forbid).iter().take(12) {
        let each = alone.prove_each_move(&[*position], QUIET, &mut |_| {});
        assert!(
            each.moves.iter().all(|m| m.same_as.is_none()),
            "children have a history"
        );
        let found = whole.prove(&[*position], QUIET).value;
        if each.value != ForbidValue::Unknown && found != ForbidValue::Unknown {
            assert_eq!(each.value, found, "{position}");
            agreed += 1;
        }
    }
    assert!(agreed >= 2, "{agreed} roots settled both ways");
}

#[test]
fn entries_after_captures_are_confirmed_and_settle_the_searches_of_the_layer_below() {
    // With after_captures the entry pass also searches the goats-to-move table draws (the
    // states right after a capture), layer 1 before layer 0. Each value it keeps is the one a
    // search without the stored values finds (where that settles); a prover given the values
    // settles such a state at once, and a search from the layer below that captures into one
    // reads it there, with the value it finds without them.
    use baghchal::tablebase::forbid::entries::{prove_entries, EntryOptions};
    use baghchal::tablebase::forbid::file::{proof_path, read_forbid};
    use baghchal::tablebase::forbid::proved::ProvedEntries;
    use std::sync::Arc;
    let dir = private_ctw2("after-captures");
    let pass = EntryOptions {
        nodes_per_entry: 20_000,
        table_entries: 1 << 20,
        sample: Some(40),
        threads: 2,
        write: true,
        after_captures: true,
        part: None,
        layers: None,
    };
    let run = prove_entries(&dir, pass, QUIET).expect("entries");
    let order: Vec<(u8, Side)> = run.iter().map(|l| (l.captured, l.side)).collect();
    let expected = [
        (1, Side::Tigers),
        (1, Side::Goats),
        (0, Side::Tigers),
        (0, Side::Goats),
    ];
    assert_eq!(order, expected, "{run:?}");
    let (tables, forbid) = opened(2);
    let positions: Vec<u64> = tables.headers().iter().map(|h| h.positions).collect();
    let read = ProvedEntries::read(&dir, table_rules(2), &positions).expect("proof files");
    let proved = Arc::new(read);
    let mut independent = Prover::new(&tables, Some(&forbid), options_for_check());
    let mut given = Prover::new(&tables, Some(&forbid), options(20_000, true));
    given.set_proved(Some(Arc::clone(&proved)));
    let (mut kept, mut confirmed) = (0, 0);
    for layer in run.iter().filter(|l| l.side == Side::Goats) {
        let count = positions[usize::from(layer.captured)];
        let path = proof_path(&dir, layer.captured);
        let (header, codes) =
            read_forbid(&path, table_rules(2), layer.captured, count).expect("proof file");
        // The counts are the mover's: the goats' wins, then their losses.
        assert_eq!(header.counts[0][..2], [layer.goats_win, layer.tigers_win]);
        let index = LayerIndex::get(usize::from(layer.captured) + 1);
        for (class, &code) in codes[..count as usize].iter().enumerate() {
            let Some(value) = ForbidValue::from_code(code).filter(|v| v.is_proven()) else {
                continue;
            };
            kept += 1;
            let position = board_position(index.decode(class as u32), 0, layer.captured);
            assert_eq!(forbid.stored(&position), Some(ForbidValue::Unknown));
            assert_eq!(proved.value(&position), Some(value), "{position}");
            let at_once = given.prove(&[position], QUIET);
            assert_eq!((at_once.value, at_once.nodes), (value, 0), "{position}");
            let check = independent.prove(&[position], QUIET).value;
            if check != ForbidValue::Unknown {
                assert_eq!(check, value, "{position}");
                confirmed += 1;
            }
        }
    }
    let settled: u64 = run
        .iter()
        .filter(|l| l.side == Side::Goats)
        .map(|l| l.tigers_win + l.goats_win)
        .sum();
    assert_eq!(kept, settled);
    assert!(
        kept >= 10 && confirmed >= 5,
        "{kept} kept, {confirmed} confirmed"
    );
    // The layer below reads them inside its searches. Tigers-to-move table draws of layer 0
    // that the solver left unknown and that can capture: each capture's state searched alone,
    // its value given to a prover, which then finds the parent's value that a prover without
    // it finds, with fewer expansions for some.
    let rules = forbid_rules(2);
    let parents: Vec<Position> = table_draws(2, &tables, &forbid, 3)
        .into_iter()
        .filter(|(p, stored)| {
            *stored == ForbidValue::Unknown
                && p.goats_captured() == 0
                && p.side_to_move() == Side::Tigers
        })
        .map(|(p, _)| p)
        .filter(|p| {
            p.legal_moves(&rules)
                .iter()
                .any(|&mv| p.played(mv).goats_captured() == 1)
        })
        .take(30)
        .collect();
    assert!(parents.len() >= 10, "{} parents", parents.len());
    let layer_1 = LayerIndex::get(2);
    let mut codes = vec![0; 2 * positions[1] as usize];
    let mut alone = Prover::new(&tables, Some(&forbid), options(20_000, true));
    for parent in &parents {
        for mv in parent.legal_moves(&rules).iter() {
            let child = parent.played(*mv);
            if child.goats_captured() == 1 && forbid.stored(&child) == Some(ForbidValue::Unknown) {
                let (class, _) = layer_1.encode(child.tigers().0, child.empty().0);
                let value = alone.prove(&[child], QUIET).value;
                codes[positions[1] as usize * usize::from(child.side_to_move() == Side::Tigers)
                    + class as usize] = value.code();
            }
        }
    }
    let mut found = ProvedEntries::new(2);
    found.set_layer(1, codes);
    let proved = Arc::new(found);
    let (mut agree, mut fewer) = (0, 0);
    for parent in &parents {
        let mut with = Prover::new(&tables, Some(&forbid), options(20_000, true));
        with.set_proved(Some(Arc::clone(&proved)));
        let mut without = Prover::new(&tables, Some(&forbid), options(20_000, true));
        let (a, b) = (
            with.prove(&[*parent], QUIET),
            without.prove(&[*parent], QUIET),
        );
        if a.value.is_proven() && b.value.is_proven() {
            assert_eq!(a.value, b.value, "{parent}");
            agree += 1;
        }
        fewer += usize::from(a.nodes < b.nodes);
    }
    eprintln!(
        "{agree} of {} agree, {fewer} with fewer expansions",
        parents.len()
    );
    assert!(agree >= 3 && fewer >= 1, "{agree} agree, {fewer} fewer");
}
