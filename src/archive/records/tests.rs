use std::io::{Read as _, Write as _};

use flate2::Compression;
use flate2::write::GzEncoder;

use super::*;

fn record(kind: &str, uri: &str, block: &[u8]) -> Vec<u8> {
    let mut out = format!(
        "WARC/1.1\r\nWARC-Type: {kind}\r\nWARC-Target-URI: {uri}\r\nContent-Length: {}\r\n\r\n",
        block.len()
    )
    .into_bytes();
    out.extend_from_slice(block);
    out.extend_from_slice(b"\r\n\r\n");
    out
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut encoder = GzEncoder::new(Vec::new(), Compression::fast());
    encoder.write_all(bytes).unwrap();
    encoder.finish().unwrap()
}

fn file_of(bytes: &[u8]) -> tempfile_path::TempPath {
    tempfile_path::TempPath::with(bytes)
}

/// A file in the system's temp folder, removed when dropped.
mod tempfile_path {
    use std::path::{Path, PathBuf};
    use std::sync::atomic::{AtomicUsize, Ordering};

    pub struct TempPath(PathBuf);

    impl TempPath {
        pub fn with(bytes: &[u8]) -> Self {
            static N: AtomicUsize = AtomicUsize::new(0);
            let name = format!(
                "follow-inspector-records-{}-{}",
                std::process::id(),
                N.fetch_add(1, Ordering::SeqCst)
            );
            let path = std::env::temp_dir().join(name);
            std::fs::write(&path, bytes).unwrap();
            Self(path)
        }

        pub fn path(&self) -> &Path {
            &self.0
        }
    }

    impl Drop for TempPath {
        fn drop(&mut self) {
            let _ = std::fs::remove_file(&self.0);
        }
    }
}

/// Every record's (kind, block) or damage offset and detail.
/// (kind, block, block cut, offset) of a record read.
type Read = Result<(String, Vec<u8>, bool, u64), Damaged>;

fn read_all(bytes: &[u8], max_block: usize) -> Vec<Read> {
    let file = file_of(bytes);
    let mut reader = RecordReader::open(file.path()).unwrap();
    let mut out = Vec::new();
    while let Some(next) = reader.next_record(&|_| true, max_block) {
        out.push(next.map(|r| {
            (
                r.head.field("WARC-Type").unwrap_or_default().to_owned(),
                r.block,
                r.block_cut,
                r.head.offset,
            )
        }));
        assert!(out.len() < 100, "the reader does not end");
    }
    out
}

fn kinds(read: &[Read]) -> Vec<String> {
    read.iter()
        .map(|r| match r {
            Ok((kind, ..)) => kind.clone(),
            Err(d) => format!("damaged@{}", d.offset),
        })
        .collect()
}

#[test]
fn a_plain_file_gives_its_records_with_their_offsets() {
    let first = record("warcinfo", "", b"software: x\r\n");
    let second = record("response", "http://a.test/", b"HTTP/1.1 200 OK\r\n\r\nhi");
    let bytes = [first.clone(), second].concat();
    let read = read_all(&bytes, 1000);
    assert_eq!(kinds(&read), ["warcinfo", "response"]);
    let Ok((_, block, cut, offset)) = &read[1] else {
        panic!()
    };
    assert_eq!(block, b"HTTP/1.1 200 OK\r\n\r\nhi");
    assert!(!cut);
    assert_eq!(*offset, first.len() as u64);
}

#[test]
fn per_record_gzip_gives_member_offsets() {
    let first = gzip(&record("warcinfo", "", b"a"));
    let second = gzip(&record(
        "request",
        "http://a.test/",
        b"GET / HTTP/1.1\r\n\r\n",
    ));
    let read = read_all(&[first.clone(), second].concat(), 1000);
    assert_eq!(kinds(&read), ["warcinfo", "request"]);
    assert_eq!(read[1].as_ref().unwrap().3, first.len() as u64);
}

#[test]
fn a_whole_file_gzip_of_many_records_is_read_too() {
    let plain = [
        record("warcinfo", "", b"a"),
        record("response", "http://a.test/", b"b"),
        record("metadata", "http://a.test/", b"c"),
    ]
    .concat();
    let read = read_all(&gzip(&plain), 1000);
    assert_eq!(kinds(&read), ["warcinfo", "response", "metadata"]);
}

#[test]
fn warc_1_0_and_any_header_order_are_read_and_fields_keep_their_order() {
    let bytes = b"WARC/1.0\r\nContent-Length: 2\r\nWARC-Target-URI: http://a.test/\r\nWARC-Type: resource\r\n\r\nok\r\n\r\n";
    let file = file_of(bytes);
    let mut reader = RecordReader::open(file.path()).unwrap();
    let record = reader.next_record(&|_| true, 10).unwrap().unwrap();
    assert_eq!(record.head.version, "WARC/1.0");
    assert_eq!(record.head.kind(), crate::archive::RecordKind::Resource);
    assert_eq!(record.head.fields[0].0, "Content-Length");
    assert_eq!(record.block, b"ok");
    assert!(reader.next_record(&|_| true, 10).is_none());
}

#[test]
fn unwanted_blocks_are_skipped_and_long_ones_cut() {
    let bytes = [
        record("request", "http://a.test/", b"0123456789"),
        record("response", "http://a.test/", b"0123456789"),
    ]
    .concat();
    let file = file_of(&bytes);
    let mut reader = RecordReader::open(file.path()).unwrap();
    let wants = |head: &RecordHead| head.kind() == crate::archive::RecordKind::Response;
    let skipped = reader.next_record(&wants, 4).unwrap().unwrap();
    assert!(skipped.block.is_empty());
    assert!(!skipped.block_cut);
    let cut = reader.next_record(&wants, 4).unwrap().unwrap();
    assert_eq!(cut.block, b"0123");
    assert!(cut.block_cut);
}

#[test]
fn a_truncated_gzip_member_is_damage_at_its_offset() {
    let first = gzip(&record("warcinfo", "", b"a"));
    let second = gzip(&record("response", "http://a.test/", &[b'x'; 5000]));
    let bytes = [first.clone(), second[..second.len() / 2].to_vec()].concat();
    let read = read_all(&bytes, 10_000);
    assert_eq!(
        kinds(&read),
        ["warcinfo".to_owned(), format!("damaged@{}", first.len())]
    );
    let Err(damaged) = &read[1] else { panic!() };
    assert!(damaged.detail.contains("cut short"), "{}", damaged.detail);
}

#[test]
fn a_bad_gzip_member_is_damage_and_the_next_member_is_read() {
    let first = gzip(&record("warcinfo", "", b"a"));
    let mut bad = gzip(&record("response", "http://a.test/", &[b'y'; 3000]));
    let middle = bad.len() / 2;
    bad[middle..middle + 8].copy_from_slice(b"\xff\xff\xff\xff\x00\x00\x00\x00");
    let third = gzip(&record("metadata", "http://a.test/", b"m"));
    let read = read_all(&[first.clone(), bad, third].concat(), 10_000);
    assert_eq!(
        kinds(&read),
        [
            "warcinfo".to_owned(),
            format!("damaged@{}", first.len()),
            "metadata".to_owned()
        ]
    );
}

#[test]
fn a_content_length_past_the_end_of_a_plain_file_is_damage() {
    let first = record("warcinfo", "", b"a");
    let lying = b"WARC/1.1\r\nWARC-Type: response\r\nContent-Length: 999999\r\n\r\nshort".to_vec();
    let read = read_all(&[first.clone(), lying].concat(), 100);
    assert_eq!(
        kinds(&read),
        ["warcinfo".to_owned(), format!("damaged@{}", first.len())]
    );
    let Err(damaged) = &read[1] else { panic!() };
    assert!(
        damaged.detail.contains("Content-Length 999999"),
        "{}",
        damaged.detail
    );
}

#[test]
fn a_content_length_past_the_end_of_a_gzip_member_is_damage_and_reading_goes_on() {
    let first =
        gzip(b"WARC/1.1\r\nWARC-Type: response\r\nContent-Length: 5000\r\n\r\nshort\r\n\r\n");
    let second = gzip(&record("metadata", "http://a.test/", b"m"));
    let read = read_all(&[first, second].concat(), 100);
    assert_eq!(kinds(&read), ["damaged@0", "metadata"]);
}

#[test]
fn a_record_without_a_version_line_is_damage_and_the_next_record_is_found() {
    let first = record("warcinfo", "", b"a");
    let junk = b"this is not a record\r\nat all\r\n\r\n".to_vec();
    let third = record("response", "http://a.test/", b"b");
    let read = read_all(&[first.clone(), junk, third].concat(), 100);
    assert_eq!(
        kinds(&read),
        [
            "warcinfo".to_owned(),
            format!("damaged@{}", first.len()),
            "response".to_owned()
        ]
    );
    let Err(damaged) = &read[1] else { panic!() };
    assert!(
        damaged.detail.contains("no WARC version line"),
        "{}",
        damaged.detail
    );
}

#[test]
fn a_header_of_ten_megabytes_is_damage_without_reading_it_whole() {
    let first = record("warcinfo", "", b"a");
    let mut huge = b"WARC/1.1\r\nWARC-Type: response\r\nX-Long: ".to_vec();
    huge.resize(huge.len() + 10 * 1024 * 1024, b'a');
    huge.extend_from_slice(b"\r\nContent-Length: 1\r\n\r\nb\r\n\r\n");
    let third = record("metadata", "http://a.test/", b"m");
    for gzipped in [false, true] {
        let parts = [first.clone(), huge.clone(), third.clone()];
        let bytes = if gzipped {
            parts.iter().flat_map(|p| gzip(p)).collect()
        } else {
            parts.concat()
        };
        let read = read_all(&bytes, 100);
        let kinds = kinds(&read);
        assert_eq!(kinds.len(), 3, "{kinds:?}");
        assert_eq!(kinds[2], "metadata");
        let Err(damaged) = &read[1] else { panic!() };
        assert!(
            damaged.detail.contains("longer than 65536"),
            "{}",
            damaged.detail
        );
    }
}

#[test]
fn a_file_that_is_not_warc_is_refused_at_open() {
    for bytes in [
        b"<html>hello</html>".to_vec(),
        Vec::new(),
        gzip(b"plain text, gzipped"),
    ] {
        let file = file_of(&bytes);
        assert!(matches!(
            RecordReader::open(file.path()),
            Err(ArchiveError::NotWarc { .. })
        ));
    }
}

#[test]
fn a_sparse_file_of_zeros_is_refused_fast_and_a_sparse_tail_ends_reading() {
    let empty = file_of(b"");
    let file = std::fs::OpenOptions::new()
        .write(true)
        .open(empty.path())
        .unwrap();
    file.set_len(2 * 1024 * 1024 * 1024).unwrap();
    assert!(matches!(
        RecordReader::open(empty.path()),
        Err(ArchiveError::NotWarc { .. })
    ));

    let start = gzip(&record("warcinfo", "", b"a"));
    let tail = file_of(&start);
    let file = std::fs::OpenOptions::new()
        .write(true)
        .open(tail.path())
        .unwrap();
    file.set_len(2 * 1024 * 1024 * 1024).unwrap();
    let mut reader = RecordReader::open(tail.path()).unwrap();
    assert!(reader.next_record(&|_| true, 10).unwrap().is_ok());
    let damaged = reader.next_record(&|_| true, 10).unwrap().unwrap_err();
    assert_eq!(damaged.offset, start.len() as u64);
    assert!(reader.next_record(&|_| true, 10).is_none());
}

#[test]
fn junk_before_the_first_record_is_reported_and_the_records_after_it_read() {
    for gzipped in [false, true] {
        let records = [
            record("warcinfo", "", b"a"),
            record("response", "http://a.test/", b"b"),
        ];
        let body = if gzipped {
            records.iter().flat_map(|r| gzip(r)).collect()
        } else {
            records.concat()
        };
        let junk = b"garbage before the archive\r\n".repeat(10);
        let read = read_all(&[junk.clone(), body].concat(), 100);
        assert_eq!(
            kinds(&read),
            ["damaged@0", "warcinfo", "response"],
            "{gzipped}"
        );
        let Err(damaged) = &read[0] else { panic!() };
        assert!(
            damaged
                .detail
                .ends_with(&format!("at offset {}", junk.len())),
            "{}",
            damaged.detail
        );
    }
}

/// What reading `bytes` gives, record by record: each candidate after
/// damage read afresh from its own offset, as the reader did before it kept
/// one window (the reference the resync must match).
fn read_afresh(bytes: &[u8]) -> Vec<String> {
    let mut out = Vec::new();
    let mut pos = 0;
    loop {
        while bytes.get(pos).is_some_and(|b| matches!(b, b'\r' | b'\n')) {
            pos += 1;
        }
        if pos >= bytes.len() {
            return out;
        }
        let mut input = io::Cursor::new(&bytes[pos..]);
        let left = |at: u64| (bytes.len() as u64).saturating_sub(at);
        match read_record(
            super::Format::Warc,
            &mut input,
            pos as u64,
            Some(&left),
            &|_| true,
            100,
        ) {
            Ok(record) => {
                out.push(
                    record
                        .head
                        .field("WARC-Type")
                        .unwrap_or_default()
                        .to_owned(),
                );
                pos += input.position() as usize;
            }
            Err(damage) => {
                out.push(format!("damaged@{pos}: {damage}"));
                match memchr::memmem::find(&bytes[pos..], b"\nWARC/1.") {
                    Some(at) => pos += at + 1,
                    None => return out,
                }
            }
        }
    }
}

fn read_summary(bytes: &[u8]) -> Vec<String> {
    let file = file_of(bytes);
    let mut reader = RecordReader::open(file.path()).unwrap();
    let mut out = Vec::new();
    while let Some(next) = reader.next_record(&|_| true, 100) {
        out.push(match next {
            Ok(record) => record
                .head
                .field("WARC-Type")
                .unwrap_or_default()
                .to_owned(),
            Err(damaged) => format!("damaged@{}: {}", damaged.offset, damaged.detail),
        });
    }
    out
}

#[test]
fn after_damage_each_candidate_is_judged_as_reading_it_afresh_would() {
    let good = record("warcinfo", "", b"a");
    let last = record("metadata", "http://a.test/", b"m");
    // Long lines: the reference reads up to 64 KB per candidate.
    let lines = |n: usize| {
        [b"WARC/1.0 ".to_vec(), vec![b'x'; 1000], b"\n".to_vec()]
            .concat()
            .repeat(n)
    };
    // A header whose blank line ends `len` bytes after its start.
    let ending_at = |len: usize| {
        let filler = vec![b'y'; len - b"WARC/1.0\n\n\n".len()];
        [b"WARC/1.0\n".to_vec(), filler, b"\n\n".to_vec()].concat()
    };
    let cases: Vec<Vec<u8>> = vec![
        // Headers too long, then ones that end within reach of the blank line.
        [good.clone(), lines(150), b"\r\n".to_vec(), last.clone()].concat(),
        // Blocks of version lines each ended by a blank line.
        [
            good.clone(),
            [lines(20), b"\n".to_vec()].concat().repeat(5),
            last.clone(),
        ]
        .concat(),
        [
            good.clone(),
            [b"WARC/1.0\n".repeat(300), b"\n".to_vec()]
                .concat()
                .repeat(3),
            last.clone(),
        ]
        .concat(),
        // A bad version, a length past the end, one too long, then a record.
        [
            good.clone(),
            b"WARC/1.x\r\nContent-Length: 1\r\n\r\nb\r\n".to_vec(),
            b"WARC/1.0\r\nContent-Length: 999999\r\n\r\n".to_vec(),
            lines(70),
            b"WARC/1.0\r\nContent-Length: 1\r\n\r\n".to_vec(),
            b"c\r\n\r\n".to_vec(),
            last.clone(),
        ]
        .concat(),
        // Version lines to the file's end: the headers are cut.
        [good.clone(), b"x\n".to_vec(), lines(100)].concat(),
        // A blank line just within the 64 KB limit and just past it.
        [
            good.clone(),
            b"x\n".to_vec(),
            ending_at(MAX_HEAD + 1),
            last.clone(),
        ]
        .concat(),
        [
            good.clone(),
            b"x\n".to_vec(),
            ending_at(MAX_HEAD + 2),
            last.clone(),
        ]
        .concat(),
    ];
    let within = read_afresh(&cases[5]);
    assert!(within[2].ends_with("no valid Content-Length"), "{within:?}");
    let past = read_afresh(&cases[6]);
    assert!(past[2].ends_with("longer than 65536 bytes"), "{past:?}");
    for (n, bytes) in cases.iter().enumerate() {
        let expected = read_afresh(bytes);
        assert!(expected.len() > 2, "case {n}: {expected:?}");
        assert_eq!(read_summary(bytes), expected, "case {n}");
    }
}

/// A gzip member's header with every optional field, and its data.
fn member_with_fields(header_crc: Option<u16>, flags: u8) -> Vec<u8> {
    let mut out = vec![0x1f, 0x8b, 0x08, flags, 0, 0, 0, 0, 0, 3];
    out.extend_from_slice(&[3, 0, b'a', b'b', b'c']);
    out.extend_from_slice(b"name.warc\0a comment\0");
    let mut crc = flate2::Crc::new();
    crc.update(&out);
    let crc = header_crc.unwrap_or(crc.sum() as u16);
    out.extend_from_slice(&crc.to_le_bytes());
    let mut data = flate2::write::DeflateEncoder::new(Vec::new(), Compression::fast());
    data.write_all(b"WARC/1.1\r\nContent-Length: 0\r\n\r\n")
        .unwrap();
    out.extend(data.finish().unwrap());
    out
}

#[test]
fn a_candidate_member_is_judged_from_its_header_bytes_as_flate2_judges_it() {
    let all = 0b0001_1110;
    let mut probe = scan::MemberProbe::new();
    let good = member_with_fields(None, all);
    assert!(probe.holds_warc(&good));
    let mut decoded = String::new();
    flate2::read::GzDecoder::new(&good[..])
        .read_to_string(&mut decoded)
        .unwrap_or_default();
    assert!(decoded.starts_with("WARC/1.1"), "flate2 reads it too");
    assert!(
        !probe.holds_warc(&member_with_fields(Some(0), all)),
        "bad header CRC"
    );
    assert!(
        !probe.holds_warc(&member_with_fields(None, all | 0x20)),
        "reserved flag"
    );
    assert!(!probe.holds_warc(&good[..20]), "header cut");
    assert!(!probe.holds_warc(&[0x1f, 0x8b, 0x08].repeat(400)));
    assert!(
        probe.holds_warc(&gzip(b"WARC/1.0\r\n")),
        "the same inflater again"
    );
    assert!(!probe.holds_warc(&gzip(b"WARC/2")));
}
