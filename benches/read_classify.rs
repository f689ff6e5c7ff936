//! Read + classify: decode, parse and decide every link of a page.

use std::fmt::Write as _;
use std::hint::black_box;
use std::path::Path;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use follow_inspector::inspect::{Inspection, Limits, read_page};
use follow_inspector::policy::Settings;
use url::Url;

fn read_and_classify(bytes: &[u8], page_url: &Url) -> usize {
    let read = read_page(bytes, None, page_url);
    let inspection = Inspection::single_page(
        read,
        page_url.clone(),
        Limits::of_depth(3),
        Settings::default(),
    );
    inspection.pages[0].decision.links.len()
}

/// A 2 MB page with 10,000 links of every kind.
fn generated_page() -> String {
    let mut html = String::from("<!DOCTYPE html><html><head><meta charset=utf-8></head><body>");
    let kinds = [
        "/about/team-{i}",
        "/blog/post-{i}",
        "https://shop.acme.test/p/{i}",
        "/files/brochure-{i}.pdf",
        "/products/item-{i}?ref=home",
        "/kontakt/{i}",
        "mailto:user{i}@acme.test",
        "/%E8%81%94%E7%B3%BB/{i}",
    ];
    let filler = "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor. ";
    for i in 0..10_000 {
        let href = kinds[i % kinds.len()].replace("{i}", &i.to_string());
        let _ = writeln!(
            html,
            "<div class=item><p>{filler}{filler}</p><a href=\"{href}\">Link number {i}</a></div>"
        );
    }
    html.push_str("</body></html>");
    html
}

/// The page `../shared/bench/vs-scrapy` measures: `genpage.py`'s
/// deterministic page of `n` links (written to /tmp as the script does).
fn vs_scrapy_page(n: usize) -> Option<Vec<u8>> {
    let path = std::env::temp_dir().join(format!("follow-bench-{n}.html"));
    if !path.exists() {
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/bench/genpage.py");
        let made = std::process::Command::new("python3")
            .arg(&script)
            .arg(&path)
            .arg(n.to_string())
            .status();
        if !made.is_ok_and(|s| s.success()) {
            eprintln!("skipped the {n}-link page: cannot run {}", script.display());
            return None;
        }
    }
    std::fs::read(&path).ok()
}

/// The physical limit: touching every byte of the page once.
fn scan_bytes(bytes: &[u8]) -> usize {
    bytes.iter().filter(|&&b| b == b'<').count()
}

/// Read + classify `bytes` at `url`, with the raw byte scan beside it.
fn page_pair(c: &mut Criterion, name: &str, bytes: &[u8], url: &Url) {
    let mut group = c.benchmark_group(format!("read_classify/{name}"));
    group.sample_size(20);
    group.throughput(Throughput::Bytes(bytes.len() as u64));
    group.bench_function("read_and_classify", |b| {
        b.iter(|| read_and_classify(black_box(bytes), url))
    });
    group.bench_function("scan_bytes_once", |b| {
        b.iter(|| scan_bytes(black_box(bytes)))
    });
    group.finish();
}

fn vs_scrapy_pages(c: &mut Criterion) {
    let url = Url::parse("https://www.acme.com/").expect("valid URL");
    for n in [10_000, 50_000] {
        let Some(bytes) = vs_scrapy_page(n) else {
            continue;
        };
        page_pair(c, &format!("vs_scrapy_{n}_links"), &bytes, &url);
        if n == 50_000 {
            // A settings edit in the window with this page open.
            let read = read_page(&bytes, None, &url);
            let mut inspection = Inspection::single_page(
                read,
                url.clone(),
                Limits::of_depth(2),
                Settings::default(),
            );
            let mut group = c.benchmark_group("reclassify");
            group.sample_size(20);
            group.bench_function("vs_scrapy_50000_links", |b| {
                b.iter(|| inspection.reclassify())
            });
            group.finish();
        }
    }
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/pages/013.html");
    if let Ok(bytes) = std::fs::read(&corpus) {
        let url = Url::parse("https://www.xing.com/").expect("valid URL");
        page_pair(c, "corpus_013_largest", &bytes, &url);
    }
}

fn benches(c: &mut Criterion) {
    let page_url = Url::parse("https://acme.test/").expect("valid URL");
    let generated = generated_page();
    let mut group = c.benchmark_group("read_classify");
    group.sample_size(20);
    group.throughput(Throughput::Bytes(generated.len() as u64));
    group.bench_function("generated_10k_links", |b| {
        b.iter(|| read_and_classify(black_box(generated.as_bytes()), &page_url))
    });

    // What a settings edit costs in the window: deciding every link again.
    let read = read_page(generated.as_bytes(), None, &page_url);
    let mut inspection = Inspection::single_page(
        read,
        page_url.clone(),
        Limits::of_depth(3),
        Settings::default(),
    );
    group.bench_function("reclassify_10k_links", |b| {
        b.iter(|| inspection.reclassify())
    });

    group.finish();
}

criterion_group!(read_classify, benches, vs_scrapy_pages);
criterion_main!(read_classify);
