use std::fs::File;
use std::io::{BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use flate2::Compression;
use flate2::read::GzDecoder;
use flate2::write::GzEncoder;
use sha2::{Digest, Sha256};
use url::Url;
use zip::write::SimpleFileOptions;

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

fn response(uri: &str, body: &str) -> Vec<u8> {
    let block = format!(
        "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    record("response", uri, block.as_bytes())
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut encoder = GzEncoder::new(Vec::new(), Compression::fast());
    encoder.write_all(bytes).unwrap();
    encoder.finish().unwrap()
}

fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

fn cdxj(
    url: &str,
    ts: &str,
    status: &str,
    mime: &str,
    offset: u64,
    length: u64,
    file: &str,
) -> String {
    format!(
        "{url} {ts} {{\"url\": \"{url}\", \"mime\": \"{mime}\", \"status\": \"{status}\", \"offset\": \"{offset}\", \"length\": \"{length}\", \"filename\": \"{file}\"}}\n"
    )
}

/// A file entry: its name, its bytes, and whether it is stored.
struct Put<'a>(&'a str, Vec<u8>, bool);

/// A ZIP written by the zip crate's writer.
fn zip_of(entries: &[Put<'_>]) -> Vec<u8> {
    let mut writer = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    for Put(name, bytes, stored) in entries {
        let method = if *stored {
            zip::CompressionMethod::Stored
        } else {
            zip::CompressionMethod::Deflated
        };
        let options = SimpleFileOptions::default()
            .compression_method(method)
            .compression_level((!*stored).then_some(1));
        writer.start_file(*name, options).unwrap();
        writer.write_all(bytes).unwrap();
    }
    writer.finish().unwrap().into_inner()
}

fn temp_with(bytes: &[u8]) -> tempfile::TempPath {
    let mut file = tempfile::NamedTempFile::new().unwrap();
    file.write_all(bytes).unwrap();
    file.into_temp_path()
}

/// The good package: a stored WARC, a deflated gzip WARC, a CDXJ index,
/// pages and a datapackage.json whose hashes are right.
struct Good {
    warc_a: Vec<u8>,
    warc_b: Vec<u8>,
    /// Where `https://example.com/b` starts in `warc_b`, and its length.
    b_at: (u64, u64),
}

fn good_files() -> (Good, Vec<Put<'static>>) {
    let info = record("warcinfo", "", b"software: test\r\n");
    let home = response("https://example.com/", "<a href=/b>b</a>");
    let mut warc_a = info.clone();
    let home_at = warc_a.len() as u64;
    warc_a.extend_from_slice(&home);
    let member_a = gzip(&info);
    let member_b = gzip(&response("https://example.com/b", "<p>b</p>"));
    let mut warc_b = member_a.clone();
    warc_b.extend_from_slice(&member_b);
    let b_at = (member_a.len() as u64, member_b.len() as u64);
    let mut index = String::new();
    index += &cdxj(
        "https://example.com/",
        "20240101000000",
        "200",
        "text/html",
        home_at,
        home.len() as u64,
        "a.warc",
    );
    index += &cdxj(
        "https://example.com/b",
        "20240101000001",
        "200",
        "text/html",
        b_at.0,
        b_at.1,
        "b.warc.gz",
    );
    let pages = "{\"format\": \"json-pages-1.0\", \"id\": \"pages\", \"title\": \"All Pages\"}\n\
        {\"id\": \"1\", \"url\": \"https://example.com/\", \"title\": \"Home\", \"ts\": \"2024-01-01T00:00:00Z\"}\n\
        {\"id\": \"2\", \"url\": \"https://example.com/b\", \"ts\": \"2024-01-01T00:00:01Z\"}\n";
    let resource = |path: &str, bytes: &[u8]| {
        format!(
            "{{\"name\": \"x\", \"path\": \"{path}\", \"hash\": \"sha256:{}\", \"bytes\": {}}}",
            sha256_hex(bytes),
            bytes.len()
        )
    };
    let datapackage = format!(
        "{{\"profile\": \"data-package\", \"resources\": [{}, {}, {}, {}]}}",
        resource("archive/a.warc", &warc_a),
        resource("archive/b.warc.gz", &warc_b),
        resource("indexes/index.cdxj", index.as_bytes()),
        resource("pages/pages.jsonl", pages.as_bytes()),
    );
    let files = vec![
        Put("indexes/index.cdxj", index.into_bytes(), false),
        Put("archive/b.warc.gz", warc_b.clone(), false),
        Put("archive/a.warc", warc_a.clone(), true),
        Put("pages/pages.jsonl", pages.as_bytes().to_vec(), false),
        Put("datapackage.json", datapackage.into_bytes(), false),
    ];
    (
        Good {
            warc_a,
            warc_b,
            b_at,
        },
        files,
    )
}

fn url(s: &str) -> Url {
    Url::parse(s).unwrap()
}

fn open_bytes(bytes: &[u8]) -> (tempfile::TempPath, Result<Wacz, WaczError>) {
    let path = temp_with(bytes);
    let wacz = Wacz::open(&path);
    (path, wacz)
}

#[test]
fn a_good_package_lists_its_warcs_pages_and_finds_a_url_by_its_index() {
    let (good, files) = good_files();
    let (_path, wacz) = open_bytes(&zip_of(&files));
    let wacz = wacz.unwrap();
    assert_eq!(wacz.warnings(), &[] as &[WaczWarning]);
    let names: Vec<_> = wacz
        .warcs()
        .iter()
        .map(|w| (w.name.as_str(), w.stored))
        .collect();
    assert_eq!(
        names,
        [("archive/a.warc", true), ("archive/b.warc.gz", false)]
    );
    assert_eq!(wacz.warcs()[0].size, good.warc_a.len() as u64);
    let pages: Vec<_> = wacz
        .pages()
        .iter()
        .map(|p| (p.url.as_str(), p.title.as_deref(), p.ts.as_deref()))
        .collect();
    assert_eq!(
        pages,
        [
            (
                "https://example.com/",
                Some("Home"),
                Some("2024-01-01T00:00:00Z")
            ),
            ("https://example.com/b", None, Some("2024-01-01T00:00:01Z")),
        ]
    );
    // The fragment is not part of the capture's URL.
    let hit = wacz
        .lookup(&url("https://example.com/b#top"))
        .unwrap()
        .unwrap();
    assert_eq!(hit.warc, "archive/b.warc.gz");
    assert_eq!((hit.offset, hit.length), good.b_at);
    assert_eq!(
        (hit.status, hit.mime.as_deref(), hit.revisit),
        (Some(200), Some("text/html"), false)
    );
    assert_eq!(hit.timestamp, "20240101000001");
    // What the hit points at is the record, read through the deflated entry.
    let warc = &wacz.warcs()[1];
    let mut input = wacz.open_entry(warc).unwrap();
    input.seek(SeekFrom::Start(hit.offset)).unwrap();
    let mut member = Vec::new();
    (&mut input)
        .take(hit.length)
        .read_to_end(&mut member)
        .unwrap();
    let mut text = String::new();
    GzDecoder::new(&member[..])
        .read_to_string(&mut text)
        .unwrap();
    assert!(
        text.starts_with(
            "WARC/1.1\r\nWARC-Type: response\r\nWARC-Target-URI: https://example.com/b"
        ),
        "{text}"
    );
    let home = wacz.lookup(&url("https://example.com/")).unwrap().unwrap();
    assert_eq!(home.warc, "archive/a.warc");
    assert_eq!(wacz.lookup(&url("https://example.com/none")).unwrap(), None);
    assert_eq!(wacz.check_hashes(HashScope::All), []);
}

/// Reads, seeks back and forth, and stops at the end, as a record reader
/// over the entry would.
fn reads_and_seeks(input: &mut EntryInput, bytes: &[u8]) {
    assert_eq!(input.len(), bytes.len() as u64);
    let mut all = Vec::new();
    input.read_to_end(&mut all).unwrap();
    assert_eq!(all, bytes);
    assert_eq!(
        input.read(&mut [0u8; 8]).unwrap(),
        0,
        "nothing past the end"
    );
    assert_eq!(input.seek(SeekFrom::Start(10)).unwrap(), 10);
    let mut five = [0u8; 5];
    input.read_exact(&mut five).unwrap();
    assert_eq!(five, bytes[10..15]);
    assert_eq!(input.seek(SeekFrom::Current(20)).unwrap(), 35);
    input.read_exact(&mut five).unwrap();
    assert_eq!(five, bytes[35..40]);
    assert_eq!(
        input.seek(SeekFrom::End(-3)).unwrap(),
        bytes.len() as u64 - 3
    );
    let mut rest = Vec::new();
    input.read_to_end(&mut rest).unwrap();
    assert_eq!(rest, bytes[bytes.len() - 3..]);
    assert_eq!(input.stream_position().unwrap(), bytes.len() as u64);
    let past = input.seek(SeekFrom::End(1)).unwrap_err();
    assert!(past.to_string().contains("outside"), "{past}");
    assert!(input.seek(SeekFrom::Current(-1_000_000)).is_err());
}

#[test]
fn stored_and_deflated_entries_read_and_seek_within_their_bytes() {
    let (good, files) = good_files();
    let (_path, wacz) = open_bytes(&zip_of(&files));
    let wacz = wacz.unwrap();
    let mut stored = wacz.open_entry(&wacz.warcs()[0]).unwrap();
    reads_and_seeks(&mut stored, &good.warc_a);
    let mut deflated = wacz.open_entry(&wacz.warcs()[1]).unwrap();
    reads_and_seeks(&mut deflated, &good.warc_b);
    fn send<T: Send>(_: &T) {}
    send(&deflated);
}

/// Where an entry's central directory header is in a ZIP's bytes.
fn central_header(zip: &[u8], name: &str) -> usize {
    let mut at = 0;
    while let Some(found) = memchr::memmem::find(&zip[at..], b"PK\x01\x02") {
        let start = at + found;
        let name_len = u16::from_le_bytes([zip[start + 28], zip[start + 29]]) as usize;
        if &zip[start + 46..start + 46 + name_len] == name.as_bytes() {
            return start;
        }
        at = start + 4;
    }
    panic!("no central header for {name}");
}

fn patch_u32(zip: &mut [u8], at: usize, value: u32) {
    zip[at..at + 4].copy_from_slice(&value.to_le_bytes());
}

/// Raw deflate of `n` MiB of zeros, made from one compressed MiB repeated:
/// each MiB is compressed afresh and flushed to a byte boundary, so the
/// pieces join into one stream (a 1 GiB bomb in 1 MB, made in a moment).
fn zeros_deflated(mib: usize) -> Vec<u8> {
    use flate2::{Compress, FlushCompress};
    let piece = |input: &[u8], flush| {
        let mut c = Compress::new(Compression::fast(), false);
        let mut out = Vec::with_capacity(64 * 1024);
        c.compress_vec(input, &mut out, flush).unwrap();
        out
    };
    let one = piece(&vec![0u8; 1 << 20], FlushCompress::Sync);
    let mut out = Vec::with_capacity(one.len() * mib + 16);
    for _ in 0..mib {
        out.extend_from_slice(&one);
    }
    out.extend_from_slice(&piece(&[], FlushCompress::Finish));
    out
}

/// A package of the good files and one more entry whose deflated data and
/// declared size are given: the entry is written stored with the data,
/// then its directory record is made to say deflated, of `size` bytes.
fn with_raw_deflated(name: &str, data: &[u8], size: u32) -> Vec<u8> {
    let (_, mut files) = good_files();
    files.push(Put(
        Box::leak(name.to_owned().into_boxed_str()),
        data.to_vec(),
        true,
    ));
    let mut zip = zip_of(&files);
    let at = central_header(&zip, name);
    zip[at + 10..at + 12].copy_from_slice(&8u16.to_le_bytes());
    patch_u32(&mut zip, at + 24, size);
    zip
}

#[test]
fn a_bomb_declared_small_stops_at_its_declared_size() {
    let bomb = zeros_deflated(1024);
    assert!(bomb.len() < 8 << 20, "{}", bomb.len());
    let zip = with_raw_deflated("archive/bomb.warc", &bomb, 4096);
    let (_path, wacz) = open_bytes(&zip);
    let wacz = wacz.unwrap();
    let entry = wacz.entry("archive/bomb.warc").unwrap().clone();
    assert_eq!((entry.size, entry.stored), (4096, false));
    let mut input = wacz.open_entry(&entry).unwrap();
    let mut out = Vec::new();
    let err = input.read_to_end(&mut out).unwrap_err();
    assert_eq!(out.len(), 4096, "nothing past the declared size is given");
    assert!(
        err.to_string().contains("holds more than the 4096 bytes"),
        "{err}"
    );
    // A bomb in a pages file is told, and the package opens.
    let zip = with_raw_deflated("pages/extraPages.jsonl", &bomb, 100);
    let (_path, wacz) = open_bytes(&zip);
    let warnings = wacz.unwrap().warnings().to_vec();
    assert!(
        warnings.iter().any(|w| matches!(w, WaczWarning::Unreadable { file, .. } if file == "pages/extraPages.jsonl")),
        "{warnings:?}"
    );
}

#[test]
fn an_entry_declared_huge_ends_where_its_data_ends() {
    let data = zeros_deflated(4);
    let zip = with_raw_deflated("archive/huge.warc", &data, u32::MAX);
    let (_path, wacz) = open_bytes(&zip);
    let wacz = wacz.unwrap();
    let entry = wacz.entry("archive/huge.warc").unwrap().clone();
    let mut input = wacz.open_entry(&entry).unwrap();
    let mut out = Vec::new();
    let err = input.read_to_end(&mut out).unwrap_err();
    assert_eq!(out.len(), 4 << 20);
    assert_eq!(err.kind(), std::io::ErrorKind::UnexpectedEof);
    assert!(
        err.to_string()
            .contains("ends after 4194304 of the 4294967295 bytes"),
        "{err}"
    );
}

#[test]
fn a_central_directory_that_lies_is_refused_by_name() {
    let (_, files) = good_files();
    let zip = zip_of(&files);
    // An entry whose compressed size runs past the end of the file.
    let mut lying = zip.clone();
    let at = central_header(&lying, "archive/a.warc");
    patch_u32(&mut lying, at + 20, 1 << 30);
    patch_u32(&mut lying, at + 24, 1 << 30);
    let (_path, err) = open_bytes(&lying);
    let err = err.err().unwrap();
    assert!(
        matches!(&err, WaczError::EntryOutside { entry, .. } if entry == "archive/a.warc"),
        "{err}"
    );
    assert!(
        err.to_string().contains("past the end of the file"),
        "{err}"
    );
    // A stored entry whose two sizes differ.
    let mut lying = zip.clone();
    let at = central_header(&lying, "archive/a.warc");
    patch_u32(&mut lying, at + 24, 5);
    let (_path, err) = open_bytes(&lying);
    assert!(matches!(err, Err(WaczError::SizesLie { .. })));
    // An entry whose local header is past the end.
    let mut lying = zip.clone();
    let at = central_header(&lying, "archive/a.warc");
    patch_u32(&mut lying, at + 42, 1 << 30);
    let (_path, err) = open_bytes(&lying);
    let err = err.err().unwrap();
    assert!(
        matches!(
            err,
            WaczError::NotZip { .. } | WaczError::EntryOutside { .. }
        ),
        "{err}"
    );
    // A directory that starts past the end of the file.
    let mut lying = zip.clone();
    let end = memchr::memmem::rfind(&lying, b"PK\x05\x06").unwrap();
    patch_u32(&mut lying, end + 16, 1 << 30);
    let (_path, err) = open_bytes(&lying);
    let err = err.err().unwrap();
    assert!(matches!(err, WaczError::NotZip { .. }), "{err}");
    // Cut in half: no directory at all.
    let (_path, err) = open_bytes(&zip[..zip.len() / 2]);
    let err = err.err().unwrap();
    assert!(
        err.to_string()
            .contains("is not a readable ZIP (WACZ) package"),
        "{err}"
    );
}

#[test]
fn an_entry_name_that_climbs_out_is_refused_by_name() {
    for name in [
        "archive/../../etc/passwd.warc",
        "../x.warc",
        "/archive/a.warc",
        "archive\\..\\a.warc",
        "C:/archive/a.warc",
    ] {
        let (_, mut files) = good_files();
        files.push(Put(
            Box::leak(name.to_owned().into_boxed_str()),
            b"x".to_vec(),
            true,
        ));
        let (_path, err) = open_bytes(&zip_of(&files));
        let err = err.err().unwrap();
        assert!(
            matches!(&err, WaczError::UnsafeName { entry, .. } if entry == name),
            "{name}: {err}"
        );
        assert!(err.to_string().contains(&format!("{name:?}")), "{err}");
    }
}

#[test]
fn a_package_inside_the_package_is_skipped_and_said() {
    let (_, mut files) = good_files();
    let inner = zip_of(&good_files().1);
    files.push(Put("archive/inner.wacz", inner.clone(), true));
    files.push(Put("archive/disguised.warc.gz", inner.clone(), false));
    let (_path, wacz) = open_bytes(&zip_of(&files));
    let wacz = wacz.unwrap();
    assert_eq!(wacz.warcs().len(), 2);
    assert_eq!(
        wacz.warnings(),
        [
            WaczWarning::Nested {
                entry: "archive/disguised.warc.gz".into()
            },
            WaczWarning::Nested {
                entry: "archive/inner.wacz".into()
            },
        ]
    );
    // Nothing but a package inside: no WARC, and the words say why.
    let only = zip_of(&[Put("archive/inner.wacz", inner, true)]);
    let (_path, err) = open_bytes(&only);
    let err = err.err().unwrap();
    assert!(matches!(err, WaczError::NoWarc { .. }));
    assert!(err.to_string().contains("holds no WARC"), "{err}");
    assert!(err.to_string().contains("archive/inner.wacz"), "{err}");
}

#[test]
fn a_package_without_warcs_is_refused() {
    let (_path, err) = open_bytes(&zip_of(&[Put("pages/pages.jsonl", b"{}\n".to_vec(), true)]));
    let err = err.err().unwrap();
    assert_eq!(
        err.to_string().rsplit_once(' ').map(|(_, end)| end),
        Some("archive/*.warc.gz")
    );
}

#[test]
fn an_index_that_points_past_its_warc_or_at_no_warc_is_told_and_passed_over() {
    let (good, mut files) = good_files();
    let len = good.warc_a.len() as u64;
    let mut index = String::from_utf8(files[0].1.clone()).unwrap();
    index += &cdxj(
        "https://example.com/past",
        "20240101000000",
        "200",
        "text/html",
        len - 10,
        100,
        "a.warc",
    );
    index += &cdxj(
        "https://example.com/gone",
        "20240101000000",
        "200",
        "text/html",
        0,
        10,
        "gone.warc.gz",
    );
    // A bad hit beside a good one: the good one answers.
    index += &cdxj(
        "https://example.com/",
        "20230101000000",
        "200",
        "text/html",
        u64::MAX - 1,
        10,
        "a.warc",
    );
    files[0].1 = index.into_bytes();
    files.pop(); // no datapackage.json: its hash of the index would not match
    let (_path, wacz) = open_bytes(&zip_of(&files));
    let wacz = wacz.unwrap();
    assert_eq!(
        wacz.warnings(),
        [
            WaczWarning::IndexPastEnd {
                warc: "archive/a.warc".into(),
                url: "https://example.com/".into(),
                count: 2
            },
            WaczWarning::IndexMissingWarc {
                warc: "gone.warc.gz".into(),
                count: 1
            },
            WaczWarning::NoDatapackage,
        ]
    );
    let err = wacz.lookup(&url("https://example.com/past")).unwrap_err();
    assert!(matches!(err, WaczError::HitPastEnd { .. }));
    assert!(err.to_string().contains("past its end"), "{err}");
    let err = wacz.lookup(&url("https://example.com/gone")).unwrap_err();
    assert!(
        err.to_string()
            .contains("\"gone.warc.gz\", which the package does not hold"),
        "{err}"
    );
    let home = wacz.lookup(&url("https://example.com/")).unwrap().unwrap();
    assert_eq!(home.timestamp, "20240101000000");
}

#[test]
fn the_capture_chosen_is_the_earliest_answered_one() {
    let (_, mut files) = good_files();
    let mut index = String::new();
    let u = "https://example.com/";
    index += &cdxj(u, "20200101000000", "404", "text/html", 0, 10, "a.warc");
    index += &cdxj(u, "20210101000000", "200", "warc/revisit", 0, 10, "a.warc");
    index += &cdxj(u, "20230101000000", "200", "text/html", 20, 10, "a.warc");
    index += &cdxj(u, "20220101000000", "301", "text/html", 30, 10, "a.warc");
    index += &cdxj(
        "https://example.com/r",
        "20210101000000",
        "200",
        "warc/revisit",
        40,
        10,
        "a.warc",
    );
    index += &cdxj(
        "https://example.com/n",
        "20210101000000",
        "-",
        "text/html",
        40,
        10,
        "a.warc",
    );
    files[0].1 = index.into_bytes();
    files.pop();
    let (_path, wacz) = open_bytes(&zip_of(&files));
    let wacz = wacz.unwrap();
    let hit = wacz.lookup(&url(u)).unwrap().unwrap();
    assert_eq!(
        (hit.timestamp.as_str(), hit.status, hit.offset),
        ("20220101000000", Some(301), 30)
    );
    let revisit = wacz.lookup(&url("https://example.com/r")).unwrap().unwrap();
    assert!(revisit.revisit);
    let no_status = wacz.lookup(&url("https://example.com/n")).unwrap().unwrap();
    assert_eq!(no_status.status, None);
}

#[test]
fn a_gzip_index_is_read_whole_or_as_zipnum_members() {
    let (good, files) = good_files();
    let lines = String::from_utf8(files[0].1.clone()).unwrap();
    let mut zipnum = Vec::new();
    for line in lines.lines() {
        zipnum.extend_from_slice(&gzip(format!("{line}\n").as_bytes()));
    }
    for (name, bytes) in [
        ("indexes/index.cdx.gz", gzip(lines.as_bytes())),
        ("indexes/index.cdx.gz", zipnum),
    ] {
        let mut files = good_files().1;
        files[0] = Put(name, bytes, true);
        files.pop();
        files.push(Put("indexes/index.idx", b"!meta 0 {}\n".to_vec(), false));
        let (_path, wacz) = open_bytes(&zip_of(&files));
        let wacz = wacz.unwrap();
        assert_eq!(wacz.warnings(), [WaczWarning::NoDatapackage]);
        let hit = wacz.lookup(&url("https://example.com/b")).unwrap().unwrap();
        assert_eq!((hit.offset, hit.length), good.b_at);
    }
    // A classic CDX line is read too.
    let mut files = good_files().1;
    files[0] = Put(
        "indexes/index.cdx",
        format!(" CDX N b a m s k r M S V g\ncom,example)/b 20240101000001 https://example.com/b text/html 200 SHA1 - - {} {} b.warc.gz\n", good.b_at.1, good.b_at.0).into_bytes(),
        true,
    );
    files.pop();
    let (_path, wacz) = open_bytes(&zip_of(&files));
    let hit = wacz
        .unwrap()
        .lookup(&url("https://example.com/b"))
        .unwrap()
        .unwrap();
    assert_eq!(
        (hit.offset, hit.length, hit.status),
        (good.b_at.0, good.b_at.1, Some(200))
    );
}

#[test]
fn a_package_without_an_index_says_so_on_lookup() {
    let (_, mut files) = good_files();
    files.remove(0);
    files.pop();
    let (_path, wacz) = open_bytes(&zip_of(&files));
    let wacz = wacz.unwrap();
    assert!(wacz.warnings().contains(&WaczWarning::NoIndex));
    let err = wacz.lookup(&url("https://example.com/")).unwrap_err();
    assert!(err.to_string().contains("has no readable index"), "{err}");
}

#[test]
fn an_index_that_does_not_decompress_is_said_and_lookups_say_there_is_none() {
    let (_, mut files) = good_files();
    files[0] = Put("indexes/index.cdx.gz", b"not gzip at all\n".to_vec(), true);
    files.pop();
    let (_path, wacz) = open_bytes(&zip_of(&files));
    let wacz = wacz.unwrap();
    let said: Vec<String> = wacz.warnings().iter().map(ToString::to_string).collect();
    assert_eq!(said.len(), 2, "{said:?}");
    assert!(
        said[0].starts_with("indexes/index.cdx.gz cannot be read: "),
        "{said:?}"
    );
    assert!(matches!(
        wacz.lookup(&url("https://example.com/")),
        Err(WaczError::NoIndex { .. })
    ));
    // The package can still be shared between threads, as the window does.
    fn shared<T: Send + Sync>(_: &T) {}
    shared(&wacz);
}

#[test]
fn a_hash_that_does_not_match_is_a_warning_naming_the_file() {
    let (_, mut files) = good_files();
    // Pages changed after datapackage.json was written; a WARC's bytes too.
    files[3]
        .1
        .extend_from_slice(b"{\"url\": \"https://example.com/c\"}\n");
    files[2].1[0] = b'X';
    let mut with_missing = String::from_utf8(files[4].1.clone()).unwrap();
    with_missing = with_missing.replacen(
        "\"resources\": [",
        "\"resources\": [{\"path\": \"indexes/gone.cdxj\", \"hash\": \"sha256:00\"}, {\"path\": \"pages/md5.jsonl\", \"hash\": \"md5:00\"}, ",
        1,
    );
    files[4].1 = with_missing.into_bytes();
    files.push(Put("pages/md5.jsonl", Vec::new(), true));
    let (_path, wacz) = open_bytes(&zip_of(&files));
    let wacz = wacz.unwrap();
    let said: Vec<String> = wacz.warnings().iter().map(ToString::to_string).collect();
    assert_eq!(said.len(), 4, "{said:#?}");
    assert_eq!(
        said[0],
        "indexes/gone.cdxj: listed in datapackage.json but not in the package"
    );
    assert_eq!(
        said[1],
        "pages/md5.jsonl: its hash in datapackage.json (md5:00) is not a sha256, so it is not checked"
    );
    assert!(said[2].starts_with("pages/pages.jsonl: "), "{}", said[2]);
    assert!(
        said[3].starts_with("pages/pages.jsonl: its sha256 is "),
        "{}",
        said[3]
    );
    assert!(
        said[3].ends_with("the file was changed or is damaged"),
        "{}",
        said[3]
    );
    // The WARCs are checked when asked: the changed byte is found.
    let warcs = wacz.check_hashes(HashScope::Warcs);
    assert_eq!(warcs.len(), 1, "{warcs:?}");
    assert!(
        matches!(&warcs[0], WaczWarning::HashMismatch { file, .. } if file == "archive/a.warc")
    );
}

/// Writes an entry's bytes, and says how many.
type Fill<'a> = dyn FnMut(&mut dyn Write) -> u64 + 'a;

/// A ZIP written by hand of stored entries whose bytes are written by
/// `fill` straight to the file (no CRC: the reader checks none), for
/// entries too large to hold.
fn stored_zip_file(dir: &Path, entries: &mut [(&str, &mut Fill<'_>)]) -> PathBuf {
    let path = dir.join("big.wacz");
    let mut out = BufWriter::new(File::create(&path).unwrap());
    let mut at = 0u64;
    let mut central = Vec::new();
    for (name, fill) in entries.iter_mut() {
        let header_at = at;
        let mut local = Vec::new();
        local.extend_from_slice(b"PK\x03\x04");
        local.extend_from_slice(&[20, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
        local.extend_from_slice(&[0; 12]); // crc, sizes (the directory's count)
        local.extend_from_slice(&(name.len() as u16).to_le_bytes());
        local.extend_from_slice(&[0, 0]);
        local.extend_from_slice(name.as_bytes());
        out.write_all(&local).unwrap();
        let len = fill(&mut out);
        at += local.len() as u64 + len;
        central.extend_from_slice(b"PK\x01\x02");
        central.extend_from_slice(&[20, 0, 20, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
        central.extend_from_slice(&[0; 4]);
        central.extend_from_slice(&(len as u32).to_le_bytes());
        central.extend_from_slice(&(len as u32).to_le_bytes());
        central.extend_from_slice(&(name.len() as u16).to_le_bytes());
        central.extend_from_slice(&[0; 12]);
        central.extend_from_slice(&(header_at as u32).to_le_bytes());
        central.extend_from_slice(name.as_bytes());
    }
    out.write_all(&central).unwrap();
    let mut end = b"PK\x05\x06\0\0\0\0".to_vec();
    let count = (entries.len() as u16).to_le_bytes();
    end.extend_from_slice(&count);
    end.extend_from_slice(&count);
    end.extend_from_slice(&(central.len() as u32).to_le_bytes());
    end.extend_from_slice(&(at as u32).to_le_bytes());
    end.extend_from_slice(&[0, 0]);
    out.write_all(&end).unwrap();
    out.flush().unwrap();
    path
}

fn small_warc(out: &mut dyn Write) -> u64 {
    let bytes = response("https://example.com/", "x");
    out.write_all(&bytes).unwrap();
    bytes.len() as u64
}

#[test]
fn a_pages_line_of_100_mb_is_read_by_its_start_and_the_next_line_kept() {
    let dir = tempfile::tempdir().unwrap();
    let mut pages = |out: &mut dyn Write| {
        let head = b"{\"url\": \"https://example.com/long\", \"title\": \"Long\", \"text\": \"";
        let chunk = vec![b'x'; 1 << 20];
        out.write_all(head).unwrap();
        for _ in 0..100 {
            out.write_all(&chunk).unwrap();
        }
        let tail = b"\"}\n{\"url\": \"https://example.com/next\"}\n";
        out.write_all(tail).unwrap();
        (head.len() + 100 * chunk.len() + tail.len()) as u64
    };
    let path = stored_zip_file(
        dir.path(),
        &mut [
            ("archive/a.warc", &mut small_warc),
            ("pages/pages.jsonl", &mut pages),
        ],
    );
    let wacz = Wacz::open(&path).unwrap();
    let urls: Vec<_> = wacz.pages().iter().map(|p| p.url.as_str()).collect();
    assert_eq!(
        urls,
        ["https://example.com/long", "https://example.com/next"]
    );
    assert_eq!(wacz.pages()[0].title.as_deref(), Some("Long"));
    assert!(wacz.warnings().contains(&WaczWarning::LongLines {
        file: "pages/pages.jsonl".into(),
        count: 1,
        cap: pages::LINE_CAP
    }));
}

#[test]
fn ten_million_pages_lines_keep_the_first_pages_and_count_the_rest() {
    let dir = tempfile::tempdir().unwrap();
    const LINES: u64 = 10_000_000;
    let line = b"{\"url\":\"http://a.b/\"}\n";
    let mut pages = |out: &mut dyn Write| {
        let block = line.repeat(10_000);
        for _ in 0..LINES / 10_000 {
            out.write_all(&block).unwrap();
        }
        LINES * line.len() as u64
    };
    let path = stored_zip_file(
        dir.path(),
        &mut [
            ("archive/a.warc", &mut small_warc),
            ("pages/pages.jsonl", &mut pages),
        ],
    );
    let started = std::time::Instant::now();
    let wacz = Wacz::open(&path).unwrap();
    eprintln!("10 M pages lines opened in {:?}", started.elapsed());
    assert_eq!(wacz.pages().len(), MAX_PAGES);
    assert!(wacz.warnings().contains(&WaczWarning::OverCap {
        file: "pages/pages.jsonl".into(),
        what: "pages",
        count: LINES - MAX_PAGES as u64,
        cap: MAX_PAGES
    }));
}

#[test]
fn zip_first_bytes_are_told() {
    assert!(looks_like_zip(b"PK\x03\x04rest"));
    assert!(looks_like_zip(b"PK\x05\x06"));
    assert!(!looks_like_zip(b"WARC/1.1"));
    assert!(!looks_like_zip(b"\x1f\x8b"));
    assert!(!looks_like_zip(b"PK"));
}

/// PyPI `wacz` 0.6.0 (`.ci/run` installs it; `FOLLOW_INSPECTOR_WACZ`, else
/// the CI venv's), when present, packs a shelf capture; the package reads.
#[test]
fn a_package_written_by_py_wacz_reads() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let tool = std::env::var_os("FOLLOW_INSPECTOR_WACZ")
        .map(PathBuf::from)
        .unwrap_or_else(|| repo.join("target/ci-venv/bin/wacz"));
    let warc = repo.join("../shared/archives/pywb--iana.warc.gz");
    if !tool.is_file() || !warc.is_file() {
        eprintln!("skipped: no {} or no {}", tool.display(), warc.display());
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("iana.wacz");
    let status = std::process::Command::new(&tool)
        .args(["create", "--detect-pages", "-o"])
        .arg(&out)
        .arg(&warc)
        .output()
        .unwrap();
    assert!(
        status.status.success(),
        "{}",
        String::from_utf8_lossy(&status.stderr)
    );
    let wacz = Wacz::open(&out).unwrap();
    assert_eq!(wacz.warnings(), [] as [WaczWarning; 0]);
    let names: Vec<_> = wacz.warcs().iter().map(|w| w.name.as_str()).collect();
    assert_eq!(names, ["archive/pywb--iana.warc.gz"]);
    assert_eq!(wacz.pages().len(), 16);
    let first = &wacz.pages()[0];
    assert_eq!(first.url.as_str(), "http://www.iana.org/");
    let hit = wacz.lookup(&first.url).unwrap().unwrap();
    assert_eq!(
        (hit.warc.as_str(), hit.status, hit.revisit),
        ("archive/pywb--iana.warc.gz", Some(200), false)
    );
    let mut input = wacz.open_entry(&wacz.warcs()[0]).unwrap();
    input.seek(SeekFrom::Start(hit.offset)).unwrap();
    let mut text = String::new();
    GzDecoder::new((&mut input).take(hit.length))
        .take(4096)
        .read_to_string(&mut text)
        .unwrap();
    assert!(text.starts_with("WARC/1.0\r\n"), "{text}");
    assert!(text.contains("WARC-Type: response"), "{text}");
    assert!(
        text.contains("WARC-Target-URI: http://www.iana.org/"),
        "{text}"
    );
    assert_eq!(wacz.check_hashes(HashScope::Warcs), []);
    // Every page the package names is found through its index.
    for page in wacz.pages() {
        assert!(wacz.lookup(&page.url).unwrap().is_some(), "{}", page.url);
    }
    // With the pages' text (`-t`), from a plain WARC (stored as it is).
    let warc = repo.join("../shared/archives/py-wacz--example-iana.warc");
    let out = dir.path().join("text.wacz");
    let status = std::process::Command::new(&tool)
        .args(["create", "--detect-pages", "-t", "-o"])
        .arg(&out)
        .arg(&warc)
        .output()
        .unwrap();
    assert!(
        status.status.success(),
        "{}",
        String::from_utf8_lossy(&status.stderr)
    );
    let wacz = Wacz::open(&out).unwrap();
    assert_eq!(wacz.warnings(), [] as [WaczWarning; 0]);
    assert_eq!(wacz.warcs()[0].name, "archive/py-wacz--example-iana.warc");
    let first = &wacz.pages()[0];
    assert_eq!(
        (first.url.as_str(), first.title.as_deref()),
        ("https://example.com/", Some("Example Domain"))
    );
    for page in wacz.pages() {
        assert!(wacz.lookup(&page.url).unwrap().is_some(), "{}", page.url);
    }
    assert_eq!(wacz.check_hashes(HashScope::All), []);
}

/// The measure behind "a multi-GB crawl opens at once": a 1 GB package of
/// 100,000 captures (a 1 GB stored WARC, its 100,000-line CDXJ index and
/// 100,000 pages), opened and its last page's record read. Ignored (it
/// writes 1 GB); run with `cargo test --lib wacz::tests::a_1_gb -- --ignored
/// --nocapture`.
#[test]
#[ignore]
fn a_1_gb_package_opens_at_once() {
    const RECORDS: usize = 100_000;
    let dir = tempfile::tempdir().unwrap();
    let body = "x".repeat(10_000);
    let record_of = |n: usize| response(&format!("https://example.com/p{n}"), &body);
    let (mut index, mut pages, mut offset) = (Vec::new(), Vec::new(), 0u64);
    for n in 0..RECORDS {
        let u = format!("https://example.com/p{n}");
        let length = record_of(n).len() as u64;
        let line = cdxj(
            &u,
            "20240101000000",
            "200",
            "text/html",
            offset,
            length,
            "big.warc",
        );
        index.extend_from_slice(line.as_bytes());
        pages.extend_from_slice(format!("{{\"url\": \"{u}\"}}\n").as_bytes());
        offset += length;
    }
    let mut warc = |out: &mut dyn Write| {
        let mut len = 0u64;
        for n in 0..RECORDS {
            let bytes = record_of(n);
            out.write_all(&bytes).unwrap();
            len += bytes.len() as u64;
        }
        len
    };
    let mut write_index = |out: &mut dyn Write| {
        out.write_all(&index).unwrap();
        index.len() as u64
    };
    let mut write_pages = |out: &mut dyn Write| {
        out.write_all(&pages).unwrap();
        pages.len() as u64
    };
    // As py-wacz writes it: the small files' hashes, checked when opening.
    let datapackage = format!(
        "{{\"resources\": [{{\"path\": \"indexes/index.cdxj\", \"hash\": \"sha256:{}\"}}, {{\"path\": \"pages/pages.jsonl\", \"hash\": \"sha256:{}\"}}]}}",
        sha256_hex(&index),
        sha256_hex(&pages)
    );
    let mut write_datapackage = |out: &mut dyn Write| {
        out.write_all(datapackage.as_bytes()).unwrap();
        datapackage.len() as u64
    };
    let path = stored_zip_file(
        dir.path(),
        &mut [
            ("archive/big.warc", &mut warc),
            ("datapackage.json", &mut write_datapackage),
            ("indexes/index.cdxj", &mut write_index),
            ("pages/pages.jsonl", &mut write_pages),
        ],
    );
    let size = std::fs::metadata(&path).unwrap().len();
    let started = std::time::Instant::now();
    let wacz = Wacz::open(&path).unwrap();
    let opened = started.elapsed();
    let last = wacz.pages().last().unwrap().url.clone();
    let hit = wacz.lookup(&last).unwrap().unwrap();
    let mut input = wacz.open_entry(wacz.entry(&hit.warc).unwrap()).unwrap();
    input.seek(SeekFrom::Start(hit.offset)).unwrap();
    let mut head = [0u8; 8];
    input.read_exact(&mut head).unwrap();
    let found = started.elapsed();
    assert_eq!(&head, b"WARC/1.1");
    assert_eq!(wacz.pages().len(), RECORDS);
    assert_eq!(wacz.warnings(), [] as [WaczWarning; 0]);
    eprintln!("{size} bytes: opened in {opened:?}, the last page's record read at {found:?}");
}
