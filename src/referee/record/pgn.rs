//! The PGN-like game record format (see docs/referee.md):
//!
//! ```text
//! [Event "referee match"]
//! [Site "?"]
//! [Date "2026.11.29"]
//! [Round "1"]
//! [Game "1"]
//! [Pair "1"]
//! [Goat "A"]
//! [Tiger "B"]
//! [Result "1-0"]
//! [Position "T3T/5/5/5/T3T g 20 0"]
//! [Rules "ForcedCapture=false CapturesToWin=5 Repetition=forbid"]
//! [TimeControl "10+0.1"]
//! [Termination "normal"]
//! [PlyCount "41"]
//!
//! 1. c3 {book} a1b2 {book} 2. d3 {+0.35/4 0.012s} e1e2 {-0.10/4 0.020s} ...
//! {Goats win: tigers blocked} 1-0
//! ```

use super::{GameRecord, RecordedMove};
use crate::referee::engine_process::Score;
use crate::referee::outcome::{GameResult, Termination};
use crate::{Move, Position, Rules, Side};
use std::collections::HashMap;
use std::fmt::Write;

fn escape(text: &str) -> String {
    text.replace('\\', "\\\\").replace('"', "\\\"")
}

/// A move comment: `book`, or `[score[/depth] ]time` such as `+0.35/4 0.012s`, `-M3 1.500s`.
fn comment(record: &RecordedMove) -> String {
    if record.book {
        return "book".to_string();
    }
    let mut text = String::new();
    match record.score {
        Some(Score::Centi(value)) => {
            let sign = if value < 0 { '-' } else { '+' };
            let _ = write!(
                text,
                "{sign}{}.{:02}",
                value.unsigned_abs() / 100,
                value.unsigned_abs() % 100
            );
        }
        Some(Score::Mate(moves)) => {
            let sign = if moves < 0 { '-' } else { '+' };
            let _ = write!(text, "{sign}M{}", moves.unsigned_abs());
        }
        None => {}
    }
    if let (Some(depth), true) = (record.depth, record.score.is_some()) {
        let _ = write!(text, "/{depth}");
    }
    if let Some(ms) = record.time_ms {
        if !text.is_empty() {
            text.push(' ');
        }
        let _ = write!(text, "{}.{:03}s", ms / 1000, ms % 1000);
    }
    text
}

/// Writes one game.
pub fn write_game(record: &GameRecord) -> String {
    let mut out = String::new();
    let mut tag = |name: &str, value: &str| {
        let _ = writeln!(out, "[{name} \"{}\"]", escape(value));
    };
    tag("Event", &record.event);
    tag("Site", &record.site);
    tag("Date", &record.date);
    tag("Round", &record.round.to_string());
    tag("Game", &record.number.to_string());
    tag("Pair", &record.pair.to_string());
    tag("Goat", &record.goat);
    tag("Tiger", &record.tiger);
    tag("Result", record.result.as_str());
    tag("Position", &record.start.to_string());
    tag("Rules", &record.rules.to_string());
    if record.goat_time_control == record.tiger_time_control {
        tag("TimeControl", &record.goat_time_control);
    } else {
        tag("GoatTimeControl", &record.goat_time_control);
        tag("TigerTimeControl", &record.tiger_time_control);
    }
    tag("Termination", record.termination.as_str());
    tag("PlyCount", &record.moves.len().to_string());
    out.push('\n');
    let mut tokens = Vec::new();
    let mut side = record.start.side_to_move();
    let mut number = 1;
    for (index, played) in record.moves.iter().enumerate() {
        match side {
            Side::Goats => tokens.push(format!("{number}.")),
            Side::Tigers if index == 0 => tokens.push(format!("{number}...")),
            Side::Tigers => {}
        }
        tokens.push(played.mv.to_string());
        tokens.push(format!("{{{}}}", comment(played)));
        if side == Side::Tigers {
            number += 1;
        }
        side = side.opposite();
    }
    tokens.push(format!(
        "{{{}}}",
        record.reason.replace('{', "(").replace('}', ")")
    ));
    tokens.push(record.result.as_str().to_string());
    let mut line = String::new();
    for token in tokens {
        if !line.is_empty() && line.len() + 1 + token.len() > 79 {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&token);
    }
    out.push_str(&line);
    out.push_str("\n\n");
    out
}

fn parse_comment(text: &str) -> Result<RecordedMove, String> {
    let placeholder: Move = "a1".parse().expect("a1 is a move");
    if text == "book" {
        return Ok(RecordedMove::book(placeholder));
    }
    let mut record = RecordedMove {
        mv: placeholder,
        book: false,
        score: None,
        depth: None,
        time_ms: None,
        allowed_ms: None,
    };
    let bad = || format!("invalid move comment \"{text}\"");
    for token in text.split_whitespace() {
        if let Some(seconds) = token.strip_suffix('s') {
            let (whole, fraction) = seconds.split_once('.').ok_or_else(bad)?;
            let whole: u64 = whole.parse().map_err(|_| bad())?;
            let fraction: u64 = fraction.parse().map_err(|_| bad())?;
            record.time_ms = Some(whole * 1000 + fraction);
            continue;
        }
        let (score, depth) = match token.split_once('/') {
            Some((score, depth)) => (score, Some(depth.parse().map_err(|_| bad())?)),
            None => (token, None),
        };
        record.depth = depth;
        let negative = score.starts_with('-');
        let magnitude = score.get(1..).ok_or_else(bad)?;
        let sign = if negative { -1 } else { 1 };
        record.score = Some(if let Some(moves) = magnitude.strip_prefix('M') {
            Score::Mate(sign * moves.parse::<i32>().map_err(|_| bad())?)
        } else {
            let (whole, fraction) = magnitude.split_once('.').ok_or_else(bad)?;
            let whole: i32 = whole.parse().map_err(|_| bad())?;
            let fraction: i32 = fraction.parse().map_err(|_| bad())?;
            Score::Centi(sign * (whole * 100 + fraction))
        });
    }
    Ok(record)
}

fn parse_tag(line: &str) -> Option<(String, String)> {
    let inner = line.strip_prefix('[')?.strip_suffix(']')?;
    let (name, rest) = inner.split_once(' ')?;
    let rest = rest.trim().strip_prefix('"')?.strip_suffix('"')?;
    let mut value = String::new();
    let mut chars = rest.chars();
    while let Some(c) = chars.next() {
        value.push(if c == '\\' { chars.next()? } else { c });
    }
    Some((name.to_string(), value))
}

fn parse_game(tags: &HashMap<String, String>, movetext: &str) -> Result<GameRecord, String> {
    let tag = |name: &str| {
        tags.get(name)
            .cloned()
            .ok_or_else(|| format!("missing tag {name}"))
    };
    let number = |name: &str| -> Result<u64, String> {
        let value = tag(name)?;
        value
            .parse()
            .map_err(|_| format!("invalid {name} \"{value}\""))
    };
    let start: Position = tag("Position")?.parse().map_err(|e| format!("{e}"))?;
    let rules: Rules = tag("Rules")?.parse().map_err(|e| format!("{e}"))?;
    let result_text = tag("Result")?;
    let result = GameResult::parse(&result_text)
        .ok_or_else(|| format!("invalid Result \"{result_text}\""))?;
    let termination_text = tag("Termination")?;
    let termination = Termination::parse(&termination_text)
        .ok_or_else(|| format!("invalid Termination \"{termination_text}\""))?;
    let (goat_time_control, tiger_time_control) = match tags.get("TimeControl") {
        Some(both) => (both.clone(), both.clone()),
        None => (tag("GoatTimeControl")?, tag("TigerTimeControl")?),
    };
    let mut moves: Vec<RecordedMove> = Vec::new();
    let mut pending: Option<Move> = None;
    let mut reason = String::new();
    let mut rest = movetext;
    while let Some(start_index) = rest.find(|c: char| !c.is_whitespace()) {
        rest = &rest[start_index..];
        if let Some(after) = rest.strip_prefix('{') {
            let end = after.find('}').ok_or("unterminated comment")?;
            let text = &after[..end];
            match pending.take() {
                Some(mv) => moves.push(RecordedMove {
                    mv,
                    ..parse_comment(text)?
                }),
                None => reason = text.to_string(),
            }
            rest = &after[end + 1..];
            continue;
        }
        let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
        let token = &rest[..end];
        rest = &rest[end..];
        if token.ends_with('.') && token.trim_end_matches('.').parse::<u32>().is_ok() {
            continue;
        }
        if GameResult::parse(token).is_some() || token == "*" {
            break;
        }
        if let Some(mv) = pending.replace(token.parse().map_err(|e| format!("{e}"))?) {
            moves.push(RecordedMove {
                mv,
                ..parse_comment("")?
            });
        }
    }
    if let Some(mv) = pending {
        moves.push(RecordedMove {
            mv,
            ..parse_comment("")?
        });
    }
    Ok(GameRecord {
        event: tag("Event")?,
        site: tag("Site")?,
        date: tag("Date")?,
        round: u32::try_from(number("Round")?).map_err(|_| "invalid Round".to_string())?,
        number: number("Game")?,
        pair: number("Pair")?,
        goat: tag("Goat")?,
        tiger: tag("Tiger")?,
        start,
        rules,
        goat_time_control,
        tiger_time_control,
        moves,
        result,
        termination,
        reason,
        time_forfeit: None,
    })
}

/// Reads every game of a PGN-like text.
///
/// # Errors
/// `game N (line L): ...` for the first bad game.
pub fn parse_games(text: &str) -> Result<Vec<GameRecord>, String> {
    let mut games = Vec::new();
    let mut tags = HashMap::new();
    let mut movetext = String::new();
    let mut first_line = 0;
    let mut finish = |tags: &mut HashMap<String, String>, movetext: &mut String, line: usize| {
        if tags.is_empty() {
            return Ok(());
        }
        let game = parse_game(tags, movetext)
            .map_err(|e| format!("game {} (line {line}): {e}", games.len() + 1))?;
        games.push(game);
        tags.clear();
        movetext.clear();
        Ok::<(), String>(())
    };
    for (index, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.starts_with('[') {
            if !movetext.trim().is_empty() {
                finish(&mut tags, &mut movetext, first_line)?;
            }
            if tags.is_empty() {
                first_line = index + 1;
            }
            let (name, value) = parse_tag(line)
                .ok_or_else(|| format!("line {}: invalid tag \"{line}\"", index + 1))?;
            tags.insert(name, value);
        } else if !line.is_empty() {
            if tags.is_empty() {
                return Err(format!(
                    "line {}: moves without tags: \"{line}\"",
                    index + 1
                ));
            }
            movetext.push_str(line);
            movetext.push('\n');
        }
    }
    finish(&mut tags, &mut movetext, first_line)?;
    Ok(games)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::referee::record::tests::sample;

    #[test]
    fn games_round_trip() {
        let mut record = sample();
        let mut second = sample();
        second.number = 8;
        second.start = "T3T/5/2G2/5/T3T t 19 0".parse().unwrap();
        second.moves.truncate(1);
        second.moves[0].mv = "a1b2".parse().unwrap();
        second.goat_time_control = second.tiger_time_control.clone();
        let text = write_game(&record) + &write_game(&second);
        assert!(
            text.contains("2. b3 {-0.35/4 0.012s} e1d2 {-M3 1.500s} 3. d3"),
            "{text}"
        );
        assert!(
            text.contains("{0.000s} {Goats lose: illegal move \"c3\" (occupied)} 0-1"),
            "{text}"
        );
        assert!(text.contains("1... a1b2 {book}"), "{text}");
        assert_eq!(parse_games(&text).unwrap(), vec![record.clone(), second]);
        record.reason = "a {nested} brace".into();
        assert_eq!(
            parse_games(&write_game(&record)).unwrap()[0].reason,
            "a (nested) brace"
        );
    }

    #[test]
    fn bad_records_are_errors() {
        let good = write_game(&sample());
        for (bad, needle) in [
            (
                good.replace("[Result \"0-1\"]", "[Result \"2-0\"]"),
                "\"2-0\"",
            ),
            (good.replace("[Pair \"4\"]\n", ""), "missing tag Pair"),
            (good.replace("e1d2", "e1e9"), "e1e9"),
            (
                good.replace("{book}", "{bogus comment}"),
                "\"bogus comment\"",
            ),
            ("c3 a1b2\n".to_string(), "without tags"),
        ] {
            let error = parse_games(&bad).unwrap_err();
            assert!(error.contains(needle), "{error}");
        }
    }
}
