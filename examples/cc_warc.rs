//! Makes a WARC shaped like Common Crawl's for the corpus benchmark (README,
//! "Performance"): one gzip member per record, a `warcinfo`, then `request`,
//! `response` and `metadata` for each page, ~60 KB HTML pages with links as
//! a company home page has them; and the same pages as a folder of `.html`
//! files (each naming its URL with `<link rel=canonical>`).
//!
//! `cargo run --release --example cc_warc -- OUT.warc.gz PAGES_DIR [RECORDS]`

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

fn main() -> std::io::Result<()> {
    let args: Vec<String> = std::env::args().collect();
    let (Some(out), Some(dir)) = (args.get(1), args.get(2)) else {
        eprintln!("usage: cc_warc OUT.warc.gz PAGES_DIR [RECORDS]");
        std::process::exit(2);
    };
    let records: usize = args.get(3).and_then(|n| n.parse().ok()).unwrap_or(10_000);
    std::fs::create_dir_all(dir)?;
    let mut file = BufWriter::new(File::create(out)?);
    let mut member = |bytes: &[u8]| -> std::io::Result<()> {
        let mut gz = GzEncoder::new(Vec::new(), Compression::default());
        gz.write_all(bytes)?;
        file.write_all(&gz.finish()?)
    };
    let date = "2024-05-01T12:00:00Z";
    member(&record(
        "warcinfo",
        "urn:cc-bench",
        date,
        "Content-Type: application/warc-fields\r\n",
        b"software: cc_warc\r\nformat: WARC File Format 1.0\r\n",
    ))?;
    for i in 0..(records - 1) / 3 {
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
        let http = "Content-Type: application/http; msgtype=request\r\n";
        member(&record("request", &url, date, http, request.as_bytes()))?;
        let http = "Content-Type: application/http; msgtype=response\r\n";
        member(&record("response", &url, date, http, response.as_bytes()))?;
        let meta = format!(
            "fetchTimeMs: {}\r\ncharset-detected: UTF-8\r\n",
            100 + i % 400
        );
        let fields = "Content-Type: application/warc-fields\r\n";
        member(&record("metadata", &url, date, fields, meta.as_bytes()))?;
        std::fs::write(Path::new(dir).join(format!("{i:05}.html")), html)?;
    }
    file.flush()
}
