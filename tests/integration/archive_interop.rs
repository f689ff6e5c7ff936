//! Web archives against other tools (SPEC 10): `warcio check` accepts every
//! archive the inspector writes and `warcio index` lists the records SPEC 10
//! names; an archive wget writes (`--warc-file`) reads, in `inspect` and in
//! `corpus`, as a live fetch of the same pages.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use serde_json::Value;

use crate::fetch_crawl::{HOSTS, site};
use crate::rendered::browser_turn;
use crate::server::Server;
use crate::temp_dir;
use crate::{ok_stdout, parse_json, run_owned};

/// A tool the interop tests need: `FOLLOW_INSPECTOR_<NAME>` names it, else it
/// is looked for on the PATH; `None` skips the test unless CI requires it.
pub(crate) fn tool(name: &str) -> Option<PathBuf> {
    let var = format!("FOLLOW_INSPECTOR_{}", name.to_ascii_uppercase());
    let found = std::env::var_os(&var).map(PathBuf::from).or_else(|| {
        std::env::var_os("PATH").and_then(|paths| {
            std::env::split_paths(&paths)
                .map(|dir| dir.join(name))
                .find(|p| p.is_file())
        })
    });
    if found.is_none() {
        assert!(
            std::env::var_os("FOLLOW_INSPECTOR_REQUIRE_INTEROP").is_none(),
            "{name} is required ({var} or on the PATH)"
        );
        eprintln!("SKIPPED: archive interop tests need {name}");
    }
    found
}

/// Saves `target` (a URL with `{P}`) with `--save-warc`, static unless `render`.
fn save(server: &Server, target: &str, archive: &Path, render: bool) {
    let mut args = vec![
        "inspect".to_owned(),
        target.replace("{P}", &server.port.to_string()),
        "--depth".into(),
        "2".into(),
        "--save-warc".into(),
        archive.display().to_string(),
    ];
    if render {
        args.push("--render".into());
    }
    args.extend(server.resolve_args(&HOSTS));
    ok_stdout(&run_owned(&args));
}

fn warcio(warcio: &Path, args: &[&str]) -> String {
    let out = Command::new(warcio)
        .args(args)
        .output()
        .expect("warcio runs");
    assert!(
        out.status.success(),
        "warcio {args:?}: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// `warcio index`'s records: (type, target URI).
fn index(warcio_path: &Path, archive: &Path) -> Vec<(String, String)> {
    let file = archive.display().to_string();
    warcio(
        warcio_path,
        &["index", "-f", "warc-type,warc-target-uri", &file],
    )
    .lines()
    .map(|line| {
        let entry = parse_json(line);
        (
            entry["warc-type"].as_str().unwrap_or_default().to_owned(),
            entry["warc-target-uri"]
                .as_str()
                .unwrap_or_default()
                .to_owned(),
        )
    })
    .collect()
}

#[test]
fn warcio_checks_every_archive_we_write_and_indexes_the_spec_records() {
    let Some(warcio_path) = tool("warcio") else {
        return;
    };
    let s = Server::start(site, Duration::ZERO);
    let dir = temp_dir("warcio");
    for name in ["capture.warc.gz", "capture.warc"] {
        let archive = dir.join(name);
        save(&s, "http://acme.test:{P}/", &archive, false);
        let file = archive.display().to_string();
        let checked = warcio(&warcio_path, &["check", "-v", &file]);
        assert!(checked.contains("digest pass"), "{checked}");
        assert!(!checked.contains("fail"), "{checked}");

        let records = index(&warcio_path, &archive);
        let kinds: Vec<&str> = records.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(kinds[0], "warcinfo");
        assert_eq!(
            records[1],
            (
                "metadata".to_owned(),
                "urn:follow-inspector:inspection".to_owned()
            )
        );
        // acme.test/ redirects to www: a request/response pair per hop.
        let apex = format!("http://acme.test:{}/", s.port);
        let www = format!("http://www.acme.test:{}/", s.port);
        assert_eq!(
            records[2..7],
            [
                ("request".to_owned(), apex.clone()),
                ("response".to_owned(), apex),
                ("request".to_owned(), www.clone()),
                ("response".to_owned(), www.clone()),
                ("metadata".to_owned(), www),
            ],
            "{name}"
        );
        // Every page has its metadata record, the failed one included.
        let metadata = kinds.iter().filter(|k| **k == "metadata").count();
        let report = parse_json(&ok_stdout(&run_owned(&[
            "inspect".into(),
            file.clone(),
            "--format".into(),
            "json".into(),
        ])));
        assert_eq!(metadata, 1 + report["pages"].as_array().unwrap().len());
    }
}

#[test]
fn warcio_checks_a_rendered_capture_with_its_dom_records() {
    let Some(warcio_path) = tool("warcio") else {
        return;
    };
    let Some(_turn) = browser_turn() else {
        return;
    };
    let s = Server::start(crate::rendered::site, Duration::ZERO);
    let dir = temp_dir("warcio-rendered");
    let archive = dir.join("rendered.warc.gz");
    let mut args = vec![
        "inspect".to_owned(),
        format!("http://acme.test:{}/", s.port),
        "--render".into(),
        "--depth".into(),
        "1".into(),
        "--save-warc".into(),
        archive.display().to_string(),
    ];
    args.extend(s.resolve_args(&["acme.test"]));
    ok_stdout(&run_owned(&args));
    let file = archive.display().to_string();
    let checked = warcio(&warcio_path, &["check", "-v", &file]);
    assert!(!checked.contains("fail"), "{checked}");
    let records = index(&warcio_path, &archive);
    let home = format!("http://acme.test:{}/", s.port);
    assert!(
        records.contains(&("resource".to_owned(), format!("urn:dom:{home}"))),
        "{records:?}"
    );
    assert_eq!(
        records.last(),
        Some(&("metadata".to_owned(), home)),
        "{records:?}"
    );
}

/// The URLs a live depth-2 inspection fetched: the start page and its followed links.
fn fetched_urls(report: &Value) -> Vec<String> {
    let mut urls = vec![report["start_url"].as_str().unwrap().to_owned()];
    urls.extend(
        report["pages"][0]["links"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|l| l["verdict"] == "followed")
            .map(|l| l["url"].as_str().unwrap().to_owned()),
    );
    urls
}

#[test]
fn an_archive_wget_wrote_reads_as_a_live_fetch_of_the_same_pages() {
    let Some(wget) = tool("wget") else {
        return;
    };
    let s = Server::start(site, Duration::ZERO);
    let dir = temp_dir("wget");
    let start = format!("http://www.acme.test:{}/", s.port);
    let mut live_args = vec![
        "inspect".to_owned(),
        start.clone(),
        "--depth".into(),
        "2".into(),
        "--format".into(),
        "json".into(),
    ];
    live_args.extend(s.resolve_args(&HOSTS));
    let live_json = ok_stdout(&run_owned(&live_args));
    let live = parse_json(&live_json);
    let urls = fetched_urls(&live);

    // wget reaches the fake hosts through the test server as its proxy.
    let warc = dir.join("wget");
    let out = Command::new(&wget)
        .current_dir(&dir)
        .arg(format!("--warc-file={}", warc.display()))
        .args(["-e", "robots=off", "-e", "use_proxy=yes"])
        .args(["-e", &format!("http_proxy=http://127.0.0.1:{}/", s.port)])
        .args([
            "--no-verbose",
            "--tries=1",
            "--timeout=10",
            "-O",
            "/dev/null",
        ])
        .args(&urls)
        .env_remove("https_proxy")
        .env_remove("no_proxy")
        .output()
        .expect("wget runs");
    let archive = dir.join("wget.warc.gz");
    assert!(
        archive.is_file(),
        "wget wrote no archive: {}",
        String::from_utf8_lossy(&out.stderr)
    );

    let offline_json = ok_stdout(&run_owned(&[
        "inspect".into(),
        archive.display().to_string(),
        "--base-url".into(),
        start.clone(),
        "--depth".into(),
        "2".into(),
        "--format".into(),
        "json".into(),
    ]));
    assert_eq!(offline_json, live_json);

    // The corpus over wget's archive: each HTML 200 page judged as the live
    // inspection of that page judges it.
    let corpus = parse_json(&ok_stdout(&run_owned(&[
        "corpus".into(),
        archive.display().to_string(),
        "--format".into(),
        "json".into(),
    ])));
    let pages = corpus["pages"].as_array().unwrap();
    assert!(pages.len() >= 4, "{corpus:#}");
    for page in pages {
        let url = page["id"].as_str().unwrap();
        let mut args = vec![
            "inspect".to_owned(),
            url.to_owned(),
            "--depth".into(),
            "2".into(),
            "--format".into(),
            "json".into(),
        ];
        args.extend(s.resolve_args(&HOSTS));
        let one = parse_json(&ok_stdout(&run_owned(&args)));
        // The corpus lists a page's followed links in rank order.
        let mut followed: Vec<&Value> = one["pages"][0]["links"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|l| l["verdict"] == "followed")
            .collect();
        followed.sort_by_key(|l| l["rank"].as_u64());
        let followed: Vec<&str> = followed
            .iter()
            .map(|l| l["url"].as_str().unwrap())
            .collect();
        let corpus_followed: Vec<&str> = page["followed_a"]
            .as_array()
            .unwrap()
            .iter()
            .map(|u| u.as_str().unwrap())
            .collect();
        assert_eq!(corpus_followed, followed, "{url}");
        assert_eq!(page["counts_a"], one["pages"][0]["counts"], "{url}");
    }
}
