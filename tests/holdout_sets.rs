//! The held-out test sets (tests/data/holdout/, issue 27): the committed files are well formed,
//! critical as the rules core sees them, exact under the rule they name, and disjoint from the
//! evaluation's training sample; the collector that writes them keeps only what belongs, judged
//! under forbid by a full-history search of the game itself.

mod tb_common;

use baghchal::referee::positions::read_suite;
use baghchal::tablebase::Wdl;
use baghchal::tuning::holdout::{held_out_positions, self_play, uniform_rng, Collector, Source};
use baghchal::{Game, Position, Repetition, Rules};
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use tb_common::{mover_loses_within, mover_wins_within, rules, tables};

fn holdout_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/holdout")
}

/// The committed sets: every `*-draw.txt` and `*-forbid.txt`.
fn committed_sets() -> Vec<PathBuf> {
    let mut sets: Vec<PathBuf> = std::fs::read_dir(holdout_dir())
        .expect("tests/data/holdout")
        .map(|entry| entry.unwrap().path())
        .filter(|path| {
            let name = path.file_name().unwrap().to_string_lossy();
            name.ends_with("-draw.txt") || name.ends_with("-forbid.txt")
        })
        .collect();
    sets.sort();
    sets
}

#[test]
fn the_committed_sets_are_critical_and_name_their_rule() {
    let sets = committed_sets();
    // Five sources (self-play by nodes and by time, low levels, another program, uniform),
    // each under both rules.
    assert!(sets.len() >= 10, "{sets:?}");
    for path in &sets {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let (rules, entries) = read_suite(path).unwrap_or_else(|e| panic!("{name}: {e}"));
        let forbid = name.ends_with("-forbid.txt");
        assert_eq!(rules.repetition == Repetition::Forbid, forbid, "{name}");
        let mut seen = HashSet::new();
        let (mut movement, mut placement) = (0, 0);
        for entry in &entries {
            assert!(
                seen.insert(entry.position),
                "{name}: twice {}",
                entry.line()
            );
            let game = Game::new(entry.position, rules);
            let legal = game.legal_moves();
            assert!(game.outcome().is_none(), "{name}: {}", entry.line());
            assert!(!entry.keeping.is_empty(), "{name}: {}", entry.line());
            assert!(
                entry.keeping.iter().all(|mv| legal.contains(mv)),
                "{name}: {}",
                entry.line()
            );
            assert!(
                entry.keeping.len() < legal.len(),
                "{name}: {}",
                entry.line()
            );
            // Under forbid only wins are exact (table draws are not the game's value there).
            assert!(
                !forbid || entry.value.starts_with("win"),
                "{name}: {}",
                entry.line()
            );
            if entry.position.goats_in_hand() > 0 {
                placement += 1;
            } else {
                movement += 1;
            }
        }
        // Exact forbid wins are rare in some sources (tools/holdout/make_sets.sh asks 150 a
        // phase from at most 400 games): every file still has some.
        assert!(movement + placement >= 25, "{name}: {movement} {placement}");
    }
}

/// The committed samples of the training data: the classic fit's (`tools/eval_sample.tsv`) and
/// the pattern network's (`tools/network_sample.tsv`); `network_train` also drops every
/// held-out position itself and counts them in the weights file's header.
#[test]
fn no_held_out_position_is_in_the_training_samples() {
    for sample in ["tools/eval_sample.tsv", "tools/network_sample.tsv"] {
        let text =
            std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(sample)).unwrap();
        let training: HashSet<Position> = text
            .lines()
            .filter_map(|line| line.split('\t').next()?.parse().ok())
            .collect();
        assert!(training.len() > 100, "{sample}");
        for path in committed_sets() {
            let (_, entries) = read_suite(&path).unwrap();
            for entry in entries {
                assert!(
                    !training.contains(&entry.position),
                    "{sample}: {}: {}",
                    path.display(),
                    entry.line()
                );
            }
        }
    }
}

/// What the training tools leave out is every position of every committed set, and a
/// directory without sets is an error rather than nothing to leave out.
#[test]
fn the_training_tools_leave_out_every_held_out_position() {
    let excluded = held_out_positions(&holdout_dir()).unwrap();
    let mut expected = HashSet::new();
    for path in committed_sets() {
        let (_, entries) = read_suite(&path).unwrap();
        expected.extend(entries.into_iter().map(|entry| entry.position));
    }
    assert_eq!(excluded, expected);
    let empty = std::env::temp_dir().join(format!("holdout-empty-{}", std::process::id()));
    std::fs::create_dir_all(&empty).unwrap();
    assert!(held_out_positions(&empty).is_err());
    std::fs::remove_dir_all(&empty).unwrap();
    assert!(held_out_positions(&empty).is_err());
}

#[test]
fn the_collector_keeps_critical_positions_and_under_forbid_exact_wins_only() {
    let mut checked = 0;
    for repetition in [Repetition::Draw, Repetition::Forbid] {
        let rules = rules(repetition);
        let collect = || {
            let mut set = Collector::new(tables(), rules, 40, 2);
            let mut rng = uniform_rng(11);
            for _ in 0..60 {
                set.take_uniform_round(&mut rng, 100);
            }
            set.phases
        };
        let [movement, placement] = collect();
        // The test tables have no placement layers: no placement position can be labelled.
        assert!(placement.is_empty());
        assert_eq!(movement.len(), 40, "{repetition:?}");
        assert_eq!(collect()[0], movement, "the same seed gives the same set");
        for entry in &movement {
            let game = Game::new(entry.position, rules);
            let legal = game.legal_moves();
            assert!(entry.keeping.len() < legal.len() && !entry.keeping.is_empty());
            if repetition == Repetition::Draw {
                continue;
            }
            // Forbid: a win, and every move either keeps it or loses it, each checked by trying
            // every line of the game itself, history included (short distances only).
            assert!(entry.value.starts_with("win"), "{}", entry.line());
            for &mv in legal.iter() {
                let mut after = game.clone();
                after.play(mv).unwrap();
                if after.outcome().is_some() {
                    assert!(entry.keeping.contains(&mv), "{} {mv}", entry.line());
                    continue;
                }
                let child = tables().probe(after.position()).unwrap();
                if entry.unknown.contains(&mv) {
                    assert_eq!(child.wdl, Wdl::Draw, "{} {mv}", entry.line());
                    continue;
                }
                let plies = u32::from(child.plies_to_end.unwrap());
                if plies > 6 {
                    continue;
                }
                let holds = if entry.keeping.contains(&mv) {
                    mover_loses_within(&mut after, plies)
                } else {
                    mover_wins_within(&mut after, plies)
                };
                assert!(holds, "{} after {mv}: {child:?}", entry.line());
                checked += 1;
            }
        }
    }
    assert!(
        checked > 20,
        "{checked} moves checked by the full-history search"
    );
}

#[test]
fn self_play_sources_repeat_game_for_game() {
    let rules = Rules {
        repetition: Repetition::Draw,
        ..Rules::default()
    };
    let a = self_play(&Source::Nodes(300), rules, 5, 2, 40);
    assert_eq!(a, self_play(&Source::Nodes(300), rules, 5, 2, 40));
    assert!(a.len() > 10);
    let weak = self_play(&Source::Elo(400), rules, 5, 2, 40);
    assert_eq!(weak, self_play(&Source::Elo(400), rules, 5, 2, 40));
    assert!(self_play(&Source::Uniform, rules, 5, 2, 40).is_empty());
}
