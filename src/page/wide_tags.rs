//! Tags with a great many attributes, thinned before html5ever sees them.
//!
//! html5ever's tokenizer checks each new attribute against every earlier one
//! of its tag (the duplicate rule: the first wins), so one tag of n
//! attributes costs n² steps: 200,000 of them took 27 s. No callback runs
//! before the tag is complete, so the tag is thinned in the text: past
//! [`WIDE_TAG`] attributes, only the first occurrence of each name is kept,
//! and of the attributes after the first [`WIDE_TAG`], only those the reader
//! or the tree builder look at. What the document gives the reader is
//! unchanged; a tag of fewer attributes is never touched.
//!
//! The scan follows the tokenizer's tag states but not its other states (it
//! does not know which `<` sits in a comment or a script), so that a page
//! cannot hide a wide tag from it; what it takes for a wide tag in a script
//! or a comment is thinned too, which only drops text there that looks like
//! a tag of over [`WIDE_TAG`] attributes.

use std::borrow::Cow;
use std::collections::HashSet;
use std::ops::Range;

/// Attributes a tag may have before it is thinned.
pub const WIDE_TAG: usize = 1_000;

/// The attributes read from the tree (`page::parse`, regions) or that change
/// how the tree is built (`input type`, `annotation-xml encoding`, `font
/// color|face|size`).
const NEEDED: [&[u8]; 10] = [
    b"href",
    b"rel",
    b"role",
    b"property",
    b"content",
    b"type",
    b"encoding",
    b"color",
    b"face",
    b"size",
];

fn is_space(b: u8) -> bool {
    matches!(b, b'\t' | b'\n' | b'\x0C' | b'\r' | b' ')
}

/// One attribute as written: its whole text and its name's part of it.
struct Written {
    whole: Range<usize>,
    name: Range<usize>,
}

/// The tag starting at `lt` (a `<`, then a letter, or `</` and a letter):
/// its attributes, and where it ends (after its `>`, or the end of the text).
fn scan_tag(bytes: &[u8], lt: usize, attrs: &mut Vec<Written>) -> usize {
    attrs.clear();
    let n = bytes.len();
    let mut i = lt + 1;
    while i < n && !is_space(bytes[i]) && bytes[i] != b'/' && bytes[i] != b'>' {
        i += 1;
    }
    loop {
        // Before an attribute name: spaces, and `/` not followed by `>`.
        while i < n && (is_space(bytes[i]) || (bytes[i] == b'/' && bytes.get(i + 1) != Some(&b'>')))
        {
            i += 1;
        }
        if i >= n {
            return n;
        }
        if bytes[i] == b'/' || bytes[i] == b'>' {
            // `/>` or `>`.
            return (i + if bytes[i] == b'/' { 2 } else { 1 }).min(n);
        }
        let start = i;
        // A name's first character may be `=`; then it runs to a space, `/`,
        // `>` or `=`.
        i += 1;
        while i < n && !is_space(bytes[i]) && !matches!(bytes[i], b'/' | b'>' | b'=') {
            i += 1;
        }
        let name = start..i;
        let mut j = i;
        while j < n && is_space(bytes[j]) {
            j += 1;
        }
        if j < n && bytes[j] == b'=' {
            j += 1;
            while j < n && is_space(bytes[j]) {
                j += 1;
            }
            match bytes.get(j) {
                Some(&q @ (b'"' | b'\'')) => {
                    j = memchr::memchr(q, &bytes[j + 1..]).map_or(n, |p| j + 1 + p + 1);
                }
                Some(b'>') | None => {}
                Some(_) => {
                    while j < n && !is_space(bytes[j]) && bytes[j] != b'>' {
                        j += 1;
                    }
                }
            }
            i = j;
        }
        attrs.push(Written {
            whole: start..i,
            name,
        });
    }
}

/// The text with every tag of more than [`WIDE_TAG`] attributes thinned;
/// borrowed when there is none.
pub fn thin_wide_tags(html: &str) -> Cow<'_, str> {
    let bytes = html.as_bytes();
    let mut out = String::new();
    // Up to where `html` is copied into `out`.
    let mut copied = 0;
    let mut attrs = Vec::new();
    let mut i = 0;
    while let Some((at, end)) = next_tag(bytes, i, bytes.len(), &mut attrs) {
        if attrs.len() > WIDE_TAG {
            out.push_str(&html[copied..attrs[0].whole.start]);
            keep_needed(html, &attrs, &mut out);
            copied = attrs[attrs.len() - 1].whole.end;
        }
        i = end.max(at + 1);
    }
    if copied == 0 {
        return Cow::Borrowed(html);
    }
    out.push_str(&html[copied..]);
    Cow::Owned(out)
}

/// What [`thin_wide_tags`] finds over the tags that start in `from..to`,
/// reaching `from` in step with the tokenizer.
#[derive(Debug, PartialEq, Eq)]
pub enum Region {
    /// No wide tag, and the scan is in step again at `to`.
    Plain,
    /// A tag it would thin.
    Wide,
    /// A tag it takes to start there runs on to this offset, past `to`
    /// (a `<` and a quote in a script, say): the scan is out of step with
    /// the tokenizer from here.
    RunsPast(usize),
}

/// The scan over `from..to`. The fast path asks this of what its tokenizer
/// passes over without reading tags (comments, doctypes, script and other
/// raw text); the tags it reads, it counts itself (`page::fast`), so the
/// scan need not run over the whole page.
pub fn region(html: &str, from: usize, to: usize) -> Region {
    let bytes = html.as_bytes();
    let mut attrs = Vec::new();
    let mut i = from;
    while let Some((at, end)) = next_tag(bytes, i, to, &mut attrs) {
        if attrs.len() > WIDE_TAG {
            return Region::Wide;
        }
        if end > to {
            return Region::RunsPast(end);
        }
        i = end.max(at + 1);
    }
    Region::Plain
}

/// The next tag the scan takes that starts in `from..to`: where it starts
/// and ends, its attributes in `attrs`.
fn next_tag(
    bytes: &[u8],
    from: usize,
    to: usize,
    attrs: &mut Vec<Written>,
) -> Option<(usize, usize)> {
    let mut i = from;
    while let Some(at) = memchr_lt(bytes, i).filter(|&at| at < to) {
        let after = if bytes.get(at + 1) == Some(&b'/') {
            at + 2
        } else {
            at + 1
        };
        if bytes.get(after).is_some_and(u8::is_ascii_alphabetic) {
            return Some((at, scan_tag(bytes, at, attrs)));
        }
        i = at + 1;
    }
    None
}

/// The next `<` from `from`. This scan runs over every page before it is
/// parsed: with memchr's vector search instead of a byte loop (here and for
/// a quoted value's end), it and the count of `<` went from 5.6% of a corpus
/// run's instructions on real homepages to 2.3%.
fn memchr_lt(bytes: &[u8], from: usize) -> Option<usize> {
    memchr::memchr(b'<', bytes.get(from..)?).map(|p| from + p)
}

/// Each attribute kept, with a space before all but the first (which follows
/// the name's own separator): the first occurrence of a name, among the first
/// [`WIDE_TAG`] or [`NEEDED`].
fn keep_needed(html: &str, attrs: &[Written], out: &mut String) {
    let bytes = html.as_bytes();
    let mut seen: HashSet<Vec<u8>> = HashSet::new();
    for (k, attr) in attrs.iter().enumerate() {
        let name = bytes[attr.name.clone()].to_ascii_lowercase();
        let wanted = k < WIDE_TAG || NEEDED.contains(&name.as_slice());
        if wanted && seen.insert(name) {
            if k > 0 {
                out.push(' ');
            }
            out.push_str(&html[attr.whole.clone()]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wide(n: usize) -> String {
        (0..n).map(|i| format!(" data-x{i}=\"{i}\"")).collect()
    }

    #[test]
    fn ordinary_tags_are_not_touched() {
        let html = format!("<p a b=c d='>' e=\"f\"/><a{}>x</a>", wide(WIDE_TAG));
        assert!(matches!(thin_wide_tags(&html), Cow::Borrowed(_)));
    }

    #[test]
    fn a_wide_tag_keeps_its_first_attributes_and_the_needed_ones_once() {
        let html = format!(
            "<b>é</b><a{} HREF=\"/first\" class=x href=/second rel='nofollow'>t</a>",
            wide(WIDE_TAG + 5)
        );
        let thin = thin_wide_tags(&html);
        assert!(thin.starts_with("<b>é</b><a data-x0=\"0\" data-x1=\"1\""));
        assert!(thin.ends_with(" data-x999=\"999\" HREF=\"/first\" rel='nofollow'>t</a>"));
        assert!(!thin.contains("data-x1000"));
    }

    #[test]
    fn a_wide_tag_without_quotes_is_thinned_too() {
        let tag = |n| format!("<a{}>x", " b".repeat(n));
        assert!(matches!(thin_wide_tags(&tag(WIDE_TAG)), Cow::Borrowed(_)));
        assert_eq!(thin_wide_tags(&tag(WIDE_TAG + 1)), "<a b>x");
    }

    #[test]
    fn duplicates_among_the_first_are_dropped_and_self_closing_stays() {
        let mut html = String::from("<meta");
        html.extend(std::iter::repeat_n(" a=1 A=2", WIDE_TAG));
        html.push_str(" / >x<br/>");
        assert_eq!(thin_wide_tags(&html), "<meta a=1 / >x<br/>");
    }
}
