//! Reading the lines of a partial result, or of a unit list, with a cap on
//! each: a part may be `/dev/zero` or a stream that never ends a line, and
//! `BufRead::lines` would grow one line until memory runs out.

use std::io::{BufRead, Read as _};

use crate::fetch::local::MAX_TEXT_FILE_BYTES;
use crate::policy::MAX_LIST_CHARS;

/// The most a character of text costs in JSON: a control character is
/// written as `\u001f`.
const JSON_BYTES_PER_CHAR: usize = 6;

/// The settings of one side in JSON, at most: three lists within
/// `MAX_LIST_CHARS`, each character escaped at its dearest, and the flags.
const SETTINGS_JSON_BYTES: usize = 3 * MAX_LIST_CHARS * JSON_BYTES_PER_CHAR + 4096;

/// The archive files of a plan, in JSON: the real corpora have a few
/// thousand; this is room for half a million paths of 64 bytes.
const FILES_JSON_BYTES: usize = 32 * 1024 * 1024;

/// The longest header line: its plan holds two sides' settings within the
/// limits, a targets file within the 4 MB cap of `--targets` (as text, each
/// byte escaped at its dearest, or as bytes, `255,` each: less), the
/// archives' paths, and a few numbers.
pub const MAX_HEADER_LINE: usize = 2 * SETTINGS_JSON_BYTES
    + MAX_TEXT_FILE_BYTES * JSON_BYTES_PER_CHAR
    + FILES_JSON_BYTES
    + 64 * 1024;

/// Lines never need more, whatever a plan's `max_bytes`: a hostile header
/// can claim any, and the merge must stay bounded.
const MAX_LINE_CEILING: usize = 1024 * 1024 * 1024;

/// A page line's bytes per byte of its page, at most. A page line carries
/// each link's `href` and text in its candidates, and again, with its
/// resolved URL and both sides' outcomes, in its changes: about 250 bytes
/// of fields beyond the link's own bytes. Measured: the real corpus's 80
/// pages write 0.002 to 0.97 times their bytes; a page of 60,000
/// `<a href="/pN">pN</a>` links, every one changed under B, 9 times (1.66 MB
/// to 15.0 MB); the shortest link, `<a href=x>` (10 bytes), nears 25.
const PAGE_LINE_PER_PAGE_BYTE: usize = 32;

/// The longest line of a partial result: before any header, a header's;
/// after it, a page's of a run whose pages are read up to `max_bytes` (as
/// above, and the keyword uses of both sides' lists), or a header's.
pub fn max_line_bytes(max_bytes: Option<usize>) -> usize {
    let Some(max_bytes) = max_bytes else {
        return MAX_HEADER_LINE;
    };
    max_bytes
        .saturating_mul(PAGE_LINE_PER_PAGE_BYTE)
        .saturating_add(2 * SETTINGS_JSON_BYTES)
        .clamp(MAX_HEADER_LINE, MAX_LINE_CEILING)
}

/// The longest line of a unit list (`J<TAB>NAME`): a name is a page's id,
/// from a manifest within `MAX_TEXT_FILE_BYTES`, or an archive's path.
pub const MAX_UNIT_LINE: usize = MAX_TEXT_FILE_BYTES + 64;

/// Why a line cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum LineError {
    #[error("line {line} is longer than {cap} bytes, the longest such a line can be")]
    TooLong { line: usize, cap: usize },
    #[error("line {line} is not UTF-8 text")]
    NotText { line: usize },
    #[error("line {line} does not start with `{first}`, as every line of such a file does")]
    Foreign { line: usize, first: char },
    #[error(transparent)]
    Io(#[from] std::io::Error),
}

/// Reads lines of at most `cap` bytes each (the newline and a `\r` before it
/// not counted), numbered from 1.
pub struct CappedLines<R> {
    reader: R,
    cap: usize,
    /// The byte every line that is not blank starts with, when there is one.
    first: Option<u8>,
    line: usize,
    buf: Vec<u8>,
}

impl<R: BufRead> CappedLines<R> {
    pub fn new(reader: R, cap: usize) -> Self {
        Self {
            reader,
            cap,
            first: None,
            line: 0,
            buf: Vec::new(),
        }
    }

    /// Lines that are not blank start with `first`: a line that does not is
    /// refused at its first byte, so `/dev/zero` or a binary costs nothing.
    pub fn starting_with(mut self, first: u8) -> Self {
        self.first = Some(first);
        self
    }

    /// Sets the cap for the lines after this one.
    pub fn set_cap(&mut self, cap: usize) {
        self.cap = cap;
    }

    /// The next line and its number; `None` at the end.
    pub fn next_line(&mut self) -> Result<Option<(usize, &str)>, LineError> {
        self.buf.clear();
        self.line += 1;
        if let Some(first) = self.first {
            let start = self.reader.fill_buf()?.first().copied();
            if start.is_some_and(|b| b != first && !b.is_ascii_whitespace()) {
                return Err(LineError::Foreign {
                    line: self.line,
                    first: char::from(first),
                });
            }
        }
        // Two bytes over the cap: room for "\r\n" after a line of the cap.
        let limit = u64::try_from(self.cap)
            .unwrap_or(u64::MAX)
            .saturating_add(2);
        let read = (&mut self.reader)
            .take(limit)
            .read_until(b'\n', &mut self.buf)?;
        if read == 0 {
            return Ok(None);
        }
        let mut text: &[u8] = &self.buf;
        let ended = text.last() == Some(&b'\n');
        if ended {
            text = &text[..text.len() - 1];
            text = text.strip_suffix(b"\r").unwrap_or(text);
        }
        if text.len() > self.cap || (!ended && read as u64 == limit) {
            return Err(LineError::TooLong {
                line: self.line,
                cap: self.cap,
            });
        }
        let text = std::str::from_utf8(text).map_err(|_| LineError::NotText { line: self.line })?;
        Ok(Some((self.line, text)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(input: &[u8], cap: usize) -> Vec<Result<String, String>> {
        let mut lines = CappedLines::new(input, cap);
        let mut out = Vec::new();
        loop {
            match lines.next_line() {
                Ok(Some((_, text))) => out.push(Ok(text.to_owned())),
                Ok(None) => return out,
                Err(e) => {
                    out.push(Err(e.to_string()));
                    return out;
                }
            }
        }
    }

    #[test]
    fn lines_up_to_the_cap_are_read_and_a_longer_one_is_refused() {
        let ok = |s: &str| Ok::<String, String>(s.to_owned());
        assert_eq!(
            lines(b"abcd\r\nab\n\nabcd", 4),
            [ok("abcd"), ok("ab"), ok(""), ok("abcd")]
        );
        assert_eq!(
            lines(b"ab\nabcde\nx", 4),
            [
                ok("ab"),
                Err("line 2 is longer than 4 bytes, the longest such a line can be".to_owned())
            ]
        );
        assert_eq!(
            lines(b"\xff\n", 4),
            [Err("line 1 is not UTF-8 text".to_owned())]
        );
    }

    #[test]
    fn a_line_that_never_ends_is_read_only_to_the_cap() {
        let mut zeros = CappedLines::new(std::io::BufReader::new(std::io::repeat(0)), 1000);
        assert!(matches!(
            zeros.next_line(),
            Err(LineError::TooLong { line: 1, cap: 1000 })
        ));
        assert!(zeros.buf.len() <= 1002);
        let mut foreign = CappedLines::new(&b"{}\n\n \x00\n\x00"[..], 1000).starting_with(b'{');
        assert_eq!(foreign.next_line().unwrap(), Some((1, "{}")));
        assert_eq!(foreign.next_line().unwrap(), Some((2, "")));
        assert_eq!(foreign.next_line().unwrap(), Some((3, " \0")));
        assert_eq!(
            foreign.next_line().unwrap_err().to_string(),
            "line 4 does not start with `{`, as every line of such a file does"
        );
    }

    #[test]
    fn the_cap_follows_max_bytes_between_its_bounds() {
        assert_eq!(max_line_bytes(None), MAX_HEADER_LINE);
        assert_eq!(max_line_bytes(Some(0)), MAX_HEADER_LINE);
        assert_eq!(max_line_bytes(Some(usize::MAX)), MAX_LINE_CEILING);
        let default = max_line_bytes(Some(crate::fetch::DEFAULT_MAX_BYTES));
        assert!(default >= 32 * crate::fetch::DEFAULT_MAX_BYTES);
    }
}
