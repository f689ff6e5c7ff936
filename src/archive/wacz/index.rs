//! The package's index, read once into a map by URL: CDXJ lines
//! (`SURT TIMESTAMP {json}`, json keys `url`, `mime`, `status`, `offset`,
//! `length`, `filename`), or classic 11-field CDX lines, from
//! `indexes/*.cdxj` and `indexes/*.cdx[.gz]`. A `.gz` index is read as a
//! run of gzip members, which is both a whole-file gzip and pywb's ZipNum
//! (the `.idx` beside it, a map to the members, is not needed when all of
//! them are read). A 1 GB crawl of 100,000 captures has an 18 MB index:
//! the package opens in 3.9 s in a debug build, 2.1 s of it this index
//! (`a_1_gb_package_opens_at_once` in the tests, ignored: it writes 1 GB).

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read};
use std::path::Path;

use flate2::read::MultiGzDecoder;
use serde::Deserialize;
use url::Url;

use super::entry::Files;
use super::lines::next_line;
use super::model::{WaczEntry, WaczError, WaczWarning};

/// An index line is kept to this many bytes (real ones are a few hundred).
const LINE_CAP: usize = 64 * 1024;
/// Captures kept in the map (about 200 bytes each); the rest counted.
pub(super) const MAX_CAPTURES: usize = 2_000_000;
/// Bytes of an index file read at most (decompressed): past the cap on
/// captures a line is only counted, and this ends the counting (a gzip
/// of newlines inflates 1000 to 1).
const MAX_READ: u64 = 1 << 30;
const IO_BUFFER: usize = 64 * 1024;

/// Where the index puts a URL's capture.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IndexHit {
    /// The WARC entry's name in the package (`archive/…`).
    pub warc: String,
    /// Where the record (or its gzip member) starts in the WARC.
    pub offset: u64,
    /// The record's length (or its gzip member's) in the WARC.
    pub length: u64,
    pub status: Option<u16>,
    pub mime: Option<String>,
    /// The capture's 14-digit timestamp.
    pub timestamp: String,
    /// A `revisit` record (`mime` `warc/revisit`): its payload is an earlier
    /// capture's.
    pub revisit: bool,
}

struct Capture {
    /// Into [`CdxIndex::files`].
    file: u32,
    offset: u64,
    length: u64,
    status: Option<u16>,
    mime: Option<Box<str>>,
    timestamp: Box<str>,
    revisit: bool,
}

/// A `filename` the index names, and the WARC it is, if the package has it.
struct FileName {
    name: String,
    warc: Option<usize>,
}

pub(super) struct CdxIndex {
    by_url: HashMap<String, Vec<Capture>>,
    files: Vec<FileName>,
}

/// The key a URL is found by: without its fragment, as the URL parser
/// writes it (so the index's and the caller's spellings meet).
fn key(url: &Url) -> String {
    let mut url = url.clone();
    url.set_fragment(None);
    url.to_string()
}

/// A CDXJ number, written as a JSON number or a string (pywb writes
/// strings). Read by a visitor: serde's untagged enum buffers each value
/// first, and a 100,000-line index took 3.0 s to read with it, 2.1 s
/// without (debug build).
struct Num(Option<u64>);

impl<'de> Deserialize<'de> for Num {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Visitor;
        impl serde::de::Visitor<'_> for Visitor {
            type Value = Num;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a number, or a number in a string")
            }
            fn visit_u64<E>(self, n: u64) -> Result<Num, E> {
                Ok(Num(Some(n)))
            }
            fn visit_i64<E>(self, n: i64) -> Result<Num, E> {
                Ok(Num(u64::try_from(n).ok()))
            }
            fn visit_f64<E>(self, _: f64) -> Result<Num, E> {
                Ok(Num(None))
            }
            fn visit_str<E>(self, s: &str) -> Result<Num, E> {
                Ok(Num(s.trim().parse().ok()))
            }
            fn visit_unit<E>(self) -> Result<Num, E> {
                Ok(Num(None))
            }
        }
        d.deserialize_any(Visitor)
    }
}

impl Num {
    fn get(&self) -> Option<u64> {
        self.0
    }
}

#[derive(Deserialize)]
struct Fields {
    url: Option<String>,
    mime: Option<String>,
    status: Option<Num>,
    offset: Option<Num>,
    length: Option<Num>,
    filename: Option<String>,
}

struct Line<'a> {
    url: String,
    timestamp: &'a str,
    mime: Option<String>,
    status: Option<u16>,
    offset: u64,
    length: u64,
    filename: String,
}

enum Parsed<'a> {
    Capture(Line<'a>),
    /// A header or meta line (` CDX …`, `!meta`).
    Skip,
    Bad,
}

fn parse(line: &str) -> Parsed<'_> {
    if line.starts_with(' ') || line.starts_with('!') || line.trim().is_empty() {
        return Parsed::Skip;
    }
    let mut parts = line.splitn(3, ' ');
    let (Some(_surt), Some(timestamp), Some(rest)) = (parts.next(), parts.next(), parts.next())
    else {
        return Parsed::Bad;
    };
    if rest.starts_with('{') {
        let Ok(fields) = serde_json::from_str::<Fields>(rest) else {
            return Parsed::Bad;
        };
        let (Some(url), Some(offset), Some(length), Some(filename)) = (
            fields.url,
            fields.offset.as_ref().and_then(Num::get),
            fields.length.as_ref().and_then(Num::get),
            fields.filename,
        ) else {
            return Parsed::Bad;
        };
        return Parsed::Capture(Line {
            url,
            timestamp,
            mime: fields.mime,
            status: fields
                .status
                .as_ref()
                .and_then(Num::get)
                .and_then(|s| u16::try_from(s).ok()),
            offset,
            length,
            filename,
        });
    }
    // Classic CDX, ` CDX N b a m s k r M S V g`: the key, timestamp,
    // original URL, mime, status, digest, redirect, meta, length, offset
    // and filename.
    let fields: Vec<&str> = rest.split(' ').collect();
    let [
        url,
        mime,
        status,
        _digest,
        _redirect,
        _meta,
        length,
        offset,
        filename,
    ] = fields[..]
    else {
        return Parsed::Bad;
    };
    let (Ok(length), Ok(offset)) = (length.parse(), offset.parse()) else {
        return Parsed::Bad;
    };
    Parsed::Capture(Line {
        url: url.to_owned(),
        timestamp,
        mime: (mime != "-").then(|| mime.to_owned()),
        status: status.parse().ok(),
        offset,
        length,
        filename: filename.to_owned(),
    })
}

fn is_index(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    lower.starts_with("indexes/")
        && [".cdxj", ".cdx", ".cdx.gz", ".cdxj.gz"]
            .iter()
            .any(|end| lower.ends_with(end))
}

/// Reads every index file of the package, in name order.
pub(super) fn read_index(
    files: Files<'_>,
    warcs: &[WaczEntry],
) -> (Option<CdxIndex>, Vec<WaczWarning>) {
    let mut warnings = Vec::new();
    let mut index = CdxIndex {
        by_url: HashMap::new(),
        files: Vec::new(),
    };
    let mut file_at: HashMap<String, u32> = HashMap::new();
    let (mut any_read, mut any_unreadable) = (false, false);
    let mut kept = 0usize;
    for entry in files.entries.iter().filter(|e| is_index(&e.name)) {
        let input = match files.open(entry) {
            Ok(input) => input,
            Err(e) => {
                warnings.push(WaczWarning::Unreadable {
                    file: entry.name.clone(),
                    detail: e.to_string(),
                });
                any_unreadable = true;
                continue;
            }
        };
        let text: Box<dyn Read> = if entry.name.to_ascii_lowercase().ends_with(".gz") {
            Box::new(MultiGzDecoder::new(BufReader::with_capacity(
                IO_BUFFER, input,
            )))
        } else {
            Box::new(input)
        };
        let reader = BufReader::with_capacity(IO_BUFFER, text.take(MAX_READ));
        let mut read_one = ReadOne {
            name: &entry.name,
            index: &mut index,
            file_at: &mut file_at,
            warcs,
            kept: &mut kept,
            warnings: &mut warnings,
        };
        if read_one.read(reader) {
            any_read = true;
        }
    }
    if !any_read {
        // An index that is there but unreadable has been said.
        if !any_unreadable && warnings.is_empty() {
            warnings.push(WaczWarning::NoIndex);
        }
        return (None, warnings);
    }
    warnings.extend(index.problems(warcs));
    (Some(index), warnings)
}

struct ReadOne<'a> {
    name: &'a str,
    index: &'a mut CdxIndex,
    file_at: &'a mut HashMap<String, u32>,
    warcs: &'a [WaczEntry],
    kept: &'a mut usize,
    warnings: &'a mut Vec<WaczWarning>,
}

impl ReadOne<'_> {
    /// Reads one index file into the map; whether any of it was read.
    fn read(&mut self, mut reader: impl BufRead) -> bool {
        let mut buf = Vec::new();
        let (mut line_no, mut read, mut long, mut over) = (0u64, 0u64, 0u64, 0u64);
        let mut bad: Option<(u64, u64)> = None;
        let mut any = false;
        loop {
            let cap = if *self.kept < MAX_CAPTURES {
                LINE_CAP
            } else {
                0
            };
            let len = match next_line(&mut reader, &mut buf, cap) {
                Ok(Some(len)) => len,
                Ok(None) => break,
                Err(e) => {
                    self.warnings.push(WaczWarning::Unreadable {
                        file: self.name.to_owned(),
                        detail: e.to_string(),
                    });
                    break;
                }
            };
            any = true;
            line_no += 1;
            read += len + 1;
            if len == 0 {
                continue;
            }
            if *self.kept >= MAX_CAPTURES {
                over += 1;
                continue;
            }
            if len > LINE_CAP as u64 {
                long += 1;
                continue;
            }
            let parsed = std::str::from_utf8(&buf).map_or(Parsed::Bad, parse);
            match parsed {
                Parsed::Capture(line) => {
                    if self.add(line) {
                        *self.kept += 1;
                    } else {
                        bad = Some(bad.map_or((line_no, 1), |(f, n)| (f, n + 1)));
                    }
                }
                Parsed::Skip => {}
                Parsed::Bad => bad = Some(bad.map_or((line_no, 1), |(f, n)| (f, n + 1))),
            }
        }
        if read >= MAX_READ {
            self.warnings.push(WaczWarning::StoppedAt {
                file: self.name.to_owned(),
                bytes: MAX_READ,
            });
        }
        if long > 0 {
            self.warnings.push(WaczWarning::LongLines {
                file: self.name.to_owned(),
                count: long,
                cap: LINE_CAP,
            });
        }
        if let Some((first, count)) = bad {
            self.warnings.push(WaczWarning::BadLines {
                file: self.name.to_owned(),
                count,
                first,
            });
        }
        if over > 0 {
            self.warnings.push(WaczWarning::OverCap {
                file: self.name.to_owned(),
                what: "index lines",
                count: over,
                cap: MAX_CAPTURES,
            });
        }
        any
    }

    /// Adds a line's capture; false when its URL does not parse.
    fn add(&mut self, line: Line<'_>) -> bool {
        let Ok(url) = Url::parse(line.url.trim()) else {
            return false;
        };
        let file = match self.file_at.get(&line.filename) {
            Some(&at) => at,
            None => {
                let Ok(at) = u32::try_from(self.index.files.len()) else {
                    return false;
                };
                let warc = find_warc(self.warcs, &line.filename);
                self.index.files.push(FileName {
                    name: line.filename.clone(),
                    warc,
                });
                self.file_at.insert(line.filename, at);
                at
            }
        };
        let revisit = line.mime.as_deref() == Some("warc/revisit");
        self.index
            .by_url
            .entry(key(&url))
            .or_default()
            .push(Capture {
                file,
                offset: line.offset,
                length: line.length,
                status: line.status,
                mime: line.mime.map(String::into_boxed_str),
                timestamp: line.timestamp.into(),
                revisit,
            });
        true
    }
}

/// The WARC an index `filename` names: relative to `archive/`, or the
/// entry's whole name.
fn find_warc(warcs: &[WaczEntry], filename: &str) -> Option<usize> {
    let under = format!("archive/{filename}");
    warcs
        .iter()
        .position(|w| w.name == under)
        .or_else(|| warcs.iter().position(|w| w.name == filename))
}

/// What is wrong with a capture's place: its WARC, or its end past the WARC's.
enum Problem {
    MissingWarc,
    PastEnd { end: u64, size: u64 },
}

impl CdxIndex {
    fn problem(&self, capture: &Capture, warcs: &[WaczEntry]) -> Option<Problem> {
        let Some(warc) = self.files[capture.file as usize].warc.map(|at| &warcs[at]) else {
            return Some(Problem::MissingWarc);
        };
        match capture.offset.checked_add(capture.length) {
            Some(end) if end <= warc.size => None,
            end => Some(Problem::PastEnd {
                end: end.unwrap_or(u64::MAX),
                size: warc.size,
            }),
        }
    }

    /// The captures whose place is wrong, counted by WARC.
    fn problems(&self, warcs: &[WaczEntry]) -> Vec<WaczWarning> {
        let mut missing: Vec<u64> = vec![0; self.files.len()];
        let mut past: Vec<(u64, Option<String>)> = vec![(0, None); self.files.len()];
        for (url, captures) in &self.by_url {
            for capture in captures {
                match self.problem(capture, warcs) {
                    None => {}
                    Some(Problem::MissingWarc) => missing[capture.file as usize] += 1,
                    Some(Problem::PastEnd { .. }) => {
                        let (count, first) = &mut past[capture.file as usize];
                        *count += 1;
                        // The map's order is not the file's: the least URL
                        // is named, so the warning is the same every run.
                        if first.as_ref().is_none_or(|f| url < f) {
                            *first = Some(url.clone());
                        }
                    }
                }
            }
        }
        let mut warnings = Vec::new();
        for (at, file) in self.files.iter().enumerate() {
            let warc = file
                .warc
                .map_or(file.name.clone(), |w| warcs[w].name.clone());
            if missing[at] > 0 {
                warnings.push(WaczWarning::IndexMissingWarc {
                    warc: warc.clone(),
                    count: missing[at],
                });
            }
            if let (count @ 1.., Some(url)) = (past[at].0, past[at].1.take()) {
                warnings.push(WaczWarning::IndexPastEnd { warc, url, count });
            }
        }
        warnings
    }

    pub(super) fn lookup(
        &self,
        url: &Url,
        warcs: &[WaczEntry],
        path: &Path,
    ) -> Result<Option<IndexHit>, WaczError> {
        let key = key(url);
        let Some(captures) = self.by_url.get(&key) else {
            return Ok(None);
        };
        // The rank: answered (not a revisit, 2xx or 3xx), other non-revisit,
        // revisit; then the earliest; then the index's order.
        let rank = |c: &Capture| {
            let class = match (c.revisit, c.status) {
                (false, Some(200..=399)) => 0,
                (false, _) => 1,
                (true, _) => 2,
            };
            (class, c.timestamp.clone())
        };
        let mut best: Option<&Capture> = None;
        let mut first_problem: Option<(&Capture, Problem)> = None;
        for capture in captures {
            if let Some(problem) = self.problem(capture, warcs) {
                first_problem.get_or_insert((capture, problem));
                continue;
            }
            if best.is_none_or(|b| rank(capture) < rank(b)) {
                best = Some(capture);
            }
        }
        if let Some(c) = best {
            let warc = self.files[c.file as usize]
                .warc
                .map_or_else(String::new, |w| warcs[w].name.clone());
            return Ok(Some(IndexHit {
                warc,
                offset: c.offset,
                length: c.length,
                status: c.status,
                mime: c.mime.as_deref().map(str::to_owned),
                timestamp: c.timestamp.to_string(),
                revisit: c.revisit,
            }));
        }
        let Some((capture, problem)) = first_problem else {
            return Ok(None);
        };
        let file = &self.files[capture.file as usize];
        Err(match problem {
            Problem::MissingWarc => WaczError::HitMissingWarc {
                path: path.to_owned(),
                url: key,
                warc: file.name.clone(),
            },
            Problem::PastEnd { end, size } => WaczError::HitPastEnd {
                path: path.to_owned(),
                url: key,
                warc: file
                    .warc
                    .map_or(file.name.clone(), |w| warcs[w].name.clone()),
                offset: capture.offset,
                end,
                size,
            },
        })
    }
}
