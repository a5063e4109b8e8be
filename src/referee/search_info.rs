//! The figures of an engine's `info` lines that the records can keep per move (fastchess's
//! `-pgnout` keys): nodes, seldepth, nps, hashfull, tbhits, the principal variation and the
//! engine's own `time`. Score and depth are read by
//! [`parse_info`](super::engine_process::parse_info).

/// The figures of one search that a record keeps per move: the last value of each over the
/// search's `info` lines.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SearchFigures {
    /// `nodes`.
    pub nodes: Option<u64>,
    /// `seldepth`.
    pub seldepth: Option<u32>,
    /// `nps`.
    pub nps: Option<u64>,
    /// `hashfull` (per mille).
    pub hashfull: Option<u32>,
    /// `tbhits`.
    pub tbhits: Option<u64>,
    /// The moves after `pv`, as sent (not checked), joined by single spaces.
    pub pv: Option<String>,
}

/// The last value of each figure over the `info` lines of one search: a later line that does
/// not carry a figure leaves the earlier value (an engine's `currmove` lines carry no `nodes`,
/// its last full line does).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct InfoFields {
    /// The figures a record keeps.
    pub figures: SearchFigures,
    /// `time`: the engine's own account of its thinking time, ms (kept as latency, see
    /// [`MoveDetails::of`](super::record::MoveDetails::of)).
    pub time_ms: Option<u64>,
}

/// The keywords of an `info` line (UCI): a `pv` runs until the next of them.
const KEYWORDS: [&str; 16] = [
    "depth",
    "seldepth",
    "time",
    "nodes",
    "pv",
    "multipv",
    "score",
    "currmove",
    "currmovenumber",
    "hashfull",
    "nps",
    "tbhits",
    "cpuload",
    "string",
    "refutation",
    "wdl",
];

impl InfoFields {
    /// Takes the figures of one `info` line; malformed values are skipped, and nothing after
    /// `string` is read (free text).
    pub fn update(&mut self, line: &str) {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let figures = &mut self.figures;
        let mut index = 1;
        while index < tokens.len() {
            let next = tokens.get(index + 1).copied();
            match tokens[index] {
                "string" => return,
                "nodes" => figures.nodes = next.and_then(|t| t.parse().ok()).or(figures.nodes),
                "seldepth" => {
                    figures.seldepth = next.and_then(|t| t.parse().ok()).or(figures.seldepth)
                }
                "nps" => figures.nps = next.and_then(|t| t.parse().ok()).or(figures.nps),
                "hashfull" => {
                    figures.hashfull = next.and_then(|t| t.parse().ok()).or(figures.hashfull)
                }
                "tbhits" => figures.tbhits = next.and_then(|t| t.parse().ok()).or(figures.tbhits),
                "time" => self.time_ms = next.and_then(|t| t.parse().ok()).or(self.time_ms),
                "pv" => {
                    let moves: Vec<&str> = tokens[index + 1..]
                        .iter()
                        .take_while(|t| !KEYWORDS.contains(t))
                        .copied()
                        .collect();
                    index += moves.len();
                    if !moves.is_empty() {
                        figures.pv = Some(moves.join(" "));
                    }
                }
                _ => {}
            }
            index += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn figures_are_read_and_kept_across_lines() {
        let mut info = InfoFields::default();
        info.update(
            "info depth 7 seldepth 9 multipv 1 score cp -35 nodes 1200 nps 60000 hashfull 12 tbhits 3 time 20 pv c3 a1b2 d3",
        );
        assert_eq!(
            info,
            InfoFields {
                figures: SearchFigures {
                    nodes: Some(1200),
                    seldepth: Some(9),
                    nps: Some(60000),
                    hashfull: Some(12),
                    tbhits: Some(3),
                    pv: Some("c3 a1b2 d3".into()),
                },
                time_ms: Some(20),
            }
        );
        // A currmove line changes nothing it does not carry; a bad value is skipped.
        info.update("info depth 8 currmove e3 currmovenumber 2 nodes x");
        assert_eq!(info.figures.nodes, Some(1200));
        info.update("info nodes 1500 pv e3 score cp 3 string nodes 9");
        assert_eq!(info.figures.nodes, Some(1500));
        assert_eq!(info.figures.pv.as_deref(), Some("e3"));
        info.update("info string pv a1 nodes 4");
        assert_eq!(info.figures.pv.as_deref(), Some("e3"));
        assert_eq!(info.figures.nodes, Some(1500));
    }
}
