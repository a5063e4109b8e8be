//! Opening the tables named by `EngineOptions::tablebase_path`, and what became of it.

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

use crate::tablebase::forbid::tables::ForbidTables;
use crate::tablebase::{TableRules, Tablebase, TablebaseError};
use crate::Rules;

/// Whether the engine has tables, as the engine reports it.
#[derive(Debug, Default)]
pub enum TablebaseStatus {
    /// No tablebase path is set.
    #[default]
    Off,
    /// Tables are loaded and used.
    Loaded {
        /// The directory they came from.
        path: PathBuf,
        /// Their rules (shown as `ForcedCapture=false CapturesToWin=5`).
        rules: TableRules,
    },
    /// Opening failed: the engine plays without tables.
    Failed {
        /// The directory asked for.
        path: PathBuf,
        /// Why the tables cannot be used (missing, corrupt or mismatched file, unsupported rules).
        error: TablebaseError,
    },
}

impl TablebaseStatus {
    /// Whether tables are loaded.
    pub fn is_loaded(&self) -> bool {
        matches!(self, TablebaseStatus::Loaded { .. })
    }

    /// The error of a failed opening.
    pub fn error(&self) -> Option<&TablebaseError> {
        match self {
            TablebaseStatus::Failed { error, .. } => Some(error),
            _ => None,
        }
    }
}

impl fmt::Display for TablebaseStatus {
    /// `tablebases off`, `tablebases loaded from "dir" (rules)` or
    /// `cannot use tablebases in "dir": reason`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TablebaseStatus::Off => f.write_str("tablebases off"),
            TablebaseStatus::Loaded { path, rules } => {
                write!(f, "tablebases loaded from \"{}\" ({rules})", path.display())
            }
            TablebaseStatus::Failed { path, error } => {
                write!(
                    f,
                    "cannot use tablebases in \"{}\": {error}",
                    path.display()
                )
            }
        }
    }
}

/// The engine's tables: opened again only when the path or the rules they depend on change
/// (or after a failure, so that fixed files are picked up when the option is set again).
#[derive(Debug, Default)]
pub struct TablebaseSlot {
    tables: Option<Arc<Tablebase>>,
    /// The forbid values beside the tables (used under `Repetition forbid` only).
    forbid: Option<Arc<ForbidTables>>,
    /// What became of the forbid files, for the protocol to report (`error: ...` first).
    forbid_messages: Vec<String>,
    status: TablebaseStatus,
    /// Directory and table rules of the last successful opening.
    opened_for: Option<(PathBuf, TableRules)>,
    /// Set to end the background prefetch of these tables ([`TablebaseSlot::start_prefetch`]).
    prefetch_stop: Arc<AtomicBool>,
}

impl Drop for TablebaseSlot {
    fn drop(&mut self) {
        self.prefetch_stop.store(true, Ordering::Relaxed);
    }
}

impl TablebaseSlot {
    /// Makes the slot hold the tables in `path` (`None` or empty: none) for `rules`.
    pub fn update(&mut self, path: Option<&Path>, rules: &Rules) {
        let Some(path) = path.filter(|path| !path.as_os_str().is_empty()) else {
            *self = TablebaseSlot::default();
            return;
        };
        let table_rules = TableRules::of(rules);
        let key = (path.to_path_buf(), table_rules);
        if self.tables.is_some() && self.opened_for.as_ref() == Some(&key) {
            return;
        }
        // Release the old tables before reading new ones.
        *self = TablebaseSlot::default();
        match Tablebase::open(path, table_rules) {
            Ok(tables) => {
                self.status = TablebaseStatus::Loaded {
                    path: path.to_path_buf(),
                    rules: table_rules,
                };
                log::info!("{}", self.status);
                // A move on the clock must not wait for the read-ahead of cold pages.
                tables.expect_random_reads();
                self.load_forbid(path, &tables);
                self.tables = Some(Arc::new(tables));
                self.opened_for = Some(key);
                self.start_prefetch();
            }
            Err(error) => {
                self.status = TablebaseStatus::Failed {
                    path: path.to_path_buf(),
                    error,
                };
                log::warn!("{}", self.status);
            }
        }
    }

    /// Reads the forbid files beside `tables`; a corrupt one, or one for other rules, is
    /// reported (once, here) and not used.
    fn load_forbid(&mut self, path: &Path, tables: &Tablebase) {
        let (forbid, errors) = ForbidTables::open(path, tables);
        for error in errors {
            log::warn!("forbid values not used: {error}");
            self.forbid_messages
                .push(format!("error: forbid values not used: {error}"));
        }
        if let Some(forbid) = forbid {
            let layers: Vec<String> = forbid.layers().iter().map(u8::to_string).collect();
            let placement = match forbid.placement() {
                Some((dir, placement)) => format!(
                    ", placement values for {} layers from \"{}\"",
                    placement.len(),
                    dir.display()
                ),
                None => String::new(),
            };
            let message = format!(
                "forbid values loaded for layers {}{placement} (used under Repetition forbid)",
                layers.join(" ")
            );
            log::info!("{message}");
            self.forbid_messages.push(message);
            forbid.expect_random_reads();
            self.forbid = Some(Arc::new(forbid));
        }
    }

    /// Brings the tables, then the forbid placement values, into memory on a background
    /// thread, each only if all that is brought in stays within half the memory available:
    /// probes read at random wait for one page from the disk each, so without it the first
    /// games would search slowly until their pages came in.
    fn start_prefetch(&self) {
        let Some(tables) = self.tables.clone() else {
            return;
        };
        let forbid = self.forbid.clone();
        let Some(available) = available_memory() else {
            return;
        };
        let budget = available / 2;
        let tables_len = tables.mapped_len();
        let forbid_len = forbid.as_ref().map_or(0, |forbid| forbid.mapped_len());
        if tables_len > budget {
            log::info!(
                "tables not prefetched: {tables_len} bytes, more than half the {available} \
                 bytes of memory available"
            );
            return;
        }
        let forbid = forbid.filter(|_| forbid_len > 0 && tables_len + forbid_len <= budget);
        let stop = Arc::clone(&self.prefetch_stop);
        let spawned = std::thread::Builder::new()
            .name("tb-prefetch".into())
            .spawn(move || {
                let started = Instant::now();
                tables.prefetch(&stop);
                if let Some(forbid) = forbid {
                    forbid.prefetch(&stop);
                }
                if !stop.load(Ordering::Relaxed) {
                    log::info!(
                        "tables prefetched in {:.1} s",
                        started.elapsed().as_secs_f64()
                    );
                }
            });
        if let Err(error) = spawned {
            log::warn!("tables not prefetched: {error}");
        }
    }

    /// The forbid values beside the loaded tables, if any.
    pub fn forbid(&self) -> Option<&Arc<ForbidTables>> {
        self.forbid.as_ref()
    }

    /// What the last opening made of the forbid files (loaded layers, or `error: ...`).
    pub fn forbid_messages(&self) -> &[String] {
        &self.forbid_messages
    }

    /// The loaded tables, if any.
    pub fn tables(&self) -> Option<&Arc<Tablebase>> {
        self.tables.as_ref()
    }

    /// What the last opening gave.
    pub fn status(&self) -> &TablebaseStatus {
        &self.status
    }
}

/// The memory available for new pages, page cache included (`MemAvailable` of
/// `/proc/meminfo`); `None` where it cannot be read.
fn available_memory() -> Option<u64> {
    let meminfo = std::fs::read_to_string("/proc/meminfo").ok()?;
    parse_available(&meminfo)
}

/// `MemAvailable` in bytes, from the text of `/proc/meminfo`.
fn parse_available(meminfo: &str) -> Option<u64> {
    let line = meminfo
        .lines()
        .find_map(|line| line.strip_prefix("MemAvailable:"))?;
    let kilobytes: u64 = line.trim().strip_suffix("kB")?.trim().parse().ok()?;
    kilobytes.checked_mul(1024)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_available_memory_is_read_from_meminfo() {
        let meminfo = "MemTotal:       24000000 kB\nMemFree:         1000 kB\n\
                       MemAvailable:   22000000 kB\nBuffers:  1 kB\n";
        assert_eq!(parse_available(meminfo), Some(22_000_000 * 1024));
        assert_eq!(parse_available("MemTotal: 5 kB\n"), None);
        assert_eq!(parse_available("MemAvailable: many kB\n"), None);
    }
}
