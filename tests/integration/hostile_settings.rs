//! Hostile settings and tags: lists of thousands of keywords, keywords
//! thousands of characters long, a tag of 200,000 attributes. Each case is
//! sized so that a cost quadratic in it would take minutes, and is checked
//! for its answer (never its time: docs/performance.md has those).

use std::path::PathBuf;

use serde_json::{Value, json};

use crate::{lint_codes, repo_path, run, run_json, stderr, temp_dir};

/// A settings file in the test's own temporary folder.
fn settings_file(name: &str, settings: &Value) -> PathBuf {
    let path = temp_dir("settings").join(name);
    std::fs::write(&path, settings.to_string()).unwrap();
    path
}

fn inspect_acme(settings: &Value, name: &str) -> std::process::Output {
    let path = settings_file(name, settings);
    let page = repo_path("tests/fixtures/acme-home.html");
    run(&[
        "inspect",
        page.to_str().unwrap(),
        "--settings",
        path.to_str().unwrap(),
        "--format",
        "json",
    ])
}

fn verdict_of<'a>(report: &'a Value, href: &str) -> &'a str {
    report["pages"][0]["links"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["href"] == href)
        .and_then(|l| l["verdict"].as_str())
        .unwrap_or_else(|| panic!("no link {href}"))
}

#[test]
fn lists_over_a_limit_are_refused_in_one_line_naming_the_list_and_the_limit() {
    let many: Vec<String> = (0..10_001).map(|i| format!("kw{i}")).collect();
    let out = inspect_acme(&json!({ "followKeywordsWhite": many }), "many.json");
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(
        err.contains("`followKeywordsWhite` has 10001 items; at most 10000 are supported"),
        "{err}"
    );

    let long = format!("contact,{}", "a".repeat(20_000));
    let out = inspect_acme(&json!({ "followKeywordsBlack": long }), "long.json");
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(
        err.contains(
            "`followKeywordsBlack` item 2 is 20000 characters long; at most 1000 are supported"
        ),
        "{err}"
    );

    let total = vec!["a".repeat(1_000); 101];
    let out = inspect_acme(&json!({ "followAllowedDomains": total }), "total.json");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains(
            "`followAllowedDomains` is 101100 characters long; at most 100000 are supported"
        ),
        "{}",
        stderr(&out)
    );
}

#[test]
fn ten_thousand_keywords_in_both_lists_are_judged_whole() {
    // Every white keyword against every black one would be 10⁸ searches.
    let mut white: Vec<String> = (0..9_998).map(|i| format!("w{i:05}x")).collect();
    white.extend(["about".into(), "teamwork".into()]);
    let mut black: Vec<String> = (0..9_999).map(|i| format!("b{i:05}y")).collect();
    black.push("team".into());
    let report = run_json(&[
        "inspect",
        repo_path("tests/fixtures/acme-home.html").to_str().unwrap(),
        "--settings",
        settings_file(
            "both.json",
            &json!({ "followKeywordsWhite": white, "followKeywordsBlack": black }),
        )
        .to_str()
        .unwrap(),
    ]);
    assert_eq!(verdict_of(&report, "/about/"), "followed");
    assert_eq!(verdict_of(&report, "/team"), "blacklisted");
    assert_eq!(verdict_of(&report, "/careers"), "no_keyword");
    assert!(lint_codes(&report).contains(&"black_shadows_white"));
    let shadow = report["lints"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["code"] == "black_shadows_white")
        .unwrap();
    assert!(
        shadow["message"]
            .as_str()
            .unwrap()
            .contains("`teamwork` (contains `team`)"),
        "{shadow}"
    );
}

#[test]
fn hundreds_of_keywords_nested_in_each_other_are_judged() {
    // `a`, `aa`, … `a`×400 (80,600 characters, within the list limit):
    // every one of them is found at every `a` of the white keyword.
    let black: Vec<String> = (1..=400).map(|n| "a".repeat(n)).collect();
    let white = format!("{},about", "a".repeat(1_000));
    let out = inspect_acme(
        &json!({ "followKeywordsWhite": white, "followKeywordsBlack": black }),
        "nested.json",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    // `a` is in every link: black wins everywhere it is same-site.
    assert_eq!(verdict_of(&report, "/about/"), "blacklisted");
    assert_eq!(verdict_of(&report, "/impressum"), "blacklisted");
    assert!(lint_codes(&report).contains(&"black_shadows_white"));
}

#[test]
fn a_link_of_200k_attributes_is_read_with_its_first_href() {
    let mut html = String::from("<!doctype html><title>t</title><a");
    for i in 0..100_000 {
        html.push_str(&format!(" data-a{i}=v"));
    }
    html.push_str(" href=/contact HREF=/second rel=nofollow");
    for i in 0..100_000 {
        html.push_str(&format!(" data-b{i}"));
    }
    html.push_str(" href=/third>Contact us</a> <a href=/about>About</a>");
    let page = temp_dir("wide-tag").join("wide.html");
    std::fs::write(&page, html).unwrap();
    let report = run_json(&[
        "inspect",
        page.to_str().unwrap(),
        "--base-url",
        "https://acme.test/",
    ]);
    let links = report["pages"][0]["links"].as_array().unwrap();
    assert_eq!(links.len(), 2);
    assert_eq!(links[0]["href"], "/contact");
    assert_eq!(links[0]["text"], "Contact us");
    assert_eq!(links[0]["nofollow"], true);
    assert_eq!(links[0]["verdict"], "followed");
    assert_eq!(links[1]["href"], "/about");
    assert_eq!(links[1]["verdict"], "followed");
}
