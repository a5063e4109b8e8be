//! The key=value groups that follow `-sprt`, `-draw`, `-resign` and `-openings`.

use super::adjudication::{DrawRule, ResignRule};
use super::stats::{Sprt, SprtModel};

/// Splits `key=value` tokens, rejecting unknown keys.
fn key_values<'a>(
    tokens: &'a [String],
    option: &str,
    keys: &[&str],
) -> Result<Vec<(&'a str, &'a str)>, String> {
    tokens
        .iter()
        .map(|token| {
            let (key, value) = token.split_once('=').ok_or_else(|| {
                format!("invalid --{option} setting \"{token}\": expected key=value")
            })?;
            if keys.contains(&key) {
                Ok((key, value))
            } else {
                Err(format!(
                    "unknown --{option} key \"{key}\": expected one of {}",
                    keys.join(", ")
                ))
            }
        })
        .collect()
}

fn number<T: std::str::FromStr>(option: &str, key: &str, value: &str) -> Result<T, String> {
    value
        .parse()
        .map_err(|_| format!("invalid --{option} {key} \"{value}\""))
}

/// Reads `--sprt elo0=.. elo1=.. alpha=.. beta=.. model=..`; None when not given.
///
/// # Errors
/// A message quoting the bad token.
pub fn parse_sprt(tokens: &[String]) -> Result<Option<Sprt>, String> {
    if tokens.is_empty() {
        return Ok(None);
    }
    let (mut elo0, mut elo1, mut alpha, mut beta) = (None, None, 0.05, 0.05);
    let mut model = SprtModel::Normalized;
    let keys = ["elo0", "elo1", "alpha", "beta", "model"];
    for (key, value) in key_values(tokens, "sprt", &keys)? {
        if key == "model" {
            model = SprtModel::parse(value)?;
            continue;
        }
        let parsed: f64 = number("sprt", key, value)?;
        match key {
            "elo0" => elo0 = Some(parsed),
            "elo1" => elo1 = Some(parsed),
            "alpha" => alpha = parsed,
            _ => beta = parsed,
        }
    }
    let (Some(elo0), Some(elo1)) = (elo0, elo1) else {
        return Err("--sprt needs elo0= and elo1=".to_string());
    };
    Sprt::new(elo0, elo1, alpha, beta).map(|sprt| Some(sprt.with_model(model)))
}

/// Reads `--draw movenumber=.. movecount=.. score=..`.
///
/// # Errors
/// A message quoting the bad token.
pub fn parse_draw(tokens: &[String]) -> Result<Option<DrawRule>, String> {
    if tokens.is_empty() {
        return Ok(None);
    }
    let mut rule = DrawRule {
        move_number: 0,
        move_count: 0,
        score: 0,
    };
    for (key, value) in key_values(tokens, "draw", &["movenumber", "movecount", "score"])? {
        match key {
            "movenumber" => rule.move_number = number("draw", key, value)?,
            "movecount" => rule.move_count = number("draw", key, value)?,
            _ => rule.score = number("draw", key, value)?,
        }
    }
    if rule.move_count == 0 {
        return Err("--draw needs movecount=N with N > 0".to_string());
    }
    Ok(Some(rule))
}

/// Reads `--resign movecount=.. score=.. [twosided=true]`.
///
/// # Errors
/// A message quoting the bad token.
pub fn parse_resign(tokens: &[String]) -> Result<Option<ResignRule>, String> {
    if tokens.is_empty() {
        return Ok(None);
    }
    let mut rule = ResignRule {
        move_count: 0,
        score: 0,
        two_sided: false,
    };
    for (key, value) in key_values(tokens, "resign", &["movecount", "score", "twosided"])? {
        match key {
            "movecount" => rule.move_count = number("resign", key, value)?,
            "score" => rule.score = number("resign", key, value)?,
            _ => rule.two_sided = number("resign", key, value)?,
        }
    }
    if rule.move_count == 0 || rule.score <= 0 {
        return Err("--resign needs movecount=N and score=CG, both > 0".to_string());
    }
    Ok(Some(rule))
}

/// The openings settings: file, format, plies, order, 0-based start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpeningsSource {
    /// File path, if any.
    pub file: Option<String>,
    /// Its format (None: from the extension).
    pub format: Option<super::books::BookFormat>,
    /// Plies kept of each opening (None: all).
    pub plies: Option<usize>,
    /// Order.
    pub order: super::openings::Order,
    /// Start offset, 0-based.
    pub start: usize,
}

/// Reads `--openings file=PATH format=epd|pgn|json plies=N order=sequential|random start=N`
/// (start is 1-based as in cutechess).
///
/// # Errors
/// A message quoting the bad token.
pub fn parse_openings_source(tokens: &[String]) -> Result<OpeningsSource, String> {
    use super::openings::Order;
    let mut source = OpeningsSource {
        file: None,
        format: None,
        plies: None,
        order: Order::Sequential,
        start: 0,
    };
    for token in tokens {
        if !token.contains('=') {
            source.file = Some(token.clone());
            continue;
        }
        for (key, value) in key_values(
            std::slice::from_ref(token),
            "openings",
            &["file", "format", "plies", "order", "start"],
        )? {
            match key {
                "file" => source.file = Some(value.to_string()),
                "order" => {
                    source.order = match value {
                        "sequential" => Order::Sequential,
                        "random" => Order::Random,
                        _ => {
                            return Err(format!(
                            "invalid --openings order \"{value}\": expected sequential or random"
                        ))
                        }
                    }
                }
                "format" => source.format = Some(super::books::BookFormat::parse(value)?),
                "plies" => source.plies = Some(number("openings", key, value)?),
                _ => {
                    let start: usize = number("openings", key, value)?;
                    source.start = start.saturating_sub(1);
                }
            }
        }
    }
    Ok(source)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(text: &str) -> Vec<String> {
        text.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn key_value_groups_are_checked() {
        assert!(parse_sprt(&args("elo0=0 elo2=5"))
            .unwrap_err()
            .contains("\"elo2\""));
        assert!(parse_sprt(&args("elo0=0 elo1=x"))
            .unwrap_err()
            .contains("\"x\""));
        assert!(parse_sprt(&args("elo0=0")).unwrap_err().contains("elo1"));
        let bayesian = parse_sprt(&args("elo0=0 elo1=5 model=bayesian"))
            .unwrap()
            .unwrap();
        assert_eq!(bayesian.model, SprtModel::Bayesian);
        assert!(parse_sprt(&args("elo0=0 elo1=5 model=gaussian"))
            .unwrap_err()
            .contains("\"gaussian\""));
        let draw = parse_draw(&args("movenumber=40 movecount=8 score=10"))
            .unwrap()
            .unwrap();
        assert_eq!((draw.move_number, draw.move_count, draw.score), (40, 8, 10));
        assert!(parse_resign(&args("movecount=3")).is_err());
        let resign = parse_resign(&args("movecount=3 score=500 twosided=true"))
            .unwrap()
            .unwrap();
        assert!(resign.two_sided);
        let source = parse_openings_source(&args("file=x.txt order=random start=3")).unwrap();
        assert_eq!((source.file.as_deref(), source.start), (Some("x.txt"), 2));
        assert_eq!((source.format, source.plies), (None, None));
        let source = parse_openings_source(&args("g.txt format=pgn plies=8")).unwrap();
        assert_eq!(
            (source.format, source.plies),
            (Some(super::super::books::BookFormat::Pgn), Some(8))
        );
        assert!(parse_openings_source(&args("plies=x"))
            .unwrap_err()
            .contains("\"x\""));
        assert!(parse_openings_source(&args("order=shuffled"))
            .unwrap_err()
            .contains("\"shuffled\""));
    }
}
