//! The stages of reading a page, over real homepages rather than generated
//! ones: the 80 pages of `../shared/corpus` and the 185 of
//! `../shared/homepages` (third-party test data, read by path; the bench
//! skips itself when they are absent). Each stage is timed over every page,
//! so a figure is time per 265 real pages: decoding (charset choice and
//! decode), finding the anchors (by the fast path where it can, and by
//! html5ever's tree alone), and the whole read + decide that a corpus run
//! does per page.
//!
//! `cargo bench --bench real_pages`; `scripts/bench-cc` runs the whole
//! command over a Common-Crawl-shaped archive of the same pages.

use std::hint::black_box;
use std::path::Path;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use follow_inspector::inspect::{Inspection, Limits, read_page};
use follow_inspector::page;
use follow_inspector::policy::{CompiledSettings, Settings};
use url::Url;

/// Every real page with the URL it was saved from.
fn real_pages() -> Vec<(Vec<u8>, Url)> {
    let shared = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared");
    let mut pages = Vec::new();
    for set in ["corpus", "homepages"] {
        let Ok(manifest) = std::fs::read_to_string(shared.join(set).join("manifest.tsv")) else {
            continue;
        };
        for line in manifest.lines().skip(1) {
            let mut cols = line.split('\t');
            let (Some(id), Some(url)) = (cols.next(), cols.next()) else {
                continue;
            };
            let path = shared.join(set).join("pages").join(format!("{id}.html"));
            if let (Ok(bytes), Ok(url)) = (std::fs::read(&path), Url::parse(url)) {
                pages.push((bytes, url));
            }
        }
    }
    pages
}

fn tld(url: &Url) -> Option<&[u8]> {
    url.host_str()
        .and_then(|h| h.rsplit('.').next())
        .map(str::as_bytes)
}

fn stages(c: &mut Criterion) {
    let pages = real_pages();
    if pages.is_empty() {
        eprintln!("skipped: ../shared/corpus and ../shared/homepages are absent");
        return;
    }
    let texts: Vec<String> = pages
        .iter()
        .map(|(bytes, url)| page::decode(bytes, None, tld(url)).text.into_owned())
        .collect();
    let settings = CompiledSettings::new(Settings::default());
    let mut group = c.benchmark_group(format!("real_pages/{}", pages.len()));
    group.sample_size(10);
    group.throughput(Throughput::Elements(pages.len() as u64));
    group.bench_function("decode", |b| {
        b.iter(|| {
            pages
                .iter()
                .map(|(bytes, url)| page::decode(black_box(bytes), None, tld(url)).text.len())
                .sum::<usize>()
        })
    });
    group.bench_function("parse", |b| {
        b.iter(|| {
            texts
                .iter()
                .map(|text| page::parse(black_box(text)).candidates.len())
                .sum::<usize>()
        })
    });
    // The same pass by html5ever alone: what the fast path (`page/fast.rs`)
    // saves on the pages it reads.
    group.bench_function("parse_with_html5ever", |b| {
        b.iter(|| {
            texts
                .iter()
                .map(|text| page::parse_with_html5ever(black_box(text)).candidates.len())
                .sum::<usize>()
        })
    });
    group.bench_function("read_and_decide", |b| {
        b.iter(|| {
            pages
                .iter()
                .map(|(bytes, url)| {
                    let read = read_page(black_box(bytes), None, url);
                    let inspection = Inspection::single_page(
                        read,
                        url.clone(),
                        Limits::of_depth(2),
                        settings.clone(),
                    );
                    inspection.pages[0].decision.links.len()
                })
                .sum::<usize>()
        })
    });
    group.finish();
}

criterion_group!(real_pages_bench, stages);
criterion_main!(real_pages_bench);
