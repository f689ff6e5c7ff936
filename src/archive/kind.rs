//! What a file is, told from its first bytes: the one door every command
//! and the window go through (a name can lie: `capture.bin` holding a WARC
//! is a WARC, `page.warc` holding HTML is not one). The name is asked only
//! where the bytes cannot tell (a file that does not start as any archive
//! but is named as one is read as one, so its damage is reported), and by
//! a window frame, which must not read files ([`kind_by_name`]).

use std::io::{self, Read, Seek, SeekFrom};
use std::path::Path;

use flate2::read::GzDecoder;

/// Enough of a file to tell its kind: a version line, an ARC's `filedesc`
/// line, a ZIP's local header, a manifest's header line.
const SNIFF: usize = 4096;
/// Of a gzip file, this much is inflated to tell what it wraps.
const SNIFF_INFLATED: usize = 512;

/// A file's kind.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FileKind {
    /// WARC 1.x (or a 0.x draft laid out as 1.0 is), plain or one gzip
    /// member per record (or a gzip of the whole).
    Warc { gzip: bool },
    /// A WARC draft whose version line carries the record's fields (0.9
    /// and before): not read.
    WarcDraft { version: String },
    /// The Internet Archive's ARC, the format before WARC, plain or gzip.
    Arc { gzip: bool },
    /// A ZIP: a WACZ package, or a ZIP that is none (told when opened).
    Zip,
    /// A gzip of something that is no archive.
    OtherGzip,
    /// A tab-separated manifest of saved pages (its header has `id`).
    Manifest,
    /// Anything else: a saved page, read as HTML.
    Html,
}

impl FileKind {
    /// Whether the file is read as a web archive (WARC, ARC, WACZ), or
    /// refused as one that cannot be read.
    pub fn is_archive(&self) -> bool {
        !matches!(self, FileKind::Manifest | FileKind::Html)
    }
}

/// The kind of a file that starts with `first` (its first few KB).
pub fn kind_of_bytes(first: &[u8]) -> FileKind {
    if first.starts_with(&[0x1f, 0x8b]) {
        let mut inflated = Vec::with_capacity(SNIFF_INFLATED);
        let mut decoder = GzDecoder::new(first).take(SNIFF_INFLATED as u64);
        // What inflates before the sniffed bytes run out is enough.
        let mut buf = [0u8; 256];
        while let Ok(n @ 1..) = decoder.read(&mut buf) {
            inflated.extend_from_slice(&buf[..n]);
        }
        return match plain_kind(&inflated) {
            Some(FileKind::Warc { .. }) => FileKind::Warc { gzip: true },
            Some(FileKind::Arc { .. }) => FileKind::Arc { gzip: true },
            Some(draft @ FileKind::WarcDraft { .. }) => draft,
            _ => FileKind::OtherGzip,
        };
    }
    if super::wacz::looks_like_zip(first) {
        return FileKind::Zip;
    }
    if let Some(kind) = plain_kind(first) {
        return kind;
    }
    let text = first.strip_prefix(b"\xef\xbb\xbf").unwrap_or(first);
    let header = text.split(|b| *b == b'\n').next().unwrap_or_default();
    if header.contains(&b'\t')
        && header
            .split(|b| *b == b'\t')
            .any(|field| field.trim_ascii() == b"id")
    {
        return FileKind::Manifest;
    }
    FileKind::Html
}

/// A WARC or ARC told from its uncompressed first bytes.
fn plain_kind(bytes: &[u8]) -> Option<FileKind> {
    let blank = bytes
        .iter()
        .take_while(|b| matches!(b, b'\r' | b'\n'))
        .count();
    let bytes = &bytes[blank..];
    if bytes.starts_with(b"filedesc://") {
        return Some(FileKind::Arc { gzip: false });
    }
    let rest = bytes.strip_prefix(b"WARC/")?;
    let line = rest.split(|b| *b == b'\n').next().unwrap_or_default();
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    let version_len = line
        .iter()
        .take_while(|b| b.is_ascii_digit() || **b == b'.')
        .count();
    let version = String::from_utf8_lossy(&line[..version_len]).into_owned();
    if version_len == line.len() && !version.is_empty() {
        Some(FileKind::Warc { gzip: false })
    } else {
        Some(FileKind::WarcDraft { version })
    }
}

/// The kind of the regular file at `path` from its first bytes; a name
/// that says archive decides only for bytes that say no archive. A FIFO
/// or a device is refused before it is opened (opening a FIFO waits for
/// a writer).
pub fn sniff(path: &Path) -> io::Result<FileKind> {
    if !std::fs::metadata(path)?.file_type().is_file() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "not a regular file (a folder, a FIFO or a device)",
        ));
    }
    let mut file = std::fs::File::open(path)?;
    let kind = sniff_stream(&mut file)?;
    Ok(with_name(kind, &path.to_string_lossy()))
}

/// Whether the file at `path` is read as a web archive: told from its
/// first bytes; a file that cannot be looked into (missing, a FIFO) by its
/// name, so that the error then says what it was taken for.
pub fn is_archive_file(path: &Path) -> bool {
    match sniff(path) {
        Ok(kind) => kind.is_archive(),
        Err(_) => kind_by_name(&path.to_string_lossy()).is_some(),
    }
}

/// The kind of what `input` holds from where it is; it is left there.
pub fn sniff_stream(input: &mut (impl Read + Seek)) -> io::Result<FileKind> {
    let at = input.stream_position()?;
    let mut first = Vec::with_capacity(SNIFF);
    input.by_ref().take(SNIFF as u64).read_to_end(&mut first)?;
    input.seek(SeekFrom::Start(at))?;
    Ok(kind_of_bytes(&first))
}

/// Bytes that say no archive, under a name that says one: read as that
/// archive, so that what is wrong with it is reported.
fn with_name(kind: FileKind, name: &str) -> FileKind {
    match (&kind, kind_by_name(name)) {
        (FileKind::Html | FileKind::Manifest, Some(named)) => named,
        _ => kind,
    }
}

/// The archive kind a file's name says (`.warc`, `.warc.gz`, `.arc`,
/// `.arc.gz`, `.wacz`), for a window frame that must not read the file;
/// loading it asks [`sniff`].
pub fn kind_by_name(name: &str) -> Option<FileKind> {
    let lower = name.trim().to_ascii_lowercase();
    if lower.ends_with(".warc") {
        Some(FileKind::Warc { gzip: false })
    } else if lower.ends_with(".warc.gz") {
        Some(FileKind::Warc { gzip: true })
    } else if lower.ends_with(".arc") {
        Some(FileKind::Arc { gzip: false })
    } else if lower.ends_with(".arc.gz") {
        Some(FileKind::Arc { gzip: true })
    } else if lower.ends_with(".wacz") {
        Some(FileKind::Zip)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use std::io::Write as _;

    use super::*;

    fn gzip(bytes: &[u8]) -> Vec<u8> {
        let mut out = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        out.write_all(bytes).unwrap();
        out.finish().unwrap()
    }

    #[test]
    fn each_kind_is_told_from_its_first_bytes() {
        let warc = b"WARC/1.0\r\nWARC-Type: warcinfo\r\n";
        let arc = b"filedesc://x.arc 0.0.0.0 20140216050221 text/plain 75\n1 0 LiveWeb\n";
        let cases: Vec<(Vec<u8>, FileKind)> = vec![
            (warc.to_vec(), FileKind::Warc { gzip: false }),
            (b"\r\nWARC/1.1\r\n".to_vec(), FileKind::Warc { gzip: false }),
            (
                b"WARC/0.17\r\nWARC-Type: response\r\n".to_vec(),
                FileKind::Warc { gzip: false },
            ),
            (gzip(warc), FileKind::Warc { gzip: true }),
            (arc.to_vec(), FileKind::Arc { gzip: false }),
            (gzip(arc), FileKind::Arc { gzip: true }),
            (
                b"WARC/0.9 1234 response http://a/ 20080101 <urn:x> text/html\n".to_vec(),
                FileKind::WarcDraft {
                    version: "0.9".into(),
                },
            ),
            (b"PK\x03\x04\x14\x00".to_vec(), FileKind::Zip),
            (gzip(b"<html>"), FileKind::OtherGzip),
            (
                b"id\toriginal_url\n1\thttp://a/\n".to_vec(),
                FileKind::Manifest,
            ),
            (
                b"\xef\xbb\xbfid\toriginal_url\n".to_vec(),
                FileKind::Manifest,
            ),
            (
                b"<!doctype html><title>WARC/1.0</title>".to_vec(),
                FileKind::Html,
            ),
            (Vec::new(), FileKind::Html),
        ];
        for (bytes, kind) in cases {
            assert_eq!(
                kind_of_bytes(&bytes),
                kind,
                "{:?}",
                String::from_utf8_lossy(&bytes)
            );
        }
    }

    #[test]
    fn a_gzip_cut_after_its_first_bytes_is_still_told() {
        let mut big = b"WARC/1.0\r\nContent-Length: 100000\r\n\r\n".to_vec();
        let mut x: u32 = 2463534242;
        big.extend((0..100_000).map(|_| {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            x as u8
        }));
        let packed = gzip(&big);
        assert_eq!(
            kind_of_bytes(&packed[..SNIFF]),
            FileKind::Warc { gzip: true }
        );
    }

    #[test]
    fn a_name_decides_only_where_the_bytes_say_no_archive() {
        assert_eq!(
            with_name(FileKind::Html, "junk-first.warc.gz"),
            FileKind::Warc { gzip: true }
        );
        assert_eq!(
            with_name(FileKind::Warc { gzip: false }, "capture.html"),
            FileKind::Warc { gzip: false }
        );
        assert_eq!(kind_by_name("X.WACZ"), Some(FileKind::Zip));
        assert_eq!(kind_by_name("page.html"), None);
    }
}
