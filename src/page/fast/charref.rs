//! Character references, decoded as html5ever's tokenizer decodes them
//! (`tokenizer/char_ref`), over its own entity table.

use std::borrow::Cow;

use html5ever::data::{C1_REPLACEMENTS, NAMED_ENTITIES};

use super::bail::Bail;

/// Text with its character references decoded as html5ever's tokenizer
/// decodes them (`tokenizer/char_ref`), and newlines normalized. The text
/// ends where no reference can reach past (`<`, a quote, a space, `>`), so
/// its end ends a reference as the end of input does in html5ever.
pub(super) fn decode(raw: &str, in_attribute: bool) -> Result<Cow<'_, str>, Bail> {
    let bytes = raw.as_bytes();
    let Some(first) = memchr::memchr2(b'&', b'\r', bytes) else {
        return Ok(Cow::Borrowed(raw));
    };
    let mut out = String::with_capacity(raw.len());
    let mut copied = 0;
    let mut i = first;
    while let Some(off) = memchr::memchr2(b'&', b'\r', &bytes[i..]) {
        let at = i + off;
        out.push_str(&raw[copied..at]);
        if bytes[at] == b'\r' {
            out.push('\n');
            i = at
                + if bytes.get(at + 1) == Some(&b'\n') {
                    2
                } else {
                    1
                };
            copied = i;
            continue;
        }
        let (decoded, consumed) = char_ref(&bytes[at + 1..], in_attribute)?;
        match decoded {
            Some((c1, c2)) => {
                out.push(c1);
                if let Some(c2) = c2 {
                    out.push(c2);
                }
                i = at + 1 + consumed;
            }
            None => {
                out.push('&');
                i = at + 1;
            }
        }
        copied = i;
    }
    out.push_str(&raw[copied..]);
    Ok(Cow::Owned(out))
}

pub(super) type Decoded = Option<(char, Option<char>)>;

/// The character reference after a `&`: what it decodes to (nothing: the `&`
/// is text) and how many bytes it takes.
pub(super) fn char_ref(after: &[u8], in_attribute: bool) -> Result<(Decoded, usize), Bail> {
    match after.first() {
        None => Ok((None, 0)),
        Some(b'#') => numeric_ref(&after[1..]).map(|(d, n)| (d, n + 1)),
        Some(c) if c.is_ascii_alphanumeric() => named_ref(after, in_attribute),
        Some(_) => Ok((None, 0)),
    }
}

pub(super) fn numeric_ref(after: &[u8]) -> Result<(Decoded, usize), Bail> {
    let (base, start) = match after.first() {
        Some(b'x' | b'X') => (16, 1),
        Some(_) => (10, 0),
        None => return Ok((None, 0)),
    };
    let mut i = start;
    let mut num: u32 = 0;
    let mut too_big = false;
    while let Some(d) = after.get(i).and_then(|&b| char::from(b).to_digit(base)) {
        num = num.wrapping_mul(base);
        if num > 0x10FFFF {
            too_big = true;
        }
        num = num.wrapping_add(d);
        i += 1;
    }
    if i == start {
        // No digits: `&#` (and `x`) are text.
        return Ok((None, 0));
    }
    if after.get(i) == Some(&b';') {
        i += 1;
    }
    let c = match num {
        n if n > 0x10FFFF || too_big => '\u{fffd}',
        0 | 0xD800..=0xDFFF => '\u{fffd}',
        0x80..=0x9F => C1_REPLACEMENTS[(num - 0x80) as usize]
            .or_else(|| char::from_u32(num))
            .ok_or(Bail::CharRef)?,
        n => char::from_u32(n).ok_or(Bail::CharRef)?,
    };
    Ok((Some((c, None)), i))
}

pub(super) fn named_ref(after: &[u8], in_attribute: bool) -> Result<(Decoded, usize), Bail> {
    // As html5ever: take characters while they are a prefix of some name,
    // remembering the longest full match.
    let mut matched: Option<((u32, u32), usize)> = None;
    let mut len = 0;
    while let Some(&c) = after.get(len) {
        if !c.is_ascii() {
            break;
        }
        len += 1;
        let Ok(name) = std::str::from_utf8(&after[..len]) else {
            return Err(Bail::CharRef);
        };
        match NAMED_ENTITIES.get(name) {
            Some(&m) => {
                if m.0 != 0 {
                    matched = Some((m, len));
                }
            }
            None => break,
        }
    }
    let Some(((c1, c2), name_len)) = matched else {
        // No name matched: the `&` and what follows are text.
        return Ok((None, 0));
    };
    let last = after[name_len - 1];
    let next = after.get(name_len).copied();
    if last != b';' && in_attribute && next.is_some_and(|c| c == b'=' || c.is_ascii_alphanumeric())
    {
        return Ok((None, 0));
    }
    let c1 = char::from_u32(c1).ok_or(Bail::CharRef)?;
    let c2 = if c2 == 0 {
        None
    } else {
        Some(char::from_u32(c2).ok_or(Bail::CharRef)?)
    };
    Ok((Some((c1, c2)), name_len))
}
