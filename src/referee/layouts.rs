//! The score blocks of `-output format=cutechess` and `-output format=fastchess`: the lines
//! cutechess-cli and fastchess print, so that scripts written for them read ours. Goats move
//! first and get `wtime`, so they are White in the cutechess layout. Game lines ("Started game",
//! "Finished game") and the one-line score are the same in every layout (report.rs).

use super::report::{fixed, score_of, Tally};
use super::stats::{
    elo_from_score, elo_pentanomial, elo_trinomial, normal_cdf, Sprt, SprtResult, Trinomial,
};

/// `value` with `decimals` decimals; `nan`, `inf`, `-inf` as C++ prints them.
fn number(value: f64, decimals: usize) -> String {
    if value.is_nan() {
        "nan".to_string()
    } else if value.is_infinite() {
        if value > 0.0 { "inf" } else { "-inf" }.to_string()
    } else {
        fixed(value, decimals)
    }
}

/// `value` with 3 significant digits, as Qt's `arg(value, 0, 'g', 3)`: `0.923`, `2.94`, `-12.3`,
/// `0`.
fn significant(value: f64) -> String {
    if value == 0.0 || !value.is_finite() {
        return number(value, 0);
    }
    let magnitude = value.abs().log10().floor() as i32;
    if !(-5..3).contains(&magnitude) {
        return format!("{value:.2e}");
    }
    let decimals = usize::try_from(2 - magnitude).unwrap_or(0);
    let text = format!("{value:.decimals$}");
    if text.contains('.') {
        text.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        text
    }
}

/// A cutechess side line: `...      A playing White: 3 - 1 - 1  [0.700] 5`.
fn side_line(label: &str, t: &Trinomial) -> String {
    format!(
        "...      {label}: {} - {} - {}  [{:.3}] {}",
        t.wins,
        t.losses,
        t.draws,
        score_of(t),
        t.games()
    )
}

/// cutechess-cli's results of a two-engine match: the side lines, `Elo difference: ...` (its
/// LOS formula, `Phi((W - L) / sqrt(W + L))`) and its SPRT line.
pub fn cutechess_block(tally: &Tally, sprt: Option<(&Sprt, f64)>) -> Vec<String> {
    let mut lines = Vec::new();
    if tally.as_goats.games() > 0 {
        lines.push(side_line(
            &format!("{} playing White", tally.first),
            &tally.as_goats,
        ));
    }
    if tally.as_tigers.games() > 0 {
        lines.push(side_line(
            &format!("{} playing Black", tally.first),
            &tally.as_tigers,
        ));
    }
    if tally.total.games() > 0 {
        lines.push(side_line("White vs Black", &tally.sides));
    }
    let t = &tally.total;
    let (elo, error) = match elo_trinomial(t) {
        Some(estimate) => (estimate.elo, estimate.error_95),
        None => (elo_from_score(score_of(t)), f64::NAN),
    };
    let decisive = (t.wins + t.losses) as f64;
    let los = normal_cdf((t.wins as f64 - t.losses as f64) / decisive.sqrt()) * 100.0;
    let draws = t.draws as f64 / t.games() as f64 * 100.0;
    lines.push(format!(
        "Elo difference: {} +/- {}, LOS: {} %, DrawRatio: {} %",
        number(elo, 1),
        number(error, 1),
        number(los, 1),
        number(draws, 1)
    ));
    if let Some((sprt, llr)) = sprt {
        let (lower, upper) = sprt.bounds();
        let mut line = format!(
            "SPRT: llr {} ({:.1}%), lbound {}, ubound {}",
            significant(llr),
            llr / upper * 100.0,
            significant(lower),
            significant(upper)
        );
        match sprt.decide(llr) {
            Some(SprtResult::AcceptH0) => line.push_str(" - H0 was accepted"),
            Some(SprtResult::AcceptH1) => line.push_str(" - H1 was accepted"),
            None => {}
        }
        lines.push(line);
    }
    lines
}

/// What fastchess's result header names: time controls, threads and hash of both engines,
/// and the openings file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MatchHeader {
    /// `10+0.1`, or `10+0.1 - 5+0.05` when the engines differ.
    pub time_control: String,
    /// `1t` (option Threads as set), `NULL` when not set.
    pub threads: String,
    /// `16MB` (option Hash as set), `NULL` when not set.
    pub hash: String,
    /// The openings file's name without its directory, if any.
    pub book: Option<String>,
}

/// fastchess's result block (pentanomial report) between dashed lines.
pub fn fastchess_block(
    tally: &Tally,
    header: &MatchHeader,
    sprt: Option<(&Sprt, f64)>,
) -> Vec<String> {
    const RULE: &str = "--------------------------------------------------";
    let t = &tally.total;
    let p = tally.pentanomial().0;
    let (win_loss, draw_draw) = tally.win_loss_and_draw_pairs();
    let pairs = tally.pentanomial().pairs() as f64;
    let (elo, error, nelo, nelo_error, los) = match elo_pentanomial(&tally.pentanomial()) {
        Some(e) => (e.elo, e.error_95, e.nelo, e.nelo_error_95, e.los * 100.0),
        None => (f64::NAN, f64::NAN, f64::NAN, f64::NAN, f64::NAN),
    };
    let points = t.wins as f64 + t.draws as f64 / 2.0;
    let book = header
        .book
        .as_ref()
        .map_or(String::new(), |book| format!(", {book}"));
    let mut lines = vec![
        RULE.to_string(),
        format!(
            "Results of {} vs {} ({}, {}, {}{book}):",
            tally.first, tally.second, header.time_control, header.threads, header.hash
        ),
        format!(
            "Elo: {} +/- {}, nElo: {} +/- {}",
            number(elo, 2),
            number(error, 2),
            number(nelo, 2),
            number(nelo_error, 2)
        ),
        format!(
            "LOS: {} %, DrawRatio: {} %, PairsRatio: {}",
            number(los, 2),
            number(p[2] as f64 / pairs * 100.0, 2),
            number((p[4] + p[3]) as f64 / (p[1] + p[0]) as f64, 2)
        ),
        format!(
            "Games: {}, Wins: {}, Losses: {}, Draws: {}, Points: {points:.1} ({} %)",
            t.games(),
            t.wins,
            t.losses,
            t.draws,
            number(points / t.games() as f64 * 100.0, 2)
        ),
        format!(
            "Ptnml(0-2): [{}, {}, {}, {}, {}], WL/DD Ratio: {}",
            p[0],
            p[1],
            p[2],
            p[3],
            p[4],
            number(win_loss as f64 / draw_draw as f64, 2)
        ),
    ];
    if let Some((sprt, llr)) = sprt {
        let (lower, upper) = sprt.bounds();
        lines.push(format!(
            "LLR: {llr:.2} ({lower:.2}, {upper:.2}) [{:.2}, {:.2}]",
            sprt.elo0, sprt.elo1
        ));
    }
    lines.push(RULE.to_string());
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_print_as_the_tools_print_them() {
        assert_eq!(significant(0.9234), "0.923");
        assert_eq!(significant(2.944_438_979), "2.94");
        assert_eq!(significant(-2.944_438_979), "-2.94");
        assert_eq!(significant(12.345), "12.3");
        assert_eq!(significant(0.5), "0.5");
        assert_eq!(significant(0.0), "0");
        assert_eq!(number(f64::NAN, 1), "nan");
        assert_eq!(number(f64::NEG_INFINITY, 1), "-inf");
        assert_eq!(number(-0.001, 2), "0.00");
    }
}
