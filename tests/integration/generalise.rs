//! SPEC 11 "Suggestions that generalise": whole words, validated gain, the
//! lexicon, `--tune` with its bounds and its cross-validated figure, and
//! what bad tuning input gets.

use serde_json::{Value, json};

use crate::truth::truth_corpus_of;
use crate::{ok_stdout, parse_json, run, stderr, stdout};

type Link = (&'static str, &'static str);

/// Six labelled pages: `ansprechpartner` is missed on p1 and p2 (a word two
/// sites share), `zzyzxhof` on p3 alone; p4 and p5 are Japanese (their paths
/// have no word); p6 is found.
const PAGES: &[(&str, &str, &[Link])] = &[
    (
        "p1",
        "https://a.test/",
        &[("/ansprechpartner", "Ansprechpartner")],
    ),
    (
        "p2",
        "https://b.test/",
        &[("/de/ansprechpartner", "Ansprechpartner")],
    ),
    ("p3", "https://c.test/", &[("/zzyzxhof", "Zzyzxhof")]),
    ("p4", "https://d.test/", &[("/c/1", "お問い合わせ")]),
    ("p5", "https://e.test/", &[("/c/2", "会社概要はこちら")]),
    ("p6", "https://f.test/", &[("/contact", "Contact")]),
];

const TARGETS: &str = "id\turl\tkind\n\
    p1\thttps://a.test/ansprechpartner\tcontact\n\
    p2\thttps://b.test/de/ansprechpartner\tcontact\n\
    p3\thttps://c.test/zzyzxhof\tcontact\n\
    p4\thttps://d.test/c/1\tcontact\n\
    p5\thttps://e.test/c/2\tabout\n\
    p6\thttps://f.test/contact\tcontact\n";

/// A lexicon of one Finnish word no page has, so that only the pages'
/// words are candidates.
const NO_MATCH_LEXICON: &str = "language\tkind\tword\tsource\nfi\tcontact\tyhteystiedot\ttest\n";

/// A manifest corpus of `pages` with `targets` and [`NO_MATCH_LEXICON`]
/// beside it.
fn corpus_of(name: &str, pages: &[(&str, &str, &[Link])], targets: &str) -> std::path::PathBuf {
    let dir = truth_corpus_of(name, pages, targets);
    std::fs::write(dir.join("lexicon.tsv"), NO_MATCH_LEXICON).unwrap();
    dir
}

fn corpus(name: &str) -> std::path::PathBuf {
    corpus_of(name, PAGES, TARGETS)
}

/// `corpus MANIFEST --targets TARGETS` and `extra`.
fn labelled(
    manifest: &std::path::Path,
    targets: &std::path::Path,
    extra: &[&str],
) -> std::process::Output {
    let (manifest, targets) = (
        manifest.display().to_string(),
        targets.display().to_string(),
    );
    let mut args = vec!["corpus", manifest.as_str(), "--targets", targets.as_str()];
    args.extend_from_slice(extra);
    run(&args)
}

fn run_with(dir: &std::path::Path, extra: &[&str]) -> std::process::Output {
    labelled(&dir.join("manifest.tsv"), &dir.join("targets.tsv"), extra)
}

fn json_of(dir: &std::path::Path, extra: &[&str]) -> Value {
    let mut all = vec!["--format", "json"];
    all.extend_from_slice(extra);
    parse_json(&ok_stdout(&run_with(dir, &all)))
}

fn suggestion<'a>(report: &'a Value, change: &str) -> &'a Value {
    report["evaluation"]["suggestions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["change"] == change)
        .unwrap_or_else(|| panic!("no `{change}` in {:#}", report["evaluation"]["suggestions"]))
}

fn changes(report: &Value) -> Vec<String> {
    report["evaluation"]["suggestions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["change"].as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn a_word_two_sites_share_ranks_above_a_word_of_one_page() {
    let dir = corpus("shared-word");
    let lexicon = dir.join("lexicon.tsv");
    let report = json_of(
        &dir,
        &["--lexicon", lexicon.to_str().unwrap(), "--suggest", "50"],
    );
    let shared = suggestion(&report, "`ansprechpartner` added to the white list");
    assert_eq!(shared["pages_gained"], 2);
    assert_eq!(shared["validated_gain"], 2);
    assert_eq!(shared["sites_evidence"], json!(["p1", "p2"]));
    assert_eq!(
        shared["validated"],
        "gains 2 sites; all of them still when the page each came from is left out"
    );
    let lone = suggestion(&report, "`zzyzxhof` added to the white list");
    assert_eq!(
        (lone["pages_gained"].clone(), lone["validated_gain"].clone()),
        (json!(1), json!(0))
    );
    assert_eq!(
        lone["validated"],
        "gains 1 site; 0 of them still when the page it came from is left out"
    );
    let order = changes(&report);
    let at = |c: &str| order.iter().position(|x| x == c).unwrap();
    assert!(
        at("`ansprechpartner` added to the white list") < at("`zzyzxhof` added to the white list")
    );
    // The table has the validated column.
    let table = ok_stdout(&run_with(&dir, &["--lexicon", lexicon.to_str().unwrap()]));
    assert!(
        table.contains("+pages valid −pages +targets +other proposed  change"),
        "{table}"
    );
}

#[test]
fn words_of_scripts_without_spaces_are_whole_words_not_fragments() {
    let dir = corpus("whole-words");
    let lexicon = dir.join("lexicon.tsv");
    let report = json_of(
        &dir,
        &["--lexicon", lexicon.to_str().unwrap(), "--suggest", "100"],
    );
    let all = changes(&report);
    let inquiry = suggestion(&report, "`お問い合わせ` added to the white list");
    assert_eq!(inquiry["pages"]["gained"], json!(["p4"]));
    // The compound of the segmenter's words names the suggestion; its
    // parts change the same links and are its alternatives.
    let about = suggestion(&report, "`会社概要` added to the white list");
    let alternatives = about["alternatives"].as_array().unwrap();
    assert!(alternatives.contains(&json!("会社")), "{about:#}");
    for fragment in ["い合", "問い合", "社概", "会社概", "はこち"] {
        assert!(
            !all.iter().any(|c| c.contains(&format!("`{fragment}`"))),
            "fragment {fragment} in {all:#?}"
        );
    }
}

#[test]
fn lexicon_words_are_candidates_where_a_link_has_them_and_count_without_evidence() {
    let dir = corpus("lexicon");
    let lexicon = dir.join("mine.tsv");
    std::fs::write(
        &lexicon,
        "# two German words, one Japanese\nlanguage\tkind\tword\tsource\n\
         de\tcontact\tansprechpartner\ttest\nde\tcontact\tanfahrt\ttest\n\
         ja\tcontact\tお問い合わせ\ttest\nfi\tcontact\tyhteystiedot\ttest\n",
    )
    .unwrap();
    let report = json_of(
        &dir,
        &["--lexicon", lexicon.to_str().unwrap(), "--suggest", "100"],
    );
    let word = suggestion(&report, "`お問い合わせ` added to the white list");
    assert_eq!(word["source"], "lexicon");
    assert_eq!(word["language"], "ja");
    // One page's evidence, yet validated: a lexicon word needs none.
    assert_eq!(word["validated_gain"], 1);
    let german = suggestion(
        &report,
        "the lexicon's 2 words for `de` added to the white list",
    );
    assert_eq!(german["kind"], "add_white_language");
    assert_eq!(german["words"], json!(["ansprechpartner", "anfahrt"]));
    assert_eq!(german["validated_gain"], 2);
    // No page has a Finnish word: no Finnish candidate.
    assert!(
        !changes(&report)
            .iter()
            .any(|c| c.contains("yhteystiedot") || c.contains("`fi`"))
    );
}

#[test]
fn tune_applies_validated_steps_reports_them_and_writes_the_settings() {
    let dir = corpus("tune");
    let lexicon = dir.join("lexicon.tsv");
    let out = dir.join("tuned.json");
    let lex = lexicon.to_str().unwrap();
    let run = run_with(
        &dir,
        &[
            "--format",
            "json",
            "--lexicon",
            lex,
            "--tune",
            "5",
            "--tune-out",
            out.to_str().unwrap(),
        ],
    );
    let report = parse_json(&ok_stdout(&run));
    let tuning = &report["tuning"];
    let steps = tuning["steps"].as_array().unwrap();
    assert_eq!(
        steps[0]["change"],
        "`ansprechpartner` added to the white list"
    );
    assert_eq!(steps[0]["validated_gain"], 2);
    for step in steps {
        let net = step["validated_gain"].as_i64().unwrap() - step["pages_lost"].as_i64().unwrap();
        assert!(net > 0, "{step:#}");
        for key in [
            "kind",
            "pages_gained",
            "site_recall",
            "precision",
            "followed_per_page",
        ] {
            assert!(!step[key].is_null(), "{key} in {step:#}");
        }
    }
    // One-page words never validate: the tuning stops when they are all
    // that is left.
    assert_eq!(tuning["stopped"], "no_gain");
    assert!(
        !steps
            .iter()
            .any(|s| s["change"].as_str().unwrap().contains("zzyzxhof")),
        "{tuning:#}"
    );
    assert!(
        tuning["settings"]["followKeywordsWhite"]
            .as_str()
            .unwrap()
            .ends_with(",ansprechpartner")
    );
    // Six labelled pages, five folds: the honest figure is there.
    let cv = &tuning["cross_validated"];
    assert_eq!(
        (cv["folds"].clone(), cv["labelled_pages"].clone()),
        (json!(5), json!(6))
    );
    // The file holds the tuned settings, and runs as a settings file.
    let written: Value = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert_eq!(written, tuning["settings"]);
    assert!(
        stderr(&run).contains("wrote the settings tuned in"),
        "{}",
        stderr(&run)
    );
    let again = json_of(
        &dir,
        &["--settings", out.to_str().unwrap(), "--lexicon", lex],
    );
    assert_eq!(
        again["evaluation"]["a"]["found"], tuning["after"]["found"],
        "the tuned settings find what the tuning said"
    );
    // The table shows the steps and the honest figure.
    let table = ok_stdout(&run_with(&dir, &["--lexicon", lex, "--tune", "5"]));
    assert!(table.contains("tuning (--tune 5: "), "{table}");
    assert!(
        table.contains("cross-validated (5-fold, tuned on the other folds)"),
        "{table}"
    );
}

#[test]
fn bounds_no_step_can_keep_stop_the_tuning_and_say_so() {
    let dir = corpus("bounds");
    let lex = dir.join("lexicon.tsv");
    let tuned = |bound: &str| {
        let out = dir.join(format!("tuned-{bound}.json"));
        let run = run_with(
            &dir,
            &[
                "--format",
                "json",
                "--lexicon",
                lex.to_str().unwrap(),
                "--tune",
                "3",
                "--max-followed-per-page",
                bound,
                "--tune-out",
                out.to_str().unwrap(),
            ],
        );
        let report = parse_json(&ok_stdout(&run));
        assert_eq!(report["tuning"]["steps"], json!([]));
        // Nothing was changed: the file holds A as it was.
        let written: Value = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
        assert_eq!(written, report["a"]);
        (report["tuning"]["stopped"].clone(), stderr(&run))
    };
    // A follows 1 link on 6 pages: 0.17 a page, over the bound already.
    let (stopped, said) = tuned("0.1");
    assert_eq!(stopped, "start_breaks_bounds");
    assert!(
        said.contains(
            "A itself breaks the bound --max-followed-per-page 0.1 (0.17 links followed per site, precision 100%), and no change that gains brings it within"
        ),
        "{said}"
    );
    // Every change that gains follows more than 0.2 a page.
    let (stopped, said) = tuned("0.2");
    assert_eq!(stopped, "bounds");
    assert!(
        said.contains("every change that gains breaks the bound --max-followed-per-page 0.2; the best was `ansprechpartner` added to the white list"),
        "{said}"
    );
}

/// SPEC 11 5. asks only that each step's result keep the bounds: settings
/// that break `--min-precision` already take a step that brings them within.
#[test]
fn settings_under_the_precision_bound_take_a_step_that_brings_them_within() {
    // A follows `/team` (no target) on p1 and nothing on p2: precision 0.
    const PAGES: &[(&str, &str, &[Link])] = &[
        (
            "p1",
            "https://a.test/",
            &[("/team", "Team"), ("/ansprechpartner", "Ansprechpartner")],
        ),
        (
            "p2",
            "https://b.test/",
            &[("/de/ansprechpartner", "Ansprechpartner")],
        ),
    ];
    const TARGETS: &str = "id\turl\tkind\n\
        p1\thttps://a.test/ansprechpartner\tcontact\n\
        p2\thttps://b.test/de/ansprechpartner\tcontact\n";
    let dir = corpus_of("under-the-bound", PAGES, TARGETS);
    let lex = dir.join("lexicon.tsv");
    let report = json_of(
        &dir,
        &[
            "--lexicon",
            lex.to_str().unwrap(),
            "--tune",
            "2",
            "--min-precision",
            "0.5",
        ],
    );
    let tuning = &report["tuning"];
    assert_eq!(
        tuning["steps"][0]["change"], "`ansprechpartner` added to the white list",
        "{tuning:#}"
    );
    // 2 of the 3 links followed are targets.
    let precision = tuning["steps"][0]["precision"].as_f64().unwrap();
    assert!((precision - 2.0 / 3.0).abs() < 1e-9, "{tuning:#}");
    assert_eq!(tuning["stopped"], "no_gain", "{tuning:#}");
}

#[test]
fn bad_tuning_input_is_refused_in_words_with_exit_2() {
    let dir = corpus("bad-tune");
    let folder = dir.join("pages");
    let huge = dir.join("huge.tsv");
    std::fs::File::create(&huge)
        .unwrap()
        .set_len(5 << 20)
        .unwrap();
    let broken = dir.join("broken.tsv");
    std::fs::write(
        &broken,
        "language\tkind\tword\tsource\nde\tcareers\tjobs\tx\n",
    )
    .unwrap();
    let cases: &[(&[&str], &str)] = &[
        (&["--tune", "0"], "0 steps tunes nothing: give 1 to 100"),
        (&["--tune", "-2"], "a number of steps cannot be negative"),
        (
            &["--tune", "100000"],
            "give a number of steps from 1 to 100",
        ),
        (&["--tune", "many"], "give a number of steps from 1 to 100"),
        (
            &["--tune", "2", "--min-precision", "1.5"],
            "give a precision from 0 to 1",
        ),
        (
            &["--tune", "2", "--max-followed-per-page", "-1"],
            "a number above 0",
        ),
        (
            &["--min-precision", "0.5"],
            "--min-precision bounds --tune: give --tune N too",
        ),
        (
            &["--tune-out", "x.json"],
            "--tune-out bounds --tune: give --tune N too",
        ),
        (
            &["--tune", "2", "--tune-out", folder.to_str().unwrap()],
            "cannot write the tuned settings to",
        ),
        (
            &["--lexicon", huge.to_str().unwrap()],
            "is over 4194304 bytes",
        ),
        (
            &["--lexicon", broken.to_str().unwrap()],
            "line 2: `careers` is no kind",
        ),
        (
            &["--lexicon", "/nonexistent/lexicon.tsv"],
            "cannot use the lexicon",
        ),
        (
            &["--tune", "2", "--format", "partial"],
            "a shard does not suggest or tune",
        ),
        (
            &["--lexicon", "x.tsv", "--format", "partial"],
            "give --tune and --lexicon to `corpus merge`",
        ),
    ];
    for (extra, words) in cases {
        let out = run_with(&dir, extra);
        assert_eq!(out.status.code(), Some(2), "{extra:?}: {}", stderr(&out));
        assert!(stderr(&out).contains(words), "{extra:?}: {}", stderr(&out));
        assert!(stdout(&out).is_empty(), "{extra:?}");
    }
    // A targets file that labels none of the pages: nothing to tune.
    let other = dir.join("other.tsv");
    std::fs::write(&other, "id\turl\tkind\nzz\thttps://z.test/\tcontact\n").unwrap();
    let never = dir.join("never.json");
    let none = run(&[
        "corpus",
        dir.join("manifest.tsv").to_str().unwrap(),
        "--targets",
        other.to_str().unwrap(),
        "--tune",
        "2",
        "--tune-out",
        never.to_str().unwrap(),
    ]);
    assert_eq!(none.status.code(), Some(2), "{}", stderr(&none));
    assert!(
        stderr(&none).contains("nothing was tuned"),
        "{}",
        stderr(&none)
    );
    assert!(!never.exists());
    let no_targets = run(&[
        "corpus",
        dir.join("manifest.tsv").to_str().unwrap(),
        "--tune",
        "2",
    ]);
    assert_eq!(no_targets.status.code(), Some(2));
    assert!(stderr(&no_targets).contains("--tune and --lexicon need --targets"));
}

#[test]
fn a_sharded_run_tunes_in_its_merge() {
    let dir = corpus("merge-tune");
    let lex = dir.join("lexicon.tsv");
    let lex = lex.to_str().unwrap();
    let mut parts = Vec::new();
    for shard in ["0/2", "1/2"] {
        let part = dir.join(format!("part-{}", &shard[..1]));
        let out = run_with(&dir, &["--format", "partial", "--shard", shard]);
        std::fs::write(&part, ok_stdout(&out)).unwrap();
        parts.push(part.display().to_string());
    }
    let mut merge = vec![
        "corpus",
        "merge",
        "--format",
        "json",
        "--lexicon",
        lex,
        "--tune",
        "5",
    ];
    merge.extend(parts.iter().map(String::as_str));
    let merged = parse_json(&ok_stdout(&run(&merge)));
    let single = json_of(&dir, &["--lexicon", lex, "--tune", "5"]);
    assert_eq!(merged["tuning"], single["tuning"]);
}

/// "Done means" of the issue, on real pages: settings tuned with `--tune 8`
/// on the shipped corpus (`../shared/corpus`, its targets) reach a contact,
/// imprint or about page on more of the real homepages labelled apart
/// (`../shared/homepages`, `tests/fixtures/homepages-targets.tsv`: 171 of
/// them labelled by meaning, never tuned on), lose none, at no worse
/// precision and no more non-target follows per site.
#[test]
fn settings_tuned_on_the_corpus_reach_more_homepages_labelled_apart_at_no_worse_precision() {
    let (Some(corpus), Some(_)) = (
        crate::corpus::manifest(),
        crate::corpus::manifest_pages(
            &crate::repo_path("../shared/homepages"),
            "the real homepages",
        ),
    ) else {
        return;
    };
    let dir = crate::temp_dir("generalise-homepages");
    let tuned = dir.join("tuned.json");
    let tuned_arg = tuned.display().to_string();
    let tune = labelled(
        &corpus,
        &corpus.with_file_name("targets.tsv"),
        &["--suggest", "0", "--tune", "8", "--tune-out", &tuned_arg],
    );
    ok_stdout(&tune);
    let report = parse_json(&ok_stdout(&labelled(
        &crate::repo_path("../shared/homepages/manifest.tsv"),
        &crate::repo_path("tests/fixtures/homepages-targets.tsv"),
        &[
            "--suggest",
            "0",
            "--against-settings",
            &tuned_arg,
            "--format",
            "json",
        ],
    )));
    let e = &report["evaluation"];
    let (a, b) = (&e["a"], &e["b"]);
    assert_eq!(a["labelled_pages"], 171, "{a:#}");
    let found = |m: &Value| m["found"].as_u64().unwrap();
    let precision = |m: &Value| m["precision"].as_f64().unwrap();
    // Links followed per site that are not targets: the cost of a change.
    let others = |m: &Value| m["followed_per_page"].as_f64().unwrap() * (1.0 - precision(m));
    assert!(found(b) >= found(a) + 10, "A {a:#}\nB {b:#}");
    assert_eq!(e["lost"], json!([]), "{:#}", e["lost"]);
    assert!(precision(b) >= precision(a), "A {a:#}\nB {b:#}");
    assert!(others(b) <= others(a) + 0.01, "A {a:#}\nB {b:#}");
}
