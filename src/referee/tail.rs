//! Reading JSON-lines record files that may still be growing (a shard still playing): each
//! read takes the complete lines appended since the last one and leaves a last line still
//! being written for later.

use super::record::{json, GameRecord};
use std::io::{Read, Seek, SeekFrom};

/// What one read of a record file found.
#[derive(Debug, Default)]
pub struct Chunk {
    /// New records with their 1-based line numbers.
    pub records: Vec<(usize, GameRecord)>,
    /// Complete lines that are not records: `line N: reason`.
    pub bad: Vec<String>,
    /// A last line without its newline, read because the writer has finished, that is not a
    /// record (a writer killed mid-line): `line N: ...`.
    pub truncated: Option<String>,
    /// The file is shorter than what was read before (rewritten or cut): reading started over,
    /// so records taken from it earlier must be dropped.
    pub restarted: bool,
}

/// A record file read a piece at a time.
#[derive(Debug, Clone)]
pub struct RecordTail {
    path: String,
    /// Bytes consumed: complete lines only.
    offset: u64,
    /// Lines consumed.
    lines: usize,
}

impl RecordTail {
    /// Nothing read yet.
    pub fn new(path: &str) -> RecordTail {
        RecordTail {
            path: path.to_string(),
            offset: 0,
            lines: 0,
        }
    }

    /// The file's path.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// Reads what was appended since the last read. A last line without a newline is left for
    /// the next read, unless `finished` (the writer is done), when it is read as the last
    /// record or reported as [`Chunk::truncated`]. A file that does not exist yet reads as
    /// empty.
    ///
    /// # Errors
    /// The file exists but cannot be read.
    pub fn read(&mut self, finished: bool) -> Result<Chunk, String> {
        let error = |e: std::io::Error| format!("cannot read records file \"{}\": {e}", self.path);
        let mut file = match std::fs::File::open(&self.path) {
            Ok(file) => file,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Chunk::default()),
            Err(e) => return Err(error(e)),
        };
        let mut chunk = Chunk::default();
        let length = file.metadata().map_err(error)?.len();
        if length < self.offset {
            chunk.restarted = true;
            self.offset = 0;
            self.lines = 0;
        }
        file.seek(SeekFrom::Start(self.offset)).map_err(error)?;
        let mut bytes = Vec::new();
        file.read_to_end(&mut bytes).map_err(error)?;
        let complete = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        for line in bytes[..complete].split_inclusive(|&b| b == b'\n') {
            self.take_line(&line[..line.len() - 1], &mut chunk.records, &mut chunk.bad);
        }
        self.offset += complete as u64;
        let rest = &bytes[complete..];
        if finished && !rest.iter().all(u8::is_ascii_whitespace) {
            let mut bad = Vec::new();
            self.take_line(rest, &mut chunk.records, &mut bad);
            if let Some(reason) = bad.pop() {
                chunk.truncated = Some(format!(
                    "{reason} (an incomplete last record of {} bytes: the writer stopped mid-line)",
                    rest.len()
                ));
            }
            self.offset += rest.len() as u64;
        }
        Ok(chunk)
    }

    fn take_line(
        &mut self,
        line: &[u8],
        records: &mut Vec<(usize, GameRecord)>,
        bad: &mut Vec<String>,
    ) {
        self.lines += 1;
        let number = self.lines;
        if line.iter().all(u8::is_ascii_whitespace) {
            return;
        }
        match std::str::from_utf8(line) {
            Ok(text) => match json::parse_line(text.trim_end_matches('\r')) {
                Ok(record) => records.push((number, record)),
                Err(e) => bad.push(format!("line {number}: {e}")),
            },
            Err(_) => bad.push(format!("line {number}: not UTF-8 text")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::referee::record::tests::sample;
    use std::io::Write;

    fn line(number: u64) -> String {
        json::write_line(&GameRecord { number, ..sample() }) + "\n"
    }

    fn append(path: &std::path::Path, text: &str) {
        let mut file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .unwrap();
        file.write_all(text.as_bytes()).unwrap();
    }

    fn numbers(chunk: &Chunk) -> Vec<(usize, u64)> {
        chunk.records.iter().map(|(l, r)| (*l, r.number)).collect()
    }

    #[test]
    fn growing_files_are_read_a_complete_line_at_a_time() {
        let dir = std::env::temp_dir().join(format!("tail-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("shard.jsonl");
        let _ = std::fs::remove_file(&path);
        let mut tail = RecordTail::new(path.to_str().unwrap());
        assert!(tail.read(false).unwrap().records.is_empty(), "missing file");
        let second = line(2);
        append(&path, &(line(1) + "\n" + &second[..40]));
        let chunk = tail.read(false).unwrap();
        assert_eq!(numbers(&chunk), vec![(1, 1)]);
        assert!(chunk.bad.is_empty() && chunk.truncated.is_none());
        // The half-written line is completed, then a corrupt line and half a record follow.
        append(&path, &second[40..]);
        append(&path, "{\"game\": oops}\n");
        append(&path, &line(4)[..30]);
        let chunk = tail.read(false).unwrap();
        assert_eq!(numbers(&chunk), vec![(3, 2)]);
        assert_eq!(chunk.bad.len(), 1);
        assert!(chunk.bad[0].starts_with("line 4: "), "{:?}", chunk.bad);
        assert!(chunk.truncated.is_none());
        // Once the writer has finished, the cut line is reported, once.
        let chunk = tail.read(true).unwrap();
        assert!(chunk.records.is_empty());
        let truncated = chunk.truncated.unwrap();
        assert!(truncated.starts_with("line 5: "), "{truncated}");
        assert!(truncated.contains("30 bytes"), "{truncated}");
        assert!(tail.read(true).unwrap().truncated.is_none());
        // A finished file whose last line only lacks its newline gives that record.
        std::fs::write(&path, line(7).trim_end()).unwrap();
        let chunk = tail.read(true).unwrap();
        assert!(chunk.restarted);
        assert_eq!(numbers(&chunk), vec![(1, 7)]);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
