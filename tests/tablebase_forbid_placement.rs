//! The placement values under forbid (`tb forbid start`) used by the engine, the referee and
//! `tb probe` (issue 23 part 6), on CapturesToWin 1, where every table draw is solved: every
//! value is checked against the full-history search of the game itself, which knows nothing of
//! the files.

use baghchal::referee::outcome::GameResult;
use baghchal::referee::tb_adjudication::TbAdjudicator;
use baghchal::tablebase::file::PayloadStatus;
use baghchal::tablebase::forbid::file::{forbid_path, read_forbid, write_forbid};
use baghchal::tablebase::forbid::start::start_bounds;
use baghchal::tablebase::forbid::tables::ForbidTables;
use baghchal::tablebase::forbid::ForbidValue;
use baghchal::tablebase::placement::generate::generate_placement;
use baghchal::tablebase::stamp::STAMP_FILE;
use baghchal::tablebase::{Corruption, Tablebase, TablebaseError, Wdl};
use baghchal::{Game, Position, Repetition, Side};
use forbid_common::{
    engine_answer, engine_answer_under, forbid_rules, full_history_winner, random_placement,
    run_tb, solved_dir, table_rules, QUIET,
};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::{Duration, SystemTime};

mod forbid_common;

/// Goats in hand up to which `tb forbid start` runs here; the tables' own placement layers
/// stop one below, so that positions with this many goats in hand have a value under forbid
/// and none in the tables.
const FORBID_IN_HAND: u8 = 2;

/// CapturesToWin 1 with the movement tables and forbid file, the tables' placement layer of 1
/// goat in hand, and the placement values under forbid up to [`FORBID_IN_HAND`], in a private
/// directory (made once, kept between runs: everything resumes).
fn placement_dir() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("forbid-ctw1-placement");
        std::fs::create_dir_all(&dir).unwrap();
        for name in ["layer-0.bctb", "forbid-0.bcfb"] {
            if !dir.join(name).exists() {
                std::fs::copy(solved_dir(1).join(name), dir.join(name)).unwrap();
            }
        }
        generate_placement(&dir, table_rules(1), FORBID_IN_HAND - 1, 2, QUIET).expect("tables");
        start_bounds(&dir, FORBID_IN_HAND, 2, QUIET).expect("placement under forbid");
        dir
    })
}

/// A copy of `placement_dir()` to damage, named `tag`; returns it and the name of its
/// directory of placement values under forbid.
fn private_copy(tag: &str) -> (PathBuf, String) {
    let source = placement_dir();
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("forbid-placement-{tag}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let mut forbid_dir = String::new();
    for entry in std::fs::read_dir(source).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_str().unwrap().to_string();
        if path.is_dir() {
            std::fs::create_dir_all(dir.join(&name)).unwrap();
            for file in std::fs::read_dir(&path).unwrap() {
                let file = file.unwrap().path();
                if file.extension().is_some_and(|e| e == "bctb") {
                    std::fs::copy(&file, dir.join(&name).join(file.file_name().unwrap())).unwrap();
                }
            }
            forbid_dir = name;
        } else if name.ends_with(".bctb") || name.ends_with(".bcfb") {
            std::fs::copy(&path, dir.join(&name)).unwrap();
        }
    }
    assert!(forbid_dir.starts_with("forbid-placement-"), "{forbid_dir}");
    (dir, forbid_dir)
}

/// The tables (placement layer included) and the forbid values of `placement_dir()`, with every
/// placement layer's checksum checked.
fn opened() -> (Tablebase, ForbidTables) {
    let dir = placement_dir();
    let tables = Tablebase::open(dir, table_rules(1)).expect("open");
    let (forbid, errors) = ForbidTables::open(dir, &tables);
    assert!(errors.is_empty(), "{errors:?}");
    let forbid = forbid.expect("forbid values");
    let (_, placement) = forbid.placement().expect("placement values under forbid");
    assert!(placement.wait_checked().is_empty());
    assert!(tables
        .placement()
        .expect("a placement layer")
        .wait_checked()
        .is_empty());
    (tables, forbid)
}

/// Random positions of CapturesToWin 1 with `in_hand` goats in hand and `side` to move.
fn random_positions(seed: u64, in_hand: u8, side: Side) -> impl Iterator<Item = Position> {
    let mut rng = StdRng::seed_from_u64(seed);
    std::iter::from_fn(move || {
        let position = random_placement(&mut rng, in_hand, side);
        let _ = rng.random::<u8>();
        Some(position)
    })
}

/// The winner by the full-history search (`None` over its budget).
fn winner(position: &Position, tables: &Tablebase) -> Option<Side> {
    let mut game = Game::new(*position, forbid_rules(1));
    full_history_winner(&mut game, tables, &mut 300_000)
}

/// Up to `count` positions with `in_hand` goats in hand, `side` to move, a proven win for the
/// mover under forbid (`placement_value`), that the tables do not call a win (`Some(Draw)`
/// where they cover the layer, else not covered); each checked by the full-history search.
fn proven_wins(
    tables: &Tablebase,
    forbid: &ForbidTables,
    in_hand: u8,
    side: Side,
    count: usize,
) -> Vec<Position> {
    proven(tables, forbid, in_hand, side, ForbidValue::Win, count)
}

/// As [`proven_wins`], for positions whose placement value under forbid is `value` (a win or a
/// loss for the mover).
fn proven(
    tables: &Tablebase,
    forbid: &ForbidTables,
    in_hand: u8,
    side: Side,
    value: ForbidValue,
    count: usize,
) -> Vec<Position> {
    let winner_by_value = if value == ForbidValue::Win {
        side
    } else {
        side.opposite()
    };
    let covered = in_hand < FORBID_IN_HAND;
    let mut found = Vec::new();
    for position in
        random_positions(u64::from(in_hand) * 2 + side.index() as u64, in_hand, side).take(20_000)
    {
        // With moves, and no capture (a capture wins at once: a mate, not a placement value).
        let moves = position.legal_moves(&forbid_rules(1));
        if moves.is_empty()
            || moves
                .iter()
                .any(|&mv| position.played(mv).goats_captured() > 0)
        {
            continue;
        }
        let table = tables.probe(&position).map(|value| value.wdl);
        if table != covered.then_some(Wdl::Draw) || forbid.placement_value(&position) != Some(value)
        {
            continue;
        }
        // The stored value against the game itself.
        if let Some(winner) = winner(&position, tables) {
            assert_eq!(winner, winner_by_value, "{position}");
            found.push(position);
            if found.len() == count {
                break;
            }
        }
    }
    found
}

#[test]
fn the_engine_plays_and_reports_a_proven_placement_win_where_the_tables_see_no_win() {
    let dir = placement_dir();
    let (tables, forbid) = opened();
    // In the tables' placement layer (a table draw), and beyond it (not covered).
    for in_hand in [1, FORBID_IN_HAND] {
        for side in [Side::Goats, Side::Tigers] {
            let wins = proven_wins(&tables, &forbid, in_hand, side, 2);
            assert!(!wins.is_empty(), "{in_hand} in hand, {side} to move");
            for start in &wins {
                let (lines, best) = engine_answer(dir, &format!("fen {start}"));
                assert!(
                    lines
                        .iter()
                        .any(|l| l.contains(&format!("info string forbid: {side} win"))),
                    "{start}: {lines:?}"
                );
                assert!(lines.iter().any(|l| l.contains("score cp 20000")));
                let mut game = Game::new(*start, forbid_rules(1));
                game.play(best.parse().expect("a move")).expect("legal");
                let after = *game.position();
                assert_eq!(winner(&after, &tables), Some(side), "{start} {best}");
            }
        }
    }
    // Under the draw rule the forbid files are not used: a table draw stays one.
    let start = proven_wins(&tables, &forbid, 1, Side::Goats, 1)[0];
    let (lines, _) = engine_answer_under(dir, Repetition::Draw, &format!("fen {start}"));
    assert!(
        !lines
            .iter()
            .any(|l| l.contains("forbid:") || l.contains("cp 20000")),
        "{lines:?}"
    );
    assert!(lines.iter().any(|l| l.contains("score cp 0")), "{lines:?}");
}

#[test]
fn a_placement_root_beyond_the_tables_proven_lost_is_reported_as_lost() {
    // 2 goats in hand: no placement layer of the tables covers it, the placement values under
    // forbid prove it lost for the side to move.
    let dir = placement_dir();
    let (tables, forbid) = opened();
    for side in [Side::Goats, Side::Tigers] {
        let losses = proven(&tables, &forbid, FORBID_IN_HAND, side, ForbidValue::Loss, 2);
        assert!(!losses.is_empty(), "{side} to move");
        for start in &losses {
            assert!(tables.probe(start).is_none(), "{start}");
            let (lines, _) = engine_answer(dir, &format!("fen {start}"));
            assert!(
                lines
                    .iter()
                    .any(|l| l.contains(&format!("info string forbid: {side} loses"))),
                "{start}: {lines:?}"
            );
            // Every score reported is the proven loss (or a mate the search found).
            let scores: Vec<&String> = lines.iter().filter(|l| l.contains(" score ")).collect();
            assert!(!scores.is_empty(), "{lines:?}");
            for line in scores {
                assert!(
                    line.contains("score cp -20000") || line.contains("score mate -"),
                    "{start}: {line}"
                );
            }
        }
    }
}

/// The last `score cp N` the engine reported.
fn last_cp(lines: &[String]) -> Option<i32> {
    lines.iter().rev().find_map(|line| {
        let rest = line.split(" score cp ").nth(1)?;
        rest.split_whitespace().next()?.parse().ok()
    })
}

#[test]
fn the_search_uses_placement_values_under_forbid_below_the_root() {
    // Tigers to move with one goat more in hand than the values reach: neither the root nor its
    // children have a stored value, the grandchildren have. A win proven two plies down is
    // found by the search (`20000` less the ply), and the move played keeps it.
    let dir = placement_dir();
    let (tables, forbid) = opened();
    let rules = forbid_rules(1);
    let proven_in_two = |position: &Position| {
        position.legal_moves(&rules).iter().any(|&mv| {
            let child = position.played(mv);
            child.goats_captured() == 0
                && child.legal_moves(&rules).iter().all(|&reply| {
                    forbid.placement_value(&child.played(reply)) == Some(ForbidValue::Win)
                })
        })
    };
    let mut checked = 0;
    for start in random_positions(41, FORBID_IN_HAND + 1, Side::Tigers).take(3_000) {
        // No capture at once (that would be a mate, not a placement value).
        let captures = start
            .legal_moves(&rules)
            .iter()
            .any(|&mv| start.played(mv).goats_captured() > 0);
        if captures || !proven_in_two(&start) {
            continue;
        }
        assert_eq!(winner(&start, &tables), Some(Side::Tigers), "{start}");
        let (lines, best) = engine_answer(dir, &format!("fen {start}"));
        let cp = last_cp(&lines).expect("a score");
        assert!((19_990..20_000).contains(&cp), "{start}: {lines:?}");
        let mut game = Game::new(start, rules);
        game.play(best.parse().expect("a move")).expect("legal");
        assert_eq!(winner(game.position(), &tables), Some(Side::Tigers));
        checked += 1;
        if checked == 3 {
            break;
        }
    }
    assert!(checked >= 1, "no root proven two plies down");
}

/// Runs `baghchal tb probe DIR POSITION`: success, stdout, stderr.
fn tb_probe(dir: &Path, position: &Position) -> (bool, String, String) {
    run_tb(&["probe", dir.to_str().unwrap(), &position.to_string()])
}

#[test]
fn tb_probe_prints_the_placement_value_under_forbid() {
    let dir = placement_dir();
    let (tables, forbid) = opened();
    for (in_hand, side) in [(1, Side::Tigers), (FORBID_IN_HAND, Side::Goats)] {
        for start in proven_wins(&tables, &forbid, in_hand, side, 2) {
            let (ok, out, err) = tb_probe(dir, &start);
            assert!(ok, "{err}");
            assert!(out.contains(&format!("forbid: {side} win")), "{out}");
            // The tables' own value where they cover the layer.
            assert_eq!(out.contains("value: draw"), in_hand == 1, "{out}");
        }
    }
    // Beyond the values: not solved.
    let far = random_positions(3, FORBID_IN_HAND + 1, Side::Goats)
        .next()
        .unwrap();
    let (_, out, err) = tb_probe(dir, &far);
    assert!(!out.contains("forbid: goats win") && !out.contains("forbid: tigers win"));
    assert!(err.contains("not covered"), "{out} {err}");
}

#[test]
fn batch_probe_gives_each_position_the_value_under_forbid_of_the_single_probe() {
    let dir = placement_dir();
    let (tables, forbid) = opened();
    let mut positions: Vec<Position> = Vec::new();
    for side in [Side::Goats, Side::Tigers] {
        positions.extend(proven_wins(&tables, &forbid, 1, side, 2));
        positions.extend(random_positions(5, 0, side).take(10));
    }
    // A finished game with goats in hand (CapturesToWin 1: one goat captured).
    let finished: Position = "TGGGT/GGGGG/GGGGG/GGGG1/T1G1T g 1 1".parse().unwrap();
    positions.push(finished);
    let beyond = random_positions(6, FORBID_IN_HAND, Side::Goats)
        .next()
        .unwrap();
    let mut input: String = positions.iter().map(|p| format!("{p}\n")).collect();
    input.push_str(&format!("{beyond}\n"));
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_baghchal"))
        .args(["tb", "probe", dir.to_str().unwrap(), "-"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("runs");
    {
        use std::io::Write;
        let mut stdin = child.stdin.take().unwrap();
        stdin.write_all(input.as_bytes()).unwrap();
    }
    let output = child.wait_with_output().unwrap();
    let stdout = String::from_utf8(output.stdout).unwrap();
    let lines: Vec<Vec<&str>> = stdout.lines().map(|l| l.split('\t').collect()).collect();
    assert_eq!(lines.len(), positions.len() + 1, "{stdout}");
    let mut wins = 0;
    for (position, fields) in positions.iter().zip(&lines) {
        assert_eq!(fields.len(), 5, "{fields:?}");
        assert_eq!(fields[0], position.to_string());
        // The single probe's `forbid:` line, or `none` where it has no value.
        let (ok, single, err) = tb_probe(dir, position);
        assert!(ok, "{err}");
        let words = single
            .lines()
            .find_map(|line| line.strip_prefix("forbid: "))
            .expect("a forbid line");
        let expected = if words.starts_with("not solved") {
            "none"
        } else {
            words
        };
        assert_eq!(fields[4], expected, "{position}");
        wins += usize::from(expected == format!("{} win", position.side_to_move()));
    }
    assert!(wins >= 4, "the proven wins are read as wins: {stdout}");
    assert_eq!(lines[positions.len() - 1][4], "tigers win", "{stdout}");
    // With goats in hand beyond the tables' placement layers: an error line, as without forbid
    // values, and the batch goes on to the end.
    assert_eq!(
        lines[positions.len()][..2],
        [beyond.to_string().as_str(), "error"]
    );
    assert!(String::from_utf8_lossy(&output.stderr).contains("1 of"));
}

#[test]
fn the_referee_adjudicates_proven_placement_values() {
    let dir = placement_dir();
    let (tables, forbid) = opened();
    let adjudicator = TbAdjudicator::open(dir, &forbid_rules(1), None).expect("open");
    for in_hand in [1, FORBID_IN_HAND] {
        for side in [Side::Goats, Side::Tigers] {
            for start in proven_wins(&tables, &forbid, in_hand, side, 2) {
                let game = Game::new(start, forbid_rules(1));
                let (result, reason) = adjudicator.adjudicate(&game).expect("adjudicated");
                assert_eq!(result, GameResult::win_for(side), "{start}");
                assert_eq!(reason, format!("Forbid tablebase: {side} win"));
            }
        }
    }
    // Under the draw rule the table draw is adjudicated as a draw, not as a forbid win.
    let draw_rules = table_rules(1).with_repetition(Repetition::Draw);
    let adjudicator = TbAdjudicator::open(dir, &draw_rules, None).expect("open");
    let start = proven_wins(&tables, &forbid, 1, Side::Goats, 1)[0];
    let (result, reason) = adjudicator
        .adjudicate(&Game::new(start, draw_rules))
        .expect("a table draw");
    assert_eq!(
        (result, reason.as_str()),
        (GameResult::Draw, "Tablebase: draw")
    );
}

#[test]
fn the_referee_waits_for_the_placement_checksums_before_adjudicating() {
    // A fresh copy has no verified stamps: every placement layer (the tables' and the placement
    // values under forbid) is checked in the background after opening, and answers nothing
    // until then. The referee's adjudicator is ready when `open` returns.
    let (tables, forbid) = opened();
    let mut starts = Vec::new();
    for side in [Side::Goats, Side::Tigers] {
        for in_hand in [1, FORBID_IN_HAND] {
            for start in proven_wins(&tables, &forbid, in_hand, side, 1) {
                starts.push((start, side));
            }
        }
    }
    assert_eq!(starts.len(), 4);
    for round in 0..3 {
        let (fresh, _) = private_copy(&format!("fresh-{round}"));
        let adjudicator = TbAdjudicator::open(&fresh, &forbid_rules(1), None).expect("open");
        for &(start, side) in &starts {
            let game = Game::new(start, forbid_rules(1));
            let (result, _) = adjudicator.adjudicate(&game).expect("adjudicated at once");
            assert_eq!(result, GameResult::win_for(side), "{start}");
        }
    }
}

#[test]
fn stale_or_corrupt_placement_values_are_reported_and_not_used() {
    let (tables, forbid) = opened();
    let start = proven_wins(&tables, &forbid, FORBID_IN_HAND, Side::Goats, 1)[0];
    let claims = |lines: &[String]| {
        lines
            .iter()
            .any(|l| l.contains("forbid: goats win") || l.contains("cp 20000"))
    };

    // Made from other forbid values (the checksum in the name differs): stale.
    let (stale, name) = private_copy("stale");
    std::fs::rename(stale.join(&name), stale.join("forbid-placement-00000000")).unwrap();
    let (lines, _) = engine_answer(&stale, &format!("fen {start}"));
    assert!(
        lines.iter().any(
            |l| l.starts_with("info string error: forbid values not used")
                && l.contains("forbid-placement-00000000")
                && l.contains("other forbid values")
        ),
        "{lines:?}"
    );
    // The movement-phase values are still loaded; the placement values are not.
    assert!(lines
        .iter()
        .any(|l| l.starts_with("info string forbid values loaded for layers 0 (")));
    assert!(!claims(&lines), "{lines:?}");
    let stale_tables = Tablebase::open(&stale, table_rules(1)).unwrap();
    let (found, errors) = ForbidTables::open(&stale, &stale_tables);
    assert!(found.unwrap().placement().is_none());
    assert!(matches!(
        errors.as_slice(),
        [TablebaseError::StaleForbidPlacement { .. }]
    ));
    let (ok, _, err) = tb_probe(&stale, &start);
    assert!(!ok && err.contains("other forbid values"), "{err}");
    let adjudicator = TbAdjudicator::open(&stale, &forbid_rules(1), None).unwrap();
    assert_eq!(
        adjudicator.adjudicate(&Game::new(start, forbid_rules(1))),
        None
    );

    // One flipped bit in the layer of 1 goat in hand: found by the checksum, never used. A
    // tigers' win there (a table draw) has its own value and its children's in that layer.
    let tigers_win = proven_wins(&tables, &forbid, 1, Side::Tigers, 1)[0];
    let (corrupt, name) = private_copy("corrupt");
    let layer = corrupt.join(&name).join("place-01-0.bctb");
    let mut bytes = std::fs::read(&layer).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 0x10;
    std::fs::write(&layer, bytes).unwrap();
    let (lines, _) = engine_answer(&corrupt, &format!("fen {tigers_win}"));
    assert!(
        lines.iter().any(|l| l.starts_with("info string error:")
            && l.contains("place-01-0.bctb")
            && l.contains("corrupt")),
        "{lines:?}"
    );
    assert!(
        !lines
            .iter()
            .any(|l| l.contains("forbid: tigers win") || l.contains("cp 20000")),
        "{lines:?}"
    );
    let (ok, _, err) = tb_probe(&corrupt, &tigers_win);
    assert!(!ok && err.contains("corrupt"), "{err}");

    // A truncated layer: refused when opened.
    let (truncated, name) = private_copy("truncated");
    let layer = truncated
        .join(&name)
        .join(format!("place-0{FORBID_IN_HAND}-0.bctb"));
    let bytes = std::fs::read(&layer).unwrap();
    std::fs::write(&layer, &bytes[..bytes.len() - 8]).unwrap();
    let (lines, _) = engine_answer(&truncated, &format!("fen {start}"));
    assert!(
        lines.iter().any(
            |l| l.starts_with("info string error: forbid values not used") && l.contains("place-0")
        ),
        "{lines:?}"
    );
    assert!(!claims(&lines), "{lines:?}");
}

/// Sets the modification time of `path` (a file modified in the last 2 s is checked but not
/// stamped).
fn set_modified(path: &Path, time: SystemTime) {
    let file = std::fs::File::options().write(true).open(path).unwrap();
    file.set_times(std::fs::FileTimes::new().set_modified(time))
        .unwrap();
}

#[test]
fn forbid_files_are_stamped_and_checked_again_when_changed() {
    let (dir, name) = private_copy("stamps");
    let an_hour_ago = SystemTime::now() - Duration::from_secs(3600);
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_file() {
            set_modified(&path, an_hour_ago);
        }
    }
    let tables = Tablebase::open(&dir, table_rules(1)).unwrap();
    let open = || {
        let (forbid, errors) = ForbidTables::open(&dir, &tables);
        (forbid, errors)
    };
    let statuses = |forbid: &Option<ForbidTables>| forbid.as_ref().unwrap().statuses();
    let placement_dir = |forbid: &Option<ForbidTables>| {
        let found = forbid.as_ref().unwrap().placement();
        found.map(|(dir, _)| dir.file_name().unwrap().to_str().unwrap().to_string())
    };

    // First open: the forbid file is read and checked, then stamped, and so is the checksum
    // of the values that names the placement values' directory.
    let (first, errors) = open();
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(statuses(&first), vec![(0, PayloadStatus::Checked)]);
    assert_eq!(placement_dir(&first), Some(name.clone()));
    let stamp = std::fs::read_to_string(dir.join(STAMP_FILE)).unwrap();
    assert!(stamp.contains("\nforbid-0.bcfb "), "{stamp}");
    assert!(stamp.contains("\n:forbid-values-crc32 "), "{stamp}");
    // Second open: vouched for by the stamps, the same directory found.
    let (second, errors) = open();
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(statuses(&second), vec![(0, PayloadStatus::Stamped)]);
    assert_eq!(placement_dir(&second), Some(name.clone()));

    // A touched file is checked again.
    let path = forbid_path(&dir, 0);
    set_modified(&path, an_hour_ago - Duration::from_secs(60));
    assert_eq!(statuses(&open().0), vec![(0, PayloadStatus::Checked)]);
    assert_eq!(statuses(&open().0), vec![(0, PayloadStatus::Stamped)]);

    // Other values (a forbid file rewritten with one win turned into a loss, intact): checked
    // again, and the checksum of the values computed again, so the placement values made from
    // the old ones are stale, not used under a stamp of the old file.
    let original = std::fs::read(&path).unwrap();
    let positions = tables.headers()[0].positions;
    let (mut header, mut codes) = read_forbid(&path, table_rules(1), 0, positions).unwrap();
    let at = codes.iter().position(|&code| code == 1).expect("a win");
    codes[at] = 2;
    let side = usize::from(at >= positions as usize);
    header.counts[side][0] -= 1;
    header.counts[side][1] += 1;
    write_forbid(&path, &header, &codes).unwrap();
    set_modified(&path, an_hour_ago);
    let (changed, errors) = open();
    assert_eq!(statuses(&changed), vec![(0, PayloadStatus::Checked)]);
    assert_eq!(placement_dir(&changed), None);
    assert!(
        matches!(
            errors.as_slice(),
            [TablebaseError::StaleForbidPlacement { .. }]
        ),
        "{errors:?}"
    );
    // Put back (a new file with the old bytes): its values name the directory again.
    let back = dir.join("forbid-back.tmp");
    std::fs::write(&back, &original).unwrap();
    set_modified(&back, an_hour_ago);
    std::fs::rename(&back, &path).unwrap();
    let (restored, errors) = open();
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(statuses(&restored), vec![(0, PayloadStatus::Checked)]);
    assert_eq!(placement_dir(&restored), Some(name));

    // One byte flipped in place, same length and modification time: the status-change time
    // differs, so it is checked again, named corrupt and never used (at every open).
    let mut bytes = original.clone();
    let last = bytes.len() - 1;
    bytes[last] ^= 0x04;
    std::fs::write(&path, &bytes).unwrap();
    set_modified(&path, an_hour_ago);
    for _ in 0..2 {
        let (corrupt, errors) = open();
        assert!(corrupt.is_none(), "no layer usable");
        match errors.as_slice() {
            [TablebaseError::Corrupt {
                path: named,
                reason,
            }] => {
                assert_eq!(named, &path);
                assert_eq!(*reason, Corruption::PayloadChecksum);
            }
            other => panic!("expected the forbid file named corrupt, got {other:?}"),
        }
        assert!(matches!(
            ForbidTables::open_layer(&dir, &tables, 0),
            Err(TablebaseError::Corrupt { .. })
        ));
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A measurement, run by hand (`--ignored --nocapture`), on a complete table directory with
/// forbid files and placement values under forbid (`FORBID_TB_DIR`) and games of the referee
/// (`FORBID_GAMES`, its `-jsonout` file, default rules): per goats in hand, how many of the
/// games' placement positions are table draws, and how many of those the placement values
/// under forbid decide.
#[test]
#[ignore]
fn placement_values_met_in_games() {
    use baghchal::tablebase::TableRules;
    let (Ok(dir), Ok(games)) = (
        std::env::var("FORBID_TB_DIR"),
        std::env::var("FORBID_GAMES"),
    ) else {
        eprintln!("set FORBID_TB_DIR and FORBID_GAMES");
        return;
    };
    let rules = baghchal::Rules::default();
    let tables = Tablebase::open(Path::new(&dir), TableRules::of(&rules)).expect("open");
    let (forbid, errors) = ForbidTables::open(Path::new(&dir), &tables);
    assert!(errors.is_empty(), "{errors:?}");
    let forbid = forbid.expect("forbid values");
    forbid
        .placement()
        .expect("placement values")
        .1
        .wait_checked();
    tables.placement().expect("placement layers").wait_checked();
    let mut seen = std::collections::HashSet::new();
    // Per goats in hand: positions, table draws, decided draws, decided positions.
    let mut counts = [[0u32; 4]; 21];
    let text = std::fs::read_to_string(&games).unwrap();
    for line in text.lines() {
        let moves: Vec<String> = line
            .split("\"moves\":[")
            .nth(1)
            .and_then(|rest| rest.split(']').next())
            .map(|list| {
                list.split(',')
                    .map(|m| m.trim_matches('"').to_string())
                    .collect()
            })
            .unwrap_or_default();
        let mut game = Game::new(Position::startpos(), rules);
        for mv in moves {
            let position = *game.position();
            if position.goats_in_hand() > 0 && seen.insert(position.hash()) {
                let row = &mut counts[usize::from(position.goats_in_hand())];
                row[0] += 1;
                let decided = matches!(
                    forbid.placement_value(&position),
                    Some(ForbidValue::Win | ForbidValue::Loss)
                );
                row[3] += u32::from(decided);
                if tables.probe(&position).map(|v| v.wdl) == Some(Wdl::Draw) {
                    row[1] += 1;
                    row[2] += u32::from(decided);
                }
            }
            if game.play(mv.parse().expect("a move")).is_err() {
                break;
            }
        }
    }
    eprintln!("in-hand positions table-draws decided-draws decided-positions");
    for (in_hand, row) in counts.iter().enumerate().filter(|(_, row)| row[0] > 0) {
        eprintln!(
            "{in_hand:7} {:9} {:11} {:13} {:17}",
            row[0], row[1], row[2], row[3]
        );
    }
}
