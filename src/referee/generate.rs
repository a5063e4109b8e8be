//! `referee openings`: generates varied, playable starts: random plies from the start
//! position, each candidate checked by a short engine search and kept only when neither side
//! is clearly lost; duplicates are dropped.

use super::cli::OpeningsArgs;
use super::console::Console;
use super::engine_process::{EngineProcess, Timeouts};
use super::game::position_command;
use super::openings::Opening;
use super::play::sibling_engine;
use super::runner::start_engine;
use super::spec::parse_engines;
use crate::{Game, Rules};
use rand::rngs::StdRng;
use rand::seq::IndexedRandom;
use rand::SeedableRng;
use std::collections::HashSet;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// A random game of `plies` moves from the start, or None if it ended on the way.
pub fn random_opening(rng: &mut StdRng, plies: usize, rules: Rules) -> Option<Opening> {
    let mut game = Game::startpos(rules);
    for _ in 0..plies {
        let moves = game.legal_moves();
        let mv = *moves.choose(rng)?;
        game.play_unchecked(mv);
    }
    game.outcome().is_none().then(|| Opening {
        start: *game.start_position(),
        moves: game.moves().to_vec(),
    })
}

fn checker(
    args: &OpeningsArgs,
    rules: &Rules,
    stop: &AtomicBool,
) -> Result<Option<EngineProcess>, String> {
    if args.no_search {
        return Ok(None);
    }
    let mut tokens = if args.engine.is_empty() {
        vec![format!("cmd={}", sibling_engine()?.display())]
    } else {
        args.engine.clone()
    };
    tokens.push(format!("depth={}", args.depth));
    let spec = parse_engines(&[tokens], &[])
        .map_err(|e| e.to_string())?
        .remove(0);
    start_engine(&spec, rules, &Timeouts::default(), stop)
        .map(Some)
        .map_err(|e| format!("engine \"{}\": {e}", spec.command.program))
}

/// Runs `referee openings`.
///
/// # Errors
/// Bad options, an engine that fails, or an output file that cannot be written.
pub fn generate(
    args: &OpeningsArgs,
    stop: &AtomicBool,
    console: &mut Console,
) -> Result<(), String> {
    let rules = args.rules.rules();
    let seed = args.seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64)
    });
    console.note(&format!("referee openings: seed {seed}"));
    let mut engine = checker(args, &rules, stop)?;
    let mut rng = StdRng::seed_from_u64(seed);
    let mut seen = HashSet::new();
    let mut kept: Vec<Opening> = Vec::new();
    let attempts = args.count.saturating_mul(50).max(100);
    for _ in 0..attempts {
        if kept.len() == args.count {
            break;
        }
        let Some(opening) = random_opening(&mut rng, args.plies, rules) else {
            continue;
        };
        let game = opening.game(rules)?;
        if !seen.insert(game.position().to_string()) {
            continue;
        }
        if let Some(engine) = engine.as_mut() {
            let reply = engine
                .go(
                    &position_command(&opening.start, &game),
                    &format!("go depth {}", args.depth),
                    Duration::from_secs(60),
                    stop,
                )
                .map_err(|e| format!("the checking engine failed: {e}"))?;
            match reply.score {
                Some(score) if score.as_centi().abs() <= args.max_score => {}
                _ => continue,
            }
        }
        kept.push(opening);
    }
    if let Some(engine) = engine {
        engine.shutdown(Duration::from_secs(1));
    }
    let check = if args.no_search {
        "no-search".to_string()
    } else {
        format!("depth={} max-score={}", args.depth, args.max_score)
    };
    let mut text = format!(
        "# referee openings: count={} plies={} seed={seed} {check} rules: {rules}\n",
        kept.len(),
        args.plies,
    );
    for opening in &kept {
        text.push_str(&opening.to_string());
        text.push('\n');
    }
    std::fs::write(&args.out, text).map_err(|e| format!("cannot write \"{}\": {e}", args.out))?;
    console.note(&format!(
        "referee openings: wrote {} openings to {}",
        kept.len(),
        args.out
    ));
    if kept.len() < args.count {
        return Err(format!(
            "only {} of {} openings found in {attempts} attempts: raise --max-score or lower --plies",
            kept.len(),
            args.count
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_openings_are_legal_and_reproducible() {
        let mut first = StdRng::seed_from_u64(3);
        let mut second = StdRng::seed_from_u64(3);
        for _ in 0..20 {
            let a = random_opening(&mut first, 6, Rules::default());
            assert_eq!(a, random_opening(&mut second, 6, Rules::default()));
            if let Some(opening) = a {
                assert_eq!(opening.moves.len(), 6);
                opening.game(Rules::default()).unwrap();
            }
        }
    }
}
