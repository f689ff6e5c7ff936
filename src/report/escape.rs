//! What a terminal, a spreadsheet or a JSON reader is shown of text that came
//! from a page, an archive, a settings file or a targets file: every control
//! character and bidi override written visibly (`\u{1b}`, `\u{202e}`), so the
//! text cannot move the cursor, retitle or clear the terminal, or show its
//! characters in another order than they are (CVE-2021-42574), and nothing of
//! it is lost.

use std::borrow::Cow;
use std::io::{self, Write};

/// Whether `c` is written escaped: C0, DEL and C1 (`char::is_control`), and
/// the bidi embeddings, overrides and isolates U+202A–U+202E and
/// U+2066–U+2069, the ones that reorder what follows them (rustc's
/// `text_direction_codepoint_in_literal` set). The marks U+200E/U+200F are
/// left as they are: they reorder no strong character, and Hebrew and Arabic
/// pages use them in ordinary text.
pub fn is_hidden(c: char) -> bool {
    c.is_control() || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// `s` with every [`is_hidden`] character written as `\u{…}`; with
/// `keep_layout`, `\n` and `\t` stay, for text whose line breaks and tabs
/// are meant (a table's lines, a CSV cell).
pub fn escape(s: &str, keep_layout: bool) -> Cow<'_, str> {
    let hidden = |c: char| is_hidden(c) && !(keep_layout && matches!(c, '\n' | '\t'));
    // Printable ASCII, the whole of almost every report, is checked a byte at
    // a time.
    let plain = s
        .bytes()
        .all(|b| (0x20..0x7f).contains(&b) || (keep_layout && matches!(b, b'\n' | b'\t')));
    if plain || !s.chars().any(hidden) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 16);
    for c in s.chars() {
        if hidden(c) {
            out.extend(c.escape_unicode());
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// The one writer of every line that reaches a terminal: a table report and
/// every stderr line go through it. Text is [`escape`]d with its layout kept;
/// a byte that is not UTF-8 (a raw `0x9b` is a CSI to an 8-bit terminal) is
/// written as `\x9b`.
pub struct Escaped<W: Write> {
    inner: W,
    /// The start of a character cut between two writes (at most 3 bytes).
    pending: Vec<u8>,
}

impl<W: Write> Escaped<W> {
    pub fn new(inner: W) -> Self {
        Self {
            inner,
            pending: Vec::new(),
        }
    }

    fn write_invalid(&mut self, bytes: &[u8]) -> io::Result<()> {
        for b in bytes {
            write!(self.inner, "\\x{b:02x}")?;
        }
        Ok(())
    }
}

impl<W: Write> Write for Escaped<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let joined;
        let bytes = if self.pending.is_empty() {
            buf
        } else {
            let mut all = std::mem::take(&mut self.pending);
            all.extend_from_slice(buf);
            joined = all;
            &joined[..]
        };
        let mut chunks = bytes.utf8_chunks().peekable();
        while let Some(chunk) = chunks.next() {
            self.inner
                .write_all(escape(chunk.valid(), true).as_bytes())?;
            let invalid = chunk.invalid();
            let cut = chunks.peek().is_none()
                && std::str::from_utf8(invalid).is_err_and(|e| e.error_len().is_none());
            if cut {
                self.pending.extend_from_slice(invalid);
            } else {
                self.write_invalid(invalid)?;
            }
        }
        Ok(buf.len())
    }

    /// A character still cut at a flush is not coming: its bytes are shown.
    fn flush(&mut self) -> io::Result<()> {
        let pending = std::mem::take(&mut self.pending);
        self.write_invalid(&pending)?;
        self.inner.flush()
    }
}

/// A `serde_json` formatter that also writes DEL, C1 and the bidi overrides
/// as `\uXXXX` (serde_json escapes C0 only, and `\u009b` unescaped is valid
/// JSON that a terminal runs); every other byte is the inner formatter's.
pub struct JsonEscaping<F>(pub F);

impl<F: serde_json::ser::Formatter> serde_json::ser::Formatter for JsonEscaping<F> {
    fn write_string_fragment<W: ?Sized + Write>(
        &mut self,
        writer: &mut W,
        fragment: &str,
    ) -> io::Result<()> {
        let mut rest = fragment;
        while let Some((at, c)) = rest.char_indices().find(|(_, c)| is_hidden(*c)) {
            writer.write_all(&rest.as_bytes()[..at])?;
            write!(writer, "\\u{:04x}", u32::from(c))?;
            rest = &rest[at + c.len_utf8()..];
        }
        writer.write_all(rest.as_bytes())
    }

    fn begin_array<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.0.begin_array(writer)
    }

    fn end_array<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.0.end_array(writer)
    }

    fn begin_array_value<W: ?Sized + Write>(
        &mut self,
        writer: &mut W,
        first: bool,
    ) -> io::Result<()> {
        self.0.begin_array_value(writer, first)
    }

    fn end_array_value<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.0.end_array_value(writer)
    }

    fn begin_object<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.0.begin_object(writer)
    }

    fn end_object<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.0.end_object(writer)
    }

    fn begin_object_key<W: ?Sized + Write>(
        &mut self,
        writer: &mut W,
        first: bool,
    ) -> io::Result<()> {
        self.0.begin_object_key(writer, first)
    }

    fn begin_object_value<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.0.begin_object_value(writer)
    }

    fn end_object_value<W: ?Sized + Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.0.end_object_value(writer)
    }
}

/// `value` as serde_json's compact JSON, [`JsonEscaping`] the strings.
pub fn json_compact<T: serde::Serialize + ?Sized>(
    out: &mut impl Write,
    value: &T,
) -> serde_json::Result<()> {
    let formatter = JsonEscaping(serde_json::ser::CompactFormatter);
    value.serialize(&mut serde_json::Serializer::with_formatter(out, formatter))
}

/// `value` as serde_json's pretty JSON, [`JsonEscaping`] the strings.
pub fn json_pretty<T: serde::Serialize + ?Sized>(
    out: &mut impl Write,
    value: &T,
) -> serde_json::Result<()> {
    let formatter = JsonEscaping(serde_json::ser::PrettyFormatter::new());
    value.serialize(&mut serde_json::Serializer::with_formatter(out, formatter))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_and_bidi_overrides_are_shown_and_the_rest_is_kept() {
        let hostile = "a\u{1b}[2J\u{7}b\u{9b}c\u{7f}d\u{202e}e\u{2066}f\u{200f}g\n\th é 中";
        assert_eq!(
            escape(hostile, false),
            "a\\u{1b}[2J\\u{7}b\\u{9b}c\\u{7f}d\\u{202e}e\\u{2066}f\u{200f}g\\u{a}\\u{9}h é 中"
        );
        assert_eq!(
            escape(hostile, true),
            "a\\u{1b}[2J\\u{7}b\\u{9b}c\\u{7f}d\\u{202e}e\\u{2066}f\u{200f}g\n\th é 中"
        );
        assert!(matches!(
            escape("plain text é 中\n", true),
            Cow::Borrowed(_)
        ));
        // Escaping twice changes nothing more: the escaped form is printable.
        let once = escape(hostile, false).into_owned();
        assert_eq!(escape(&once, false), once);
    }

    #[test]
    fn the_writer_escapes_across_writes_and_shows_bytes_that_are_not_utf8() {
        let mut out = Escaped::new(Vec::new());
        out.write_all(b"line\t1\n\x1b[31m").unwrap();
        // U+202E (e2 80 ae) cut between two writes, then a lone C1 byte.
        out.write_all(b"x\xe2\x80").unwrap();
        out.write_all(b"\xae y \x9b z \xc2").unwrap();
        out.flush().unwrap();
        assert_eq!(
            String::from_utf8(out.inner).unwrap(),
            "line\t1\n\\u{1b}[31mx\\u{202e} y \\x9b z \\xc2"
        );
    }

    #[test]
    fn json_escapes_del_c1_and_bidi_and_is_otherwise_serde_json() {
        let value = serde_json::json!({"k\u{9b}": ["a\u{1b}\u{7f}\u{9b}\u{202e}b", "é中\"\\", 1]});
        let mut ours = Vec::new();
        json_pretty(&mut ours, &value).unwrap();
        let ours = String::from_utf8(ours).unwrap();
        assert_eq!(
            ours,
            "{\n  \"k\\u009b\": [\n    \"a\\u001b\\u007f\\u009b\\u202eb\",\n    \"é中\\\"\\\\\",\n    1\n  ]\n}"
        );
        assert!(!ours.chars().any(is_hidden_but_newline));
        let back: serde_json::Value = serde_json::from_str(&ours).unwrap();
        assert_eq!(back, value);
        let plain = serde_json::json!({"a": [1, "b c", {"d": null}]});
        let mut compact = Vec::new();
        json_compact(&mut compact, &plain).unwrap();
        assert_eq!(compact, serde_json::to_vec(&plain).unwrap());
        let mut pretty = Vec::new();
        json_pretty(&mut pretty, &plain).unwrap();
        assert_eq!(pretty, serde_json::to_vec_pretty(&plain).unwrap());
    }

    fn is_hidden_but_newline(c: char) -> bool {
        is_hidden(c) && c != '\n'
    }
}
