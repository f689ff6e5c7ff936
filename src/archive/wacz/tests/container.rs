//! The package's ZIP: entries listed and read in place, and directories, names and entries that lie.

use super::*;

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
/// At the best level: zlib-rs's fast level makes 10 KB of a MiB of zeros.
fn zeros_deflated(mib: usize) -> Vec<u8> {
    use flate2::{Compress, FlushCompress};
    let piece = |input: &[u8], flush| {
        let mut c = Compress::new(Compression::best(), false);
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
fn zip_first_bytes_are_told() {
    assert!(looks_like_zip(b"PK\x03\x04rest"));
    assert!(looks_like_zip(b"PK\x05\x06"));
    assert!(!looks_like_zip(b"WARC/1.1"));
    assert!(!looks_like_zip(b"\x1f\x8b"));
    assert!(!looks_like_zip(b"PK"));
}
