//! WARC records read one at a time from a file or any seekable stream
//! ([`RecordInput`]), plain or one gzip member per record, with the offset
//! each starts at; a damaged record is reported and reading goes on at the
//! next record when one can be found. ARC files (the format before WARC)
//! are read through the same reader, each record given a WARC header.
//!
//! The framing and the fields are ours: warcat's decoder is consumed by its
//! first error, and we must go on after damage, with offsets and without a
//! block larger than asked kept.

use std::io::{self, BufRead, BufReader, Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use flate2::bufread::GzDecoder;

use super::ArchiveError;
use super::fields::{first_line, record_fields};
use super::kind::{FileKind, sniff_stream};

mod arc;
mod input;
mod member;
mod scan;
pub use input::{Input, RecordInput};
pub(super) use member::{Decompressor, FHCRC};
use member::{FIRST_LOOK, Inflated, ONE_RECORD_LOOK, WholeMembers, Window};
use scan::{VERSION_PREFIX, find_head_end, is_version_start, read_up_to};

/// A record header longer than this is damage, not a header: real ones are
/// a few hundred bytes.
const MAX_HEAD: usize = 64 * 1024;
const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];
const IO_BUFFER: usize = 64 * 1024;

/// A record's header: its WARC version and its fields, in file order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordHead {
    /// Where the record (or its gzip member) starts in the file.
    pub offset: u64,
    pub version: String,
    pub fields: Vec<(String, String)>,
}

impl RecordHead {
    /// A field's value; names compare without case.
    pub fn field(&self, name: &str) -> Option<&str> {
        self.fields
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// Its `WARC-Type`, typed.
    pub fn kind(&self) -> RecordKind {
        RecordKind::of(self.field("WARC-Type"))
    }
}

/// A record's `WARC-Type` (WARC 1.1, section 6), names compared without case.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RecordKind {
    Warcinfo,
    Response,
    Resource,
    Request,
    Metadata,
    Revisit,
    Conversion,
    Continuation,
    /// A type the format does not name.
    Other,
    /// No `WARC-Type` field.
    Missing,
}

impl RecordKind {
    const NAMED: [(&'static str, RecordKind); 8] = [
        ("warcinfo", RecordKind::Warcinfo),
        ("response", RecordKind::Response),
        ("resource", RecordKind::Resource),
        ("request", RecordKind::Request),
        ("metadata", RecordKind::Metadata),
        ("revisit", RecordKind::Revisit),
        ("conversion", RecordKind::Conversion),
        ("continuation", RecordKind::Continuation),
    ];

    /// The kind a `WARC-Type` value names.
    pub fn of(value: Option<&str>) -> Self {
        let Some(value) = value.map(str::trim) else {
            return RecordKind::Missing;
        };
        Self::NAMED
            .iter()
            .find(|(name, _)| name.eq_ignore_ascii_case(value))
            .map_or(RecordKind::Other, |(_, kind)| *kind)
    }

    /// The name a WARC writes for it (`None` for a type it does not name).
    pub fn name(self) -> Option<&'static str> {
        Self::NAMED
            .iter()
            .find(|(_, kind)| *kind == self)
            .map(|(name, _)| *name)
    }
}

/// A record with its block (at most the reader's cap of it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    pub head: RecordHead,
    pub block: Vec<u8>,
    /// The block was longer than the cap and was cut.
    pub block_cut: bool,
}

/// A record that could not be read, and where.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("damaged record at offset {offset}: {detail}")]
pub struct Damaged {
    pub offset: u64,
    pub detail: String,
}

/// What is wrong with a damaged record.
#[derive(Debug, thiserror::Error)]
enum Damage {
    #[error("the gzip member is cut short: the file ends inside it")]
    GzipCut,
    #[error("the gzip member does not decompress ({0})")]
    BadGzip(io::Error),
    #[error("no gzip member starts here")]
    NotGzip,
    #[error("no WARC version line: the record starts with {0:?}")]
    NoVersion(String),
    #[error("the record header is longer than {MAX_HEAD} bytes")]
    HeadTooLong,
    #[error("the file ends inside the record header")]
    HeadCut,
    #[error("the WARC version line is malformed: {0:?}")]
    BadHead(String),
    #[error("the record header holds control bytes: it is corrupt")]
    ControlBytes,
    #[error("the record header has no valid Content-Length")]
    NoLength,
    #[error("no WARC record at the start of the file; the first one found is at offset {0}")]
    JunkAtStart(u64),
    #[error("Content-Length {claimed} is longer than what is left of the file ({left} bytes)")]
    PastEnd { claimed: u64, left: u64 },
    #[error("the ARC record's header line is malformed: {0:?}")]
    BadArcLine(String),
    #[error("the ARC record's header line is longer than {MAX_HEAD} bytes")]
    ArcLineTooLong,
}

impl Damage {
    fn of_arc(bad: arc::BadLine) -> Self {
        match bad {
            arc::BadLine::Io(e) => Self::of_io(e),
            arc::BadLine::TooLong => Self::ArcLineTooLong,
            arc::BadLine::Cut => Self::HeadCut,
            arc::BadLine::Malformed(line) => Self::BadArcLine(line),
        }
    }

    fn of_io(e: io::Error) -> Self {
        if e.kind() == io::ErrorKind::UnexpectedEof {
            Self::GzipCut
        } else {
            Self::BadGzip(e)
        }
    }
}

/// A file read with the count of bytes taken from it.
struct Counted {
    inner: Window,
    pos: u64,
}

impl Counted {
    fn new(file: Input, pos: u64) -> Self {
        Self {
            inner: Window::new(file),
            pos,
        }
    }
}

impl Read for Counted {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.pos += n as u64;
        Ok(n)
    }
}

impl BufRead for Counted {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        self.inner.fill_buf()
    }

    fn consume(&mut self, amt: usize) {
        self.pos += amt as u64;
        self.inner.consume(amt);
    }
}

/// A gzip member being read.
enum Member {
    /// Inflated whole (see [`member`]); `rest` is the file after it.
    Whole { data: Inflated, rest: Counted },
    /// Inflated as it is read: a member too large to hold whole, or one
    /// libdeflate refused (flate2 then tells what is wrong with it).
    Stream(Box<BufReader<GzDecoder<Counted>>>),
}

impl Member {
    /// The file after the member (for a stream: where inflating stopped).
    fn into_rest(self, whole: Option<&mut WholeMembers>) -> Counted {
        match self {
            Self::Whole { data, rest } => {
                if let Some(whole) = whole {
                    whole.give_back(data);
                }
                rest
            }
            Self::Stream(data) => data.into_inner().into_inner(),
        }
    }
}

impl Read for Member {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self {
            Self::Whole { data, .. } => data.read(buf),
            Self::Stream(data) => data.read(buf),
        }
    }
}

impl BufRead for Member {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        match self {
            Self::Whole { data, .. } => data.fill_buf(),
            Self::Stream(data) => data.fill_buf(),
        }
    }

    fn consume(&mut self, amt: usize) {
        match self {
            Self::Whole { data, .. } => data.consume(amt),
            Self::Stream(data) => data.consume(amt),
        }
    }
}

enum Source {
    Plain(Counted),
    /// Between gzip members.
    GzipAt(Counted),
    /// Inside the gzip member that starts at `offset`.
    GzipIn {
        offset: u64,
        data: Box<Member>,
    },
    /// Looking for the next record of a plain file after damage.
    Resync(Box<scan::PlainResync>),
    Done,
}

/// How records are laid out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Format {
    Warc,
    /// ARC v1 (or v2): a one-line header, then the block, then a newline.
    Arc,
}

/// Reads an archive's records in order.
pub struct RecordReader {
    format: Format,
    file_len: u64,
    /// Damage found when opening, told first.
    pending: Option<Damaged>,
    source: Source,
    /// libdeflate, for members held whole (`None`: it could not allocate).
    whole: Option<WholeMembers>,
}

impl RecordReader {
    /// Opens `path`: its kind (WARC or ARC, gzip or plain) is told from its
    /// first bytes, not its name (the one door, [`super::kind::sniff`]).
    pub fn open(path: &Path) -> Result<Self, ArchiveError> {
        let read_error = |source| ArchiveError::Read {
            path: path.to_owned(),
            source: Arc::new(source),
        };
        let kind = super::kind::sniff(path).map_err(read_error)?;
        let file = std::fs::File::open(path).map_err(read_error)?;
        let len = file.metadata().map_err(read_error)?.len();
        Self::over(Box::new(file), len, kind, path)
    }

    /// Reads the records of `input`, `len` bytes from its start (a WARC
    /// inside a package); `label` names it in errors.
    pub fn open_input(mut input: Input, len: u64, label: &Path) -> Result<Self, ArchiveError> {
        let kind = sniff_stream(&mut input).map_err(|source| ArchiveError::Read {
            path: label.to_owned(),
            source: Arc::new(source),
        })?;
        Self::over(input, len, kind, label)
    }

    fn over(
        mut file: Input,
        file_len: u64,
        kind: FileKind,
        label: &Path,
    ) -> Result<Self, ArchiveError> {
        let path = label;
        let read_error = |source| ArchiveError::Read {
            path: path.to_owned(),
            source: Arc::new(source),
        };
        let (format, gzip) = match kind {
            FileKind::Warc { gzip } => (Format::Warc, gzip),
            FileKind::Arc { gzip } => (Format::Arc, gzip),
            FileKind::WarcDraft { version } => {
                return Err(ArchiveError::DraftWarc {
                    path: path.to_owned(),
                    version,
                });
            }
            FileKind::Zip => {
                return Err(ArchiveError::ZipNotWarc {
                    path: path.to_owned(),
                });
            }
            // No archive by its bytes: the record found near the start
            // is read, else it is not an archive.
            FileKind::OtherGzip => (Format::Warc, true),
            FileKind::Manifest | FileKind::Html => (Format::Warc, false),
        };
        let warc_first = match (format, gzip) {
            (Format::Arc, _) => true,
            (Format::Warc, true) => scan::member_holds_warc(&mut file),
            (Format::Warc, false) => scan::starts_with_warc(&mut file),
        };
        // Junk before the first record: the record found near the start is
        // read, the junk reported. Nothing near the start: not an archive.
        let (start, gzip, pending) = if warc_first {
            (0, gzip, None)
        } else {
            let (at, gzip) =
                scan::first_record_near_start(&mut file).ok_or_else(|| ArchiveError::NotWarc {
                    path: path.to_owned(),
                })?;
            let junk = Damaged {
                offset: 0,
                detail: Damage::JunkAtStart(at).to_string(),
            };
            (at, gzip, Some(junk))
        };
        file.seek(SeekFrom::Start(start)).map_err(read_error)?;
        let input = Counted::new(file, start);
        Ok(Self {
            format,
            file_len,
            pending,
            source: if gzip {
                Source::GzipAt(input)
            } else {
                Source::Plain(input)
            },
            whole: gzip.then(|| WholeMembers::new(FIRST_LOOK)).flatten(),
        })
    }

    /// The next record, or why the one there is damaged; `None` at the end.
    /// `wants` says from the header whether to read the block (else it is
    /// skipped); at most `max_block` bytes of it are kept.
    pub fn next_record(
        &mut self,
        wants: &dyn Fn(&RecordHead) -> bool,
        max_block: usize,
    ) -> Option<Result<Record, Damaged>> {
        if let Some(junk) = self.pending.take() {
            return Some(Err(junk));
        }
        loop {
            match std::mem::replace(&mut self.source, Source::Done) {
                Source::Done => return None,
                Source::Plain(mut input) => {
                    match skip_blank(&mut input) {
                        Ok(true) => {}
                        Ok(false) => return None,
                        Err(e) => return Some(Err(self.damaged(input.pos, &Damage::BadGzip(e)))),
                    }
                    let offset = input.pos;
                    let left = |at: u64| self.file_len.saturating_sub(at);
                    match read_record(
                        self.format,
                        &mut input,
                        offset,
                        Some(&left),
                        wants,
                        max_block,
                    ) {
                        Ok(record) => {
                            self.source = Source::Plain(input);
                            return Some(Ok(record));
                        }
                        // An ARC has no version line to find again.
                        Err(damage) if self.format == Format::Arc => {
                            return Some(Err(self.damaged(offset, &damage)));
                        }
                        Err(damage) => {
                            let from = offset + 1;
                            self.resync_plain(input, from);
                            return Some(Err(self.damaged(offset, &damage)));
                        }
                    }
                }
                Source::Resync(mut resync) => {
                    let (at, head) = resync.next_candidate()?;
                    let judged = match head {
                        scan::HeadBytes::Whole(raw) => {
                            let left = |at: u64| self.file_len.saturating_sub(at);
                            parse_head(raw, at, Some(&left)).err()
                        }
                        scan::HeadBytes::TooLong => Some(Damage::HeadTooLong),
                        scan::HeadBytes::Cut => Some(Damage::HeadCut),
                    };
                    // A candidate whose header reads is read as any record
                    // is; the others are told without reading them again.
                    match judged {
                        Some(damage) => {
                            self.source = Source::Resync(resync);
                            return Some(Err(self.damaged(at, &damage)));
                        }
                        None => {
                            self.source = self
                                .reopen_at(resync.into_file(), at)
                                .map_or(Source::Done, Source::Plain);
                        }
                    }
                }
                Source::GzipAt(mut input) => {
                    let offset = input.pos;
                    match input.fill_buf() {
                        Ok([]) => return None,
                        Ok(bytes) if bytes.starts_with(&GZIP_MAGIC[..bytes.len().min(2)]) => {
                            let held = self
                                .whole
                                .as_mut()
                                .and_then(|whole| whole.inflate(&mut input.inner));
                            let member = match held {
                                Some((data, taken)) => {
                                    input.consume(taken);
                                    Member::Whole { data, rest: input }
                                }
                                None => Member::Stream(Box::new(BufReader::with_capacity(
                                    IO_BUFFER,
                                    GzDecoder::new(input),
                                ))),
                            };
                            self.source = Source::GzipIn {
                                offset,
                                data: Box::new(member),
                            };
                        }
                        Ok(_) => {
                            self.resync_gzip(input.inner.into_inner(), offset + 1);
                            return Some(Err(self.damaged(offset, &Damage::NotGzip)));
                        }
                        Err(e) => return Some(Err(self.damaged(offset, &Damage::BadGzip(e)))),
                    }
                }
                Source::GzipIn { offset, mut data } => {
                    let step = skip_blank(&mut data)
                        .map_err(Damage::of_io)
                        .and_then(|more| {
                            more.then(|| {
                                read_record(self.format, &mut data, offset, None, wants, max_block)
                            })
                            .transpose()
                        });
                    match step {
                        Ok(Some(record)) => {
                            self.source = Source::GzipIn { offset, data };
                            return Some(Ok(record));
                        }
                        // The member ended cleanly (its CRC checked): the next one.
                        Ok(None) => {
                            self.source = Source::GzipAt(data.into_rest(self.whole.as_mut()));
                        }
                        Err(damage) if self.format == Format::Arc => {
                            return Some(Err(self.damaged(offset, &damage)));
                        }
                        Err(damage) => {
                            let file = data.into_rest(self.whole.as_mut()).inner.into_inner();
                            self.resync_gzip(file, offset + 1);
                            return Some(Err(self.damaged(offset, &damage)));
                        }
                    }
                }
            }
        }
    }

    fn damaged(&self, offset: u64, damage: &Damage) -> Damaged {
        Damaged {
            offset,
            detail: damage.to_string(),
        }
    }

    /// Goes on at the next `WARC/1.` line at or after `from`, if any.
    fn resync_plain(&mut self, input: Counted, from: u64) {
        let file = input.inner.into_inner();
        self.source = Source::Resync(Box::new(scan::PlainResync::new(file, from, MAX_HEAD)));
    }

    /// Goes on at the next gzip member at or after `from` that holds a WARC
    /// record, if any.
    fn resync_gzip(&mut self, mut file: Input, from: u64) {
        self.source = match scan::next_member(&mut file, from) {
            Some(at) => self
                .reopen_at(file, at)
                .map_or(Source::Done, Source::GzipAt),
            None => Source::Done,
        };
    }

    fn reopen_at(&self, mut file: Input, at: u64) -> Option<Counted> {
        file.seek(SeekFrom::Start(at)).ok()?;
        Some(Counted::new(file, at))
    }
}

/// Skips the CR/LF between records; false at the end of the input.
fn skip_blank(input: &mut impl BufRead) -> io::Result<bool> {
    loop {
        let bytes = input.fill_buf()?;
        if bytes.is_empty() {
            return Ok(false);
        }
        let blank = bytes
            .iter()
            .take_while(|b| matches!(b, b'\r' | b'\n'))
            .count();
        let more = blank < bytes.len();
        input.consume(blank);
        if more {
            return Ok(true);
        }
    }
}

/// Reads one record whose header starts here. `left` tells, for a plain
/// file, how many bytes the file holds after a position.
fn read_record(
    format: Format,
    input: &mut impl BufRead,
    offset: u64,
    left: Option<&dyn Fn(u64) -> u64>,
    wants: &dyn Fn(&RecordHead) -> bool,
    max_block: usize,
) -> Result<Record, Damage> {
    let (head, length) = match format {
        Format::Warc => {
            let raw = read_head(input)?;
            parse_head(&raw, offset, left)?
        }
        Format::Arc => {
            let line = arc::read_line(input, MAX_HEAD).map_err(Damage::of_arc)?;
            let arc::ArcHead { fields, length } = arc::parse_line(&line).map_err(Damage::of_arc)?;
            let head = RecordHead {
                offset,
                version: arc::ARC_VERSION.to_owned(),
                fields,
            };
            if let Some(left) = left {
                let left = left(offset + line.len() as u64);
                if length > left {
                    return Err(Damage::PastEnd {
                        claimed: length,
                        left,
                    });
                }
            }
            (head, length)
        }
    };
    let wanted = wants(&head);
    let keep = if wanted {
        length.min(max_block as u64)
    } else {
        0
    };
    // Copied from the reader's buffer: `read_to_end` through `Take` zeroed
    // the block's room first (1.7% of a corpus run's instructions). Sized
    // from what is already in memory (a member held whole: all of it), so
    // the block is not grown and copied as it is read; never more than is
    // there, whatever the header claims. A power of two, as growing gave:
    // exact sizes spread the blocks over many of the allocator's size
    // classes, and a two-job run peaked at 118-121 MB instead of 92-107.
    let mut block = Vec::new();
    let mut left = keep;
    while left > 0 {
        let bytes = match input.fill_buf() {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(Damage::of_io(e)),
        };
        if bytes.is_empty() {
            break;
        }
        let n = bytes.len().min(usize::try_from(left).unwrap_or(usize::MAX));
        if block.capacity() == 0 {
            block.reserve_exact(n.next_power_of_two());
        }
        block.extend_from_slice(&bytes[..n]);
        input.consume(n);
        left -= n as u64;
    }
    let skipped =
        io::copy(&mut input.take(length - keep), &mut io::sink()).map_err(Damage::of_io)?;
    let got = block.len() as u64 + skipped;
    if got < length {
        return Err(Damage::PastEnd {
            claimed: length,
            left: got,
        });
    }
    Ok(Record {
        block_cut: wanted && keep < length,
        head,
        block,
    })
}

/// A header read whole (see [`read_head`]) and its block's length.
fn parse_head(
    raw: &[u8],
    offset: u64,
    left: Option<&dyn Fn(u64) -> u64>,
) -> Result<(RecordHead, u64), Damage> {
    let (version, rest) = first_line(raw);
    let version = std::str::from_utf8(version)
        .ok()
        .map(str::trim_end)
        .filter(|v| {
            v.len() > VERSION_PREFIX.len()
                && v[5..].bytes().all(|b| b.is_ascii_digit() || b == b'.')
        })
        .ok_or_else(|| {
            Damage::BadHead(String::from_utf8_lossy(version).chars().take(40).collect())
        })?;
    let (fields, stopped) = record_fields(rest);
    // A record header with control bytes in it is damage (a corrupt gzip
    // member inflates to NULs), not a header whose bad lines are skipped.
    if stopped.is_some_and(|line| line.iter().any(|b| b.is_ascii_control() && *b != b'\t')) {
        return Err(Damage::ControlBytes);
    }
    let head = RecordHead {
        offset,
        version: version.to_owned(),
        fields,
    };
    let length = head
        .field("Content-Length")
        .map(str::trim)
        .filter(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
        .and_then(|n| n.parse::<u64>().ok())
        .ok_or(Damage::NoLength)?;
    if let Some(left) = left {
        let left = left(offset + raw.len() as u64);
        if length > left {
            return Err(Damage::PastEnd {
                claimed: length,
                left,
            });
        }
    }
    Ok((head, length))
}

/// The header's bytes up to and with its blank line, at most [`MAX_HEAD`].
fn read_head(input: &mut impl BufRead) -> Result<Vec<u8>, Damage> {
    let mut head: Vec<u8> = Vec::new();
    loop {
        let bytes = input.fill_buf().map_err(Damage::of_io)?;
        if bytes.is_empty() {
            return Err(if head.len() < VERSION_PREFIX.len() {
                Damage::NoVersion(String::from_utf8_lossy(&head).into_owned())
            } else {
                Damage::HeadCut
            });
        }
        let room = (MAX_HEAD + 1).saturating_sub(head.len());
        let take = bytes.len().min(room);
        let searched_from = head.len().saturating_sub(3);
        head.extend_from_slice(&bytes[..take]);
        let end = find_head_end(&head[searched_from..]).map(|e| searched_from + e);
        let used = match end {
            Some(end) => take.saturating_sub(head.len() - end),
            None => take,
        };
        input.consume(used);
        if head.len() >= VERSION_PREFIX.len() && !is_version_start(&head) {
            let line = head.split(|b| *b == b'\n').next().unwrap_or_default();
            let shown: String = String::from_utf8_lossy(line).chars().take(40).collect();
            return Err(Damage::NoVersion(shown));
        }
        if let Some(end) = end {
            head.truncate(end);
            return Ok(head);
        }
        if head.len() > MAX_HEAD {
            return Err(Damage::HeadTooLong);
        }
    }
}

/// One record read again where an earlier read found it, for an archive
/// indexed by offsets (its blocks read when they are asked for).
impl RecordReader {
    /// The record at `offset` (where it, or the gzip member that holds it,
    /// starts): the `nth` record from there, 0 for the one that starts it.
    /// The records before it in its member are decompressed, not kept.
    pub fn record_at(
        path: &Path,
        offset: u64,
        nth: usize,
        max_block: usize,
    ) -> Result<Record, ArchiveError> {
        let read_error = |source| ArchiveError::Read {
            path: path.to_owned(),
            source: Arc::new(source),
        };
        let file = std::fs::File::open(path).map_err(read_error)?;
        let len = file.metadata().map_err(read_error)?.len();
        Self::record_in(Box::new(file), len, path, offset, nth, max_block)
    }

    /// [`Self::record_at`] in any input of `len` bytes, named `label`.
    pub fn record_in(
        mut file: Input,
        file_len: u64,
        label: &Path,
        offset: u64,
        nth: usize,
        max_block: usize,
    ) -> Result<Record, ArchiveError> {
        let path = PathBuf::from(label);
        let read_error = |source| ArchiveError::Read {
            path: path.clone(),
            source: Arc::new(source),
        };
        let changed = |detail: &str| ArchiveError::Damaged {
            path: path.clone(),
            damaged: Damaged {
                offset,
                detail: detail.to_owned(),
            },
        };
        let format = match sniff_stream(&mut file).map_err(read_error)? {
            FileKind::Arc { .. } => Format::Arc,
            _ => Format::Warc,
        };
        file.seek(SeekFrom::Start(offset)).map_err(read_error)?;
        let mut start = [0u8; 2];
        let got = read_up_to(&mut file, &mut start).map_err(read_error)?;
        file.seek(SeekFrom::Start(offset)).map_err(read_error)?;
        let input = Counted::new(file, offset);
        let gzip = got == 2 && start == GZIP_MAGIC;
        let mut reader = Self {
            format,
            file_len,
            pending: None,
            source: if gzip {
                Source::GzipAt(input)
            } else {
                Source::Plain(input)
            },
            whole: gzip.then(|| WholeMembers::new(ONE_RECORD_LOOK)).flatten(),
        };
        for _ in 0..nth {
            match reader.next_record(&|_| false, 0) {
                Some(Ok(record)) if record.head.offset == offset => {}
                Some(Err(damaged)) => {
                    return Err(ArchiveError::Damaged {
                        path: path.clone(),
                        damaged,
                    });
                }
                _ => return Err(changed("the record is no longer there (the file changed)")),
            }
        }
        match reader.next_record(&|_| true, max_block) {
            Some(Ok(record)) if record.head.offset == offset => Ok(record),
            Some(Err(damaged)) => Err(ArchiveError::Damaged {
                path: path.clone(),
                damaged,
            }),
            _ => Err(changed("the record is no longer there (the file changed)")),
        }
    }
}

#[cfg(test)]
mod tests;
