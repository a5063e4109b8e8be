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

use super::keys::RecordKeys;
use super::{GameRecord, RecordedMove};
use crate::referee::engine_process::Score;
use crate::referee::outcome::{GameResult, Termination};
use crate::{Move, Position, Rules, Side};
use std::collections::HashMap;
use std::fmt::Write;

fn escape(text: &str) -> String {
    text.replace('\\', "\\\\").replace('"', "\\\"")
}

/// Seconds with three decimals: `1.500s`, `-0.002s`.
fn seconds(ms: i64) -> String {
    let sign = if ms < 0 { "-" } else { "" };
    let ms = ms.unsigned_abs();
    format!("{sign}{}.{:03}s", ms / 1000, ms % 1000)
}

/// Reads [`seconds`] back as milliseconds.
fn parse_seconds(text: &str) -> Option<i64> {
    let text = text.strip_suffix('s')?;
    let (negative, text) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let (whole, fraction) = text.split_once('.')?;
    if fraction.len() != 3 {
        return None;
    }
    let ms = whole.parse::<i64>().ok()?.checked_mul(1000)? + fraction.parse::<i64>().ok()?;
    Some(if negative { -ms } else { ms })
}

/// A move comment: `book`, or `[score[/depth] ]time` such as `+0.35/4 0.012s`, `-M3 1.500s`,
/// followed by the keys `keys` asks for that the move has, fastchess style:
/// `+0.35/4 0.012s, tl=9.850s, latency=-0.002s, n=1234, sd=9, nps=98000, hashfull=17,
/// tbhits=0, pv="b3 e1d2"`. None in minimal records (except `book`).
fn comment(record: &RecordedMove, keys: &RecordKeys) -> Option<String> {
    if record.book {
        return Some("book".to_string());
    }
    if keys.min {
        return None;
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
        text.push_str(&seconds(i64::try_from(ms).unwrap_or(i64::MAX)));
    }
    let details = &record.details;
    let mut items = vec![text];
    let mut item = |wanted: bool, key: &str, value: Option<String>| {
        if let (true, Some(value)) = (wanted, value) {
            items.push(format!("{key}={value}"));
        }
    };
    let time_left = details
        .time_left_ms
        .map(|ms| seconds(i64::try_from(ms).unwrap_or(i64::MAX)));
    item(keys.timeleft, "tl", time_left);
    item(keys.latency, "latency", details.latency_ms.map(seconds));
    item(
        keys.nodes,
        "n",
        details.figures.nodes.map(|v| v.to_string()),
    );
    item(
        keys.seldepth,
        "sd",
        details.figures.seldepth.map(|v| v.to_string()),
    );
    item(keys.nps, "nps", details.figures.nps.map(|v| v.to_string()));
    item(
        keys.hashfull,
        "hashfull",
        details.figures.hashfull.map(|v| v.to_string()),
    );
    item(
        keys.tbhits,
        "tbhits",
        details.figures.tbhits.map(|v| v.to_string()),
    );
    // Quotes and braces would end the value or the comment: an engine's odd pv is tamed.
    let pv = details.figures.pv.as_ref().map(|pv| {
        let tame: String = pv
            .chars()
            .map(|c| match c {
                '"' => '\'',
                '{' => '(',
                '}' => ')',
                c => c,
            })
            .collect();
        format!("\"{tame}\"")
    });
    item(keys.pv, "pv", pv);
    Some(items.join(", "))
}

/// Writes one game with scores, depths and times per move (no other keys).
pub fn write_game(record: &GameRecord) -> String {
    write_game_with(record, &RecordKeys::default())
}

/// Writes one game with the per-move keys `keys` asks for; a minimal record leaves out the
/// time controls, the ply count, the move comments (but `{book}`) and the final comment.
pub fn write_game_with(record: &GameRecord, keys: &RecordKeys) -> String {
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
    if keys.min {
        // Minimal: no time controls, no ply count.
    } else if record.goat_time_control == record.tiger_time_control {
        tag("TimeControl", &record.goat_time_control);
    } else {
        tag("GoatTimeControl", &record.goat_time_control);
        tag("TigerTimeControl", &record.tiger_time_control);
    }
    tag("Termination", record.termination.as_str());
    if !keys.min {
        tag("PlyCount", &record.moves.len().to_string());
    }
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
        if let Some(text) = comment(played, keys) {
            tokens.push(format!("{{{text}}}"));
        }
        if side == Side::Tigers {
            number += 1;
        }
        side = side.opposite();
    }
    if !keys.min {
        tokens.push(format!(
            "{{{}}}",
            record.reason.replace('{', "(").replace('}', ")")
        ));
    }
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

/// Splits a comment at the commas outside double quotes.
fn comment_items(text: &str) -> Vec<&str> {
    let mut items = Vec::new();
    let mut quoted = false;
    let mut from = 0;
    for (index, c) in text.char_indices() {
        match c {
            '"' => quoted = !quoted,
            ',' if !quoted => {
                items.push(text[from..index].trim());
                from = index + 1;
            }
            _ => {}
        }
    }
    items.push(text[from..].trim());
    items
}

fn parse_comment(text: &str) -> Result<RecordedMove, String> {
    let placeholder: Move = "a1".parse().expect("a1 is a move");
    if text == "book" {
        return Ok(RecordedMove::book(placeholder));
    }
    let mut record = RecordedMove {
        book: false,
        ..RecordedMove::book(placeholder)
    };
    let bad = || format!("invalid move comment \"{text}\"");
    let items = comment_items(text);
    for token in items[0].split_whitespace() {
        if token.ends_with('s') {
            let ms = parse_seconds(token).ok_or_else(bad)?;
            record.time_ms = Some(u64::try_from(ms).map_err(|_| bad())?);
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
    let details = &mut record.details;
    for item in &items[1..] {
        let (key, value) = item.split_once('=').ok_or_else(bad)?;
        fn number<T: std::str::FromStr>(value: &str) -> Option<T> {
            value.parse().ok()
        }
        let read = match key {
            "tl" => parse_seconds(value)
                .and_then(|ms| u64::try_from(ms).ok())
                .map(|ms| details.time_left_ms = Some(ms)),
            "latency" => parse_seconds(value).map(|ms| details.latency_ms = Some(ms)),
            "n" => number(value).map(|v| details.figures.nodes = Some(v)),
            "sd" => number(value).map(|v| details.figures.seldepth = Some(v)),
            "nps" => number(value).map(|v| details.figures.nps = Some(v)),
            "hashfull" => number(value).map(|v| details.figures.hashfull = Some(v)),
            "tbhits" => number(value).map(|v| details.figures.tbhits = Some(v)),
            "pv" => value
                .strip_prefix('"')
                .and_then(|v| v.strip_suffix('"'))
                .map(|v| details.figures.pv = Some(v.to_string())),
            _ => None,
        };
        read.ok_or_else(bad)?;
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
    // Minimal records have no time control: "?" as PGN has it for unknown values.
    let (goat_time_control, tiger_time_control) =
        match (tags.get("TimeControl"), tags.get("GoatTimeControl")) {
            (Some(both), _) => (both.clone(), both.clone()),
            (None, Some(goat)) => (goat.clone(), tag("TigerTimeControl")?),
            (None, None) => ("?".to_string(), "?".to_string()),
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
    use crate::referee::record::MoveDetails;

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
        // Without keys the details are not written.
        let plain = |mut record: GameRecord| {
            for played in &mut record.moves {
                played.details = MoveDetails::default();
            }
            record
        };
        assert_eq!(
            parse_games(&text).unwrap(),
            vec![plain(record.clone()), plain(second.clone())]
        );
        // With every key they round-trip.
        let keyed = write_game_with(&record, &RecordKeys::all())
            + &write_game_with(&second, &RecordKeys::all());
        assert!(
            keyed.contains("{-0.35/4 0.012s, tl=9.850s, latency=-0.002s, n=1234, sd=9,"),
            "{keyed}"
        );
        assert!(
            keyed.contains("hashfull=17, tbhits=0, pv=\"b3 e1d2 d3\"}"),
            "{keyed}"
        );
        assert!(
            keyed.contains("e1d2 {-M3 1.500s, latency=0.014s, n=5}"),
            "{keyed}"
        );
        assert_eq!(parse_games(&keyed).unwrap(), vec![record.clone(), second]);
        // Some keys only.
        let some = RecordKeys {
            nodes: true,
            pv: true,
            ..RecordKeys::default()
        };
        let text = write_game_with(&record, &some);
        assert!(
            text.contains("b3 {-0.35/4 0.012s, n=1234, pv=\"b3 e1d2 d3\"}"),
            "{text}"
        );
        let back = &parse_games(&text).unwrap()[0];
        assert_eq!(back.moves[2].details.figures.nodes, Some(1234));
        assert_eq!(back.moves[2].details.figures.seldepth, None);
        // Minimal records: moves, book marks, result and termination.
        let min = RecordKeys {
            min: true,
            ..RecordKeys::all()
        };
        let text = write_game_with(&record, &min);
        assert!(
            !text.contains("TimeControl") && !text.contains("PlyCount"),
            "{text}"
        );
        assert!(
            text.contains("1. c3 {book} a1b2 {book} 2. b3 e1d2 3. d3 0-1"),
            "{text}"
        );
        let back = &parse_games(&text).unwrap()[0];
        assert_eq!(
            back.moves.iter().map(|m| m.mv).collect::<Vec<_>>(),
            record.moves.iter().map(|m| m.mv).collect::<Vec<_>>()
        );
        assert_eq!(back.moves.iter().filter(|m| m.book).count(), 2);
        assert!(back.moves[2..]
            .iter()
            .all(|m| m.time_ms.is_none() && m.score.is_none()));
        assert_eq!(
            (back.result, back.termination),
            (record.result, record.termination)
        );
        assert_eq!(back.goat_time_control, "?");
        assert_eq!(back.reason, "");
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
            (good.replace("{0.000s}", "{0.000s, n=x}"), "\"0.000s, n=x\""),
            (
                good.replace("{0.000s}", "{0.000s, colour=red}"),
                "colour=red",
            ),
            (good.replace("{0.000s}", "{0.5s}"), "\"0.5s\""),
        ] {
            let error = parse_games(&bad).unwrap_err();
            assert!(error.contains(needle), "{error}");
        }
    }
}
