//! Header fields (`Name: value` lines) of a WARC record or an HTTP message,
//! by warcat's field grammar. Line folding is undone here: warcat's own
//! header parsers compile a regex for every field to do it, 30 µs a field,
//! which made reading ten times slower than deciding the pages.

use std::borrow::Cow;

/// The fields of `lines` (the header after its first line) in order, up to
/// the blank line or the first line that is not a field.
pub(super) fn header_fields(lines: &[u8]) -> Vec<(String, String)> {
    warcat::parse::parse_name_value_fields(lines)
        .unwrap_or_default()
        .into_iter()
        .map(|pair| {
            let name = String::from_utf8_lossy(pair.name).into_owned();
            let value = percent_encode_invalid(&unfold(pair.value))
                .trim()
                .to_owned();
            (name, value)
        })
        .collect()
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

/// A folded value (a line break then spaces or tabs) as one line.
fn unfold(value: &[u8]) -> Cow<'_, [u8]> {
    if !value.contains(&b'\n') {
        return Cow::Borrowed(value);
    }
    let mut out = Vec::with_capacity(value.len());
    let mut rest = value;
    while let Some(at) = memchr::memchr(b'\n', rest) {
        let line = rest[..at].strip_suffix(b"\r").unwrap_or(&rest[..at]);
        out.extend_from_slice(line);
        rest = &rest[at + 1..];
        let indent = rest
            .iter()
            .take_while(|b| matches!(b, b' ' | b'\t'))
            .count();
        rest = &rest[indent..];
        out.push(b' ');
    }
    out.extend_from_slice(rest);
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
        let fields = header_fields(
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
    }

    #[test]
    fn bytes_that_are_not_utf8_are_percent_encoded_and_stay_apart() {
        let e9 = header_fields(b"WARC-Target-URI: https://a.test/caf\xE9\r\n\r\n");
        let e8 = header_fields(b"WARC-Target-URI: https://a.test/caf\xE8\r\n\r\n");
        assert_eq!(e9[0].1, "https://a.test/caf%E9");
        assert_eq!(e8[0].1, "https://a.test/caf%E8");
        let utf8 = header_fields("Name: café\r\n\r\n".as_bytes());
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
