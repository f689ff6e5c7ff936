//! Tuning the defaults: `diff`, `corpus`, the host-keyword lint, inside-word
//! hits, allow-list suggestions and the region / nofollow annotations.

use std::path::PathBuf;

use serde_json::{Value, json};

use crate::{lint_codes, repo_path, run, run_json, stderr, stdout, temp_dir};

fn fixture(name: &str) -> String {
    repo_path(&format!("tests/fixtures/{name}"))
        .to_string_lossy()
        .into_owned()
}

/// A profiles folder holding "tuned" (tests/fixtures/settings-tuned.json).
fn config_with_tuned(name: &str) -> PathBuf {
    let dir = temp_dir(name);
    let imported = run(&[
        "--config-dir",
        dir.to_str().unwrap(),
        "profiles",
        "import",
        &fixture("settings-tuned.json"),
        "--name",
        "tuned",
    ]);
    assert!(imported.status.success(), "{}", stderr(&imported));
    dir
}

/// (index, verdict a, verdict b, because) of every change of page 0.
fn changes(report: &Value) -> Vec<(u64, String, String, String)> {
    report["pages"][0]["changes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["index"].as_u64().unwrap(),
                c["a"]["verdict"].as_str().unwrap().to_owned(),
                c["b"]["verdict"].as_str().unwrap().to_owned(),
                c["because"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

#[test]
fn diff_lists_exactly_the_links_that_change_and_why() {
    let report = run_json(&[
        "diff",
        &fixture("acme-home.html"),
        "--against-settings",
        &fixture("settings-tuned.json"),
    ]);
    let expected = [
        (1, "followed", "followed", "`about` moved in the white list"),
        (
            4,
            "followed",
            "ranked_out",
            "`team` moved in the white list",
        ),
        (
            5,
            "blacklisted",
            "no_keyword",
            "`tag` removed from the black list",
        ),
        (
            6,
            "no_keyword",
            "ranked_out",
            "`careers` added to the white list",
        ),
        (
            7,
            "off_domain",
            "no_keyword",
            "`acme.de` added to the allowed domains",
        ),
        (
            10,
            "ranked_out",
            "ranked_out",
            "`team` moved in the white list",
        ),
        (
            12,
            "ranked_out",
            "followed",
            "`impressum` moved in the white list",
        ),
    ];
    let expected: Vec<_> = expected
        .iter()
        .map(|(i, a, b, why)| (*i, a.to_string(), b.to_string(), why.to_string()))
        .collect();
    assert_eq!(changes(&report), expected);
    let page = &report["pages"][0];
    assert_eq!(page["url"], "https://www.acme.com/");
    let about = &page["changes"][0];
    assert_eq!(about["url"], "https://www.acme.com/about/");
    assert_eq!(about["text"], "About us");
    assert_eq!(
        about["a"],
        json!({"verdict": "followed", "keyword": "about", "score": 10, "rank": 2})
    );
    assert_eq!(
        about["b"],
        json!({"verdict": "followed", "keyword": "about", "score": 3, "rank": 3})
    );
    assert_eq!(page["counts_a"]["followed"], 3);
    assert_eq!(page["counts_b"]["followed"], 3);
    assert_eq!(page["counts_a"]["blacklisted"], 3);
    assert_eq!(page["counts_b"]["blacklisted"], 2);
    assert_eq!(
        report["summary"],
        json!({"gained": 1, "lost": 1, "verdicts_changed": 5, "links_changed": 7})
    );
    assert_eq!(
        report["a"]["followKeywordsBlack"],
        "blog,news,login,cart,checkout,product,/p/,category,tag,archive"
    );
    assert_eq!(report["b"]["followAllowedDomains"], "acme.de");
}

#[test]
fn diff_table_and_csv_say_the_same() {
    let args = [
        "diff",
        &fixture("acme-home.html"),
        "--against-settings",
        &fixture("settings-tuned.json"),
    ];
    let out = run(&args);
    assert!(out.status.success(), "{}", stderr(&out));
    let table = stdout(&out);
    assert!(table.contains("followAllowedDomains: a = \"\", b = \"acme.de\""));
    assert!(table.contains("+1 followed, −1 followed, 5 verdicts changed"));
    assert!(table.contains("because `tag` removed from the black list"));
    let mut csv_args = args.to_vec();
    csv_args.extend(["--format", "csv"]);
    let csv = stdout(&run(&csv_args));
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines.len(), 8, "{csv}");
    assert!(lines[0].starts_with("page_url,index,url,text,a_verdict"));
    assert!(lines[3].contains("blacklisted,tag,,,no_keyword,,,,`tag` removed from the black list"));
}

#[test]
fn diff_of_a_profile_against_itself_changes_nothing_and_mixes_sources() {
    let dir = config_with_tuned("diff-profiles");
    let config = dir.to_str().unwrap();
    let same = run_json(&[
        "--config-dir",
        config,
        "diff",
        &fixture("acme-home.html"),
        "--profile",
        "tuned",
        "--against-settings",
        &fixture("settings-tuned.json"),
    ]);
    assert_eq!(changes(&same), []);
    let reverse = run_json(&[
        "--config-dir",
        config,
        "diff",
        &fixture("acme-home.html"),
        "--profile",
        "tuned",
        "--against",
        "Scraper defaults",
    ]);
    let because: Vec<String> = changes(&reverse).into_iter().map(|c| c.3).collect();
    assert!(because.contains(&"`tag` added to the black list".to_owned()));
    assert!(because.contains(&"`acme.de` removed from the allowed domains".to_owned()));
    let missing = run(&["diff", &fixture("acme-home.html")]);
    assert_eq!(missing.status.code(), Some(2));
    assert!(
        stderr(&missing).contains("--against"),
        "{}",
        stderr(&missing)
    );
}

#[test]
fn links_carry_region_nofollow_and_inside_word() {
    let report = run_json(&["inspect", &fixture("acme-home.html")]);
    let links = report["pages"][0]["links"].as_array().unwrap();
    let region = |i: usize| links[i]["region"].as_str().unwrap();
    assert_eq!(
        (region(0), region(1), region(4), region(10), region(11)),
        ("header", "nav", "main", "aside", "footer")
    );
    assert_eq!(links[11]["nofollow"], true);
    assert_eq!(
        links[11]["verdict"], "followed",
        "nofollow changes no verdict"
    );
    assert_eq!(links[12]["nofollow"], false);
    // `tag` in heritage and `team` in steam are inside longer words.
    assert_eq!(
        (
            links[5]["keyword"].as_str(),
            links[5]["inside_word"].as_bool()
        ),
        (Some("tag"), Some(true))
    );
    assert_eq!(
        (
            links[10]["keyword"].as_str(),
            links[10]["inside_word"].as_bool()
        ),
        (Some("team"), Some(true))
    );
    assert_eq!(links[4]["inside_word"], false);
    assert_eq!(links[6]["inside_word"], Value::Null);
}

#[test]
fn sibling_roots_are_suggested_for_the_allow_list() {
    let report = run_json(&["inspect", &fixture("acme-home.html")]);
    assert_eq!(
        report["pages"][0]["allow_suggestions"],
        json!([{"domain": "acme.de", "links": 1}, {"domain": "acme.co.uk", "links": 1}])
    );
    let table = stdout(&run(&["inspect", &fixture("acme-home.html")]));
    assert!(
        table.contains("acme.de (1 link), acme.co.uk (1 link)"),
        "{table}"
    );
    let tuned = run_json(&[
        "inspect",
        &fixture("acme-home.html"),
        "--settings",
        &fixture("settings-tuned.json"),
    ]);
    assert_eq!(
        tuned["pages"][0]["allow_suggestions"],
        json!([{"domain": "acme.co.uk", "links": 1}])
    );
}

#[test]
fn host_keyword_on_newsweek_and_teamviewer_style_hosts() {
    let newsweek = run_json(&[
        "inspect",
        &fixture("acme-home.html"),
        "--base-url",
        "https://www.newsweek.com/",
    ]);
    assert_eq!(lint_codes(&newsweek), ["host_keyword"]);
    let message = newsweek["lints"][0]["message"].as_str().unwrap();
    assert!(
        message.contains("`news`") && message.contains("blacklisted"),
        "{message}"
    );
    let counts = &newsweek["pages"][0]["counts"];
    assert_eq!(
        (counts["followed"].as_u64(), counts["ranked_out"].as_u64()),
        (Some(0), Some(0))
    );
    let teamviewer = run_json(&[
        "inspect",
        &fixture("acme-home.html"),
        "--base-url",
        "https://www.teamviewer.com/",
    ]);
    assert_eq!(lint_codes(&teamviewer), ["host_keyword"]);
    let message = teamviewer["lints"][0]["message"].as_str().unwrap();
    assert!(
        message.contains("`team`") && message.contains("document order"),
        "{message}"
    );
    // /privacy has no keyword of its own, but its URL holds the host's `team`.
    let privacy = &teamviewer["pages"][0]["links"][13];
    assert_eq!(privacy["keyword"], "team");
    assert_eq!(privacy["inside_word"], true);
}

#[test]
fn a_folder_corpus_reports_a_page_without_a_url_and_goes_on() {
    let dir = temp_dir("folder");
    std::fs::copy(fixture("acme-home.html"), dir.join("a-acme.html")).unwrap();
    std::fs::copy(fixture("no-canonical.html"), dir.join("b-nameless.html")).unwrap();
    std::fs::write(dir.join("notes.txt"), "not a page").unwrap();
    let report = run_json(&[
        "corpus",
        dir.to_str().unwrap(),
        "--against-settings",
        &fixture("settings-tuned.json"),
    ]);
    let pages = report["pages"].as_array().unwrap();
    assert_eq!(pages.len(), 2);
    assert_eq!(pages[0]["id"], "a-acme");
    assert_eq!(pages[0]["url"], "https://www.acme.com/");
    assert_eq!(pages[0]["changes"].as_array().unwrap().len(), 7);
    assert_eq!(
        pages[0]["followed_a"],
        json!([
            "https://www.acme.com/contact",
            "https://www.acme.com/about/",
            "https://www.acme.com/team"
        ])
    );
    assert_eq!(pages[1]["id"], "b-nameless");
    assert!(
        pages[1]["error"].as_str().unwrap().contains("canonical"),
        "{}",
        pages[1]
    );
    assert_eq!(report["summary"]["pages_failed"], 1);
    let table = stdout(&run(&["corpus", dir.to_str().unwrap()]));
    assert!(
        table.contains("b-nameless") && table.contains("error:"),
        "{table}"
    );
}

#[test]
fn a_manifest_with_a_missing_page_or_column_is_reported() {
    let dir = temp_dir("manifest");
    std::fs::create_dir_all(dir.join("pages")).unwrap();
    std::fs::copy(fixture("acme-home.html"), dir.join("pages/1.html")).unwrap();
    let manifest = dir.join("manifest.tsv");
    std::fs::write(
        &manifest,
        "id\toriginal_url\tnote\n1\thttps://www.acme.com/\tok\n2\thttps://gone.test/\tmissing\n",
    )
    .unwrap();
    let report = run_json(&["corpus", manifest.to_str().unwrap()]);
    assert_eq!(report["pages"][0]["counts_a"]["followed"], 3);
    assert!(
        report["pages"][1]["error"]
            .as_str()
            .unwrap()
            .contains("cannot read")
    );
    assert_eq!(report["b"], Value::Null);
    std::fs::write(&manifest, "id\turl\n1\thttps://www.acme.com/\n").unwrap();
    let out = run(&["corpus", manifest.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("no `original_url` column"),
        "{}",
        stderr(&out)
    );
}

fn sum(report: &Value, list: &str, field: &str) -> u64 {
    report["keywords"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|k| k["list"] == list)
        .map(|k| k[field].as_u64().unwrap())
        .sum()
}

fn total(report: &Value, verdict: &str) -> u64 {
    report["pages"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|p| p["counts_a"][verdict].as_u64())
        .sum()
}

#[test]
fn the_shared_corpus_under_two_profiles_is_complete_deterministic_and_adds_up() {
    let Some(manifest) = crate::corpus::manifest() else {
        return;
    };
    let manifest = manifest.to_str().unwrap();
    let dir = config_with_tuned("corpus-profiles");
    let config = dir.to_str().unwrap();
    let args = |jobs: &'static str| {
        vec![
            "--config-dir".to_owned(),
            config.to_owned(),
            "corpus".to_owned(),
            manifest.to_owned(),
            "--profile".to_owned(),
            "Scraper defaults".to_owned(),
            "--against".to_owned(),
            "tuned".to_owned(),
            "--jobs".to_owned(),
            jobs.to_owned(),
            "--format".to_owned(),
            "json".to_owned(),
        ]
    };
    let one: Vec<String> = args("1");
    let two: Vec<String> = args("2");
    let out1 = run(&one.iter().map(String::as_str).collect::<Vec<_>>());
    let out2 = run(&two.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(out1.status.success(), "{}", stderr(&out1));
    assert_eq!(out1.stdout, out2.stdout, "the output depends on the jobs");
    let report: Value = serde_json::from_slice(&out1.stdout).unwrap();
    let pages = report["pages"].as_array().unwrap();
    assert_eq!(pages.len(), 80);
    assert!(pages.iter().all(|p| p["error"].is_null()), "a page failed");
    let ids: Vec<&str> = pages.iter().map(|p| p["id"].as_str().unwrap()).collect();
    let mut sorted = ids.clone();
    sorted.sort();
    assert_eq!(ids, sorted, "manifest order");
    // Every keyword-decided verdict is counted under exactly one keyword.
    assert_eq!(
        sum(&report, "white", "links"),
        total(&report, "followed") + total(&report, "ranked_out")
    );
    assert_eq!(
        sum(&report, "black", "links"),
        total(&report, "blacklisted")
    );
    for list in ["white", "black"] {
        assert_eq!(
            sum(&report, list, "in_url") + sum(&report, list, "in_text"),
            sum(&report, list, "links")
        );
        assert!(sum(&report, list, "inside_word") <= sum(&report, list, "links"));
    }
    assert_eq!(
        report["summary"]["followed_a"].as_u64(),
        Some(total(&report, "followed"))
    );
    let changed: usize = pages
        .iter()
        .map(|p| p["changes"].as_array().unwrap().len())
        .sum();
    let by_cause: u64 = report["summary"]["causes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["links"].as_u64().unwrap())
        .sum();
    assert_eq!(by_cause as usize, changed);
    assert!(changed > 0);
    let nothing = report["summary"]["nothing_followed_a"].as_array().unwrap();
    let expected = pages
        .iter()
        .filter(|p| p["followed_a"].as_array().unwrap().is_empty())
        .count();
    assert_eq!(nothing.len(), expected);
}
