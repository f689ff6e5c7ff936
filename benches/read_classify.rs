//! Read + classify: decode, parse and decide every link of a page.

use std::fmt::Write as _;
use std::hint::black_box;
use std::path::Path;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use follow_inspector::inspect::{Inspection, read_page};
use follow_inspector::policy::Settings;
use url::Url;

fn read_and_classify(bytes: &[u8], page_url: &Url) -> usize {
    let read = read_page(bytes, None, page_url);
    let inspection = Inspection::single_page(read, page_url.clone(), 3, None, Settings::default());
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
    let mut inspection =
        Inspection::single_page(read, page_url.clone(), 3, None, Settings::default());
    group.bench_function("reclassify_10k_links", |b| {
        b.iter(|| inspection.reclassify())
    });

    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/pages/013.html");
    match std::fs::read(&corpus) {
        Ok(bytes) => {
            let url = Url::parse("https://www.xing.com/").expect("valid URL");
            group.throughput(Throughput::Bytes(bytes.len() as u64));
            group.bench_function("corpus_013_largest", |b| {
                b.iter(|| read_and_classify(black_box(&bytes), &url))
            });
        }
        Err(e) => eprintln!("skipped corpus_013_largest: {} ({e})", corpus.display()),
    }
    group.finish();
}

criterion_group!(read_classify, benches);
criterion_main!(read_classify);
