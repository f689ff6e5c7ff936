//! Web archives (SPEC 10), our own round trip: a live inspection saved with
//! `--save-warc`, reopened offline with `inspect FILE.warc.gz`, gives the same
//! report byte for byte, static and rendered; re-judging reads only the
//! archive; `warcio` accepts what we write; wget's archives read as a live
//! fetch of the same pages.

use std::path::Path;
use std::process::Output;
use std::time::Duration;

use serde_json::Value;

use crate::fetch_crawl::{HOSTS, site};
use crate::rendered::browser_turn;
use crate::server::{Route, Server};
use crate::temp_dir;
use crate::{ok_stdout, parse_json, run_owned, stderr};

/// `inspect` (or another command) of `target` against the fixture site.
pub fn live(server: &Server, command: &str, target: &str, extra: &[&str]) -> Output {
    let mut args = vec![
        command.to_owned(),
        target.replace("{P}", &server.port.to_string()),
    ];
    args.extend(server.resolve_args(&HOSTS));
    args.extend(extra.iter().map(|s| (*s).to_owned()));
    run_owned(&args)
}

pub fn offline(command: &str, archive: &Path, extra: &[&str]) -> Output {
    let mut args = vec![command.to_owned(), archive.display().to_string()];
    args.extend(extra.iter().map(|s| (*s).to_owned()));
    run_owned(&args)
}

/// `inspect` of the test site at `depth`, saved to `saved`: its JSON
/// report, once stderr has said where it was saved.
pub fn inspect_and_save(server: &Server, depth: &str, saved: &str) -> String {
    let out = live(
        server,
        "inspect",
        "http://acme.test:{P}/",
        &["--depth", depth, "--format", "json", "--save-warc", saved],
    );
    let json = ok_stdout(&out);
    assert!(
        stderr(&out).contains(&format!("to {saved}")),
        "{}",
        stderr(&out)
    );
    json
}

fn save_arg(path: &Path) -> String {
    path.display().to_string()
}

#[test]
fn a_depth_3_crawl_with_failed_pages_reopens_offline_byte_identical() {
    let s = Server::start(site, Duration::ZERO);
    let dir = temp_dir("depth3");
    for name in ["capture.warc.gz", "capture.warc"] {
        let archive = dir.join(name);
        let saved = save_arg(&archive);
        let live_json = inspect_and_save(&s, "3", &saved);
        let report = parse_json(&live_json);
        let errors: Vec<&str> = report["pages"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|p| p["error"].as_str())
            .collect();
        assert!(
            errors.iter().any(|e| e.starts_with("not HTML")),
            "the fixture has a failed page: {errors:?}"
        );
        let hits_before = s.all_hits().values().sum::<usize>();
        let reopened = offline("inspect", &archive, &["--format", "json"]);
        assert_eq!(ok_stdout(&reopened), live_json, "{name}");
        // Saved again from the archive, the pages are the same pages.
        let again = dir.join(format!("again-{name}"));
        let again_arg = save_arg(&again);
        ok_stdout(&offline("inspect", &archive, &["--save-warc", &again_arg]));
        assert_eq!(
            ok_stdout(&offline("inspect", &again, &["--format", "json"])),
            live_json,
            "{name} saved again"
        );
        assert!(
            stderr(&reopened).contains("offline"),
            "{}",
            stderr(&reopened)
        );
        assert_eq!(
            s.all_hits().values().sum::<usize>(),
            hits_before,
            "reopening fetched nothing"
        );
        // The table and CSV reports are the live run's too (times included).
        for format in ["table", "csv"] {
            let live_text = ok_stdout(&live(
                &s,
                "inspect",
                "http://acme.test:{P}/",
                &["--depth", "3", "--format", format, "--save-warc", &saved],
            ));
            let offline_text = ok_stdout(&offline("inspect", &archive, &["--format", format]));
            assert_eq!(offline_text, live_text, "{name} {format}");
        }
    }
}

#[test]
fn wire_forms_gzip_charsets_redirects_and_cut_bodies_reopen_as_they_were_read() {
    let s = Server::start(site, Duration::ZERO);
    let dir = temp_dir("wire");
    for (path, extra) in [
        ("/gzip", vec![]),
        ("/gbk", vec![]),
        ("/big", vec!["--max-bytes", "100000"]),
        ("/r/0", vec![]),
    ] {
        let archive = dir.join("page.warc.gz");
        let saved = save_arg(&archive);
        let mut args = vec!["--depth", "1", "--format", "json", "--save-warc", &saved];
        args.extend(extra.iter().copied());
        let target = format!("http://www.acme.test:{{P}}{path}");
        let out = live(&s, "inspect", &target, &args);
        if path == "/r/0" {
            // Too many redirects: the start page fails, nothing is saved.
            assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
            continue;
        }
        let live_json = ok_stdout(&out);
        // Reopened with the default --max-bytes, and with a smaller one: the
        // body is the one the live run read, whatever the cap now.
        for cap in ["10485760", "50000"] {
            assert_eq!(
                ok_stdout(&offline(
                    "inspect",
                    &archive,
                    &["--format", "json", "--max-bytes", cap]
                )),
                live_json,
                "{path} --max-bytes {cap}"
            );
        }
    }
    // The stored body is decoded; its wire form is named, not repeated.
    let archive = dir.join("gzip.warc");
    let saved = save_arg(&archive);
    ok_stdout(&live(
        &s,
        "inspect",
        "http://www.acme.test:{P}/gzip",
        &["--depth", "1", "--save-warc", &saved],
    ));
    let text = String::from_utf8_lossy(&std::fs::read(&archive).unwrap()).into_owned();
    assert!(
        text.contains("X-Archive-Orig-Content-Encoding: gzip"),
        "{text}"
    );
    assert!(text.contains("<a href=\"/contact\">Contact</a>"), "{text}");
}

#[test]
fn reopening_rejudges_with_other_settings_depth_and_never_fetches() {
    let s = Server::start(site, Duration::ZERO);
    let dir = temp_dir("rejudge");
    let archive = dir.join("capture.warc.gz");
    let saved = save_arg(&archive);
    ok_stdout(&live(
        &s,
        "inspect",
        "http://acme.test:{P}/",
        &["--depth", "2", "--save-warc", &saved],
    ));
    let hits = s.all_hits().values().sum::<usize>();

    // Other settings: the same captured pages, judged again.
    let settings = dir.join("team-only.json");
    std::fs::write(
        &settings,
        r#"{"followKeywordsWhite": "team", "followKeywordsBlack": ""}"#,
    )
    .unwrap();
    let settings_arg = settings.display().to_string();
    let rejudged = parse_json(&ok_stdout(&offline(
        "inspect",
        &archive,
        &["--settings", &settings_arg, "--format", "json"],
    )));
    assert_eq!(rejudged["settings"]["followKeywordsWhite"], "team");
    let followed: Vec<&str> = rejudged["pages"][0]["links"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|l| l["verdict"] == "followed")
        .map(|l| l["text"].as_str().unwrap())
        .collect();
    assert_eq!(followed, ["Team"]);

    // Deeper than captured: the pages never fetched are "not in the archive".
    let deeper = parse_json(&ok_stdout(&offline(
        "inspect",
        &archive,
        &["--depth", "3", "--format", "json"],
    )));
    assert_eq!(deeper["depth"], 3);
    let missing: Vec<&str> = deeper["pages"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|p| p["error"].as_str())
        .filter(|e| e.starts_with("not in the archive"))
        .collect();
    assert!(!missing.is_empty(), "{deeper:#}");
    assert_eq!(s.all_hits().values().sum::<usize>(), hits, "offline only");
}

#[test]
fn a_diff_saves_both_sides_pages_once_and_reopens_identical() {
    let s = Server::start(site, Duration::ZERO);
    let dir = temp_dir("diff");
    let settings = dir.join("b.json");
    std::fs::write(&settings, r#"{"followKeywordsWhite": "team,impressum"}"#).unwrap();
    let b = settings.display().to_string();
    // A WARC, and a WACZ package named in capitals.
    for name in ["diff.warc.gz", "diff.WACZ"] {
        let archive = dir.join(name);
        let saved = save_arg(&archive);
        let live_json = ok_stdout(&live(
            &s,
            "diff",
            "http://acme.test:{P}/",
            &[
                "--against-settings",
                &b,
                "--depth",
                "2",
                "--format",
                "json",
                "--save-warc",
                &saved,
            ],
        ));
        let offline_json = ok_stdout(&offline(
            "diff",
            &archive,
            &["--against-settings", &b, "--format", "json"],
        ));
        // The target is named as typed: the URL live, the file offline.
        let strip = |mut v: Value| {
            v["target"] = Value::Null;
            v
        };
        assert_eq!(
            strip(parse_json(&offline_json)),
            strip(parse_json(&live_json)),
            "{name}"
        );
        assert!(
            !parse_json(&live_json)["pages"]
                .as_array()
                .unwrap()
                .is_empty(),
            "{live_json}"
        );
        if name.ends_with(".WACZ") {
            assert_eq!(
                crate::archive_wacz_save::entries(&archive)[0].0,
                "archive/data.warc.gz"
            );
        }
    }
}

#[test]
fn a_rendered_capture_reopens_as_rendered_without_a_browser() {
    let Some(_turn) = browser_turn() else {
        return;
    };
    let s = Server::start(crate::rendered::site, Duration::ZERO);
    let dir = temp_dir("rendered");
    for path in ["/", "/js-redirect"] {
        let archive = dir.join("rendered.warc.gz");
        let saved = save_arg(&archive);
        let target = format!("http://acme.test:{}{path}", s.port);
        let mut args = vec![
            "inspect".to_owned(),
            target,
            "--render".into(),
            "--depth".into(),
            "2".into(),
            "--format".into(),
            "json".into(),
            "--save-warc".into(),
            saved,
        ];
        args.extend(s.resolve_args(&["acme.test"]));
        let live_json = ok_stdout(&run_owned(&args));
        let report = parse_json(&live_json);
        assert_eq!(report["pages"][0]["mode"], "rendered", "{path}");
        // No browser: a path that does not exist, so reopening cannot use one.
        let reopened = run_owned(&[
            "inspect".into(),
            archive.display().to_string(),
            "--format".into(),
            "json".into(),
            "--browser".into(),
            "/nonexistent/chromium".into(),
        ]);
        assert_eq!(ok_stdout(&reopened), live_json, "{path}");
        // Saved again from the archive, a rendered page is the same page.
        let again = dir.join("again.warc.gz");
        let again_arg = save_arg(&again);
        ok_stdout(&offline("inspect", &archive, &["--save-warc", &again_arg]));
        assert_eq!(
            ok_stdout(&offline("inspect", &again, &["--format", "json"])),
            live_json,
            "{path} saved again"
        );
        let text = zcat(&archive);
        assert!(text.contains("WARC-Type: resource"), "{path}");
        assert!(text.contains("WARC-Target-URI: urn:dom:"), "{path}");
    }
}

fn zcat(path: &Path) -> String {
    String::from_utf8(gunzip(&std::fs::read(path).unwrap())).unwrap()
}

#[test]
fn every_record_is_its_own_gzip_member_in_the_spec_order() {
    let s = Server::start(site, Duration::ZERO);
    let dir = temp_dir("members");
    let archive = dir.join("capture.warc.gz");
    let saved = save_arg(&archive);
    ok_stdout(&live(
        &s,
        "inspect",
        "http://acme.test:{P}/",
        &["--depth", "3", "--save-warc", &saved],
    ));
    let bytes = std::fs::read(&archive).unwrap();
    // Member by member: each decodes alone to exactly one record.
    let mut kinds = Vec::new();
    let mut rest = &bytes[..];
    while !rest.is_empty() {
        let mut decoder = flate2::bufread::GzDecoder::new(rest);
        let mut record = String::new();
        std::io::Read::read_to_string(&mut decoder, &mut record).unwrap();
        assert_eq!(record.matches("WARC/1.1\r\n").count(), 1, "{record}");
        let kind = record
            .lines()
            .find_map(|l| l.strip_prefix("WARC-Type: "))
            .unwrap()
            .to_owned();
        kinds.push(kind);
        rest = decoder.into_inner();
    }
    assert_eq!(kinds[..4], ["warcinfo", "metadata", "request", "response"]);
    // The start page redirects: a request/response pair per hop, then the page's metadata.
    assert_eq!(kinds[4..7], ["request", "response", "metadata"]);
    let text = zcat(&archive);
    assert!(text.contains("WARC-Target-URI: urn:follow-inspector:inspection"));
    assert!(text.contains("WARC-Payload-Digest: sha1:"));
    assert!(text.contains("WARC-IP-Address: 127.0.0.1"));
    check_links_between_records(&archive);

    // A body cut at --max-bytes says so.
    let big = dir.join("big.warc.gz");
    let big_arg = save_arg(&big);
    ok_stdout(&live(
        &s,
        "inspect",
        "http://www.acme.test:{P}/big",
        &[
            "--depth",
            "1",
            "--max-bytes",
            "100000",
            "--save-warc",
            &big_arg,
        ],
    ));
    let records = parse_records(gunzip(&std::fs::read(&big).unwrap()));
    let response = records
        .iter()
        .find(|(f, _)| f["WARC-Type"] == "response")
        .unwrap();
    assert_eq!(response.0["WARC-Truncated"], "length");
}

type Fields = std::collections::HashMap<String, String>;

/// The records point at each other as SPEC 10 says, and each length is its block's.
fn check_links_between_records(archive: &Path) {
    let records = parse_records(gunzip(&std::fs::read(archive).unwrap()));
    let id_of = |i: usize| records[i].0["WARC-Record-ID"].clone();
    let mut failed_pages = 0;
    for (i, (fields, block)) in records.iter().enumerate() {
        assert_eq!(fields["Content-Length"], block.len().to_string());
        assert!(fields["WARC-Block-Digest"].starts_with("sha1:"));
        match fields["WARC-Type"].as_str() {
            "response" => {
                assert_eq!(records[i - 1].0["WARC-Type"], "request");
                assert_eq!(fields["WARC-Concurrent-To"], id_of(i - 1));
                assert!(fields["WARC-Payload-Digest"].starts_with("sha1:"));
                // The stored body's own length; the wire's is kept apart.
                let text = String::from_utf8_lossy(block);
                let (head, body) = text.split_once("\r\n\r\n").unwrap();
                assert!(
                    head.contains(&format!("\r\nContent-Length: {}", body.len())),
                    "{head}"
                );
            }
            "metadata" if fields["WARC-Target-URI"] != "urn:follow-inspector:inspection" => {
                let meta: Value = serde_json::from_slice(block).unwrap();
                if let Some(error) = meta["error"].as_str() {
                    assert!(error.starts_with("not HTML"), "{error}");
                    assert!(!fields.contains_key("WARC-Refers-To"));
                    failed_pages += 1;
                } else {
                    assert_eq!(fields["WARC-Refers-To"], id_of(i - 1));
                    assert_eq!(
                        records[i - 1].0["WARC-Target-URI"],
                        fields["WARC-Target-URI"]
                    );
                }
            }
            _ => {}
        }
    }
    assert_eq!(failed_pages, 1, "the brochure (a PDF) failed");
}

fn gunzip(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    std::io::Read::read_to_end(&mut flate2::read::MultiGzDecoder::new(bytes), &mut out).unwrap();
    out
}

/// The records of a plain WARC: each one's fields and block.
fn parse_records(bytes: Vec<u8>) -> Vec<(Fields, Vec<u8>)> {
    let mut out = Vec::new();
    let mut rest = &bytes[..];
    while !rest.is_empty() {
        let end = rest.windows(4).position(|w| w == b"\r\n\r\n").unwrap();
        let head = String::from_utf8_lossy(&rest[..end]).into_owned();
        let mut lines = head.split("\r\n");
        assert_eq!(lines.next(), Some("WARC/1.1"));
        let fields: Fields = lines
            .map(|l| {
                let (n, v) = l.split_once(": ").unwrap();
                (n.to_owned(), v.to_owned())
            })
            .collect();
        let length: usize = fields["Content-Length"].parse().unwrap();
        let block = rest[end + 4..end + 4 + length].to_vec();
        assert_eq!(&rest[end + 4 + length..end + 8 + length], b"\r\n\r\n");
        rest = &rest[end + 8 + length..];
        out.push((fields, block));
    }
    out
}

#[test]
fn a_save_that_cannot_be_written_fails_clearly_and_leaves_no_file() {
    let s = Server::start(site, Duration::ZERO);
    let dir = temp_dir("unwritable");
    let archive = dir.join("no-such-folder").join("capture.warc.gz");
    let saved = save_arg(&archive);
    let out = live(
        &s,
        "inspect",
        "http://www.acme.test:{P}/",
        &["--depth", "1", "--save-warc", &saved],
    );
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(err.contains(&format!("cannot write {saved}")), "{err}");
    assert!(err.contains("folder exists"), "{err}");
    assert!(!archive.exists());
}

#[test]
fn an_empty_body_said_to_be_gzip_is_an_empty_page_and_archives_as_one() {
    let s = Server::start(
        |_| {
            let mut routes = std::collections::HashMap::new();
            routes.insert(
                "www.acme.test/".to_owned(),
                Route::html("").header("Content-Encoding", "gzip"),
            );
            routes
        },
        Duration::ZERO,
    );
    let dir = temp_dir("empty-gzip");
    let archive = dir.join("empty.warc.gz");
    let saved = save_arg(&archive);
    let live_json = ok_stdout(&live(
        &s,
        "inspect",
        "http://www.acme.test:{P}/",
        &["--depth", "1", "--format", "json", "--save-warc", &saved],
    ));
    let report = parse_json(&live_json);
    assert_eq!(report["pages"][0]["status"], 200);
    assert!(report["pages"][0]["error"].is_null(), "{live_json}");
    assert_eq!(
        ok_stdout(&offline("inspect", &archive, &["--format", "json"])),
        live_json
    );
}
