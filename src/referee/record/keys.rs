//! What a record file keeps per move beyond the move itself, chosen as with fastchess's
//! `-pgnout` keys: `-pgnout file=F nodes=true seldepth=true nps=true hashfull=true
//! tbhits=true pv=true timeleft=true latency=true min=true` (the same for `-jsonout`; a bare
//! `-pgnout F` still works).

use serde::{Deserialize, Serialize};

/// The optional per-move figures of a record file, and `min` records.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct RecordKeys {
    /// The engine's last `nodes` (PGN `n=`).
    pub nodes: bool,
    /// Its last `seldepth` (PGN `sd=`).
    pub seldepth: bool,
    /// Its last `nps`.
    pub nps: bool,
    /// Its last `hashfull`.
    pub hashfull: bool,
    /// Its last `tbhits`.
    pub tbhits: bool,
    /// Its last principal variation (PGN `pv="..."`).
    pub pv: bool,
    /// The time left on the mover's clock after the move (PGN `tl=`).
    pub timeleft: bool,
    /// The time measured from `go` to `bestmove` minus the engine's own last `time` (PGN
    /// `latency=`).
    pub latency: bool,
    /// Minimal records: moves (opening moves marked), result and termination; no scores, times,
    /// time controls or final comment. Overrides the keys above.
    pub min: bool,
}

impl RecordKeys {
    /// Every per-move figure (not `min`): what `referee merge` writes, so that nothing a
    /// record held is lost.
    pub fn all() -> RecordKeys {
        RecordKeys {
            nodes: true,
            seldepth: true,
            nps: true,
            hashfull: true,
            tbhits: true,
            pv: true,
            timeleft: true,
            latency: true,
            min: false,
        }
    }

    /// The key names, as on the command line.
    pub const NAMES: [&'static str; 9] = [
        "nodes", "seldepth", "nps", "hashfull", "tbhits", "pv", "timeleft", "latency", "min",
    ];

    fn flag(&mut self, name: &str) -> Option<&mut bool> {
        Some(match name {
            "nodes" => &mut self.nodes,
            "seldepth" => &mut self.seldepth,
            "nps" => &mut self.nps,
            "hashfull" => &mut self.hashfull,
            "tbhits" => &mut self.tbhits,
            "pv" => &mut self.pv,
            "timeleft" => &mut self.timeleft,
            "latency" => &mut self.latency,
            "min" => &mut self.min,
            _ => return None,
        })
    }
}

/// A record file and what it keeps.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordOutput {
    /// The file (appended to).
    pub file: String,
    /// The per-move keys.
    pub keys: RecordKeys,
}

/// Reads the tokens after `-pgnout` or `-jsonout` (`option` names it in errors): `file=F` or a
/// bare `F`, the keys as `key=true|false`, and fastchess's `notation=san|lan|uci` (accepted and
/// ignored: moves have one notation here). None when the option was not given.
///
/// # Errors
/// An unknown key, a value that is not true or false, no file, two files.
pub fn parse_record_output(
    tokens: &[String],
    option: &str,
) -> Result<Option<RecordOutput>, String> {
    if tokens.is_empty() {
        return Ok(None);
    }
    let mut file: Option<String> = None;
    let mut keys = RecordKeys::default();
    let mut set_file = |path: &str| {
        if file.replace(path.to_string()).is_some() {
            return Err(format!("-{option} names more than one file"));
        }
        Ok(())
    };
    for (index, token) in tokens.iter().enumerate() {
        // A first token that is not a known key is the file, even with a `=` in its name.
        let known =
            |key: &str| key == "file" || key == "notation" || RecordKeys::NAMES.contains(&key);
        let (key, value) = match token.split_once('=') {
            Some((key, value)) if index > 0 || known(key) => (key, value),
            _ => {
                set_file(token)?;
                continue;
            }
        };
        match key {
            "file" => set_file(value)?,
            "notation" if ["san", "lan", "uci"].contains(&value) => {}
            "notation" => {
                return Err(format!(
                    "invalid -{option} notation \"{value}\": expected san, lan or uci"
                ))
            }
            _ => {
                let flag = keys.flag(key).ok_or_else(|| {
                    format!(
                        "unknown -{option} key \"{key}\": expected file, notation or one of {}",
                        RecordKeys::NAMES.join(", ")
                    )
                })?;
                *flag = match value {
                    "true" | "1" | "on" => true,
                    "false" | "0" | "off" => false,
                    _ => {
                        return Err(format!(
                            "invalid -{option} {key} \"{value}\": expected true or false"
                        ))
                    }
                };
            }
        }
    }
    let file = file.ok_or_else(|| format!("-{option} needs file=FILE"))?;
    Ok(Some(RecordOutput { file, keys }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokens(text: &str) -> Vec<String> {
        text.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn keys_parse_like_fastchess() {
        assert_eq!(parse_record_output(&[], "pgnout"), Ok(None));
        let plain = parse_record_output(&tokens("games.pgn"), "pgnout")
            .unwrap()
            .unwrap();
        assert_eq!(plain.file, "games.pgn");
        assert_eq!(plain.keys, RecordKeys::default());
        // A path with a `=` in it.
        let odd = parse_record_output(&tokens("/tmp/run-seed=3.pgn nodes=true"), "pgnout")
            .unwrap()
            .unwrap();
        assert_eq!(
            (odd.file.as_str(), odd.keys.nodes),
            ("/tmp/run-seed=3.pgn", true)
        );
        let keyed = parse_record_output(
            &tokens("file=g.pgn notation=san nodes=true seldepth=true nps=true hashfull=true tbhits=true pv=true timeleft=true latency=true"),
            "pgnout",
        )
        .unwrap()
        .unwrap();
        assert_eq!(keyed.keys, RecordKeys::all());
        let min = parse_record_output(&tokens("file=g.jsonl min=true nodes=false"), "jsonout")
            .unwrap()
            .unwrap();
        assert!(min.keys.min && !min.keys.nodes);
        for (bad, needle) in [
            ("file=a nodez=true", "unknown -pgnout key \"nodez\""),
            ("a=b.pgn c=d", "unknown -pgnout key \"c\""),
            ("file=a nodes=yes", "invalid -pgnout nodes \"yes\""),
            ("nodes=true", "needs file=FILE"),
            ("a b", "more than one file"),
            ("file=a notation=xyz", "notation \"xyz\""),
        ] {
            let error = parse_record_output(&tokens(bad), "pgnout").unwrap_err();
            assert!(error.contains(needle), "{bad}: {error}");
        }
    }
}
