//! Verified stamps: a table directory remembers which of its files passed their payload
//! checksum, so that opening them again costs milliseconds instead of reading every byte.
//!
//! A stamp binds a file name to the identity of the file that was checked ([`FileIdentity`]:
//! length, modification and status-change times with nanoseconds, device and inode, header
//! checksum). A file whose identity differs in any field is checked again. The stamps of a
//! directory live in one small text file, [`STAMP_FILE`], protected by its own CRC-32 and
//! replaced atomically (a temporary file renamed over it), so two processes opening the same
//! tables at once never leave a torn file: the last one to rename wins, having merged what the
//! file held just before. A stamp file that is unreadable, malformed or fails its checksum is
//! ignored (every file is checked), never trusted. Where the directory is read-only, files are
//! checked at every open and a warning says so. A file modified less than 2 s before its check
//! is not stamped (coarse timestamps could hide a write just after the check), nor is a file
//! `tb gen` just wrote: a stamp always means the bytes were read back and found good.
//!
//! What a stamp trusts: that nobody changed a file's bytes while keeping its length, times and
//! inode. Writes through the file system always move the status-change time (which no user can
//! set back), so only a change below the file system (a failing disk, a write to the raw device)
//! escapes it. `tb verify` checks every checksum whatever the stamps say (and every value).

use super::file::crc32;
use std::collections::BTreeMap;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// Name of the stamp file in a table directory.
pub const STAMP_FILE: &str = "verified.stamp";

/// First line of a stamp file (format name and version).
const FIRST_LINE: &str = "baghchal-tablebase-verified 1";

/// Stamp files larger than this are not ours: ignored.
const MAX_STAMP_BYTES: u64 = 1 << 20;

/// A file modified this recently is not stamped when checked at open: on file systems whose
/// timestamps are coarse, a write just after the check could leave the times unchanged.
const RACY_WINDOW: Duration = Duration::from_secs(2);

/// What identifies one version of a file. Any difference means the file may have changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FileIdentity {
    /// Length in bytes.
    pub len: u64,
    /// Modification time: seconds and nanoseconds since the Unix epoch.
    pub modified: (i64, u32),
    /// Status-change time (ctime) where the system has one, else `(0, 0)`.
    pub changed: (i64, u32),
    /// Device number where the system has one, else 0.
    pub device: u64,
    /// Inode number where the system has one, else 0.
    pub inode: u64,
    /// The header checksum stored in the file (bytes 84..88 of a table file, 92..96 of a
    /// forbid file; it covers the payload CRC).
    pub header_crc: u32,
}

impl FileIdentity {
    /// The identity of a file from its metadata and its header checksum.
    pub fn new(metadata: &fs::Metadata, header_crc: u32) -> FileIdentity {
        let modified =
            metadata
                .modified()
                .map_or((0, 0), |time| match time.duration_since(UNIX_EPOCH) {
                    Ok(after) => (after.as_secs() as i64, after.subsec_nanos()),
                    Err(before) => (-(before.duration().as_secs() as i64), 0),
                });
        let (changed, device, inode) = unix_identity(metadata);
        FileIdentity {
            len: metadata.len(),
            modified,
            changed,
            device,
            inode,
            header_crc,
        }
    }

    /// Whether the file was modified within [`RACY_WINDOW`] of `now` (or in the future).
    fn is_recent(&self, now: SystemTime) -> bool {
        let since = now.duration_since(UNIX_EPOCH).unwrap_or_default();
        let modified = Duration::new(self.modified.0.max(0) as u64, self.modified.1);
        modified + RACY_WINDOW > since
    }

    fn to_line(self, name: &str) -> String {
        format!(
            "{name} {} {}.{:09} {}.{:09} {} {} {:08x}\n",
            self.len,
            self.modified.0,
            self.modified.1,
            self.changed.0,
            self.changed.1,
            self.device,
            self.inode,
            self.header_crc
        )
    }

    fn parse_line(line: &str) -> Option<(String, FileIdentity)> {
        let fields: Vec<&str> = line.split(' ').collect();
        let [name, len, modified, changed, device, inode, header_crc] = fields[..] else {
            return None;
        };
        let time = |text: &str| -> Option<(i64, u32)> {
            let (seconds, nanos) = text.split_once('.')?;
            let nanos: u32 = nanos.parse().ok()?;
            (nanos < 1_000_000_000).then_some(())?;
            Some((seconds.parse().ok()?, nanos))
        };
        if name.is_empty() || name.contains(['/', '\\']) {
            return None;
        }
        let identity = FileIdentity {
            len: len.parse().ok()?,
            modified: time(modified)?,
            changed: time(changed)?,
            device: device.parse().ok()?,
            inode: inode.parse().ok()?,
            header_crc: u32::from_str_radix(header_crc, 16).ok()?,
        };
        Some((name.to_string(), identity))
    }
}

#[cfg(unix)]
fn unix_identity(metadata: &fs::Metadata) -> ((i64, u32), u64, u64) {
    use std::os::unix::fs::MetadataExt;
    let nanos = u32::try_from(metadata.ctime_nsec()).unwrap_or(0);
    ((metadata.ctime(), nanos), metadata.dev(), metadata.ino())
}

#[cfg(not(unix))]
fn unix_identity(_: &fs::Metadata) -> ((i64, u32), u64, u64) {
    ((0, 0), 0, 0)
}

/// The stamps of one table directory: those read from its stamp file, and those recorded since.
#[derive(Debug)]
pub struct Stamps {
    dir: PathBuf,
    entries: Mutex<Entries>,
    /// Whether stamps were recorded or forgotten since the stamp file was read or written.
    changed: AtomicBool,
    /// Whether a failure to write the stamp file was already reported.
    warned: AtomicBool,
}

/// The stamps known to one [`Stamps`], and what this process changed since its last save (only
/// those changes are merged into the stamp file: an entry merely read from it must not overwrite
/// a newer one that another writer saved meanwhile).
#[derive(Debug, Default)]
struct Entries {
    known: BTreeMap<String, FileIdentity>,
    recorded: BTreeMap<String, FileIdentity>,
    forgotten: std::collections::BTreeSet<String>,
}

/// Distinguishes the temporary files of one process's saves.
static SAVES: AtomicU64 = AtomicU64::new(0);

impl Stamps {
    /// The stamps of `dir`: none when its stamp file is absent, and none (with a warning) when
    /// it is unreadable, malformed or fails its checksum.
    pub fn load(dir: &Path) -> Stamps {
        let path = dir.join(STAMP_FILE);
        let entries = match read_stamp_file(&path) {
            Ok(entries) => entries,
            Err(None) => BTreeMap::new(),
            Err(Some(reason)) => {
                log::warn!(
                    "\"{}\": {reason}; ignored, table checksums are checked again",
                    path.display()
                );
                BTreeMap::new()
            }
        };
        Stamps {
            dir: dir.to_path_buf(),
            entries: Mutex::new(Entries {
                known: entries,
                ..Entries::default()
            }),
            changed: AtomicBool::new(false),
            warned: AtomicBool::new(false),
        }
    }

    /// Whether the file `name` was verified with exactly this identity.
    pub fn is_verified(&self, name: &str, identity: &FileIdentity) -> bool {
        let entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        entries.known.get(name) == Some(identity)
    }

    /// Records that `path` passed its payload check, which started at `checked_at` with the
    /// file's identity `before`: only when the file is still the same (its identity read again
    /// now) and was not modified shortly before the check. Returns whether it was recorded.
    pub fn record_checked(
        &self,
        path: &Path,
        before: &FileIdentity,
        checked_at: SystemTime,
    ) -> bool {
        let Ok(metadata) = fs::metadata(path) else {
            return false;
        };
        let after = FileIdentity::new(&metadata, before.header_crc);
        if after != *before || before.is_recent(checked_at) {
            log::debug!("\"{}\": changed or too recent, not stamped", path.display());
            return false;
        }
        self.record(path, after);
        true
    }

    fn record(&self, path: &Path, identity: FileIdentity) {
        let Some(name) = path.file_name().and_then(|name| name.to_str()) else {
            return;
        };
        let mut entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        entries.known.insert(name.to_string(), identity);
        entries.recorded.insert(name.to_string(), identity);
        entries.forgotten.remove(name);
        self.changed.store(true, Ordering::Relaxed);
    }

    /// A value computed from files whose identities were `inputs` when it was recorded
    /// ([`Stamps::record_derived`] under the same `name`); `None` when none was recorded, or
    /// any input differs in any way (another file, another order, a changed identity).
    pub fn derived(&self, name: &str, inputs: &[FileIdentity]) -> Option<u32> {
        let entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        let stored = entries.known.get(&derived_name(name))?;
        (*stored == derived_identity(inputs, stored.header_crc)).then_some(stored.header_crc)
    }

    /// Records `value`, computed from files whose identities are `inputs` (e.g. the checksum
    /// of values read from files that each passed their own check): remembered in the stamp
    /// file as long as these inputs stay the same files ([`Stamps::derived`]).
    pub fn record_derived(&self, name: &str, inputs: &[FileIdentity], value: u32) {
        let identity = derived_identity(inputs, value);
        let name = derived_name(name);
        let mut entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        entries.known.insert(name.clone(), identity);
        entries.recorded.insert(name.clone(), identity);
        entries.forgotten.remove(&name);
        self.changed.store(true, Ordering::Relaxed);
    }

    /// Forgets the stamp of `path` (a file found corrupt).
    pub fn forget(&self, path: &Path) {
        if let Some(name) = path.file_name().and_then(|name| name.to_str()) {
            let mut entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
            entries.known.remove(name);
            entries.recorded.remove(name);
            entries.forgotten.insert(name.to_string());
            self.changed.store(true, Ordering::Relaxed);
        }
    }

    /// Writes the stamps recorded and forgotten since the last save, when there are any, to the
    /// directory's stamp file, merged over what the file holds now (another process may have
    /// saved stamps since this one loaded it: those are kept, unless this process recorded or
    /// forgot the same file later): a new file renamed over the old one. A failure (e.g. a
    /// read-only directory) is logged once and otherwise ignored: the files are then checked
    /// again at the next open.
    pub fn save(&self) {
        if !self.changed.swap(false, Ordering::Relaxed) {
            return;
        }
        let path = self.dir.join(STAMP_FILE);
        // Held while writing, so two threads of this process do not interleave their saves.
        let mut entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        let mut merged = read_stamp_file(&path).unwrap_or_default();
        for name in &entries.forgotten {
            merged.remove(name);
        }
        merged.extend(
            entries
                .recorded
                .iter()
                .map(|(name, id)| (name.clone(), *id)),
        );
        match write_stamp_file(&self.dir, &merged) {
            Ok(()) => {
                entries.recorded.clear();
                entries.forgotten.clear();
            }
            Err(error) => {
                if !self.warned.swap(true, Ordering::Relaxed) {
                    log::warn!(
                        "\"{}\": cannot write verified stamps ({error}); table checksums will be \
                         checked at every open",
                        path.display()
                    );
                }
            }
        }
    }
}

/// The verified stamps of a run that writes files ([`crate::tablebase::solve::generate_tables`],
/// the placement generator, `tb compress`, `tb forbid solve`): every file it finishes with is
/// stamped, so that the first open after the run checks nothing.
///
/// A file the run read whole and checked to resume from it is stamped at once (as at an open).
/// A file it wrote is read back and checked once its last write is more than 2 s
/// old, exactly as an open would check it: a stamp always means that the bytes on disk were
/// read after the file's times settled and matched its checksum. [`RunStamps::settle`] (called
/// between layers) does that for the files already old enough; [`RunStamps::finish`] waits out
/// the window for the last ones (at most 2 s at the end of a run).
#[derive(Debug)]
pub struct RunStamps {
    stamps: Stamps,
    /// Files written by this run and not yet read back, with the modification time they had
    /// and how to check them.
    pending: Mutex<Vec<Pending>>,
}

/// Reads a file through and checks it as an open would: its identity when it was opened and
/// the time the reading started ([`super::file::check_file`] for table files).
pub type ReadBack = fn(&Path) -> Result<(FileIdentity, SystemTime), super::TablebaseError>;

/// A file written (or resumed from) by a run, waiting to be read back and stamped.
#[derive(Debug)]
struct Pending {
    path: PathBuf,
    modified: SystemTime,
    check: ReadBack,
}

impl RunStamps {
    /// The stamps of the table directory `dir`, for a run that writes into it.
    pub fn new(dir: &Path) -> RunStamps {
        RunStamps {
            stamps: Stamps::load(dir),
            pending: Mutex::new(Vec::new()),
        }
    }

    /// Notes that this run wrote (and renamed into place) the table file at `path`: it is read
    /// back and stamped by a later [`RunStamps::settle`] or [`RunStamps::finish`].
    pub fn written(&self, path: &Path) {
        self.written_checked(path, super::file::check_file);
    }

    /// As [`RunStamps::written`], for a file that `check` reads back (e.g. a forbid file).
    pub fn written_checked(&self, path: &Path, check: ReadBack) {
        let modified = fs::metadata(path)
            .and_then(|metadata| metadata.modified())
            .unwrap_or_else(|_| SystemTime::now());
        self.wait_for(path, modified, check);
    }

    /// Notes that this run read the table file at `path` whole and found its checksum good (to
    /// resume from it): `identity` when it was opened, reading from `read_at`. Stamped at once,
    /// or read back later when it was modified too recently.
    pub fn resumed(&self, path: &Path, identity: &FileIdentity, read_at: SystemTime) {
        self.resumed_checked(path, identity, read_at, super::file::check_file);
    }

    /// As [`RunStamps::resumed`], for a file that `check` reads back (e.g. a forbid file).
    pub fn resumed_checked(
        &self,
        path: &Path,
        identity: &FileIdentity,
        read_at: SystemTime,
        check: ReadBack,
    ) {
        if !self.stamps.record_checked(path, identity, read_at) {
            let (seconds, nanos) = identity.modified;
            let modified = UNIX_EPOCH + Duration::new(seconds.max(0) as u64, nanos);
            self.wait_for(path, modified, check);
        }
    }

    fn wait_for(&self, path: &Path, modified: SystemTime, check: ReadBack) {
        let mut pending = self.pending.lock().unwrap_or_else(|e| e.into_inner());
        pending.push(Pending {
            path: path.to_path_buf(),
            modified,
            check,
        });
    }

    /// Reads back and stamps the files written more than 2 s ago, then saves the
    /// stamp file. Returns the number of files stamped.
    pub fn settle(&self) -> usize {
        let now = SystemTime::now();
        let ready: Vec<Pending> = {
            let mut pending = self.pending.lock().unwrap_or_else(|e| e.into_inner());
            let (ready, waiting) = std::mem::take(&mut *pending)
                .into_iter()
                .partition(|file| file.modified + RACY_WINDOW < now);
            *pending = waiting;
            ready
        };
        let stamped = ready.iter().filter(|file| self.read_back(file)).count();
        self.stamps.save();
        stamped
    }

    /// Waits until every file written by the run is more than 2 s old, then reads
    /// them back and stamps them as [`RunStamps::settle`]. Returns the number of files stamped.
    pub fn finish(&self) -> usize {
        let youngest = {
            let pending = self.pending.lock().unwrap_or_else(|e| e.into_inner());
            pending.iter().map(|file| file.modified).max()
        };
        if let Some(youngest) = youngest {
            // A little beyond the window: `settle` wants the window strictly passed.
            let ready = youngest + RACY_WINDOW + Duration::from_millis(20);
            if let Ok(wait) = ready.duration_since(SystemTime::now()) {
                // (A file dated in the future is not waited for: it stays unstamped.)
                let wait = wait.min(RACY_WINDOW + Duration::from_millis(20));
                log::debug!("waiting {wait:?} before stamping the last files written");
                std::thread::sleep(wait);
            }
        }
        self.settle()
    }

    /// Checks a pending file as an open would and stamps it when good (and unchanged while it
    /// was read); a failure is logged (the file will be checked, and refused, at the next open)
    /// and returns `false`.
    fn read_back(&self, file: &Pending) -> bool {
        let path = file.path.as_path();
        match (file.check)(path) {
            Ok((identity, read_at)) => self.stamps.record_checked(path, &identity, read_at),
            Err(error) => {
                log::error!("reading back a file just written: {error}; not stamped");
                self.stamps.forget(path);
                false
            }
        }
    }
}

/// The name in a stamp file of derived value `name` (no file name starts so: `:` is not in the
/// names of table files).
fn derived_name(name: &str) -> String {
    format!(":{name}")
}

/// A derived value in the form of a stamp line: the number of inputs as the length, two
/// independent CRC-32s of the inputs' stamp lines as device and inode, the value as the header
/// checksum (times zero).
fn derived_identity(inputs: &[FileIdentity], value: u32) -> FileIdentity {
    let lines: String = inputs.iter().map(|input| input.to_line("input")).collect();
    let reversed: String = inputs.iter().rev().map(|input| input.to_line("")).collect();
    FileIdentity {
        len: inputs.len() as u64,
        modified: (0, 0),
        changed: (0, 0),
        device: u64::from(crc32(lines.as_bytes())),
        inode: u64::from(crc32(reversed.as_bytes())),
        header_crc: value,
    }
}

/// The stamps in a stamp file; `Err(None)` when it is absent, `Err(Some(reason))` when it cannot
/// be trusted.
fn read_stamp_file(path: &Path) -> Result<BTreeMap<String, FileIdentity>, Option<String>> {
    let bytes = match fs::metadata(path) {
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Err(None),
        Err(error) => return Err(Some(format!("unreadable stamp file: {error}"))),
        Ok(metadata) if metadata.len() > MAX_STAMP_BYTES => {
            return Err(Some("stamp file too large".to_string()))
        }
        Ok(_) => fs::read(path).map_err(|error| Some(format!("unreadable stamp file: {error}")))?,
    };
    parse_stamps(&bytes).ok_or_else(|| Some("corrupt stamp file".to_string()))
}

/// Parses a stamp file: the first line, one line per file, and `crc32 <hex>` of all the bytes
/// before that last line. `None` when anything is off.
fn parse_stamps(bytes: &[u8]) -> Option<BTreeMap<String, FileIdentity>> {
    let text = std::str::from_utf8(bytes).ok()?;
    let body_end = text.strip_suffix('\n')?.rfind('\n')? + 1;
    let (body, last) = text.split_at(body_end);
    let stored = u32::from_str_radix(last.strip_prefix("crc32 ")?.strip_suffix('\n')?, 16).ok()?;
    if crc32(body.as_bytes()) != stored {
        return None;
    }
    let mut lines = body.lines();
    (lines.next()? == FIRST_LINE).then_some(())?;
    lines.map(FileIdentity::parse_line).collect()
}

fn format_stamps(entries: &BTreeMap<String, FileIdentity>) -> String {
    let mut body = format!("{FIRST_LINE}\n");
    for (name, identity) in entries {
        body.push_str(&identity.to_line(name));
    }
    let crc = crc32(body.as_bytes());
    body.push_str(&format!("crc32 {crc:08x}\n"));
    body
}

/// Writes the stamp file atomically: a temporary file of this process, renamed into place.
fn write_stamp_file(dir: &Path, entries: &BTreeMap<String, FileIdentity>) -> std::io::Result<()> {
    let temporary = dir.join(format!(
        "{STAMP_FILE}.{}-{}.tmp",
        std::process::id(),
        SAVES.fetch_add(1, Ordering::Relaxed)
    ));
    let written = fs::File::create_new(&temporary)
        .and_then(|mut file| file.write_all(format_stamps(entries).as_bytes()))
        .and_then(|()| fs::rename(&temporary, dir.join(STAMP_FILE)));
    if written.is_err() {
        let _ = fs::remove_file(&temporary);
    }
    written
}

#[cfg(test)]
mod tests {
    use super::*;

    fn identity(inode: u64) -> FileIdentity {
        FileIdentity {
            len: 88 + 2 * 33_481,
            modified: (1_764_600_000, 123_456_789),
            changed: (1_764_600_001, 5),
            device: 2049,
            inode,
            header_crc: 0xdead_beef,
        }
    }

    #[test]
    fn stamp_files_round_trip() {
        let mut entries = BTreeMap::new();
        entries.insert("layer-0.bctb".to_string(), identity(7));
        entries.insert("place-20-0.bctb".to_string(), identity(8));
        let text = format_stamps(&entries);
        assert!(text.starts_with("baghchal-tablebase-verified 1\nlayer-0.bctb 67050 "));
        assert_eq!(parse_stamps(text.as_bytes()), Some(entries.clone()));
        assert_eq!(
            parse_stamps(format_stamps(&BTreeMap::new()).as_bytes()),
            Some(BTreeMap::new())
        );
    }

    #[test]
    fn any_damage_to_a_stamp_file_is_refused() {
        let mut entries = BTreeMap::new();
        entries.insert("layer-0.bctb".to_string(), identity(7));
        let text = format_stamps(&entries).into_bytes();
        for at in 0..text.len() {
            for bit in [0x01, 0x10] {
                let mut damaged = text.clone();
                damaged[at] ^= bit;
                assert_eq!(parse_stamps(&damaged), None, "byte {at} bit {bit}");
            }
        }
        for len in 0..text.len() {
            assert_eq!(parse_stamps(&text[..len]), None, "cut at {len}");
        }
        assert_eq!(parse_stamps(b""), None);
    }

    #[test]
    fn malformed_lines_are_refused_even_with_a_valid_checksum() {
        for line in [
            "layer-0.bctb 67138 1.000000000 1.000000000 1 2",
            "../etc/passwd 1 1.000000000 1.000000000 1 2 00000000",
            "layer-0.bctb 1 1.1000000000 1.000000000 1 2 00000000",
            "layer-0.bctb x 1.000000000 1.000000000 1 2 00000000",
        ] {
            let body = format!("{FIRST_LINE}\n{line}\n");
            let text = format!("{body}crc32 {:08x}\n", crc32(body.as_bytes()));
            assert_eq!(parse_stamps(text.as_bytes()), None, "{line}");
        }
    }

    #[test]
    fn saving_keeps_what_another_writer_saved_since() {
        let dir = std::env::temp_dir().join(format!("baghchal-stamp-merge-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        let mut entries = BTreeMap::new();
        entries.insert("a.bctb".to_string(), identity(1));
        write_stamp_file(&dir, &entries).unwrap();
        // Two openers load the same stamps; the second finds `a` changed and stamps it anew.
        let first = Stamps::load(&dir);
        let second = Stamps::load(&dir);
        second.record(&dir.join("a.bctb"), identity(2));
        second.save();
        // The first stamps another file: its save must not bring back the old stamp of `a`.
        first.record(&dir.join("b.bctb"), identity(3));
        first.save();
        let saved = read_stamp_file(&dir.join(STAMP_FILE)).unwrap();
        assert_eq!(saved.get("a.bctb"), Some(&identity(2)));
        assert_eq!(saved.get("b.bctb"), Some(&identity(3)));
        // A file found corrupt loses its stamp whoever saved it.
        first.forget(&dir.join("a.bctb"));
        first.save();
        let saved = read_stamp_file(&dir.join(STAMP_FILE)).unwrap();
        assert_eq!(saved.keys().collect::<Vec<_>>(), ["b.bctb"]);
        // Nothing recorded or forgotten since: nothing is written.
        fs::remove_file(dir.join(STAMP_FILE)).unwrap();
        first.save();
        assert!(!dir.join(STAMP_FILE).exists());
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_derived_value_holds_while_its_inputs_stay_the_same() {
        let dir =
            std::env::temp_dir().join(format!("baghchal-stamp-derived-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        let inputs = [identity(1), identity(2)];
        let stamps = Stamps::load(&dir);
        assert_eq!(stamps.derived("values", &inputs), None);
        stamps.record_derived("values", &inputs, 0xbeb3_dd78);
        stamps.save();
        // Read back from the stamp file by another opener.
        let loaded = Stamps::load(&dir);
        assert_eq!(loaded.derived("values", &inputs), Some(0xbeb3_dd78));
        assert_eq!(loaded.derived("other", &inputs), None);
        // Any input changed in any field, another order, one more or fewer: not vouched for.
        let mut touched = identity(2);
        touched.modified.1 += 1;
        for changed in [
            vec![identity(1), touched],
            vec![identity(2), identity(1)],
            vec![identity(1)],
            vec![identity(1), identity(2), identity(3)],
        ] {
            assert_eq!(loaded.derived("values", &changed), None, "{changed:?}");
        }
        // A file's stamp never answers for a derived value, nor the other way round.
        assert!(!loaded.is_verified("values", &identity(1)));
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn recently_modified_files_are_racy() {
        let id = identity(1);
        let modified = UNIX_EPOCH + Duration::new(1_764_600_000, 123_456_789);
        assert!(id.is_recent(modified + Duration::from_secs(1)));
        assert!(!id.is_recent(modified + Duration::from_secs(3)));
    }
}
