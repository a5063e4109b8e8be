//! The match options for what the referee writes besides the games' records (which are
//! `-pgnout`/`-jsonout` in [`MatchArgs`]): final positions (`-epdout`), the console layout
//! (`-output format=`), the score line interval, the match log (`-log`) and latencies
//! (`-show-latency`). Plain values only, so that a config file can hold them.

use super::match_args::MatchArgs;
use super::record::keys::{parse_record_output, RecordOutput};
use clap::Args;
use serde::{Deserialize, Serialize};

/// Report and log options of a match (flattened into [`MatchArgs`]).
#[derive(Args, Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ReportArgs {
    /// Write each game's final position here, one position string a line with its result
    /// (`file=FILE`, or a bare FILE; appended).
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    pub epdout: Vec<String>,
    /// Print the one-line score ("Score of A vs B: ...") every N games (default: every game in
    /// the cutechess layout, never otherwise; 0: never).
    #[arg(long, value_name = "N")]
    pub scoreinterval: Option<u64>,
    /// Console layout: format=referee (default), cutechess or fastchess, for scripts that read
    /// those tools' output.
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    pub output: Vec<String>,
    /// Match log: file=FILE [level=trace|debug|info|warn|error] (default warn): every line to
    /// and from every engine, timestamped, plus the referee's messages at that level.
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    pub log: Vec<String>,
    /// Print each engine's latency (time measured from go to bestmove minus the time it
    /// reported) per game and in a summary.
    #[arg(long)]
    pub show_latency: bool,
}

/// The console layouts of `-output format=`.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum OutputFormat {
    /// The referee's own (cutechess-like, with Goats and Tigers, pentanomial and nElo lines).
    #[default]
    Referee,
    /// cutechess-cli's lines (goats as White, tigers as Black).
    Cutechess,
    /// fastchess's lines.
    Fastchess,
}

/// `-log file=F level=L`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LogSettings {
    /// The log file (appended to).
    pub file: String,
    /// The referee's messages at this level and above are copied to it.
    pub level: log::LevelFilter,
}

/// Splits `key=value` tokens; a token without `=`, or a first token whose part before `=` is
/// no key (a file name with a `=`), is the value of `bare`.
fn pairs<'a>(
    tokens: &'a [String],
    option: &str,
    keys: &[&str],
    bare: &'a str,
) -> Result<Vec<(&'a str, &'a str)>, String> {
    tokens
        .iter()
        .enumerate()
        .map(|(index, token)| match token.split_once('=') {
            Some((key, value)) if keys.contains(&key) => Ok((key, value)),
            Some((key, _)) if index > 0 => Err(format!(
                "unknown -{option} key \"{key}\": expected {}",
                keys.join(" or ")
            )),
            _ => Ok((bare, token.as_str())),
        })
        .collect()
}

impl ReportArgs {
    /// The `-epdout` file, if any.
    ///
    /// # Errors
    /// An unknown key.
    pub fn epd_file(&self) -> Result<Option<String>, String> {
        Ok(pairs(&self.epdout, "epdout", &["file"], "file")?
            .last()
            .map(|(_, file)| file.to_string()))
    }

    /// The `-output` layout.
    ///
    /// # Errors
    /// An unknown key or layout.
    pub fn format(&self) -> Result<OutputFormat, String> {
        let mut format = OutputFormat::Referee;
        for (_, value) in pairs(&self.output, "output", &["format"], "format")? {
            format = match value.to_ascii_lowercase().as_str() {
                "referee" => OutputFormat::Referee,
                "cutechess" => OutputFormat::Cutechess,
                "fastchess" => OutputFormat::Fastchess,
                _ => {
                    return Err(format!(
                    "invalid -output format \"{value}\": expected referee, cutechess or fastchess"
                ))
                }
            };
        }
        Ok(format)
    }

    /// The score line interval: `-scoreinterval`, else 1 in the cutechess layout and 0 (never)
    /// otherwise.
    ///
    /// # Errors
    /// An unknown `-output` key or layout.
    pub fn score_interval(&self) -> Result<u64, String> {
        Ok(match (self.scoreinterval, self.format()?) {
            (Some(interval), _) => interval,
            (None, OutputFormat::Cutechess) => 1,
            (None, _) => 0,
        })
    }

    /// The `-log` settings, if any.
    ///
    /// # Errors
    /// An unknown key or level, or no file.
    pub fn log_settings(&self) -> Result<Option<LogSettings>, String> {
        if self.log.is_empty() {
            return Ok(None);
        }
        let mut file = None;
        let mut level = log::LevelFilter::Warn;
        for (key, value) in pairs(&self.log, "log", &["file", "level"], "file")? {
            match key {
                "file" => file = Some(value.to_string()),
                _ => level = super::wire_log::parse_level(value)?,
            }
        }
        let file = file.ok_or("-log needs file=FILE")?;
        Ok(Some(LogSettings { file, level }))
    }
}

impl MatchArgs {
    /// The `-pgnout` file and its keys, if any.
    ///
    /// # Errors
    /// A bad key (see [`parse_record_output`]).
    pub fn pgn_output(&self) -> Result<Option<RecordOutput>, String> {
        parse_record_output(&self.pgnout, "pgnout")
    }

    /// The `-jsonout` file and its keys, if any.
    ///
    /// # Errors
    /// A bad key (see [`parse_record_output`]).
    pub fn json_output(&self) -> Result<Option<RecordOutput>, String> {
        parse_record_output(&self.jsonout, "jsonout")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(text: &str) -> Vec<String> {
        text.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn report_options_parse() {
        let mut args = ReportArgs::default();
        assert_eq!(args.format(), Ok(OutputFormat::Referee));
        assert_eq!(args.score_interval(), Ok(0));
        assert_eq!(args.log_settings(), Ok(None));
        assert_eq!(args.epd_file(), Ok(None));
        args.output = strings("format=cutechess");
        assert_eq!(args.format(), Ok(OutputFormat::Cutechess));
        assert_eq!(args.score_interval(), Ok(1));
        args.scoreinterval = Some(5);
        assert_eq!(args.score_interval(), Ok(5));
        args.output = strings("fastchess");
        assert_eq!(args.format(), Ok(OutputFormat::Fastchess));
        args.output = strings("format=json");
        assert!(args.format().unwrap_err().contains("\"json\""));
        args.output = strings("format=cutechess style=plain");
        assert!(args
            .format()
            .unwrap_err()
            .contains("unknown -output key \"style\""));
        args.output = strings("style=cutechess");
        assert!(args.format().unwrap_err().contains("\"style=cutechess\""));
        args.epdout = strings("file=end.epd");
        assert_eq!(args.epd_file(), Ok(Some("end.epd".to_string())));
        args.log = strings("file=m.log level=trace");
        assert_eq!(
            args.log_settings(),
            Ok(Some(LogSettings {
                file: "m.log".into(),
                level: log::LevelFilter::Trace
            }))
        );
        args.log = strings("level=info");
        assert!(args.log_settings().unwrap_err().contains("file=FILE"));
        args.log = strings("file=m.log level=chatty");
        assert!(args.log_settings().unwrap_err().contains("\"chatty\""));
    }
}
