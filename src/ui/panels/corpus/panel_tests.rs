//! The corpus view on its own, driven as a person would: by labels, over a
//! small corpus with a manifest, three pages and a targets file.

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT as _, Queryable as _};

use super::{CorpusState, CorpusView, show};
use crate::corpus::{self, Sides, truth};
use crate::policy::Settings;
use crate::ui::command::{Command, CorpusCommand};
use crate::ui::state::CorpusProgress;
use crate::ui::test_support;

/// Three sites: one/`Kontakt` found by the defaults, two/`Ihr Besuch`
/// matched by no keyword, three/`Impressum` found beside a blacklisted
/// `company-news` link.
pub(super) fn corpus_dir(name: &str, targets: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("fi-corpus-panel-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("pages")).unwrap();
    let manifest =
        "id\toriginal_url\np1\thttps://one.test/\np2\thttps://two.test/\np3\thttps://three.test/\n";
    std::fs::write(dir.join("manifest.tsv"), manifest).unwrap();
    let page = |links: &str| format!("<html><body>{links}</body></html>");
    for (id, links) in [
        (
            "p1",
            r#"<a href="/kontakt">Kontakt</a><a href="/shop">Shop</a>"#,
        ),
        (
            "p2",
            r#"<a href="/ihr-besuch">Ihr Besuch</a><a href="/menu">Menü</a>"#,
        ),
        (
            "p3",
            r#"<a href="/company-news">News</a><a href="/impressum">Impressum</a>"#,
        ),
    ] {
        std::fs::write(dir.join("pages").join(format!("{id}.html")), page(links)).unwrap();
    }
    std::fs::write(dir.join("targets.tsv"), targets).unwrap();
    dir
}

pub(super) const TARGETS: &str = "id\turl\tkind\n\
    p1\thttps://one.test/kontakt\tcontact\n\
    p2\thttps://two.test/ihr-besuch\tcontact\n\
    p3\thttps://three.test/impressum\timprint\n";

/// The corpus at `dir` run under the defaults (A) and `b`, measured.
pub(super) fn measured_run(dir: &Path, b: Option<&Settings>) -> CorpusState {
    let a = Settings::default();
    let targets = truth::Targets::read(&dir.join("targets.tsv")).unwrap();
    let pages = corpus::list_pages(&dir.join("manifest.tsv")).unwrap();
    let sides = Sides {
        a: &a,
        b,
        depth: 2,
        targets: Some(&targets),
    };
    let cancel = AtomicBool::new(false);
    let max = crate::fetch::DEFAULT_MAX_BYTES;
    let mut run = corpus::run_capped(&pages, sides, max, 1, &cancel, &|_| {});
    let suggest = truth::Suggest {
        keep: 20,
        jobs: 1,
        words: &crate::copy::change_words,
        progress: &|_, _| {},
        lexicon: &truth::Lexicon::default(),
        tune: None,
        tune_progress: &|_| {},
    };
    run.evaluation = Some(run.evaluate(&targets, suggest, &cancel));
    CorpusState {
        path: dir.join("manifest.tsv").display().to_string(),
        targets_used: Some(dir.join("targets.tsv")),
        run: Some(run),
        ..CorpusState::default()
    }
}

struct Panel {
    state: CorpusState,
    running: Option<CorpusProgress>,
    commands: Vec<Command>,
}

fn panel(state: CorpusState) -> Harness<'static, Panel> {
    let mut harness = test_support::harness(
        egui::vec2(1280.0, 1600.0),
        |ui, panel: &mut Panel| {
            let view = CorpusView {
                running: panel.running,
                profile: "(built-in)",
                edited: false,
                compared: None,
                a: &Settings::default(),
                b: None,
                depth: 2,
                browsing: false,
                keyboard: true,
            };
            let commands = show(ui, &mut panel.state, &view);
            panel.commands.extend(commands);
        },
        Panel {
            state,
            running: None,
            commands: Vec::new(),
        },
    );
    harness.run();
    harness
}

/// The defaults with `keyword` added to the white list and `news` removed
/// from the black one.
fn tuned(keyword: &str) -> Settings {
    let mut b = Settings::default();
    b.follow_keywords_white.push_str(&format!(",{keyword}"));
    b.follow_keywords_black = b.follow_keywords_black.replace("news,", "");
    b
}

#[test]
fn the_scoreboard_counts_the_sites_that_reach_a_target() {
    let dir = corpus_dir("score", TARGETS);
    let mut harness = panel(measured_run(&dir, None));
    harness.get_by_label("Charts").click();
    harness.run();
    harness
        .get_by_label("A reaches a contact, imprint or about page on 2/3 sites (67%); 0.7 links followed per site");
    harness.get_by_label(
        "A: contact 1/2, imprint 1/1, about 0/0 sites; 2/3 target links followed; precision 100%",
    );
    // The chart of targets per keyword tells white keywords from black ones.
    harness.get_by_label("white: targets followed");
    harness.get_by_label("black: other links blacklisted");
    // The page without a target found, and why.
    harness.get_by_label("no keyword: text \"Ihr Besuch\"");
    // The best change adds a word of the missed link, and rescues p2; its
    // other word follows the same links.
    harness.get_by_label("`besuch` added to the white list (same links as `ihr`)");
    harness.get_by_label(&format!(
        "Measured against {}",
        dir.join("targets.tsv").display()
    ));
}

#[test]
fn with_b_the_scoreboard_says_what_is_rescued_and_what_it_costs() {
    let dir = corpus_dir("score-b", TARGETS);
    let harness = panel(measured_run(&dir, Some(&tuned("besuch"))));
    harness.get_by_label(
        "A reaches a contact, imprint or about page on 2/3 sites (67%), B on 3/3 sites (100%): +1 rescued, −0 lost; \
         0.7 → 1.3 links followed per site",
    );
    harness.get_by_label("Rescued by B: p2 · lost: none");
    // Two links gained: the target on p2, and News on p3, which is none.
    harness.get_by_label("2 links gained or lost");
    // The target's URL is in the missed table too.
    assert_eq!(
        harness
            .get_all_by_label("https://two.test/ihr-besuch")
            .count(),
        2
    );
    harness.get_by_label("https://three.test/company-news");
    assert_eq!(harness.get_all_by_label("◎ target").count(), 1);
}

#[test]
fn a_cause_clicked_narrows_the_tables_and_its_chip_or_escape_clears_it() {
    let dir = corpus_dir("cause", TARGETS);
    let mut harness = panel(measured_run(&dir, Some(&tuned("besuch"))));
    // p3 in the page table and in the gained link's row.
    assert_eq!(harness.get_all_by_label("p3").count(), 2);
    harness
        .get_by_label("1 link on 1 page: `besuch` added to the white list (+1 −0 followed)")
        .click();
    harness.run();
    harness.get_by_label("filtered by `besuch` added to the white list ×");
    harness.get_by_label("1 of 2 links gained or lost");
    assert!(
        harness
            .query_by_label("https://three.test/company-news")
            .is_none()
    );
    // The page table keeps the page the cause changes.
    assert!(harness.query_by_label("p3").is_none());
    assert!(harness.query_by_label("p1").is_none());
    harness
        .get_by_label("filtered by `besuch` added to the white list ×")
        .click();
    harness.run();
    assert_eq!(harness.get_all_by_label("p3").count(), 2);
    // A suggestion clicked keeps the pages it gains; Escape shows all again.
    harness
        .get_by_label("`besuch` added to the white list (same links as `ihr`)")
        .click();
    harness.run();
    harness.get_by_label("filtered by `besuch` added to the white list ×");
    // What its gain is worth, in words, for the suggestion chosen.
    harness.get_by_label(
        "`besuch` added to the white list: gains 1 site; 0 of them still when the page it came from is left out",
    );
    assert!(harness.query_by_label("p3").is_none());
    harness.key_press(egui::Key::Escape);
    harness.run();
    assert!(harness.query_by_label_contains("filtered by").is_none());
    assert_eq!(harness.get_all_by_label("p3").count(), 2);
}

#[test]
fn a_header_click_sorts_the_page_table() {
    let dir = corpus_dir("sort", TARGETS);
    let mut harness = panel(measured_run(&dir, None));
    harness.get_by_label("Found A").click();
    harness.run();
    harness.get_by_label("Found A ▲");
    let order = |harness: &Harness<'_, Panel>| -> Vec<String> {
        let mut rows: Vec<(f32, String)> = ["p1", "p2", "p3"]
            .iter()
            .map(|id| {
                // The page table's cell: the first with the id.
                let cell = harness.get_all_by_label(id).next().unwrap();
                (cell.rect().top(), (*id).to_owned())
            })
            .collect();
        rows.sort_by(|x, y| x.0.total_cmp(&y.0));
        rows.into_iter().map(|(_, id)| id).collect()
    };
    // Not found first, then found in corpus order.
    assert_eq!(order(&harness), ["p2", "p1", "p3"]);
    harness.get_by_label("Found A ▲").click();
    harness.run();
    assert_eq!(order(&harness), ["p3", "p1", "p2"]);
}

#[test]
fn a_bad_row_of_the_targets_file_is_a_warning_and_the_rest_is_measured() {
    let bad = format!("{TARGETS}p1\tnot a url\tcontact\np3\thttps://three.test/jobs\tcareers\n");
    let dir = corpus_dir("bad-row", &bad);
    let harness = panel(measured_run(&dir, None));
    harness.get_by_label("⚠ 2 rows of the targets file skipped");
    harness.get_by_label_contains("skipped: targets line 5: the url `not a url` does not parse");
    harness.get_by_label(
        "skipped: targets line 6: the kind `careers` is not contact, imprint or about",
    );
    harness
        .get_by_label("A reaches a contact, imprint or about page on 2/3 sites (67%); 0.7 links followed per site");
}

#[test]
fn try_as_b_and_save_as_profile_ask_the_app() {
    let dir = corpus_dir("try", TARGETS);
    let mut harness = panel(measured_run(&dir, None));
    harness.get_all_by_label("Try as B").next().unwrap().click();
    harness.run();
    harness
        .get_all_by_label("Save as profile…")
        .next()
        .unwrap()
        .click();
    harness.run();
    assert_eq!(
        harness.state().commands,
        [
            Command::from(CorpusCommand::TrySuggestion(0)),
            Command::from(CorpusCommand::SaveSuggestion(0))
        ]
    );
}

#[test]
fn the_keys_choose_a_page_row_and_enter_opens_it() {
    let dir = corpus_dir("keys", TARGETS);
    let mut harness = panel(measured_run(&dir, None));
    // After a header click too. Every page has two links, so the order
    // downwards is the corpus order turned round: p3, p2, p1.
    harness.get_by_label("Links").click();
    harness.run();
    harness.get_by_label("Links ▲").click();
    harness.run();
    harness.key_press(egui::Key::ArrowDown);
    harness.run();
    harness.key_press(egui::Key::ArrowDown);
    harness.run();
    harness.key_press(egui::Key::ArrowDown);
    harness.run();
    harness.key_press(egui::Key::Enter);
    harness.run();
    let opened = dir.join("pages").join("p1.html").display().to_string();
    assert_eq!(
        harness.state().commands,
        [Command::from(CorpusCommand::OpenCorpusPage {
            path: opened,
            url: "https://one.test/".into(),
            link: None,
        })]
    );
}

#[test]
fn the_keyword_table_has_the_keywords_only_b_has() {
    let dir = corpus_dir("only-b", TARGETS);
    let harness = panel(measured_run(&dir, Some(&tuned("besuch"))));
    harness.get_by_label("besuch");
    harness.get_by_label("white · B only");
}

#[test]
fn while_suggestions_are_tried_a_progress_line_says_how_far_and_nothing_can_be_tried() {
    let dir = corpus_dir("progress", TARGETS);
    let mut harness = panel(measured_run(&dir, None));
    harness.state_mut().running = Some(CorpusProgress::Suggesting {
        tried: 40,
        total: 161,
    });
    harness.step();
    harness.get_by_label("trying suggested changes over the labelled pages: 40/161");
    assert!(
        harness
            .get_all_by_label("Try as B")
            .all(|b| b.accesskit_node().is_disabled())
    );
}

#[test]
fn the_gained_and_lost_links_narrow_by_text_and_to_targets() {
    let dir = corpus_dir("narrow", TARGETS);
    let mut harness = panel(measured_run(&dir, Some(&tuned("besuch"))));
    harness.get_by_label("Filter links").focus();
    harness.run();
    harness.get_by_label("Filter links").type_text("NEWS");
    harness.run();
    harness.get_by_label("1 of 2 links gained or lost");
    harness.get_by_label("https://three.test/company-news");
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    harness.key_press(egui::Key::Delete);
    harness.run();
    harness.get_by_label("only targets").click();
    harness.run();
    harness.get_by_label("1 of 2 links gained or lost");
    assert!(
        harness
            .query_by_label("https://three.test/company-news")
            .is_none()
    );
}

#[test]
fn a_targets_file_for_another_corpus_says_it_labels_none_of_its_pages() {
    let dir = corpus_dir(
        "other",
        "id\turl\tkind\np9\thttps://nine.test/contact\tcontact\n",
    );
    let harness = panel(measured_run(&dir, None));
    harness.get_by_label(
        "the targets file labels none of the 3 corpus pages: check that it belongs to this corpus",
    );
}

#[test]
fn a_cancelled_run_keeps_the_complete_one_and_marks_since_the_run_are_said() {
    let dir = corpus_dir("kept-after-cancel", TARGETS);
    let mut state = measured_run(&dir, None);
    let mut cancelled = measured_run(&dir, None).run.unwrap();
    cancelled.cancelled = true;
    cancelled.pages.truncate(1);
    state.finished(
        crate::ui::state::CorpusResult {
            run: cancelled,
            targets_used: None,
            targets_error: None,
        },
        None,
    );
    state.marked_since = Some(dir.join("targets.tsv"));
    let harness = panel(state);
    harness.get_by_label("The run was cancelled: the last complete run is still shown.");
    harness.get_by_label_contains("A reaches a contact, imprint or about page on 2/3 sites");
    harness.get_by_label(&format!(
        "Links were marked in {} after this run: Run again to measure them.",
        dir.join("targets.tsv").display()
    ));
}

#[test]
fn tune_asks_the_app_with_the_bounds_ticked_and_the_tuning_shows_its_steps() {
    let dir = corpus_dir("tune", TARGETS);
    let mut state = measured_run(&dir, None);
    // What Tune… brought back: one step, the run's best suggestion.
    let evaluation = state.run.as_ref().unwrap().evaluation.clone().unwrap();
    let step = evaluation.suggestions[0].clone();
    let mut after = evaluation.a.clone();
    after.found += 1;
    state.tuning = Some(truth::Tuning {
        ask: state.tune_ask,
        start: Settings::default(),
        settings: step.settings.clone(),
        steps: vec![truth::TuneStep {
            suggestion: step.clone(),
            metrics: after,
        }],
        stop: truth::TuneStop::NoGain,
        before: evaluation.a.clone(),
        cross_validated: None,
    });
    let mut harness = panel(state);
    harness.get_by_label("Steps at most");
    // The bound's value is named by its box.
    let check_box = egui::accesskit::Role::CheckBox;
    harness
        .get_by_role_and_label(check_box, "Followed per site at most")
        .click();
    harness.run();
    harness.get_by_label("Tune…").click();
    harness.run();
    assert!(harness.state().state.tune_bound_per_page);
    assert!(!harness.state().state.tune_bound_precision);
    // The step's change, the reason it stopped, and the honest figure.
    harness.get_by_label(&crate::copy::change_words(&step.change));
    harness.get_by_label(
        "tuning stopped after 1 step: no change gains more validated sites than it loses",
    );
    harness.get_by_label_contains("too few labelled pages to cross-validate (5 folds)");
    harness.get_by_label("Save tuned as profile…").click();
    harness.run();
    assert_eq!(
        harness.state().commands,
        [
            Command::from(CorpusCommand::Tune),
            Command::from(CorpusCommand::SaveTuned)
        ]
    );
}
