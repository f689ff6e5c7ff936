//! The tokenizer's scans that need no tree: a tag's needed attributes,
//! where a comment, a raw text element and a script end (the comment and
//! script data states).

use super::names::Name;

pub(super) fn is_space(b: u8) -> bool {
    matches!(b, b'\t' | b'\n' | b'\x0C' | b'\r' | b' ')
}

/// Which needed attribute a name is: href, rel, role, property, content,
/// a `font` styling attribute, type.
pub(super) fn needed(name: &[u8]) -> Option<u8> {
    let lowered;
    let name = if name.iter().any(u8::is_ascii_uppercase) {
        lowered = name.to_ascii_lowercase();
        &lowered[..]
    } else {
        name
    };
    match name {
        b"href" => Some(0),
        b"rel" => Some(1),
        b"role" => Some(2),
        b"property" => Some(3),
        b"content" => Some(4),
        b"color" => Some(5),
        b"face" => Some(6),
        b"size" => Some(7),
        b"type" => Some(8),
        _ => None,
    }
}

/// Whether `at` starts `</name` and a space, `/` or `>`: the end tag a raw
/// text or RCDATA element named `name` ends at.
pub(super) fn is_end_tag_named(bytes: &[u8], at: usize, name: &[u8]) -> bool {
    let after = at + 2 + name.len();
    bytes.len() > after
        && bytes[at + 1] == b'/'
        && bytes[at + 2..after].eq_ignore_ascii_case(name)
        && (is_space(bytes[after]) || matches!(bytes[after], b'/' | b'>'))
}

/// Where a comment's text ends (after its `-->` or `--!>`), by the comment
/// states: `--` then any more `-` then `>` or `!>`.
pub(super) fn comment_end(text: &[u8]) -> Option<usize> {
    let mut i = 0;
    while let Some(off) = memchr::memchr(b'-', &text[i..]) {
        let dash = i + off;
        if text.get(dash + 1) != Some(&b'-') {
            i = dash + 1;
            continue;
        }
        let mut at = dash + 2;
        while text.get(at) == Some(&b'-') {
            at += 1;
        }
        match text.get(at) {
            Some(b'>') => return Some(at + 1),
            Some(b'!') if text.get(at + 1) == Some(&b'>') => return Some(at + 2),
            _ => i = at,
        }
    }
    None
}

/// The ASCII letters from `from`: where they end.
pub(super) fn letters_end(bytes: &[u8], from: usize) -> usize {
    let mut i = from;
    while i < bytes.len() && bytes[i].is_ascii_alphabetic() {
        i += 1;
    }
    i
}

/// Where a script's text ends: the `<` of its end tag, by the tokenizer's
/// script data states (13.2.5.4 and 13.2.5.15 to 13.2.5.31), so that
/// `<!--` and `<script>` inside a script hide a `</script>` as they do in a
/// browser. `None` when the input ends first.
pub(super) fn script_end(b: &[u8], start: usize) -> Option<usize> {
    // `script` and a space, `/` or `>` at `from`: where the letters end, and
    // whether they were that word.
    let script_word = |from: usize| {
        let end = letters_end(b, from);
        let is = end < b.len()
            && (is_space(b[end]) || matches!(b[end], b'/' | b'>'))
            && b[from..end].eq_ignore_ascii_case(b"script");
        (end, is)
    };
    // After `<!--`: escaped, or double escaped after `<script` (`Some(true)`,
    // where `</script>` only undoes the `<script`); and how many `-` were
    // just seen (two, then `>`, end the escape).
    let mut escape: Option<bool> = None;
    let mut dashes = 0;
    let mut i = start;
    while i < b.len() {
        let Some(double) = escape else {
            i += memchr::memchr(b'<', &b[i..])?;
            if is_end_tag_named(b, i, b"script") {
                return Some(i);
            }
            if b[i + 1..].starts_with(b"!--") {
                escape = Some(false);
                dashes = 2;
                i += 4;
            } else {
                i += 1;
            }
            continue;
        };
        if dashes == 0 {
            i += memchr::memchr2(b'-', b'<', &b[i..])?;
        }
        match b[i] {
            b'-' => {
                dashes = (dashes + 1).min(2);
                i += 1;
            }
            b'>' if dashes == 2 => {
                escape = None;
                i += 1;
            }
            b'<' => {
                dashes = 0;
                if !double && is_end_tag_named(b, i, b"script") {
                    return Some(i);
                }
                // `<script` starts a double escape, `</script` ends one.
                let word = match (double, b.get(i + 1)) {
                    (false, Some(c)) if c.is_ascii_alphabetic() => Some(i + 1),
                    (true, Some(b'/')) => Some(i + 2),
                    _ => None,
                };
                i = match word.map(script_word) {
                    Some((end, true)) => {
                        escape = Some(!double);
                        end + 1
                    }
                    Some((end, false)) => end,
                    None => i + 1,
                };
            }
            _ => {
                dashes = 0;
                i += 1;
            }
        }
    }
    None
}

/// The tag name of the raw text and RCDATA elements, for their end tag.
pub(super) fn name_text(name: Name) -> &'static [u8] {
    match name {
        Name::SCRIPT => b"script",
        Name::STYLE => b"style",
        Name::TITLE => b"title",
        Name::TEXTAREA => b"textarea",
        Name::XMP => b"xmp",
        Name::IFRAME => b"iframe",
        Name::NOEMBED => b"noembed",
        Name::NOFRAMES => b"noframes",
        Name::NOSCRIPT => b"noscript",
        _ => b"",
    }
}
