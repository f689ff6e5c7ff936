//! `inspect URL`: fetching and the depth crawl against a local multi-host site.

use std::collections::HashMap;
use std::io::Write as _;
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::server::{Route, Server};
use crate::{lint_codes, run, stderr, stdout};

pub const HOSTS: [&str; 5] = [
    "acme.test",
    "www.acme.test",
    "shop.acme.test",
    "acmecorp.test",
    "facebook.test",
];

fn page(links: &[(&str, &str)]) -> String {
    let anchors: String = links
        .iter()
        .map(|(href, text)| format!("<a href=\"{href}\">{text}</a>\n"))
        .collect();
    format!("<!DOCTYPE html><html><head><title>t</title></head><body>{anchors}</body></html>")
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    enc.write_all(bytes).unwrap();
    enc.finish().unwrap()
}

/// The fixture site; `{P}` in links is the server's port.
pub fn site(port: u16) -> HashMap<String, Route> {
    let www = format!("http://www.acme.test:{port}");
    let p = |s: &str| s.replace("{P}", &port.to_string());
    let mut r = HashMap::new();
    let mut add = |key: &str, route: Route| {
        r.insert(key.to_owned(), route);
    };
    add("acme.test/", Route::redirect(301, &format!("{www}/")));
    add(
        "www.acme.test/",
        Route::html(&p(&page(&[
            ("/", "Home"),
            ("/contact", "Contact"),
            ("/about", "About us"),
            ("http://acmecorp.test:{P}/about", "About ACME Corp"),
            ("/team", "Team"),
            ("/company/brochure", "Company brochure"),
            ("/impressum", "Impressum"),
            ("/blog/", "Blog"),
            ("http://shop.acme.test:{P}/contact", "Shop contact"),
            ("http://facebook.test:{P}/acme", "Facebook"),
            ("/kontakt", "Kontakt"),
        ]))),
    );
    add(
        "www.acme.test/contact",
        Route::html(&page(&[
            ("/", "Home"),
            ("/about", "About"),
            ("/contact/form", "Contact form"),
        ])),
    );
    add(
        "www.acme.test/about",
        Route::html(&page(&[
            ("/about/history", "History"),
            ("/team", "Team"),
            ("/contact", "Contact"),
        ])),
    );
    add(
        "www.acme.test/team",
        Route::html(&page(&[
            ("/careers/jobs", "Jobs"),
            ("/contact/form", "Contact form"),
        ])),
    );
    add(
        "www.acme.test/impressum",
        Route::html(&page(&[("/impressum/privacy", "Impressum: privacy")])),
    );
    add(
        "www.acme.test/company/brochure",
        Route::html("")
            .header("Content-Type", "application/pdf")
            .bytes(b"%PDF-1.4".to_vec()),
    );
    add(
        "www.acme.test/kontakt",
        Route::html(&page(&[("/kontakt/form", "Kontaktformular")])).status(500),
    );
    add(
        "www.acme.test/contact/form",
        Route::html(&page(&[("/", "Home")])),
    );
    add("www.acme.test/about/history", Route::html(&page(&[])));
    add("www.acme.test/impressum/privacy", Route::html(&page(&[])));
    add(
        "acmecorp.test/about",
        Route::html(&p(&page(&[
            ("/contact", "Contact ACME Corp"),
            ("http://www.acme.test:{P}/", "ACME"),
        ]))),
    );
    add("acmecorp.test/contact", Route::html(&page(&[])));

    // Wire-level cases.
    let gbk_page = page(&[("/lianxi", "联系我们")]);
    let (gbk, _, _) = encoding_rs::GBK.encode(&gbk_page);
    add(
        "www.acme.test/gbk",
        Route::html("")
            .header("Content-Type", "text/html; charset=GBK")
            .bytes(gbk.into_owned()),
    );
    add(
        "www.acme.test/gzip",
        Route::html("")
            .header("Content-Encoding", "gzip")
            .bytes(gzip(page(&[("/contact", "Contact")]).as_bytes())),
    );
    let mut big = page(&[("/contact", "Contact")]).into_bytes();
    big.truncate(big.len() - "</body></html>".len());
    big.extend(std::iter::repeat_n(b'x', 3_000_000));
    big.extend_from_slice(b"<a href=\"/about\">About (after the cut)</a></body></html>");
    add("www.acme.test/big", Route::html("").bytes(big));
    add(
        "www.acme.test/slow",
        Route::html(&page(&[])).delay(Duration::from_secs(4)),
    );
    add("www.acme.test/loop-a", Route::redirect(302, "/loop-b"));
    add("www.acme.test/loop-b", Route::redirect(302, "/loop-a"));
    for i in 0..12 {
        add(
            &format!("www.acme.test/r/{i}"),
            Route::redirect(307, &format!("/r/{}", i + 1)),
        );
    }
    add(
        "www.acme.test/catalog.html",
        Route::html("")
            .header("Content-Type", "application/pdf")
            .bytes(b"%PDF-1.7".to_vec()),
    );
    r
}

fn server() -> Server {
    Server::start(site, Duration::ZERO)
}

fn inspect(server: &Server, target: &str, extra: &[&str]) -> std::process::Output {
    let url = target.replace("{P}", &server.port.to_string());
    let mut args: Vec<String> = vec!["inspect".into(), url];
    args.extend(server.resolve_args(&HOSTS));
    args.extend(extra.iter().map(|s| s.to_string()));
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    run(&refs)
}

fn inspect_json(server: &Server, target: &str, extra: &[&str]) -> Value {
    let mut all = extra.to_vec();
    all.extend(["--format", "json"]);
    let out = inspect(server, target, &all);
    assert!(out.status.success(), "{target}: {}", stderr(&out));
    serde_json::from_str(&stdout(&out)).unwrap()
}

fn pages(report: &Value) -> Vec<(String, u64, Option<u64>)> {
    report["pages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            let url = p["url"].as_str().unwrap();
            let path = url.split_once(".test:").map_or(url, |(_, rest)| rest);
            let path = path.split_once('/').map_or("", |(_, p)| p);
            let host = url.trim_start_matches("http://").split(':').next().unwrap();
            (
                format!("{host}/{path}"),
                p["level"].as_u64().unwrap(),
                p["status"].as_u64(),
            )
        })
        .collect()
}

#[test]
fn apex_redirects_to_www_and_the_lint_fires() {
    let s = server();
    let r = inspect_json(&s, "http://acme.test:{P}/", &["--depth", "1"]);
    let www = format!("http://www.acme.test:{}/", s.port);
    assert_eq!(r["start_url"], format!("http://acme.test:{}/", s.port));
    assert_eq!(r["final_url"], www);
    assert_eq!(r["pages"][0]["url"], www);
    assert_eq!(r["pages"][0]["status"], 200);
    let redirects = &r["pages"][0]["redirects"];
    assert_eq!(redirects[0]["status"], 301);
    assert_eq!(redirects[0]["url"], format!("http://acme.test:{}/", s.port));
    assert_eq!(lint_codes(&r), ["redirected_host"]);
    // Strict mode compares against the final host: www links are same-site
    // (ranked out only because depth 1 follows nothing).
    let contact = &r["pages"][0]["links"][1];
    assert_eq!(contact["verdict"], "ranked_out");
    assert_eq!(r["pages"][0]["links"][0]["verdict"], "self");
}

#[test]
fn depth_2_fetches_the_three_followed_pages() {
    let s = server();
    let r = inspect_json(&s, "http://www.acme.test:{P}/", &["--depth", "2"]);
    assert_eq!(
        pages(&r),
        [
            ("www.acme.test/".into(), 1, Some(200)),
            ("www.acme.test/contact".into(), 2, Some(200)),
            ("www.acme.test/about".into(), 2, Some(200)),
            ("www.acme.test/team".into(), 2, Some(200)),
        ]
    );
    let contact = &r["pages"][1];
    assert_eq!(contact["via"]["page"], 0);
    assert_eq!(contact["via"]["link"], 1);
    // Level 2 of depth 2: N = 0, nothing more is followed.
    assert_eq!(contact["limit"], 0);
    assert_eq!(contact["counts"]["followed"], 0);

    let out = inspect(&s, "http://acme.test:{P}/", &["--depth", "2"]);
    let table = stdout(&out);
    assert!(
        table.contains("redirect 301 from http://acme.test:"),
        "{table}"
    );
    assert!(
        table.contains("page 2: http://www.acme.test:")
            && table.contains("via page 1 link #1 “Contact”"),
        "{table}"
    );
    assert!(table.contains("[redirected_host]"), "{table}");
}

#[test]
fn depth_3_tree_with_visited_links_failures_and_error_pages() {
    let s = server();
    let r = inspect_json(&s, "http://www.acme.test:{P}/", &["--depth", "3"]);
    assert_eq!(
        pages(&r),
        [
            ("www.acme.test/".into(), 1, Some(200)),
            ("www.acme.test/contact".into(), 2, Some(200)),
            ("www.acme.test/about".into(), 2, Some(200)),
            ("www.acme.test/team".into(), 2, Some(200)),
            ("www.acme.test/impressum".into(), 2, Some(200)),
            ("www.acme.test/company/brochure".into(), 2, None),
            ("www.acme.test/kontakt".into(), 2, Some(500)),
            ("www.acme.test/contact/form".into(), 3, Some(200)),
            ("www.acme.test/about/history".into(), 3, Some(200)),
            ("www.acme.test/impressum/privacy".into(), 3, Some(200)),
            ("www.acme.test/kontakt/form".into(), 3, Some(404)),
        ]
    );
    let p = &r["pages"];
    assert!(p[5]["error"].as_str().unwrap().contains("not HTML"));
    // The 500 page's links are still read and followed.
    assert_eq!(p[6]["links"][0]["verdict"], "followed");
    assert_eq!(p[10]["via"]["page"], 6);
    // /contact's link to /about was followed but already visited.
    let about_from_contact = &p[1]["links"][1];
    assert_eq!(about_from_contact["verdict"], "followed");
    assert_eq!(about_from_contact["visited"], true);
    // /team's link to /contact/form: visited through /contact, not fetched again.
    assert_eq!(p[3]["links"][1]["visited"], true);
    assert_eq!(p[7]["via"]["page"], 1);
    for (key, n) in s.all_hits() {
        assert_eq!(n, 1, "{key} fetched {n} times");
    }
    assert_eq!(s.hits("www.acme.test/careers/jobs"), 0);
    assert_eq!(s.hits("shop.acme.test/contact"), 0);
}

#[test]
fn a_page_reached_through_allowed_domains_is_scanned_against_its_own_host() {
    let s = server();
    let dir = crate::temp_dir("allowed");
    let settings = dir.join("settings.json");
    std::fs::write(&settings, r#"{"followAllowedDomains": "acmecorp.test"}"#).unwrap();
    let r = inspect_json(
        &s,
        "http://www.acme.test:{P}/",
        &["--depth", "3", "--settings", settings.to_str().unwrap()],
    );
    let all = pages(&r);
    let corp = all
        .iter()
        .position(|(url, _, _)| url == "acmecorp.test/about")
        .expect("acmecorp page crawled");
    assert_eq!(all[corp].1, 2);
    let corp_page = &r["pages"][corp];
    let contact = &corp_page["links"][0];
    assert_eq!(
        contact["url"],
        format!("http://acmecorp.test:{}/contact", s.port)
    );
    assert_eq!(contact["verdict"], "followed");
    assert!(all.contains(&("acmecorp.test/contact".into(), 3, Some(200))));
    // Its link back to www.acme.test is off-domain there (strict, other host).
    assert_eq!(corp_page["links"][1]["verdict"], "off_domain");
}

#[test]
fn charsets_gzip_and_size_cap() {
    let s = server();
    let r = inspect_json(&s, "http://www.acme.test:{P}/gbk", &["--depth", "1"]);
    let link = &r["pages"][0]["links"][0];
    assert_eq!(link["text"], "联系我们");
    assert_eq!(link["keyword"], "联系");

    let r = inspect_json(&s, "http://www.acme.test:{P}/gzip", &["--depth", "1"]);
    assert_eq!(r["pages"][0]["links"][0]["text"], "Contact");

    let out = inspect(
        &s,
        "http://www.acme.test:{P}/big",
        &["--depth", "1", "--max-bytes", "1000000", "--format", "json"],
    );
    assert!(out.status.success());
    assert!(stderr(&out).contains("was cut at 1000000 bytes"));
    let r: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(r["pages"][0]["truncated"], true);
    let links = r["pages"][0]["links"].as_array().unwrap();
    assert_eq!(links.len(), 1, "the link after the cut is not read");
}

#[test]
fn failures_exit_3_with_one_line_reasons() {
    let s = server();
    let closed = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap().port()
    };
    let cases: [(&str, &[&str], &str); 5] = [
        ("http://www.acme.test:{P}/loop-a", &[], "redirect loop"),
        ("http://www.acme.test:{P}/r/0", &[], "too many redirects"),
        (
            "http://www.acme.test:{P}/slow",
            &["--timeout", "1"],
            "timeout",
        ),
        ("http://www.acme.test:{P}/catalog.html", &[], "not HTML"),
        ("http://closed.test:{P}/", &[], "connect"),
    ];
    for (target, extra, reason) in cases {
        let mut extra = extra.to_vec();
        let resolve_closed = format!("closed.test:{closed}:127.0.0.1");
        let closed_target = target.replace("closed.test:{P}", &format!("closed.test:{closed}"));
        extra.extend(["--resolve", &resolve_closed]);
        let out = inspect(&s, &closed_target, &extra);
        assert_eq!(out.status.code(), Some(3), "{target}: {}", stderr(&out));
        let err = stderr(&out);
        assert!(err.contains(reason), "{target}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "{target}: {err}");
        assert!(stdout(&out).is_empty());
    }
    let out = inspect(&s, "http://www.acme.test:{P}/loop-a", &[]);
    assert!(stderr(&out).contains("/loop-b (302)"), "{}", stderr(&out));
}

/// Reports (does not assert) the crawl's wall time against one page's, with the
/// server delaying every response by 300 ms; run with `--nocapture` to see it.
#[test]
fn depth_3_crawl_time_with_slow_responses() {
    let s = Server::start(site, Duration::from_millis(300));
    let time = |depth: &str| {
        let started = Instant::now();
        let r = inspect_json(&s, "http://www.acme.test:{P}/", &["--depth", depth]);
        (started.elapsed(), r["pages"].as_array().unwrap().len())
    };
    let (one, one_pages) = time("1");
    let (three, three_pages) = time("3");
    assert_eq!((one_pages, three_pages), (1, 11));
    eprintln!(
        "crawl timing (300 ms per response): depth 1: {} page in {:?}; depth 3: {} pages in {:?}",
        one_pages, one, three_pages, three
    );
}

#[test]
fn diff_of_a_crawl_fetches_each_page_once_and_compares_page_by_page() {
    let s = server();
    let b = crate::temp_dir("diff-crawl").join("b.json");
    std::fs::write(
        &b,
        r#"{"followKeywordsWhite": "impressum,contact,about", "followAllowedDomains": "acmecorp.test"}"#,
    )
    .unwrap();
    let mut args: Vec<String> = vec![
        "diff".into(),
        format!("http://www.acme.test:{}/", s.port),
        "--depth".into(),
        "2".into(),
        "--against-settings".into(),
        b.display().to_string(),
        "--format".into(),
        "json".into(),
    ];
    args.extend(s.resolve_args(&HOSTS));
    let out = run(&args.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(out.status.success(), "{}", stderr(&out));
    let report: Value = serde_json::from_str(&stdout(&out)).unwrap();
    let pages: Vec<(String, Option<&str>)> = report["pages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            let url = p["url"].as_str().unwrap();
            let path = url
                .rsplit_once(&format!(":{}", s.port))
                .unwrap()
                .1
                .to_owned();
            (path, p["only_in"].as_str())
        })
        .collect();
    assert_eq!(
        pages,
        [
            ("/".to_owned(), None),
            ("/contact".to_owned(), None),
            ("/about".to_owned(), None),
            ("/team".to_owned(), Some("a")),
            ("/impressum".to_owned(), Some("b")),
        ]
    );
    // The start page: team loses its place to impressum.
    let start = &report["pages"][0];
    let team = start["changes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["text"] == "Team")
        .unwrap();
    assert_eq!(team["a"]["verdict"], "followed");
    assert_eq!(team["b"]["verdict"], "no_keyword");
    assert_eq!(team["because"], "`team` removed from the white list");
    // One fetch per page for both sides.
    for page in [
        "www.acme.test/",
        "www.acme.test/contact",
        "www.acme.test/about",
    ] {
        assert_eq!(s.hits(page), 1, "{page}");
    }
    assert_eq!(report["pages"][3]["counts_b"], Value::Null);
}
