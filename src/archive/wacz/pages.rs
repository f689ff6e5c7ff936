//! `pages/pages.jsonl` (and `extraPages.jsonl`): the package's pages, a
//! JSON object a line after a `{"format": "json-pages-1.0", ...}` header.
//! Bounded: a line is kept to [`LINE_CAP`] bytes (a longer one, a page with
//! its full text, is read by its first bytes, where writers put `url`),
//! [`MAX_PAGES`] pages are kept and the rest counted, and counting stops
//! after [`MAX_READ`] bytes.

use std::io::{BufReader, Read};

use serde::Deserialize;
use url::Url;

use super::entry::Files;
use super::lines::next_line;
use super::model::WaczWarning;

/// A line is kept to this many bytes; real lines are far shorter, but
/// one with a page's text (`wacz create -t`) can run to hundreds of KB.
pub(super) const LINE_CAP: usize = 1024 * 1024;
/// Pages kept; the rest are counted.
pub const MAX_PAGES: usize = 100_000;
/// Bytes of a pages file read at most: a deflated file of newlines, or of
/// one line without end, would otherwise be read for as long as it
/// inflates (up to its declared size, 4 GB from 4 MB).
const MAX_READ: u64 = 1 << 30;
const IO_BUFFER: usize = 64 * 1024;

/// A page the package names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WaczPage {
    pub url: Url,
    pub title: Option<String>,
    /// When it was captured, as the file gives it (ISO 8601).
    pub ts: Option<String>,
}

#[derive(Deserialize)]
struct Line {
    url: Option<serde_json::Value>,
    title: Option<serde_json::Value>,
    ts: Option<serde_json::Value>,
    format: Option<serde_json::Value>,
}

enum Parsed {
    Page(WaczPage),
    Header,
    Bad,
}

fn text(value: Option<serde_json::Value>) -> Option<String> {
    match value {
        Some(serde_json::Value::String(s)) => Some(s),
        _ => None,
    }
}

fn page_of(url: Option<String>, title: Option<String>, ts: Option<String>) -> Option<WaczPage> {
    let url = Url::parse(url?.trim()).ok()?;
    Some(WaczPage { url, title, ts })
}

fn parse(line: &[u8], whole: bool) -> Parsed {
    if whole {
        let Ok(line) = serde_json::from_slice::<Line>(line) else {
            return Parsed::Bad;
        };
        if line.url.is_none() && line.format.is_some() {
            return Parsed::Header;
        }
        return match page_of(text(line.url), text(line.title), text(line.ts)) {
            Some(page) => Parsed::Page(page),
            None => Parsed::Bad,
        };
    }
    // The line's first bytes only: its fields found one by one.
    match page_of(
        field_in(line, "url"),
        field_in(line, "title"),
        field_in(line, "ts"),
    ) {
        Some(page) => Parsed::Page(page),
        None => Parsed::Bad,
    }
}

/// A string field's value in the start of a JSON object cut short: the
/// first `"key"` followed by `:` and a whole JSON string.
fn field_in(prefix: &[u8], key: &str) -> Option<String> {
    let needle = format!("\"{key}\"");
    let finder = memchr::memmem::Finder::new(needle.as_bytes());
    for at in finder.find_iter(prefix) {
        let rest = &prefix[at + needle.len()..];
        let rest = trim_start(rest);
        let Some(rest) = rest.strip_prefix(b":") else {
            continue;
        };
        let rest = trim_start(rest);
        if !rest.starts_with(b"\"") {
            continue;
        }
        let mut values = serde_json::Deserializer::from_slice(rest).into_iter::<String>();
        if let Some(Ok(value)) = values.next() {
            return Some(value);
        }
    }
    None
}

fn trim_start(bytes: &[u8]) -> &[u8] {
    let skip = bytes.iter().take_while(|b| b.is_ascii_whitespace()).count();
    &bytes[skip..]
}

/// The pages of the files named, in order, with what was odd.
pub(super) fn read_pages(files: Files<'_>, names: &[&str]) -> (Vec<WaczPage>, Vec<WaczWarning>) {
    let mut pages = Vec::new();
    let mut warnings = Vec::new();
    let mut found_any = false;
    for name in names {
        let Some(entry) = files.entry(name) else {
            continue;
        };
        found_any = true;
        let input = match files.open(entry) {
            Ok(input) => input,
            Err(e) => {
                warnings.push(WaczWarning::Unreadable {
                    file: entry.name.clone(),
                    detail: e.to_string(),
                });
                continue;
            }
        };
        read_file(
            &entry.name,
            BufReader::with_capacity(IO_BUFFER, input.take(MAX_READ)),
            &mut pages,
            &mut warnings,
        );
    }
    if !found_any {
        warnings.push(WaczWarning::NoPages);
    }
    (pages, warnings)
}

fn read_file<R: std::io::BufRead>(
    name: &str,
    mut reader: R,
    pages: &mut Vec<WaczPage>,
    warnings: &mut Vec<WaczWarning>,
) {
    let mut buf = Vec::new();
    let (mut line_no, mut read, mut long, mut over) = (0u64, 0u64, 0u64, 0u64);
    let mut bad: Option<(u64, u64)> = None;
    loop {
        // Past the cap a line is only counted: nothing of it is kept.
        let cap = if pages.len() < MAX_PAGES { LINE_CAP } else { 0 };
        let len = match next_line(&mut reader, &mut buf, cap) {
            Ok(Some(len)) => len,
            Ok(None) => break,
            Err(e) => {
                warnings.push(WaczWarning::Unreadable {
                    file: name.to_owned(),
                    detail: e.to_string(),
                });
                break;
            }
        };
        line_no += 1;
        read += len + 1;
        if len == 0 {
            continue;
        }
        if pages.len() >= MAX_PAGES {
            over += 1;
            continue;
        }
        let whole = len <= LINE_CAP as u64;
        if !whole {
            long += 1;
        }
        match parse(&buf, whole) {
            Parsed::Page(page) => pages.push(page),
            Parsed::Header => {}
            Parsed::Bad => {
                bad = Some(match bad {
                    Some((first, count)) => (first, count + 1),
                    None => (line_no, 1),
                });
            }
        }
    }
    if read >= MAX_READ {
        warnings.push(WaczWarning::StoppedAt {
            file: name.to_owned(),
            bytes: MAX_READ,
        });
    }
    if long > 0 {
        warnings.push(WaczWarning::LongLines {
            file: name.to_owned(),
            count: long,
            cap: LINE_CAP,
        });
    }
    if let Some((first, count)) = bad {
        warnings.push(WaczWarning::BadLines {
            file: name.to_owned(),
            count,
            first,
        });
    }
    if over > 0 {
        warnings.push(WaczWarning::OverCap {
            file: name.to_owned(),
            what: "pages",
            count: over,
            cap: MAX_PAGES,
        });
    }
}
