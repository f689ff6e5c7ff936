//! The tokenizer's side of the fast path: markup found with `memchr`, a
//! tag's name and the attributes the rules read, comments, doctypes and
//! raw text passed over (with the wide-tag scan run where no tag is read).

use std::borrow::Cow;

use super::charref::decode;
use super::scan::{comment_end, is_end_tag_named, is_space, name_text, needed, script_end};
use super::{Attrs, Bail, Doctype, Mode, Name, Reader, Tag, Then, known};

impl<'a> Reader<'a> {
    pub(super) fn run(&mut self) -> Result<(), Bail> {
        let bytes = self.bytes();
        let n = bytes.len();
        let mut text_start = self.pos;
        let mut i = self.pos;
        while let Some(off) = memchr::memchr(b'<', &bytes[i..]) {
            let lt = i + off;
            let next = bytes.get(lt + 1).copied();
            match next {
                Some(b'!') | Some(b'/') | Some(b'?') => {}
                Some(c) if c.is_ascii_alphabetic() => {}
                // A `<` that starts nothing is text.
                _ => {
                    i = lt + 1;
                    continue;
                }
            }
            self.characters(text_start, lt)?;
            let end = match next {
                Some(b'!') => {
                    let end = self.markup_declaration(lt)?;
                    self.passed_over(lt, end)?
                }
                Some(b'?') => {
                    let end = self.bogus_comment(lt + 1)?;
                    self.passed_over(lt, end)?
                }
                Some(b'/') => match bytes.get(lt + 2) {
                    Some(c) if c.is_ascii_alphabetic() => {
                        let (tag, end) = self.tag(lt + 2, true)?;
                        self.end_tag(tag)?;
                        end
                    }
                    Some(b'>') => lt + 3,
                    Some(_) => {
                        let end = self.bogus_comment(lt + 2)?;
                        self.passed_over(lt, end)?
                    }
                    None => return Err(Bail::Tokenizer),
                },
                _ => {
                    let (tag, end) = self.tag(lt + 1, false)?;
                    let name = tag.name;
                    let then = self.start_tag(tag)?;
                    self.pos = end;
                    self.raw_text(name, then)?
                }
            };
            i = end;
            text_start = end;
        }
        self.characters(text_start, n)?;
        Ok(())
    }

    /// `end`, once the wide-tag scan is known to pass over `from..end` as
    /// this path does (else the page goes to html5ever, thinned).
    fn passed_over(&mut self, from: usize, end: usize) -> Result<usize, Bail> {
        use crate::page::wide_tags::{Region, region};
        if self.wide_scan_done {
            return Ok(end);
        }
        match region(self.src, from, end) {
            Region::Plain => Ok(end),
            Region::Wide => Err(Bail::Input),
            // Out of step with the tokenizer (16% of the real pages, by a
            // quote in a script): the scan runs on alone to the end of the
            // page, as it did over every page before.
            Region::RunsPast(at) => match region(self.src, at, self.src.len()) {
                Region::Plain => {
                    self.wide_scan_done = true;
                    Ok(end)
                }
                _ => Err(Bail::Input),
            },
        }
    }

    /// `<!`: a comment, a doctype or a bogus comment. Returns where it ends.
    fn markup_declaration(&mut self, lt: usize) -> Result<usize, Bail> {
        let bytes = self.bytes();
        let rest = &bytes[lt + 2..];
        self.ignore_lf = false;
        if rest.starts_with(b"--") {
            let body = lt + 4;
            let after = &bytes[body..];
            // `<!-->` and `<!--->` end at once.
            if after.first() == Some(&b'>') {
                return Ok(body + 1);
            }
            if after.starts_with(b"->") {
                return Ok(body + 2);
            }
            // Then `--`, any more `-`, and `>` or `!>` end it.
            return comment_end(after)
                .map(|end| body + end)
                .ok_or(Bail::Tokenizer);
        }
        if rest.len() >= 7 && rest[..7].eq_ignore_ascii_case(b"doctype") {
            // Every DOCTYPE state ends at the first `>`.
            let end = memchr::memchr(b'>', rest).ok_or(Bail::Tokenizer)?;
            if self.mode == Mode::Initial {
                self.mode = Mode::BeforeHtml;
                let inner = &rest[7..end];
                let name = inner.trim_ascii();
                self.doctype = if inner.first().is_some_and(|&c| is_space(c))
                    && name.eq_ignore_ascii_case(b"html")
                {
                    Doctype::Html
                } else {
                    Doctype::Other(lt..lt + 2 + end + 1)
                };
            }
            return Ok(lt + 2 + end + 1);
        }
        if rest.starts_with(b"[CDATA[") && self.in_foreign() {
            return Err(Bail::Foreign);
        }
        self.bogus_comment(lt + 2)
    }

    /// A bogus comment from `from` to the next `>`.
    fn bogus_comment(&mut self, from: usize) -> Result<usize, Bail> {
        self.ignore_lf = false;
        let end = memchr::memchr(b'>', &self.bytes()[from..]).ok_or(Bail::Tokenizer)?;
        Ok(from + end + 1)
    }

    fn intern(&mut self, name: &[u8]) -> Name {
        let lowered: &[u8] = if name.iter().any(u8::is_ascii_uppercase) {
            self.lower.clear();
            self.lower.extend(name.iter().map(u8::to_ascii_lowercase));
            &self.lower
        } else {
            name
        };
        if let Some(known) = known(lowered) {
            return known;
        }
        if let Some(name) = self.unknown.get(lowered) {
            return *name;
        }
        let id = Name(Name::FIRST_UNKNOWN + u16::try_from(self.unknown.len()).unwrap_or(u16::MAX));
        if self.unknown.len() < usize::from(u16::MAX - Name::FIRST_UNKNOWN) {
            self.unknown.insert(lowered.into(), id);
        }
        id
    }

    /// The tag whose name starts at `at`: its name and the attributes read.
    /// Returns it and where it ends (after its `>`).
    fn tag(&mut self, at: usize, end: bool) -> Result<(Tag<'a>, usize), Bail> {
        let bytes = self.bytes();
        let n = bytes.len();
        let mut i = at;
        while i < n && !is_space(bytes[i]) && bytes[i] != b'/' && bytes[i] != b'>' {
            i += 1;
        }
        let name = self.intern(&bytes[at..i]);
        let mut tag = Tag {
            name,
            self_closing: false,
            attrs: Attrs::default(),
        };
        let mut count = 0usize;
        // Which needed attributes were seen, so a repeat is dropped (the
        // first wins) even when the first had no value.
        let mut seen = 0u16;
        loop {
            // Before an attribute name: spaces, and `/` not before `>`.
            while i < n
                && (is_space(bytes[i]) || (bytes[i] == b'/' && bytes.get(i + 1) != Some(&b'>')))
            {
                i += 1;
            }
            if i >= n {
                return Err(Bail::Tokenizer);
            }
            if bytes[i] == b'>' {
                return Ok((tag, i + 1));
            }
            if bytes[i] == b'/' {
                tag.self_closing = true;
                return Ok((tag, i + 2));
            }
            count += 1;
            // The wide-tag scan reads an end tag's name as its first
            // attribute: it thins the end tag one attribute sooner.
            if count + usize::from(end) > crate::page::wide_tags::WIDE_TAG {
                return Err(Bail::Input);
            }
            let name_start = i;
            // A name's first character may be `=`.
            i += 1;
            while i < n && !is_space(bytes[i]) && !matches!(bytes[i], b'/' | b'>' | b'=') {
                i += 1;
            }
            let attr_name = &bytes[name_start..i];
            let slot = needed(attr_name);
            // After the name: spaces, then `=` or another attribute.
            while i < n && is_space(bytes[i]) {
                i += 1;
            }
            if i >= n {
                return Err(Bail::Tokenizer);
            }
            let mut value = None;
            if bytes[i] == b'=' {
                i += 1;
                while i < n && is_space(bytes[i]) {
                    i += 1;
                }
                if i >= n {
                    return Err(Bail::Tokenizer);
                }
                match bytes[i] {
                    q @ (b'"' | b'\'') => {
                        let close = memchr::memchr(q, &bytes[i + 1..]).ok_or(Bail::Tokenizer)?;
                        value = Some((i + 1, i + 1 + close));
                        i += close + 2;
                        // After a quoted value anything but space, `/` or `>`
                        // starts the next attribute.
                    }
                    // `>`: an empty value, and the tag ends.
                    b'>' => value = Some((i, i)),
                    _ => {
                        let start = i;
                        while i < n && !is_space(bytes[i]) && bytes[i] != b'>' {
                            i += 1;
                        }
                        if i >= n {
                            return Err(Bail::Tokenizer);
                        }
                        value = Some((start, i));
                    }
                }
            }
            if let Some(slot) = slot
                && seen & (1 << slot) == 0
            {
                seen |= 1 << slot;
                if end {
                    continue;
                }
                let decoded = match value {
                    Some((from, to)) => decode(&self.src[from..to], true)?,
                    None => Cow::Borrowed(""),
                };
                let attrs = &mut tag.attrs;
                match slot {
                    0 => attrs.href = Some(decoded),
                    1 => attrs.rel = Some(decoded),
                    2 => attrs.role = Some(decoded),
                    3 => attrs.property = Some(decoded),
                    4 => attrs.content = Some(decoded),
                    8 => attrs.hidden = decoded.eq_ignore_ascii_case("hidden"),
                    _ => attrs.font_styling = true,
                }
            }
        }
    }

    /// After a start tag: the text of a raw text or RCDATA element up to its
    /// end tag, which is then processed. Returns where the end tag ends.
    fn raw_text(&mut self, name: Name, then: Then) -> Result<usize, Bail> {
        let start = self.pos;
        if then == Then::Data {
            return Ok(start);
        }
        let bytes = self.bytes();
        let close = if then == Then::ScriptData {
            script_end(bytes, start).ok_or(Bail::Tokenizer)?
        } else {
            let tag_name: &[u8] = name_text(name);
            let mut i = start;
            loop {
                let at = i + memchr::memchr(b'<', &bytes[i..]).ok_or(Bail::Tokenizer)?;
                if is_end_tag_named(bytes, at, tag_name) {
                    break at;
                }
                i = at + 1;
            }
        };
        self.passed_over(start, close)?;
        if start < close {
            self.take_ignore_lf_text(start, close, then == Then::RcData)?;
        } else {
            self.ignore_lf = false;
        }
        // The end tag: its name, then attributes as any tag's.
        let (_, end) = self.tag(close + 2, true)?;
        // The text insertion mode: the end tag pops the element.
        self.pop();
        Ok(end)
    }
}
