//! Finding where a WARC record starts: at the file's start (is it WARC at
//! all?) and after damage (the next `WARC/1.` line or gzip member). Holes of
//! a sparse file are skipped, not read.

use std::io::{self, Read, Seek, SeekFrom};

use memchr::memmem;

use super::input::Input;

/// What every WARC 1.x record starts with.
pub(super) const VERSION_PREFIX: &[u8] = b"WARC/1.";
/// What a record of a 0.x draft laid out as 1.0 is starts with (Heritrix
/// wrote WARC/0.17 until 2008). Such a file is read; after damage, only
/// 1.x lines are looked for.
const DRAFT_PREFIX: &[u8] = b"WARC/0.";

/// Whether `bytes` start a WARC record's version line, 1.x or a 0.x draft.
pub(super) fn is_version_start(bytes: &[u8]) -> bool {
    bytes.starts_with(VERSION_PREFIX) || bytes.starts_with(DRAFT_PREFIX)
}
const SCAN_CHUNK: usize = 1024 * 1024;
const FIRST_SCAN_CHUNK: usize = 256;
/// A candidate member is judged by its first bytes: a header without
/// optional fields and the first deflate block's start fit in this.
const MEMBER_PROBE: u64 = 1024;
/// How far into a file that does not start as WARC a first record is
/// looked for: far enough for a stray prefix, and fast on a large file.
const START_SCAN: u64 = 1024 * 1024;
/// A gzip member's first bytes: magic and the deflate method.
const MEMBER_START: &[u8] = &[0x1f, 0x8b, 0x08];
const LINE_START: &[u8] = b"\nWARC/1.";

/// Whether the file, read from where it is, starts with a WARC version line.
pub(super) fn starts_with_warc(file: &mut Input) -> bool {
    let mut start = [0u8; 64];
    let Ok(got) = read_up_to(file, &mut start) else {
        return false;
    };
    let text = &start[..got];
    let blank = text
        .iter()
        .take_while(|b| matches!(b, b'\r' | b'\n'))
        .count();
    is_version_start(&text[blank..])
}

/// Whether the gzip member that starts where the file is decompresses to a
/// WARC version line.
pub(super) fn member_holds_warc(file: &mut Input) -> bool {
    let mut probe = [0u8; MEMBER_PROBE as usize];
    read_up_to(file, &mut probe).is_ok_and(|got| MemberProbe::new().holds_warc(&probe[..got]))
}

/// Judges candidate gzip members from their first bytes with one inflater,
/// reset for each: 10 MB of repeated gzip magic made a fresh decoder (and
/// its window) per candidate, 29 s; most candidates now fail on the header
/// bytes before any inflating.
pub(super) struct MemberProbe {
    inflate: flate2::Decompress,
}

impl MemberProbe {
    pub(super) fn new() -> Self {
        Self {
            inflate: flate2::Decompress::new(false),
        }
    }

    /// Whether `bytes` (a member's first [`MEMBER_PROBE`] bytes, or all
    /// that is left of the file) start a gzip member whose data starts with
    /// a WARC version line. The header is judged as flate2's decoder judges
    /// it (RFC 1952: reserved flags, optional fields, header CRC).
    pub(super) fn holds_warc(&mut self, bytes: &[u8]) -> bool {
        let Some(data) = member_data(bytes) else {
            return false;
        };
        // The first block's type 3 is reserved: no inflater needed.
        if data.first().is_none_or(|b| b & 0b110 == 0b110) {
            return false;
        }
        self.inflate.reset(false);
        let mut out = [0u8; VERSION_PREFIX.len()];
        let mut made = 0;
        while made < out.len() {
            let read = self.inflate.total_in() as usize;
            let before = self.inflate.total_out();
            let status = self.inflate.decompress(
                &data[read.min(data.len())..],
                &mut out[made..],
                flate2::FlushDecompress::None,
            );
            made += (self.inflate.total_out() - before) as usize;
            match status {
                Ok(flate2::Status::Ok) if self.inflate.total_out() > before => {}
                Ok(flate2::Status::Ok) if (self.inflate.total_in() as usize) > read => {}
                _ => break,
            }
        }
        made == out.len() && is_version_start(&out)
    }
}

/// The deflate data of the gzip member whose header starts `bytes`, if the
/// header is whole and valid there.
fn member_data(bytes: &[u8]) -> Option<&[u8]> {
    const FHCRC: u8 = 1 << 1;
    const FEXTRA: u8 = 1 << 2;
    const FNAME: u8 = 1 << 3;
    const FCOMMENT: u8 = 1 << 4;
    const FRESERVED: u8 = 0b1110_0000;
    if !bytes.starts_with(MEMBER_START) {
        return None;
    }
    let flags = *bytes.get(3)?;
    if flags & FRESERVED != 0 {
        return None;
    }
    let mut at = 10;
    if flags & FEXTRA != 0 {
        let len = bytes.get(at..at + 2)?;
        at += 2 + usize::from(u16::from_le_bytes([len[0], len[1]]));
    }
    for flag in [FNAME, FCOMMENT] {
        if flags & flag != 0 {
            at += memchr::memchr(0, bytes.get(at..)?)? + 1;
        }
    }
    if flags & FHCRC != 0 {
        let stored = bytes.get(at..at + 2)?;
        let mut crc = flate2::Crc::new();
        crc.update(&bytes[..at]);
        if u16::from_le_bytes([stored[0], stored[1]]) != crc.sum() as u16 {
            return None;
        }
        at += 2;
    }
    bytes.get(at..)
}

/// The offset of the next gzip member at or after `from` that holds a WARC
/// record.
pub(super) fn next_member(file: &mut Input, from: u64) -> Option<u64> {
    member_within(file, from, u64::MAX)
}

/// The first record in the first [`START_SCAN`] bytes of data, and whether
/// it is a gzip member.
pub(super) fn first_record_near_start(file: &mut Input) -> Option<(u64, bool)> {
    let line = warc_line_within(file, 1, START_SCAN);
    let member = member_within(file, 0, START_SCAN);
    match (line, member) {
        (Some(line), Some(member)) if line < member => Some((line, false)),
        (_, Some(member)) => Some((member, true)),
        (line, None) => line.map(|at| (at, false)),
    }
}

fn warc_line_within(file: &mut Input, from: u64, limit: u64) -> Option<u64> {
    let start = from.saturating_sub(1);
    find_from(file, start, limit, LINE_START, |_, _, _, _| true).map(|at| at + 1)
}

/// A deflate stream's bytes may look like a member's start: a candidate is
/// taken when it decompresses to a WARC version line, judged from the bytes
/// already read when they hold its probe.
fn member_within(file: &mut Input, from: u64, limit: u64) -> Option<u64> {
    let mut probe = MemberProbe::new();
    let mut read = Vec::new();
    find_from(file, from, limit, MEMBER_START, |file, at, seen, whole| {
        let probe_len = MEMBER_PROBE as usize;
        if whole || seen.len() >= probe_len {
            return probe.holds_warc(&seen[..seen.len().min(probe_len)]);
        }
        // Cut by the chunk's end: a few candidates per chunk at most.
        read.resize(probe_len, 0);
        let got = file
            .seek(SeekFrom::Start(at))
            .and_then(|_| read_up_to(file, &mut read));
        got.is_ok_and(|got| probe.holds_warc(&read[..got]))
    })
}

/// The first offset at or after `from` where `pattern` is found and
/// `accept` agrees (it may move the file's cursor), looking through at most
/// `limit` bytes of data (holes not counted). `accept` is also given the
/// bytes read from the hit on, and whether they reach the file's end.
fn find_from(
    file: &mut Input,
    from: u64,
    limit: u64,
    pattern: &[u8],
    mut accept: impl FnMut(&mut Input, u64, &[u8], bool) -> bool,
) -> Option<u64> {
    let finder = memmem::Finder::new(pattern);
    // Small at first and doubled: after dense damage the next record is
    // usually a few bytes on, and each resync must cost about that.
    let mut buf = vec![0u8; FIRST_SCAN_CHUNK];
    let mut pos = from;
    let mut looked: u64 = 0;
    loop {
        if looked >= limit {
            return None;
        }
        pos = file.next_data(pos)?;
        file.seek(SeekFrom::Start(pos)).ok()?;
        let got = read_up_to(file, &mut buf).ok()?;
        let chunk = &buf[..got];
        let mut at = 0;
        while let Some(hit) = finder.find(&chunk[at..]) {
            let found = pos + (at + hit) as u64;
            if accept(file, found, &chunk[at + hit..], got < buf.len()) {
                return Some(found);
            }
            at += hit + 1;
        }
        if got < buf.len() {
            return None;
        }
        // A pattern cut by the chunk's end is found in the next chunk.
        let step = (got - (pattern.len() - 1)) as u64;
        pos += step;
        looked += step;
        if buf.len() < SCAN_CHUNK {
            buf.resize(buf.len() * 2, 0);
        }
    }
}

/// Reads until `buf` is full or the input ends; how many bytes came.
pub(super) fn read_up_to(file: &mut impl Read, buf: &mut [u8]) -> io::Result<usize> {
    let mut got = 0;
    while got < buf.len() {
        match file.read(&mut buf[got..]) {
            Ok(0) => break,
            Ok(n) => got += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(got)
}

/// How a candidate record's header reads, judged as the reader would read it.
pub(super) enum HeadBytes<'a> {
    /// The header up to and with its blank line.
    Whole(&'a [u8]),
    /// No blank line within `max_head + 1` bytes.
    TooLong,
    /// The file ends before the blank line.
    Cut,
}

/// The next records after damage in a plain file: each `WARC/1.` line in
/// turn, its header judged from one window over the file. Reading each
/// candidate's header afresh (up to 64 KB) made 20 MB of 9-byte version
/// lines take 245 s; here every byte is read once, looked at for a blank
/// line once, and parsed as fields by at most one candidate (a candidate's
/// own line is not a field, so the candidate before it stops there).
pub(super) struct PlainResync {
    file: Input,
    max_head: usize,
    /// File bytes from `start` on.
    window: Vec<u8>,
    start: u64,
    at_end: bool,
    /// Where the next `WARC/1.` line is looked for.
    next: u64,
    /// No blank line ends inside `clean.0..clean.1`; with `Some(end)`, the
    /// first one after `clean.0` ends at `end` (= `clean.1`).
    clean: (u64, u64, Option<u64>),
    line: memmem::Finder<'static>,
}

impl PlainResync {
    pub(super) fn new(file: Input, from: u64, max_head: usize) -> Self {
        let start = from.saturating_sub(1);
        Self {
            file,
            max_head,
            window: Vec::new(),
            start,
            at_end: false,
            next: from,
            clean: (0, 0, None),
            line: memmem::Finder::new(LINE_START),
        }
    }

    /// The file back, for reading a record found.
    pub(super) fn into_file(self) -> Input {
        self.file
    }

    /// The next candidate's offset and how its header reads; `None` when no
    /// `WARC/1.` line follows.
    pub(super) fn next_candidate(&mut self) -> Option<(u64, HeadBytes<'_>)> {
        let at = self.next_line()?;
        self.next = at + 1;
        let want = at + self.max_head as u64 + 1;
        self.fill_to(at - 1, want);
        let have = self.start + self.window.len() as u64;
        let limit = want.min(have);
        let end = match self.clean {
            (from, end, Some(_)) if from <= at && at < end => Some(end),
            (from, to, None) if from <= at && at <= to => {
                self.find_end(from, to.saturating_sub(2).max(at), limit)
            }
            _ => self.find_end(at, at, limit),
        };
        let verdict = match end {
            Some(end) => {
                let from = (at - self.start) as usize;
                HeadBytes::Whole(&self.window[from..(end - self.start) as usize])
            }
            None if have >= want => HeadBytes::TooLong,
            None => HeadBytes::Cut,
        };
        Some((at, verdict))
    }

    /// The first header end in `search..limit`, noting what was looked at
    /// (clean from `from`).
    fn find_end(&mut self, from: u64, search: u64, limit: u64) -> Option<u64> {
        let bytes = &self.window[(search - self.start) as usize..(limit - self.start) as usize];
        match find_head_end(bytes) {
            Some(rel) => {
                let end = search + rel as u64;
                self.clean = (from, end, Some(end));
                Some(end)
            }
            None => {
                self.clean = (from, limit, None);
                None
            }
        }
    }

    /// The offset of the next line that starts with `WARC/1.` at or after
    /// `self.next`, reading on (and over holes) as needed.
    fn next_line(&mut self) -> Option<u64> {
        loop {
            let look = self.next - 1;
            if look >= self.start {
                let from = (look - self.start) as usize;
                if let Some(hit) = self.window.get(from..).and_then(|b| self.line.find(b)) {
                    return Some(look + hit as u64 + 1);
                }
            }
            if self.at_end {
                return None;
            }
            let have = self.start + self.window.len() as u64;
            // Searched up to here: a line cut by the window's end is found
            // with the bytes that follow.
            self.next = self
                .next
                .max(have.saturating_sub(LINE_START.len() as u64 - 2));
            // A hole reads as zeros: no line starts in it, nor right after it.
            match self.file.next_data(have) {
                None => {
                    self.at_end = true;
                    continue;
                }
                Some(data) if data > have => {
                    self.window.clear();
                    self.start = data;
                    self.next = data + 1;
                }
                Some(_) => {}
            }
            let have = self.start + self.window.len() as u64;
            // Keep what a line cut by the window's end needs.
            let keep = self.next - 1;
            self.fill_to(keep, have + SCAN_CHUNK as u64);
            if self.start + self.window.len() as u64 == have && !self.at_end {
                return None;
            }
        }
    }

    /// Drops the window's bytes before `keep` and reads until it reaches
    /// `want` or the file ends.
    fn fill_to(&mut self, keep: u64, want: u64) {
        if self.start + self.window.len() as u64 >= want || self.at_end {
            return;
        }
        // Only before a read: dropping a candidate's few bytes each time
        // moved the whole window per candidate.
        let drop = keep
            .saturating_sub(self.start)
            .min(self.window.len() as u64) as usize;
        self.window.drain(..drop);
        self.start += drop as u64;
        let have = self.start + self.window.len() as u64;
        if self.file.seek(SeekFrom::Start(have)).is_err() {
            self.at_end = true;
            return;
        }
        // A chunk at a time: one read per candidate made 20 MB of 9-byte
        // lines two million reads.
        let ask = (want - have).max(SCAN_CHUNK as u64) as usize;
        let old = self.window.len();
        self.window.resize(old + ask, 0);
        match read_up_to(&mut self.file, &mut self.window[old..]) {
            Ok(got) => {
                self.window.truncate(old + got);
                if got < ask {
                    self.at_end = true;
                }
            }
            Err(_) => {
                self.window.truncate(old);
                self.at_end = true;
            }
        }
    }
}

/// Where the blank line that ends a header ends, if it is in `bytes`.
pub(super) fn find_head_end(bytes: &[u8]) -> Option<usize> {
    let mut at = 0;
    while let Some(nl) = memchr::memchr(b'\n', &bytes[at..]) {
        let after = at + nl + 1;
        match bytes.get(after..after + 2) {
            Some([b'\r', b'\n']) => return Some(after + 2),
            _ if bytes.get(after) == Some(&b'\n') => return Some(after + 1),
            _ => at = after,
        }
    }
    None
}
