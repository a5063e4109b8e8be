//! The thin I/O shell: a stdin reader thread feeding lines to a [`Session`] writing to stdout.

use super::error::CommandError;
use super::output::Stdout;
use super::session::{Flow, Session};
use std::io::{BufRead, ErrorKind};
use std::sync::mpsc::{channel, Sender};
use std::sync::Arc;

/// Longest line accepted, in bytes; longer lines are dropped with an error.
pub const MAX_LINE_BYTES: usize = 4 << 20;

/// One item from the reader.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    /// A line without its `\n` (and `\r`), invalid UTF-8 replaced.
    Line(String),
    /// A line longer than [`MAX_LINE_BYTES`], dropped; its length.
    TooLong(usize),
}

/// Reads `reader` line by line into `sender` until end of input or a read error, never holding
/// more than [`MAX_LINE_BYTES`] of one line.
pub fn read_lines(mut reader: impl BufRead, sender: &Sender<Input>) {
    let mut line = Vec::new();
    let mut length = 0usize;
    loop {
        let chunk = match reader.fill_buf() {
            Ok(chunk) => chunk,
            Err(error) if error.kind() == ErrorKind::Interrupted => continue,
            Err(error) => {
                log::warn!("reading stdin: {error}");
                break;
            }
        };
        if chunk.is_empty() {
            if length > 0 {
                let _ = sender.send(finish_line(&mut line, &mut length));
            }
            break;
        }
        let newline = chunk.iter().position(|&b| b == b'\n');
        let part = &chunk[..newline.unwrap_or(chunk.len())];
        if length + part.len() <= MAX_LINE_BYTES {
            line.extend_from_slice(part);
        }
        length += part.len();
        let used = part.len() + usize::from(newline.is_some());
        reader.consume(used);
        if newline.is_some() && sender.send(finish_line(&mut line, &mut length)).is_err() {
            break;
        }
    }
}

fn finish_line(line: &mut Vec<u8>, length: &mut usize) -> Input {
    let input = if *length > MAX_LINE_BYTES {
        Input::TooLong(*length)
    } else {
        let text = String::from_utf8_lossy(line);
        Input::Line(text.trim_end_matches('\r').to_string())
    };
    line.clear();
    *length = 0;
    input
}

/// Runs the protocol on stdin/stdout until `quit` or end of input.
pub fn run() {
    let (sender, receiver) = channel();
    std::thread::spawn(move || read_lines(std::io::stdin().lock(), &sender));
    let mut session = Session::new(Arc::new(Stdout));
    for input in receiver {
        match input {
            Input::Line(line) => {
                log::debug!("<< {line}");
                if session.handle_line(&line) == Flow::Quit {
                    return;
                }
            }
            Input::TooLong(length) => session.error(&CommandError::LineTooLong {
                length,
                max: MAX_LINE_BYTES,
            }),
        }
    }
    session.finish_input();
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;

    fn read(bytes: &[u8]) -> Vec<Input> {
        let (sender, receiver) = channel();
        read_lines(Cursor::new(bytes.to_vec()), &sender);
        drop(sender);
        receiver.into_iter().collect()
    }

    #[test]
    fn lines_lose_crlf_and_the_last_may_lack_a_newline() {
        let lines = read(b"uci\r\nisready\n\nquit");
        let expected = ["uci", "isready", "", "quit"].map(|s| Input::Line(s.to_string()));
        assert_eq!(lines, expected);
    }

    #[test]
    fn overlong_lines_are_dropped_and_reading_goes_on() {
        let mut bytes = vec![b'x'; MAX_LINE_BYTES + 10];
        bytes.extend_from_slice(b"\nisready\n");
        let lines = read(&bytes);
        assert_eq!(
            lines,
            [
                Input::TooLong(MAX_LINE_BYTES + 10),
                Input::Line("isready".to_string())
            ]
        );
    }

    #[test]
    fn invalid_utf8_is_replaced() {
        assert_eq!(read(b"go \xff\n"), [Input::Line("go \u{fffd}".to_string())]);
    }
}
