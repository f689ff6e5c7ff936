//! Header fields (`Name: value` lines) of a WARC record or an HTTP message,
//! read line by line as warcio reads them. Line folding is undone here:
//! warcat's own header parsers compile a regex for every field to do it,
//! 30 µs a field, which made reading ten times slower than deciding the
//! pages.

use std::borrow::Cow;

/// The fields of `lines` (an HTTP header after its status line) in order,
/// up to the blank line. Each line is read alone, as warcio reads them
/// (split at its first colon, the name's trailing blanks dropped): a line
/// with no colon, no name or control bytes is skipped and the rest kept.
/// warcat's grammar refused the whole block for one such line (a name with
/// a space, as a headless Chrome capture writes `X-Content Type Options`),
/// and a response lost its Content-Type with it. What was skipped is
/// counted, and its first line kept, to be named in the record's warning.
pub(super) fn header_fields(lines: &[u8]) -> (Vec<(String, String)>, Skipped<'_>) {
    let (fields, _, skipped) = fields(lines, false);
    (fields, skipped)
}

/// The lines of an HTTP header that are not fields: how many, and the first.
/// Only the first is kept: a hostile header can be all bad lines.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Skipped<'a> {
    pub count: usize,
    pub first: Option<&'a [u8]>,
}

/// A WARC record header's fields, up to the blank line or the first line
/// that is not a field, and that line if one stopped them. Stopping there
/// keeps reading on after damage linear: a candidate record's own
/// `WARC/1.` line ends the candidate before it (docs/archives.md).
pub(super) fn record_fields(lines: &[u8]) -> (Vec<(String, String)>, Option<&[u8]>) {
    let (fields, stopped, _) = fields(lines, true);
    (fields, stopped)
}

type Fields<'a> = (Vec<(String, String)>, Option<&'a [u8]>, Skipped<'a>);

fn fields(lines: &[u8], stop_at_bad: bool) -> Fields<'_> {
    let mut fields: Vec<(String, Vec<u8>)> = Vec::new();
    let mut kept_last = false;
    let mut stopped = None;
    let mut skipped = Skipped::default();
    for line in lines.split(|b| *b == b'\n') {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if line.is_empty() {
            break;
        }
        let control = line.iter().any(|b| b.is_ascii_control() && *b != b'\t');
        // A folded line continues the field before it.
        if matches!(line[0], b' ' | b'\t') && !control {
            if kept_last && let Some((_, value)) = fields.last_mut() {
                value.push(b' ');
                value.extend_from_slice(line.trim_ascii_start());
            }
            continue;
        }
        kept_last = false;
        let name = memchr::memchr(b':', line).map(|colon| (line[..colon].trim_ascii_end(), colon));
        match name {
            // Control bytes are damage (a corrupt gzip member inflates to
            // NULs), not a field.
            Some((name, colon)) if !name.is_empty() && !control => {
                let name = String::from_utf8_lossy(name).into_owned();
                fields.push((name, line[colon + 1..].to_vec()));
                kept_last = true;
            }
            _ if stop_at_bad => {
                stopped = Some(line);
                break;
            }
            _ => {
                skipped.count += 1;
                skipped.first = skipped.first.or(Some(line));
            }
        }
    }
    let fields = fields
        .into_iter()
        .map(|(name, value)| {
            let value = percent_encode_invalid(&value).trim().to_owned();
            (name, value)
        })
        .collect();
    (fields, stopped, skipped)
}

/// A value's text, with each byte that is not UTF-8 percent-encoded, as a
/// browser sends a URL's raw bytes: `caf\xE9` and `caf\xE8` stay two URLs
/// (replacing them with U+FFFD made them one, and a page was lost as a
/// duplicate).
fn percent_encode_invalid(value: &[u8]) -> Cow<'_, str> {
    if let Ok(text) = std::str::from_utf8(value) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(value.len() + 16);
    for chunk in value.utf8_chunks() {
        out.push_str(chunk.valid());
        for byte in chunk.invalid() {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    Cow::Owned(out)
}

/// The first line of a header and what follows it.
pub(super) fn first_line(head: &[u8]) -> (&[u8], &[u8]) {
    match memchr::memchr(b'\n', head) {
        Some(at) => {
            let line = &head[..at];
            (line.strip_suffix(b"\r").unwrap_or(line), &head[at + 1..])
        }
        None => (head, &[]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_keep_their_order_and_folded_values_are_one_line() {
        let (fields, skipped) = header_fields(
            b"B-Name: two\r\nA-Name:  one \r\nFolded: first\r\n  second\r\n\r\nnot: read",
        );
        assert_eq!(
            fields,
            [
                ("B-Name".to_owned(), "two".to_owned()),
                ("A-Name".to_owned(), "one".to_owned()),
                ("Folded".to_owned(), "first second".to_owned()),
            ]
        );
        assert_eq!(skipped, Skipped::default());
    }

    #[test]
    fn a_bad_line_is_skipped_and_the_rest_kept() {
        let (fields, skipped) = header_fields(
            b"Content-Type: text/html\r\nX-Content Type Options: nosniff\r\nno colon here\r\n: no name\r\nServer: x\r\n\r\n",
        );
        assert_eq!(
            fields,
            [
                ("Content-Type".to_owned(), "text/html".to_owned()),
                ("X-Content Type Options".to_owned(), "nosniff".to_owned()),
                ("Server".to_owned(), "x".to_owned()),
            ]
        );
        assert_eq!(
            skipped,
            Skipped {
                count: 2,
                first: Some(&b"no colon here"[..])
            }
        );
    }

    #[test]
    fn bytes_that_are_not_utf8_are_percent_encoded_and_stay_apart() {
        let (e9, _) = header_fields(b"WARC-Target-URI: https://a.test/caf\xE9\r\n\r\n");
        let (e8, _) = header_fields(b"WARC-Target-URI: https://a.test/caf\xE8\r\n\r\n");
        assert_eq!(e9[0].1, "https://a.test/caf%E9");
        assert_eq!(e8[0].1, "https://a.test/caf%E8");
        let (utf8, _) = header_fields("Name: café\r\n\r\n".as_bytes());
        assert_eq!(utf8[0].1, "café");
    }

    #[test]
    fn the_first_line_is_split_off() {
        assert_eq!(
            first_line(b"WARC/1.1\r\nA: b"),
            (&b"WARC/1.1"[..], &b"A: b"[..])
        );
        assert_eq!(
            first_line(b"HTTP/1.0 200\nA: b"),
            (&b"HTTP/1.0 200"[..], &b"A: b"[..])
        );
    }
}
