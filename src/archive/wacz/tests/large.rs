//! Inputs too large to hold: a 100 MB pages line, ten million lines, a 1 GB package.

use super::*;

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

/// The measure behind "a multi-GB crawl opens at once": a 1 GB package of
/// 100,000 captures (a 1 GB stored WARC, its 100,000-line CDXJ index and
/// 100,000 pages), opened and its last page's record read. Ignored (it
/// writes 1 GB); run with `cargo test --lib wacz::tests::large::a_1_gb -- --ignored
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
