//! Past one page: a 4-page depth-2 crawl against a local server that answers
//! every request after 300 ms, and `corpus` over 1,000 generated pages with
//! one and with two jobs (pages per second).

use std::fmt::Write as _;
use std::io::{BufRead as _, BufReader, Write as _};
use std::net::TcpListener;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use follow_inspector::corpus;
use follow_inspector::crawl::{CrawlRequest, crawl};
use follow_inspector::fetch::{FetchOptions, HttpFetcher, Resolve};
use follow_inspector::inspect::Limits;
use follow_inspector::policy::Settings;
use url::Url;

const LATENCY: Duration = Duration::from_millis(300);

/// Serves `acme.test`: the start page links to three followed pages (and
/// to pages that are not followed); every answer comes after `LATENCY`.
fn slow_site() -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1");
    let port = listener.local_addr().expect("local address").port();
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            std::thread::spawn(move || {
                let mut reader = BufReader::new(&stream);
                let mut request_line = String::new();
                if reader.read_line(&mut request_line).is_err() {
                    return;
                }
                // The rest of the request head.
                let mut line = String::new();
                while reader.read_line(&mut line).is_ok_and(|n| n > 2) {
                    line.clear();
                }
                std::thread::sleep(LATENCY);
                let body = if request_line.starts_with("GET / ") {
                    "<a href=/contact>Contact</a><a href=/about>About</a><a href=/team>Team</a>\
                     <a href=/blog>Blog</a><a href=/impressum>Impressum</a>"
                } else {
                    "<a href=/>Home</a>"
                };
                let mut stream = &stream;
                let _ = write!(
                    stream,
                    "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: {}\r\n\
                     Connection: close\r\n\r\n{body}",
                    body.len()
                );
            });
        }
    });
    port
}

fn crawl_with_latency(c: &mut Criterion) {
    let port = slow_site();
    let resolve = Resolve {
        host: "acme.test".into(),
        addr: ([127, 0, 0, 1], port).into(),
    };
    let opts = FetchOptions {
        resolve: vec![resolve],
        ..FetchOptions::default()
    };
    let fetcher = HttpFetcher::new(opts).expect("an HTTP client");
    let request = CrawlRequest {
        start_url: Url::parse(&format!("http://acme.test:{port}/")).expect("valid URL"),
        limits: Limits::of_depth(2),
        settings: Settings::default(),
        parallelism: follow_inspector::crawl::DEFAULT_PARALLELISM,
    };
    let cancel = AtomicBool::new(false);
    let mut group = c.benchmark_group("crawl");
    group.sample_size(10);
    group.bench_function("depth_2_four_pages_300ms_latency", |b| {
        b.iter(|| {
            let inspection = crawl(&fetcher, &request, &cancel, &|_| {}).expect("the crawl");
            assert_eq!(inspection.pages.len(), 4);
        })
    });
    group.finish();
}

/// A company home page of about 60 KB: 200 links of every kind, a nav, a
/// footer and text around them, varied by `seed`.
fn company_page(seed: usize) -> String {
    let words = [
        "contact",
        "about",
        "team",
        "impressum",
        "company",
        "blog",
        "news",
        "product",
        "heritage",
        "services",
        "careers",
        "kontakt",
        "login",
        "pricing",
    ];
    let hosts = [
        "",
        "",
        "",
        "https://shop.acme-{s}.com",
        "https://www.facebook.com",
    ];
    let mut html = format!(
        "<!doctype html><html><head><meta charset=utf-8>\
         <link rel=canonical href=\"https://www.acme-{seed}.com/\"></head><body><nav>"
    );
    for i in 0..200 {
        let word = words[(i * 7 + seed) % words.len()];
        let host = hosts[(i + seed) % hosts.len()].replace("{s}", &seed.to_string());
        if i == 20 {
            html.push_str("</nav><main>");
        }
        if i == 180 {
            html.push_str("</main><footer>");
        }
        let _ = writeln!(
            html,
            "<div class=item><p>Lorem ipsum dolor sit amet, consectetur adipiscing elit, \
             sed do eiusmod tempor incididunt ut labore et dolore magna aliqua. Ut enim ad \
             minim veniam, quis nostrud exercitation.</p>\
             <a href=\"{host}/en/{word}-{i}\">{word} {i}</a></div>"
        );
    }
    html.push_str("</footer></body></html>");
    html
}

fn corpus_folder(pages: usize) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("follow-inspector-bench-corpus-{pages}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    for i in 0..pages {
        std::fs::write(dir.join(format!("{i:04}.html")), company_page(i)).expect("a page");
    }
    dir
}

fn corpus_run(c: &mut Criterion) {
    let dir = corpus_folder(1000);
    let pages = corpus::list_pages(&dir).expect("the generated corpus");
    let a = Settings::default();
    let b = Settings {
        follow_keywords_black: "blog,news,login,cart,checkout,product,/p/,category,archive,shop"
            .into(),
        ..Settings::default()
    };
    let cancel = AtomicBool::new(false);
    let mut group = c.benchmark_group("corpus");
    group.sample_size(10);
    group.throughput(Throughput::Elements(pages.len() as u64));
    for jobs in [1, 2] {
        group.bench_function(format!("1000_pages_two_profiles_{jobs}_jobs"), |bench| {
            bench.iter(|| {
                let run = corpus::run(&pages, &a, Some(&b), 2, jobs, &cancel, &|_| {});
                assert_eq!(run.pages.len(), 1000);
            })
        });
    }
    group.finish();
}

criterion_group!(crawl_corpus, crawl_with_latency, corpus_run);
criterion_main!(crawl_corpus);
