//! `inspect FILE`: reports, flags and exit codes on fixture pages.

use serde_json::Value;

use crate::{lint_codes, repo_path, run, run_json, stderr, stdout};

fn demo() -> String {
    repo_path("assets/demo/acme-home.html")
        .display()
        .to_string()
}

fn fixture(name: &str) -> String {
    repo_path(&format!("tests/fixtures/{name}"))
        .display()
        .to_string()
}

fn keys(v: &Value) -> Vec<&str> {
    let mut k: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    k.sort_unstable();
    k
}

fn link<'a>(report: &'a Value, url: &str) -> &'a Value {
    report["pages"][0]["links"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["url"] == url)
        .unwrap_or_else(|| panic!("no link {url}"))
}

#[test]
fn json_report_has_the_spec_fields_exactly() {
    let r = run_json(&["inspect", &demo()]);
    assert_eq!(
        keys(&r),
        [
            "depth",
            "final_url",
            "lints",
            "pages",
            "schema",
            "settings",
            "start_url"
        ]
    );
    assert_eq!(r["schema"], 1);
    assert_eq!(r["start_url"], "https://acme.test/");
    assert_eq!(r["final_url"], "https://acme.test/");
    assert_eq!(r["depth"], 2);
    assert_eq!(
        keys(&r["settings"]),
        [
            "followAllowedDomains",
            "followKeywordsBlack",
            "followKeywordsWhite",
            "followSkipAssets",
            "followSubdomain"
        ]
    );
    let page = &r["pages"][0];
    assert_eq!(
        keys(page),
        ["counts", "level", "limit", "links", "mode", "status", "url"]
    );
    assert_eq!(page["mode"], "static");
    assert_eq!(page["level"], 1);
    assert_eq!(page["status"], Value::Null);
    assert_eq!(page["limit"], 3);
    for l in page["links"].as_array().unwrap() {
        assert_eq!(
            keys(l),
            [
                "href",
                "index",
                "inside_word",
                "keyword",
                "matched_in",
                "nofollow",
                "rank",
                "region",
                "score",
                "text",
                "url",
                "verdict",
                "visited"
            ]
        );
    }
    let counts = &page["counts"];
    assert_eq!(counts.as_object().unwrap().len(), 10);
    let total: u64 = counts
        .as_object()
        .unwrap()
        .values()
        .map(|v| v.as_u64().unwrap())
        .sum();
    assert_eq!(total as usize, page["links"].as_array().unwrap().len());
}

#[test]
fn demo_page_decides_like_the_spec() {
    let r = run_json(&["inspect", &demo()]);
    let contact = link(&r, "https://acme.test/contact");
    assert_eq!(contact["verdict"], "followed");
    assert_eq!(contact["keyword"], "contact");
    assert_eq!(contact["matched_in"], "url");
    assert_eq!(contact["score"], 11);
    assert_eq!(contact["rank"], 1);
    assert_eq!(contact["index"], 6);
    assert_eq!(contact["href"], "/contact");
    assert_eq!(contact["text"], "Contact");

    let blog_about = link(&r, "https://acme.test/blog/about-our-founder");
    assert_eq!(blog_about["verdict"], "blacklisted");
    assert_eq!(blog_about["keyword"], "blog");
    assert_eq!(blog_about["score"], Value::Null);

    assert_eq!(link(&r, "https://acme.test/our-heritage")["keyword"], "tag");
    assert_eq!(
        link(&r, "https://shop.acme.test/contact")["verdict"],
        "off_domain"
    );
    assert_eq!(
        link(&r, "https://acmecorp.test/about")["verdict"],
        "off_domain"
    );
    assert_eq!(
        link(&r, "https://acme.test/static/img/factory.jpg?v=2")["verdict"],
        "asset"
    );
    assert_eq!(
        link(&r, "https://acme.test/api/locations.json")["verdict"],
        "no_keyword"
    );
    let invalid = &r["pages"][0]["links"][27];
    assert_eq!(invalid["verdict"], "invalid");
    assert_eq!(invalid["url"], Value::Null);

    let counts = &r["pages"][0]["counts"];
    for (verdict, n) in [
        ("followed", 3),
        ("ranked_out", 5),
        ("no_keyword", 5),
        ("blacklisted", 7),
        ("asset", 2),
        ("off_domain", 4),
        ("duplicate", 1),
        ("self", 2),
        ("not_http", 3),
        ("invalid", 1),
    ] {
        assert_eq!(counts[verdict], n, "{verdict}");
    }
}

#[test]
fn depth_and_limit_set_n() {
    for (depth, followed) in [("1", 0), ("2", 3), ("3", 6)] {
        let r = run_json(&["inspect", &demo(), "--depth", depth]);
        assert_eq!(
            r["pages"][0]["counts"]["followed"], followed,
            "depth {depth}"
        );
        assert_eq!(r["pages"][0]["limit"], followed);
    }
    let r = run_json(&["inspect", &demo(), "--depth", "3", "--limit", "1"]);
    assert_eq!(r["pages"][0]["limit"], 1);
    assert_eq!(r["pages"][0]["counts"]["followed"], 1);
    assert_eq!(r["pages"][0]["counts"]["ranked_out"], 7);
}

#[test]
fn settings_export_is_applied_and_extra_keys_reported() {
    let out = run(&[
        "inspect",
        &demo(),
        "--settings",
        &fixture("settings-export.json"),
        "--format",
        "json",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(err.contains("ignored: language, maxPages"), "{err}");
    let r: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(
        r["settings"]["followKeywordsWhite"],
        "kontakt,impressum,about"
    );
    assert_eq!(r["settings"]["followSubdomain"], true);
    // Subdomain mode admits shop.acme.test, the allow-list admits acmecorp.test.
    assert_eq!(
        link(&r, "https://shop.acme.test/contact")["verdict"],
        "no_keyword"
    );
    // acmecorp.test is admitted; `about` scores 1 and ranks 4th behind kontakt,
    // impressum and the earlier /about-us/.
    let corp = link(&r, "https://acmecorp.test/about");
    assert_eq!(corp["verdict"], "ranked_out");
    assert_eq!(
        (corp["score"].as_u64(), corp["rank"].as_u64()),
        (Some(1), Some(4))
    );
    assert_eq!(lint_codes(&r), ["options_stack"]);
}

#[test]
fn table_fits_100_columns_and_ends_with_summary_and_lints() {
    let out = run(&["inspect", &demo(), "--depth", "3"]);
    assert!(out.status.success());
    let text = stdout(&out);
    for line in text.lines() {
        assert!(
            unicode_width::UnicodeWidthStr::width(line) <= 100,
            "too wide: {line}"
        );
    }
    assert!(
        text.contains(
            "summary: 6 followed, 2 ranked_out, 5 no_keyword, 7 blacklisted, 2 asset, \
         4 off_domain, 1 duplicate,\n         2 self, 3 not_http, 1 invalid"
        ),
        "{text}"
    );
    assert!(text.contains("lints: none"));
    assert!(text.contains("N = 6"));
}

#[test]
fn csv_has_a_header_and_one_line_per_link() {
    let out = run(&["inspect", &demo(), "--format", "csv"]);
    assert!(out.status.success());
    let mut reader = csv::Reader::from_reader(out.stdout.as_slice());
    let headers = reader.headers().unwrap().clone();
    assert_eq!(&headers[3], "verdict");
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    assert_eq!(rows.len(), 33);
    assert_eq!(&rows[6][3], "followed");
    assert_eq!(&rows[6][9], "https://acme.test/contact");
}

#[test]
fn base_url_flag_overrides_canonical_and_base_href_resolves() {
    let r = run_json(&[
        "inspect",
        &fixture("base-other-host.html"),
        "--base-url",
        "https://acme.test/",
    ]);
    let verdicts: Vec<(&str, &str)> = r["pages"][0]["links"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| (l["url"].as_str().unwrap(), l["verdict"].as_str().unwrap()))
        .collect();
    assert_eq!(
        verdicts,
        [
            ("https://static.acme.test/site/contact", "off_domain"),
            ("https://acme.test/about", "followed"),
            ("https://static.acme.test/team", "off_domain"),
        ]
    );
}

#[test]
fn gbk_page_declared_in_meta_matches_chinese_keywords() {
    let r = run_json(&[
        "inspect",
        &fixture("gbk-meta.html"),
        "--base-url",
        "http://acme.test/",
    ]);
    let links = r["pages"][0]["links"].as_array().unwrap();
    assert_eq!(links[0]["text"], "联系我们");
    assert_eq!(links[0]["keyword"], "联系");
    assert_eq!(links[0]["matched_in"], "text");
    assert_eq!(links[1]["keyword"], "关于");
}

#[test]
fn a_file_without_canonical_needs_base_url() {
    let out = run(&["inspect", &fixture("no-canonical.html")]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--base-url"), "{}", stderr(&out));
    assert!(stdout(&out).is_empty());
}

#[test]
fn bad_arguments_exit_2_with_a_message() {
    let cases: [(&[&str], &str); 6] = [
        (&["inspect", "no/such/page.html"], "no such file"),
        (&["inspect", "ftp://acme.test/"], "only http and https"),
        (&["inspect", "x.html", "--depth", "9"], "--depth"),
        (&["inspect", "x.html", "--format", "xml"], "--format"),
        (
            &[
                "inspect",
                "x.html",
                "--settings",
                "a.json",
                "--profile",
                "p",
            ],
            "cannot be used with",
        ),
        (&["inspect"], "TARGET"),
    ];
    for (args, message) in cases {
        let out = run(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(stderr(&out).contains(message), "{args:?}: {}", stderr(&out));
    }
    let out = run(&["inspect", &demo(), "--base-url", "not a url"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--base-url"));
}

#[test]
fn invalid_settings_json_says_what_and_where() {
    let path = fixture("settings-broken.json");
    let out = run(&["inspect", &demo(), "--settings", &path]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(err.contains("settings-broken.json"), "{err}");
    assert!(err.contains("line 3"), "{err}");

    let out = run(&["inspect", &demo(), "--settings", &fixture("missing.json")]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("cannot read settings file"));
}

#[test]
fn help_explains_every_flag() {
    let out = run(&["inspect", "--help"]);
    let help = stdout(&out);
    for flag in [
        "--base-url",
        "--depth",
        "--limit",
        "--settings",
        "--profile",
        "--format",
    ] {
        assert!(help.contains(flag), "{flag}");
    }
    assert!(help.contains("(depth - 1) × 3"));
}
