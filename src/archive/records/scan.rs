//! Finding where a WARC record starts: at the file's start (is it WARC at
//! all?) and after damage (the next `WARC/1.` line or gzip member). Holes of
//! a sparse file are skipped, not read.

use std::fs::File;
use std::io::{self, BufReader, Read, Seek, SeekFrom};

use memchr::memmem;

/// What every WARC 1.x record starts with.
pub(super) const VERSION_PREFIX: &[u8] = b"WARC/1.";
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
pub(super) fn starts_with_warc(file: &mut File) -> bool {
    let mut start = [0u8; 64];
    let Ok(got) = read_up_to(file, &mut start) else {
        return false;
    };
    let text = &start[..got];
    let blank = text
        .iter()
        .take_while(|b| matches!(b, b'\r' | b'\n'))
        .count();
    text[blank..].starts_with(VERSION_PREFIX)
}

/// Whether the gzip member that starts where the file is decompresses to a
/// WARC version line.
pub(super) fn member_holds_warc(file: &mut File) -> bool {
    let probe = Read::take(file, MEMBER_PROBE);
    let mut decoder = flate2::read::GzDecoder::new(BufReader::with_capacity(256, probe));
    let mut start = [0u8; VERSION_PREFIX.len()];
    read_up_to(&mut decoder, &mut start).is_ok_and(|got| got == start.len())
        && start == VERSION_PREFIX
}

/// The offset of the next line that starts with `WARC/1.` after `from - 1`.
pub(super) fn next_warc_line(file: &mut File, from: u64) -> Option<u64> {
    warc_line_within(file, from, u64::MAX)
}

/// The offset of the next gzip member at or after `from` that holds a WARC
/// record.
pub(super) fn next_member(file: &mut File, from: u64) -> Option<u64> {
    member_within(file, from, u64::MAX)
}

/// The first record in the first [`START_SCAN`] bytes of data, and whether
/// it is a gzip member.
pub(super) fn first_record_near_start(file: &mut File) -> Option<(u64, bool)> {
    let line = warc_line_within(file, 1, START_SCAN);
    let member = member_within(file, 0, START_SCAN);
    match (line, member) {
        (Some(line), Some(member)) if line < member => Some((line, false)),
        (_, Some(member)) => Some((member, true)),
        (line, None) => line.map(|at| (at, false)),
    }
}

fn warc_line_within(file: &mut File, from: u64, limit: u64) -> Option<u64> {
    let start = from.saturating_sub(1);
    find_from(file, start, limit, LINE_START, |_, _| true).map(|at| at + 1)
}

/// A deflate stream's bytes may look like a member's start: a candidate is
/// taken when it decompresses to a WARC version line.
fn member_within(file: &mut File, from: u64, limit: u64) -> Option<u64> {
    find_from(file, from, limit, MEMBER_START, |file, at| {
        file.seek(SeekFrom::Start(at)).is_ok() && member_holds_warc(file)
    })
}

/// The first offset at or after `from` where `pattern` is found and
/// `accept` agrees (it may move the file's cursor), looking through at most
/// `limit` bytes of data (holes not counted).
fn find_from(
    file: &mut File,
    from: u64,
    limit: u64,
    pattern: &[u8],
    mut accept: impl FnMut(&mut File, u64) -> bool,
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
        pos = next_data(file, pos)?;
        file.seek(SeekFrom::Start(pos)).ok()?;
        let got = read_up_to(file, &mut buf).ok()?;
        let chunk = &buf[..got];
        let mut at = 0;
        while let Some(hit) = finder.find(&chunk[at..]) {
            let found = pos + (at + hit) as u64;
            if accept(file, found) {
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

/// The first offset at or after `pos` that holds data: a sparse file's hole
/// reads as zeros, which hold no record. `None` when nothing follows.
#[cfg(target_os = "linux")]
fn next_data(file: &File, pos: u64) -> Option<u64> {
    use std::os::fd::AsRawFd as _;
    let offset = libc::off_t::try_from(pos).ok()?;
    // SAFETY: lseek on a descriptor this File owns; the cursor it moves is
    // set again by the caller before any read.
    let data = unsafe { libc::lseek(file.as_raw_fd(), offset, libc::SEEK_DATA) };
    if data >= 0 {
        return u64::try_from(data).ok();
    }
    match std::io::Error::last_os_error().raw_os_error() {
        Some(libc::ENXIO) => None,
        // A file system without holes support: read everything.
        _ => Some(pos),
    }
}

#[cfg(not(target_os = "linux"))]
fn next_data(_file: &File, pos: u64) -> Option<u64> {
    Some(pos)
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
