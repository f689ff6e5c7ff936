//! `corpus --targets`: SPEC 11's metrics, the reason of every missed target,
//! rescued and lost pages, suggestions, and a targets file with bad rows.

use std::path::PathBuf;

use serde_json::{Value, json};

use crate::temp_dir;
use crate::{ok_stdout, parse_json, run, stderr};

/// A link as (href, text).
type Link = (&'static str, &'static str);

/// The pages of the fixture corpus: (id, URL, links).
const PAGES: &[(&str, &str, &[Link])] = &[
    // Found: `kontakt` follows the target.
    (
        "p1",
        "https://acme.test/",
        &[("/kontakt", "Kontakt"), ("/news/contact", "Contact")],
    ),
    // No keyword: "Ihr Besuch"; two other links are followed.
    (
        "p2",
        "https://beta.test/",
        &[
            ("/ihr-besuch", "Ihr Besuch"),
            ("/about-us", "About"),
            ("/team", "Team"),
        ],
    ),
    // Off-domain: the contact page is on a subdomain.
    (
        "p3",
        "https://www.gamma.test/",
        &[("https://help.gamma.test/contact", "Contact")],
    ),
    // Blacklisted by `news` in the host.
    ("p4", "https://news.delta.test/", &[("/contact", "Contact")]),
    // Ranked out: three `contact` links outscore the `company` target.
    (
        "p5",
        "https://eps.test/",
        &[
            ("/contact-lenses/1", "Contact lenses"),
            ("/contact-lenses/2", "Contact lenses"),
            ("/contact-lenses/3", "Contact lenses"),
            ("/company", "Company"),
        ],
    ),
    // Absent: the labelled link is not on the page.
    ("p6", "https://zeta.test/", &[("/shop", "Shop")]),
    // Asset: the imprint is a PDF.
    ("p7", "https://eta.test/", &[("/imprint.pdf", "Impressum")]),
    // Not labelled.
    ("p8", "https://theta.test/", &[("/contact", "Contact")]),
];

const TARGETS: &str = "id\turl\tkind\ttext\tnote\n\
    p1\thttps://acme.test/kontakt\tcontact\tKontakt\t\n\
    p2\thttps://beta.test/ihr-besuch\tcontact\tIhr Besuch\t\n\
    p3\thttps://help.gamma.test/contact\tcontact\tContact\tsubdomain\n\
    p4\thttps://news.delta.test/contact\tcontact\tContact\t\n\
    p5\thttps://eps.test/company\tabout\tCompany\t\n\
    p6\thttps://zeta.test/impressum\timprint\tImpressum\t\n\
    p7\thttps://eta.test/imprint.pdf\timprint\tImpressum\t\n";

/// A manifest corpus of `PAGES` with `targets` beside it.
fn truth_corpus(name: &str, targets: &str) -> PathBuf {
    truth_corpus_of(name, PAGES, targets)
}

pub(crate) fn truth_corpus_of(
    name: &str,
    pages: &[(&str, &str, &[Link])],
    targets: &str,
) -> PathBuf {
    let dir = temp_dir(&format!("truth-{name}"));
    std::fs::create_dir_all(dir.join("pages")).unwrap();
    let mut manifest = String::from("id\toriginal_url\n");
    for (id, url, links) in pages {
        manifest.push_str(&format!("{id}\t{url}\n"));
        let anchors: String = links
            .iter()
            .map(|(href, text)| format!("<a href=\"{href}\">{text}</a>\n"))
            .collect();
        std::fs::write(
            dir.join("pages").join(format!("{id}.html")),
            format!("<!doctype html><title>{id}</title><body>{anchors}</body>"),
        )
        .unwrap();
    }
    std::fs::write(dir.join("manifest.tsv"), manifest).unwrap();
    std::fs::write(dir.join("targets.tsv"), targets).unwrap();
    dir
}

/// `corpus` over the fixture in `dir` with its targets file, and `extra`.
fn corpus_out(dir: &std::path::Path, extra: &[&str]) -> std::process::Output {
    let manifest = dir.join("manifest.tsv");
    let targets = dir.join("targets.tsv");
    let mut args = vec![
        "corpus",
        manifest.to_str().unwrap(),
        "--targets",
        targets.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    run(&args)
}

fn corpus_json(dir: &std::path::Path, extra: &[&str]) -> Value {
    let mut args = vec!["--format", "json"];
    args.extend_from_slice(extra);
    parse_json(&ok_stdout(&corpus_out(dir, &args)))
}

/// (id, verdict, keyword, rank, limit, reason) of every missed target.
fn missed(evaluation: &Value, key: &str) -> Vec<(String, String, Value, Value, u64, String)> {
    evaluation[key]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            (
                m["id"].as_str().unwrap().to_owned(),
                m["verdict"].as_str().unwrap().to_owned(),
                m["keyword"].clone(),
                m["rank"].clone(),
                m["limit"].as_u64().unwrap(),
                m["reason"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

fn s(text: &str) -> String {
    text.to_owned()
}

#[test]
fn metrics_and_every_reason_of_a_missed_target() {
    let dir = truth_corpus("metrics", TARGETS);
    let report = corpus_json(&dir, &[]);
    let e = &report["evaluation"];
    assert_eq!(
        e["a"],
        json!({
            "labelled_pages": 7,
            "found": 1,
            "site_recall": 1.0 / 7.0,
            "by_kind": {
                "contact": {"labelled_pages": 4, "found": 1},
                "imprint": {"labelled_pages": 2, "found": 0},
                "about": {"labelled_pages": 1, "found": 0},
            },
            "target_links": 7,
            "target_links_followed": 1,
            // p1 follows its target; p2 follows About and Team; p5 three lenses.
            "precision": 1.0 / 6.0,
            "followed_per_page": 6.0 / 7.0,
        })
    );
    assert_eq!(e["b"], Value::Null);
    assert_eq!(
        missed(e, "missed"),
        vec![
            (
                s("p2"),
                s("no_keyword"),
                Value::Null,
                Value::Null,
                3,
                s("no keyword: text \"Ihr Besuch\"")
            ),
            (
                s("p3"),
                s("off_domain"),
                Value::Null,
                Value::Null,
                3,
                s("off-domain: `help.gamma.test`, subdomain mode off")
            ),
            (
                s("p4"),
                s("blacklisted"),
                json!("news"),
                Value::Null,
                3,
                s("blacklisted by `news` in the host")
            ),
            (
                s("p5"),
                s("ranked_out"),
                json!("company"),
                json!(4),
                3,
                s("ranked 4th of N = 3 by `company`, 5 points below the cut-off")
            ),
            (
                s("p6"),
                s("absent"),
                Value::Null,
                Value::Null,
                3,
                s("absent: no link of the page has this URL")
            ),
            (
                s("p7"),
                s("asset"),
                Value::Null,
                Value::Null,
                3,
                s("asset: `.pdf`")
            ),
        ]
    );
    // Each page's row says how many targets it has and whether A reaches one.
    let csv = ok_stdout(&corpus_out(&dir, &["--format", "csv"]));
    let rows: Vec<&str> = csv.lines().collect();
    assert!(
        rows[0].ends_with(",targets,targets_followed_a,targets_followed_b,found_a,found_b"),
        "{}",
        rows[0]
    );
    assert!(
        rows[1].starts_with("p1,") && rows[1].ends_with(",1,1,,true,"),
        "{}",
        rows[1]
    );
    assert!(rows[2].ends_with(",1,0,,false,"), "{}", rows[2]);
    assert!(
        rows[8].starts_with("p8,") && rows[8].ends_with(",,,,,"),
        "{}",
        rows[8]
    );
}

/// (change, kind, pages gained, pages lost, targets gained, non-targets gained).
fn suggestions(e: &Value) -> Vec<(String, String, Value, Value, u64, u64)> {
    e["suggestions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["change"].as_str().unwrap().to_owned(),
                s["kind"].as_str().unwrap().to_owned(),
                s["pages"]["gained"].clone(),
                s["pages"]["lost"].clone(),
                s["targets_gained"].as_u64().unwrap(),
                s["non_targets_gained"].as_u64().unwrap(),
            )
        })
        .collect()
}

#[test]
fn suggestions_rescue_known_pages_and_say_what_they_cost() {
    let dir = truth_corpus("suggest", TARGETS);
    let report = corpus_json(&dir, &["--suggest", "40"]);
    let e = &report["evaluation"];
    let all = suggestions(e);
    let find = |change: &str| {
        all.iter()
            .find(|s| s.0 == change)
            .unwrap_or_else(|| panic!("no suggestion `{change}` in {all:#?}"))
            .clone()
    };
    // A keyword from the "Ihr Besuch" link rescues p2 and costs nothing
    // there: N = 3 and only two other links are followed.
    assert_eq!(
        find("`besuch` added to the white list"),
        (
            s("`besuch` added to the white list"),
            s("add_white"),
            json!(["p2"]),
            json!([]),
            1,
            0
        )
    );
    // Moving `company` forward rescues p5 and puts its target above a lens.
    assert_eq!(
        find("`company` moved to the front of the white list"),
        (
            s("`company` moved to the front of the white list"),
            s("move_white"),
            json!(["p5"]),
            json!([]),
            1,
            0
        )
    );
    assert_eq!(
        find("`news` removed from the black list"),
        (
            s("`news` removed from the black list"),
            s("remove_black"),
            json!(["p4"]),
            json!([]),
            1,
            1
        )
    );
    assert_eq!(
        find("subdomain mode turned on"),
        (
            s("subdomain mode turned on"),
            s("subdomain"),
            json!(["p3"]),
            json!([]),
            1,
            0
        )
    );
    assert_eq!(
        find("`gamma.test` added to the allowed domains").2,
        json!(["p3"])
    );
    // Ranked: pages gained minus lost, then fewer non-target follows.
    let net: Vec<i64> = all
        .iter()
        .map(|s| s.2.as_array().unwrap().len() as i64 - s.3.as_array().unwrap().len() as i64)
        .collect();
    assert!(net.windows(2).all(|w| w[0] >= w[1]), "{net:?}");
    // Each suggestion carries the whole settings with only its change.
    let besuch = e["suggestions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["change"] == "`besuch` added to the white list")
        .unwrap();
    assert_eq!(
        besuch["settings"]["followKeywordsWhite"],
        "contact,about,team,impressum,imprint,company,联系,关于,kontakt,contato,nosotros,besuch"
    );
    assert_eq!(
        besuch["settings"]["followKeywordsBlack"],
        report["a"]["followKeywordsBlack"]
    );
    assert!(e["candidates_tried"].as_u64().unwrap() >= all.len() as u64);
}

#[test]
fn suggestions_are_ranked_by_validated_pages_then_pages_then_cost_then_words() {
    let dir = truth_corpus("rank", TARGETS);
    let report = corpus_json(&dir, &["--suggest", "100"]);
    let e = &report["evaluation"];
    let all = suggestions(e);
    let listed = e["suggestions"].as_array().unwrap();
    let keys: Vec<_> = all
        .iter()
        .zip(listed)
        .map(|(s, json)| {
            let lost = s.3.as_array().unwrap().len() as i64;
            let net = s.2.as_array().unwrap().len() as i64 - lost;
            let validated = json["validated_gain"].as_i64().unwrap() - lost;
            (-validated, -net, s.5, s.0.clone())
        })
        .collect();
    let mut sorted = keys.clone();
    sorted.sort();
    assert_eq!(keys, sorted);
    // The same pages gained: the one with no other follow comes first.
    let at = |change: &str| all.iter().position(|s| s.0 == change).unwrap();
    assert!(at("`besuch` added to the white list") < at("`news` removed from the black list"));
    // Words that change the same links are one suggestion, named by the
    // longest; the others are its alternatives.
    let besuch = &listed[at("`besuch` added to the white list")];
    assert_eq!(besuch["alternatives"], json!(["ihr"]));
    assert!(!all.iter().any(|s| s.0 == "`ihr` added to the white list"));
    // Proposed by p2's miss alone and gaining only p2: nothing validated.
    assert_eq!(besuch["validated_gain"], 0);
    assert_eq!(besuch["sites_evidence"], json!(["p2"]));
    assert_eq!(besuch["source"], "pages");
    // Subdomain mode needs no page's evidence: its gain is validated.
    let subdomain = &listed[at("subdomain mode turned on")];
    assert_eq!(subdomain["validated_gain"], subdomain["pages_gained"]);
    assert_eq!(subdomain["source"], "mode");
}

#[test]
fn rescued_and_lost_both_ways() {
    let dir = truth_corpus("against", TARGETS);
    let b = dir.join("b.json");
    std::fs::write(
        &b,
        r#"{"followSubdomain": true, "followKeywordsWhite": "contact,about,team,impressum,imprint,company"}"#,
    )
    .unwrap();
    let report = corpus_json(&dir, &["--against-settings", b.to_str().unwrap()]);
    let e = &report["evaluation"];
    assert_eq!(e["rescued"], json!(["p3"]));
    assert_eq!(e["lost"], json!(["p1"]));
    // With the links that make the difference.
    assert_eq!(
        e["rescued_links"],
        json!([{"id": "p3", "url": "https://help.gamma.test/contact", "kind": "contact", "text": "Contact"}])
    );
    assert_eq!(e["lost_links"][0]["url"], "https://acme.test/kontakt");
    assert_eq!(e["a"]["found"], 1);
    assert_eq!(e["b"]["found"], 1);
    // B's misses are its own: p1's `kontakt` link matches no keyword under B.
    let missed_b = missed(e, "missed_b");
    assert_eq!(missed_b[0].0, "p1");
    assert_eq!(missed_b[0].1, "no_keyword");
    // The other way round, what B rescued A loses.
    let swapped = dir.join("a.json");
    std::fs::write(&swapped, r#"{}"#).unwrap();
    let report = corpus_json(
        &dir,
        &[
            "--settings",
            b.to_str().unwrap(),
            "--against-settings",
            swapped.to_str().unwrap(),
        ],
    );
    let e = &report["evaluation"];
    assert_eq!(e["rescued"], json!(["p1"]));
    assert_eq!(e["lost"], json!(["p3"]));
}

#[test]
fn the_table_shows_the_scoreboard_misses_and_suggestions() {
    let dir = truth_corpus("table", TARGETS);
    let table = ok_stdout(&corpus_out(&dir, &[]));
    for line in [
        "ground truth: 7 labelled pages, 7 targets",
        "  A reaches a contact, imprint or about page on 1/7 sites (14%); 0.9 links followed per site",
        "  a: contact 1/4, imprint 0/2, about 0/1 sites; 1/7 target links followed; precision 17%",
        "missed on the pages where a reaches none (6 targets)",
    ] {
        assert!(
            table.lines().any(|l| l == line),
            "no line {line:?} in:\n{table}"
        );
    }
    assert!(
        table.contains("blacklisted by `news` in the host"),
        "{table}"
    );
    assert!(
        table
            .lines()
            .any(|l| l.ends_with("`besuch` added to the white list (same links as `ih…")),
        "{table}"
    );
}

#[test]
fn a_targets_file_with_bad_rows_is_used_where_it_can_be() {
    let targets = format!(
        "{TARGETS}\
         p9\thttps://nowhere.test/contact\tcontact\n\
         p1\thttps://acme.test/kontakt#form\tabout\n\
         p2\thttp://[not a url\tcontact\n\
         p2\thttps://beta.test/team\tcareers\n"
    );
    let dir = truth_corpus("bad-rows", &targets);
    let out = corpus_out(&dir, &["--format", "json"]);
    let report = parse_json(&ok_stdout(&out));
    let warnings = stderr(&out);
    for line in [
        "warning: targets line 9: the corpus has no page `p9`",
        "warning: targets line 10: page p1 already has this url on line 2 as contact; \
         `about` is not counted",
        "warning: targets line 11: the url `http://[not a url` does not parse: invalid IPv6 address",
        "warning: targets line 12: the kind `careers` is not contact, imprint or about",
    ] {
        assert!(
            warnings.lines().any(|l| l == line),
            "no {line:?} in:\n{warnings}"
        );
    }
    let e = &report["evaluation"];
    assert_eq!(e["a"]["labelled_pages"], 7);
    assert_eq!(e["problems"].as_array().unwrap().len(), 4);
}

#[test]
fn a_targets_file_without_a_kind_column_is_refused() {
    let dir = truth_corpus("no-kind", "id\turl\np1\thttps://acme.test/kontakt\n");
    let out = corpus_out(&dir, &[]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains(&format!(
            "{}: the targets file's header has no `kind` column (it needs id, url and kind)",
            dir.join("targets.tsv").display()
        )),
        "{}",
        stderr(&out)
    );
}

#[test]
fn the_labelled_real_homepages_give_the_issues_numbers() {
    let Some(manifest) = crate::corpus::manifest() else {
        return;
    };
    let targets = manifest.with_file_name("targets.tsv");
    let out = run(&[
        "corpus",
        manifest.to_str().unwrap(),
        "--targets",
        targets.to_str().unwrap(),
        "--format",
        "json",
    ]);
    let e = &parse_json(&ok_stdout(&out))["evaluation"];
    assert_eq!(e["a"]["labelled_pages"], 68);
    assert_eq!(e["a"]["found"], 49);
    assert_eq!(e["a"]["target_links"], 202);
    let mut reasons = std::collections::BTreeMap::new();
    for m in e["missed"].as_array().unwrap() {
        *reasons.entry(m["verdict"].as_str().unwrap()).or_insert(0) += 1;
    }
    assert_eq!(
        reasons,
        [
            ("blacklisted", 1),
            ("no_keyword", 14),
            ("off_domain", 24),
            ("ranked_out", 1)
        ]
        .into()
    );
    assert!(
        e["problems"].as_array().unwrap().is_empty(),
        "{}",
        e["problems"]
    );
}

#[test]
fn an_archive_corpus_is_labelled_by_page_url() {
    // However the file writes the URL: `https://ACME.test` is `https://acme.test/`.
    use crate::warc_files::{html_response, per_record_gzip, warcinfo, write};
    let dir = temp_dir("truth-archive");
    let page = |links: &[Link]| -> String {
        let anchors: String = links
            .iter()
            .map(|(href, text)| format!("<a href=\"{href}\">{text}</a>"))
            .collect();
        format!("<!doctype html><body>{anchors}</body>")
    };
    let archive = write(
        &dir,
        "pages.warc.gz",
        &per_record_gzip(&[
            warcinfo(),
            html_response("https://acme.test/", &page(PAGES[0].2)),
            html_response("https://beta.test/", &page(PAGES[1].2)),
        ]),
    );
    let targets = write(
        &dir,
        "targets.tsv",
        b"id\turl\tkind\n\
          https://ACME.test\thttps://acme.test/kontakt\tcontact\n\
          https://beta.test/\thttps://beta.test/ihr-besuch\tcontact\n",
    );
    let out = run(&[
        "corpus",
        archive.to_str().unwrap(),
        "--targets",
        targets.to_str().unwrap(),
        "--format",
        "json",
    ]);
    let e = &parse_json(&ok_stdout(&out))["evaluation"];
    assert_eq!(
        (e["a"]["labelled_pages"].clone(), e["a"]["found"].clone()),
        (json!(2), json!(1))
    );
    assert_eq!(e["missed"][0]["id"], "https://beta.test/");
    assert!(e["problems"].as_array().unwrap().is_empty());
}

#[test]
fn a_labelled_page_that_cannot_be_read_is_named() {
    let dir = truth_corpus("unread", TARGETS);
    std::fs::remove_file(dir.join("pages").join("p2.html")).unwrap();
    let out = corpus_out(&dir, &["--format", "json"]);
    let report = parse_json(&ok_stdout(&out));
    assert!(
        stderr(&out).contains(
            "warning: targets line 3: page p2 could not be read; its targets are not counted"
        ),
        "{}",
        stderr(&out)
    );
    assert_eq!(report["evaluation"]["a"]["labelled_pages"], 6);
}

#[test]
fn every_suggestion_holds_when_its_settings_are_run() {
    let dir = truth_corpus("hold", TARGETS);
    let report = corpus_json(&dir, &["--suggest", "1000"]);
    let e = &report["evaluation"];
    let target_urls: Vec<&str> = TARGETS
        .lines()
        .skip(1)
        .map(|l| l.split('\t').nth(1).unwrap())
        .collect();
    // Per labelled page (p1-p7), the links it follows.
    let followed = |report: &Value| -> Vec<Vec<String>> {
        report["pages"].as_array().unwrap()[..7]
            .iter()
            .map(|p| {
                p["followed_a"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|u| u.as_str().unwrap().to_owned())
                    .collect()
            })
            .collect()
    };
    let found = |followed: &[Vec<String>]| -> Vec<String> {
        followed
            .iter()
            .enumerate()
            .filter(|(_, links)| links.iter().any(|l| target_urls.contains(&l.as_str())))
            .map(|(i, _)| format!("p{}", i + 1))
            .collect()
    };
    let before = followed(&report);
    let suggestions = e["suggestions"].as_array().unwrap();
    assert!(!suggestions.is_empty());
    for (n, s) in suggestions.iter().enumerate() {
        let settings = dir.join(format!("s{n}.json"));
        std::fs::write(&settings, s["settings"].to_string()).unwrap();
        let after = followed(&corpus_json(
            &dir,
            &["--settings", settings.to_str().unwrap(), "--suggest", "0"],
        ));
        let ids = |v: &Value| -> Vec<String> {
            v.as_array()
                .unwrap()
                .iter()
                .map(|id| id.as_str().unwrap().to_owned())
                .collect()
        };
        let (was, now) = (found(&before), found(&after));
        let gained: Vec<String> = now.iter().filter(|id| !was.contains(id)).cloned().collect();
        let lost: Vec<String> = was.iter().filter(|id| !now.contains(id)).cloned().collect();
        assert_eq!(
            (gained, lost),
            (ids(&s["pages"]["gained"]), ids(&s["pages"]["lost"])),
            "{}",
            s["change"]
        );
        let new_follows: Vec<&String> = after
            .iter()
            .zip(&before)
            .flat_map(|(a, b)| a.iter().filter(move |l| !b.contains(l)))
            .collect();
        let targets = new_follows
            .iter()
            .filter(|l| target_urls.contains(&l.as_str()))
            .count();
        assert_eq!(
            (targets as u64, (new_follows.len() - targets) as u64),
            (
                s["targets_gained"].as_u64().unwrap(),
                s["non_targets_gained"].as_u64().unwrap()
            ),
            "{}",
            s["change"]
        );
    }
}

#[test]
fn a_keyword_across_url_and_text_and_an_address_host_are_judged_as_the_policy_does() {
    let pages: &[(&str, &str, &[Link])] = &[
        // `us con` matches "…/about-us contact": the URL and the text joined.
        ("q1", "https://q.test/", &[("/about-us", "Contact")]),
        // A host that is an address has no registrable domain to allow.
        (
            "q2",
            "https://r.test/",
            &[("http://192.168.1.10/contact", "Contact")],
        ),
    ];
    let targets = "id\turl\tkind\n\
        q1\thttps://q.test/about-us\tcontact\n\
        q2\thttp://192.168.1.10/contact\tcontact\n";
    let dir = truth_corpus_of("across", pages, targets);
    let a = dir.join("a.json");
    std::fs::write(&a, r#"{"followKeywordsBlack": "us con"}"#).unwrap();
    let report = corpus_json(&dir, &["--settings", a.to_str().unwrap()]);
    let e = &report["evaluation"];
    assert_eq!(
        e["missed"][0]["reason"],
        "blacklisted by `us con` in the URL"
    );
    let all = suggestions(e);
    let removed = all
        .iter()
        .find(|s| s.0 == "`us con` removed from the black list")
        .unwrap_or_else(|| panic!("{all:#?}"));
    assert_eq!(removed.2, json!(["q1"]));
    assert!(all.iter().all(|s| s.1 != "allow_domain"), "{all:#?}");
}

#[test]
fn a_targets_file_that_labels_no_page_of_the_corpus_says_so() {
    let dir = truth_corpus(
        "none",
        "id\turl\tkind\nzz\thttps://zz.test/contact\tcontact\n",
    );
    let out = corpus_out(&dir, &["--format", "json"]);
    let report = parse_json(&ok_stdout(&out));
    assert!(
        stderr(&out).contains(
            "warning: the targets file labels none of the 8 corpus pages: check that it belongs to this corpus"
        ),
        "{}",
        stderr(&out)
    );
    let e = &report["evaluation"];
    assert_eq!(e["a"]["labelled_pages"], 0);
    assert_eq!(e["a"]["site_recall"], Value::Null);
    assert_eq!(e["suggestions"], json!([]));
}
