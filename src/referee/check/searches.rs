//! The `go` checks: move time, depth, nodes, clocks for either side to move (goats = `wtime`,
//! UGI `p1time`), `infinite` + `stop` (with `isready` during the search), ponder + `ponderhit`
//! and ponder + `stop`. Time is measured from sending `go` to reading `bestmove`.

use super::judge::Probe;
use super::suite::MOVEMENT;
use super::Checker;
use std::time::{Duration, Instant};

/// How long a held search (`infinite`, `ponder`) is watched for an early `bestmove`.
const HOLD: Duration = Duration::from_millis(300);

/// Runs the `go` checks.
pub fn run_all(checker: &mut Checker<'_>) {
    for ms in [10u64, 50, 200] {
        let name = format!("go-movetime-{ms}");
        checker.check(&name.clone(), |c| {
            let allowed = Duration::from_millis(ms) + c.limits.margin;
            let took = c.search(
                &Probe::new(None, &["c3"]),
                &format!("go movetime {ms}"),
                allowed,
            )?;
            c.record_overrun(&name, took, Duration::from_millis(ms));
            Ok(())
        });
    }
    checker.check("go-depth", |c| {
        c.search(
            &Probe::new(Some(MOVEMENT), &[]),
            "go depth 3",
            c.limits.timeout,
        )
        .map(|_| ())
    });
    checker.check("go-nodes", |c| {
        c.search(
            &Probe::new(None, &["c3", "a1b2"]),
            "go nodes 5000",
            c.limits.timeout,
        )
        .map(|_| ())
    });
    // The side to move has a short clock, the other a long one: an engine that reads the
    // wrong clock overruns.
    for (name, moves) in [
        ("go-clock-goats", &["c3", "a1b2"][..]),
        ("go-clock-tigers", &["c3"]),
    ] {
        let goats_to_move = moves.len() % 2 == 0;
        checker.check(name, |c| {
            let [wtime, btime, winc, binc] = c.dialect.clock_words();
            let (own, other) = (400u64, 600_000u64);
            let (goats, tigers) = if goats_to_move {
                (own, other)
            } else {
                (other, own)
            };
            let go = format!("go {wtime} {goats} {btime} {tigers} {winc} 0 {binc} 0");
            let allowed = Duration::from_millis(own) + c.limits.margin;
            let took = c.search(&Probe::new(None, moves), &go, allowed)?;
            c.record_overrun(name, took, Duration::from_millis(own));
            Ok(())
        });
    }
    checker.check("go-clock-movestogo", |c| {
        let [wtime, btime, winc, binc] = c.dialect.clock_words();
        let go = format!("go {wtime} 300 {btime} 300 {winc} 0 {binc} 0 movestogo 1");
        let allowed = Duration::from_millis(300) + c.limits.margin;
        let took = c.search(&Probe::new(None, &[]), &go, allowed)?;
        c.record_overrun("go-clock-movestogo", took, Duration::from_millis(300));
        Ok(())
    });
    checker.check("go-infinite-stop", |c| held(c, "go infinite", "stop"));
    checker.check("go-ponder-hit", |c| {
        let [wtime, btime, winc, binc] = c.dialect.clock_words();
        let go = format!("go ponder {wtime} 2000 {btime} 2000 {winc} 0 {binc} 0");
        held(c, &go, "ponderhit")
    });
    checker.check("go-ponder-stop", |c| {
        let [wtime, btime, winc, binc] = c.dialect.clock_words();
        let go = format!("go ponder {wtime} 2000 {btime} 2000 {winc} 0 {binc} 0");
        held(c, &go, "stop")
    });
}

/// A held search: no `bestmove` for [`HOLD`], `isready` answered at once meanwhile, then
/// `release` (`stop` or `ponderhit`) gets the `bestmove` (after `stop` at once, its latency
/// recorded; after `ponderhit` within the clock).
fn held(checker: &mut Checker<'_>, go: &str, release: &str) -> Result<(), String> {
    let probe = Probe {
        rules: checker.rules,
        ..Probe::new(None, &["c3", "a1b2"])
    };
    let game = probe.game();
    checker.wire().send(&probe.command())?;
    checker.wire().send(go)?;
    let mut lines = checker.wire().listen(HOLD)?;
    if let Some(early) = lines.iter().find(|l| l.starts_with("bestmove")) {
        return Err(format!(
            "\"{early}\" before {release}: a {go} search must wait for it"
        ));
    }
    let at_once = checker.limits.at_once;
    checker.wire().send("isready")?;
    let (before, _, took) = checker
        .wire()
        .expect("readyok", at_once)
        .map_err(|error| format!("isready during the search: {error}"))?;
    lines.extend(before);
    if let Some(early) = lines.iter().find(|l| l.starts_with("bestmove")) {
        return Err(format!(
            "\"{early}\" before {release} (during isready, after {} ms)",
            took.as_millis()
        ));
    }
    checker.wire().send(release)?;
    let released = Instant::now();
    let allowed = if release == "stop" {
        at_once
    } else {
        Duration::from_millis(2000) + checker.limits.margin
    };
    let (infos, best, _) = checker
        .wire()
        .expect("bestmove", allowed)
        .map_err(|error| format!("after {release}: {error}"))?;
    let latency = released.elapsed();
    lines.extend(infos);
    if release == "stop" {
        checker.stop_latencies.push((go.to_string(), latency));
    } else {
        checker.record_overrun("go-ponder-hit", latency, Duration::from_millis(2000));
    }
    checker.judge_reply(&game, &lines, &best)?;
    checker.sync().map(|_| ())
}
