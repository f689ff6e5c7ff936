//! Makes a WARC shaped like Common Crawl's for the corpus benchmark
//! (docs/performance.md): one gzip member per record, a `warcinfo`, then `request`,
//! `response` and `metadata` for each page, ~60 KB HTML pages with links as
//! a company home page has them; and the same pages as a folder of `.html`
//! files (each naming its URL with `<link rel=canonical>`).
//!
//! With PIECES, the same records are also written split in that many archives
//! beside OUT (`OUT-1-of-N.warc.gz` …, each with the `warcinfo`, the pages in
//! runs of about equal length), for a sharded run (`scripts/spark-corpus`),
//! whose unit is a whole archive.
//!
//! `cargo run --release --example cc_warc -- OUT.warc.gz PAGES_DIR [RECORDS [PIECES]]`

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;

use flate2::Compression;
use flate2::write::GzEncoder;

const WORDS: [&str; 16] = [
    "solutions",
    "industrial",
    "quality",
    "service",
    "partner",
    "engineering",
    "global",
    "customer",
    "innovation",
    "product",
    "support",
    "design",
    "energy",
    "systems",
    "market",
    "future",
];
const SECTIONS: [&str; 8] = [
    "about", "team", "careers", "news", "blog", "products", "services", "press",
];

fn record(kind: &str, uri: &str, date: &str, extra: &str, block: &[u8]) -> Vec<u8> {
    let mut out = format!(
        "WARC/1.0\r\nWARC-Type: {kind}\r\nWARC-Date: {date}\r\n\
         WARC-Record-ID: <urn:uuid:{:032x}>\r\nWARC-Target-URI: {uri}\r\n{extra}\
         Content-Length: {}\r\n\r\n",
        fxhash(uri.as_bytes()) ^ fxhash(kind.as_bytes()),
        block.len()
    )
    .into_bytes();
    out.extend_from_slice(block);
    out.extend_from_slice(b"\r\n\r\n");
    out
}

fn fxhash(bytes: &[u8]) -> u128 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325u128, |h, b| {
        (h ^ u128::from(*b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// A home page of about 60 KB: navigation, many article links with text,
/// off-domain links, a footer with contact and legal pages.
fn page(i: usize, url: &str) -> String {
    let mut html = format!(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">\
         <title>Company {i} – {}</title><link rel=\"canonical\" href=\"{url}\">\
         <meta name=\"description\" content=\"{} {} {}\"></head><body><header><nav>",
        WORDS[i % 16],
        WORDS[(i + 3) % 16],
        WORDS[(i + 5) % 16],
        WORDS[(i + 7) % 16]
    );
    for s in SECTIONS {
        html.push_str(&format!("<a href=\"/{s}/\">{s}</a> "));
    }
    html.push_str("</nav></header><main>");
    let mut n = 0;
    while html.len() < 58_000 {
        let w = WORDS[(i + n) % 16];
        let v = WORDS[(i * 7 + n * 3) % 16];
        html.push_str(&format!(
            "<article><h2><a href=\"/{}/{w}-{v}-{n}\">The {w} {v} story {n}</a></h2>\
             <p>Our {w} teams deliver {v} for every customer, with care for {} and {}; \
             read how we work across {} markets.</p></article>",
            SECTIONS[n % 8],
            WORDS[(n + 1) % 16],
            WORDS[(n + 2) % 16],
            WORDS[(n + 9) % 16],
        ));
        if n % 25 == 0 {
            html.push_str(&format!(
                "<a href=\"https://partner{}.example/\">Partner {n}</a>",
                n % 7
            ));
        }
        n += 1;
    }
    html.push_str(
        "</main><footer><a href=\"/contact\">Contact</a> <a href=\"/impressum\">Impressum</a> \
         <a href=\"/privacy\">Privacy</a> <a href=\"https://www.linkedin.com/company/x\">\
         LinkedIn</a></footer></body></html>",
    );
    html
}

/// `bytes` as one gzip member.
fn gzip_member(bytes: &[u8]) -> std::io::Result<Vec<u8>> {
    let mut gz = GzEncoder::new(Vec::new(), Compression::default());
    gz.write_all(bytes)?;
    gz.finish()
}

/// `OUT-K-of-N.warc.gz` for `OUT.warc.gz`.
fn piece_path(out: &str, k: usize, n: usize) -> String {
    let stem = out.strip_suffix(".warc.gz").unwrap_or(out);
    format!("{stem}-{k}-of-{n}.warc.gz")
}

fn main() -> std::io::Result<()> {
    let args: Vec<String> = std::env::args().collect();
    let (Some(out), Some(dir)) = (args.get(1), args.get(2)) else {
        eprintln!("usage: cc_warc OUT.warc.gz PAGES_DIR [RECORDS [PIECES]]");
        std::process::exit(2);
    };
    let records: usize = args.get(3).and_then(|n| n.parse().ok()).unwrap_or(10_000);
    let piece_count: usize = args.get(4).and_then(|n| n.parse().ok()).unwrap_or(0);
    std::fs::create_dir_all(dir)?;
    let mut file = BufWriter::new(File::create(out)?);
    let mut pieces = (1..=piece_count)
        .map(|k| File::create(piece_path(out, k, piece_count)).map(BufWriter::new))
        .collect::<std::io::Result<Vec<_>>>()?;
    let date = "2024-05-01T12:00:00Z";
    let info = gzip_member(&record(
        "warcinfo",
        "urn:cc-bench",
        date,
        "Content-Type: application/warc-fields\r\n",
        b"software: cc_warc\r\nformat: WARC File Format 1.0\r\n",
    ))?;
    file.write_all(&info)?;
    for piece in &mut pieces {
        piece.write_all(&info)?;
    }
    let page_count = (records - 1) / 3;
    for i in 0..page_count {
        let host = format!("www.company{i}.example");
        let url = format!("https://{host}/");
        let html = page(i, &url);
        let request = format!(
            "GET / HTTP/1.1\r\nHost: {host}\r\nUser-Agent: CCBot/2.0\r\nAccept: text/html\r\n\r\n"
        );
        let response = format!(
            "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n\
             X-Crawler-Content-Length: {0}\r\nContent-Length: {0}\r\n\r\n{html}",
            html.len()
        );
        let meta = format!(
            "fetchTimeMs: {}\r\ncharset-detected: UTF-8\r\n",
            100 + i % 400
        );
        let request_http = "Content-Type: application/http; msgtype=request\r\n";
        let response_http = "Content-Type: application/http; msgtype=response\r\n";
        let fields = "Content-Type: application/warc-fields\r\n";
        let members = [
            record("request", &url, date, request_http, request.as_bytes()),
            record("response", &url, date, response_http, response.as_bytes()),
            record("metadata", &url, date, fields, meta.as_bytes()),
        ];
        for bytes in members {
            let member = gzip_member(&bytes)?;
            file.write_all(&member)?;
            if let Some(piece) = pieces.get_mut(i * piece_count / page_count.max(1)) {
                piece.write_all(&member)?;
            }
        }
        std::fs::write(Path::new(dir).join(format!("{i:05}.html")), html)?;
    }
    for piece in &mut pieces {
        piece.flush()?;
    }
    file.flush()
}
