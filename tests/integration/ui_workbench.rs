//! The Corpus view as a tuning workbench, in the whole window: the targets
//! file found beside the manifest, Try as B running the corpus again with a
//! suggestion, Save as profile…, a targets file that cannot be used, and the
//! out-of-date banner over a run once the depth, A, B, the targets file or
//! the corpus on screen are no longer its own.

use std::path::{Path, PathBuf};
use std::time::Duration;

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use follow_inspector::ui::InspectorApp;

use crate::temp_dir;
use crate::ui::{app_in, clear_field, run_corpus_view, settle, stored, type_into, wait_for_corpus};

/// A manifest, three pages and `targets` (written as targets.tsv beside it):
/// one/`Kontakt` and three/`Impressum` found by the defaults, two/`Ihr
/// Besuch` matched by no keyword.
pub fn corpus(name: &str, targets: &str) -> PathBuf {
    let dir = temp_dir(&format!("workbench-{name}"));
    std::fs::create_dir_all(dir.join("pages")).unwrap();
    let manifest = "id\toriginal_url\n\
        p1\thttps://one.test/\n\
        p2\thttps://two.test/\n\
        p3\thttps://three.test/\n";
    std::fs::write(dir.join("manifest.tsv"), manifest).unwrap();
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
            r#"<a href="/news">News</a><a href="/impressum">Impressum</a>"#,
        ),
    ] {
        let html = format!("<html><body>{links}</body></html>");
        std::fs::write(dir.join("pages").join(format!("{id}.html")), html).unwrap();
    }
    std::fs::write(dir.join("targets.tsv"), targets).unwrap();
    dir
}

pub const TARGETS: &str = "id\turl\tkind\n\
    p1\thttps://one.test/kontakt\tcontact\n\
    p2\thttps://two.test/ihr-besuch\tcontact\n\
    p3\thttps://three.test/impressum\timprint\n";

/// Waits for the corpus run, as a person waits for the progress bar.
/// The window on the Corpus view, the manifest at `dir` run.
fn run_manifest(dir: &Path, config: &str) -> (Harness<'static, InspectorApp>, PathBuf) {
    let config = temp_dir(config);
    let mut harness = app_in(config.clone(), None);
    run_corpus_view(&mut harness, &dir.join("manifest.tsv"));
    (harness, config)
}

#[test]
fn the_targets_file_beside_the_manifest_is_found_and_try_as_b_rescues_a_page() {
    let dir = corpus("try", TARGETS);
    let (mut harness, _) = run_manifest(&dir, "workbench-try-config");
    harness.get_by_label(&format!(
        "Measured against {}",
        dir.join("targets.tsv").display()
    ));
    harness
        .get_by_label("A reaches a contact, imprint or about page on 2/3 sites (67%); 0.7 links followed per site");
    harness.get_by_label("no keyword: text \"Ihr Besuch\"");
    // Links marked in the inspector go to the same file.
    for _ in 0..1000 {
        harness.step();
        if !harness.state().targets_busy() {
            break;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    assert_eq!(
        harness.state().targets_file(),
        Some(dir.join("targets.tsv").as_path())
    );
    // The best suggestion is a word of the missed link.
    harness.get_by_label("`besuch` added to the white list (same links as `ihr`)");
    harness.get_all_by_label("Try as B").next().unwrap().click();
    wait_for_corpus(&mut harness);
    assert_eq!(
        harness.state().comparing(),
        Some("A + `besuch` added to the white list")
    );
    harness.get_by_label(
        "A reaches a contact, imprint or about page on 2/3 sites (67%), B on 3/3 sites (100%): +1 rescued, −0 lost; \
         0.7 → 1.0 links followed per site",
    );
    harness.get_by_label("Rescued by B: p2 · lost: none");
    // The rescued target is the one link gained.
    harness.get_by_label("1 link gained or lost");
    harness.get_by_label("◎ target");
}

#[test]
fn save_as_profile_stores_the_suggestion_and_keeps_the_current_profile() {
    let dir = corpus("save", TARGETS);
    let (mut harness, config) = run_manifest(&dir, "workbench-save-config");
    harness
        .get_all_by_label("Save as profile…")
        .next()
        .unwrap()
        .click();
    harness.run();
    harness.get_by_label("Save the suggestion as a profile");
    harness.get_by_label(
        "Measured on “Scraper defaults”, depth 2: the suggestion is that A with one change.",
    );
    type_into(&mut harness, "Name", "visits");
    harness.get_by_label("OK").click();
    settle(&mut harness);
    harness.get_by_label_contains("visits");
    let saved = stored(&config, "visits");
    assert!(saved.follow_keywords_white.ends_with(",besuch"));
    // A stays the profile it was.
    assert_eq!(
        harness.state().profile(),
        follow_inspector::profiles::BUILT_IN
    );
    assert!(!harness.state().is_dirty());
}

#[test]
fn a_targets_file_without_a_kind_column_is_an_error_and_the_run_goes_on() {
    let dir = corpus("no-kind", "id\turl\np1\thttps://one.test/kontakt\n");
    let (harness, _) = run_manifest(&dir, "workbench-no-kind-config");
    harness.get_by_label_contains("✖ The targets file cannot be used:");
    harness.get_by_label_contains("has no `kind` column");
    harness.get_by_label("3 pages read, 6 links, 2 followed");
    assert!(
        harness
            .query_by_label_contains("reaches a contact")
            .is_none()
    );
}

#[test]
fn a_targets_file_with_a_bad_row_warns_and_measures_the_rest() {
    let bad = format!("{TARGETS}p9\thttps://nine.test/contact\tcontact\n");
    let dir = corpus("bad-row", &bad);
    let (harness, _) = run_manifest(&dir, "workbench-bad-row-config");
    harness.get_by_label("⚠ 1 row of the targets file skipped");
    harness.get_by_label("skipped: targets line 5: the corpus has no page `p9`");
    harness
        .get_by_label("A reaches a contact, imprint or about page on 2/3 sites (67%); 0.7 links followed per site");
}

/// The scoreboard of a run under the defaults at depth 2, without B.
const SCORE_AT_2: &str =
    "A reaches a contact, imprint or about page on 2/3 sites (67%); 0.7 links followed per site";

/// The out-of-date banner's whole text for these changes.
fn out_of_date(changes: &str) -> String {
    format!("This run is out of date: {changes}. The numbers below are still the old run's.")
}

fn no_banner(harness: &Harness<'_, InspectorApp>) -> bool {
    harness
        .query_by_label_contains("This run is out of date")
        .is_none()
        && harness.query_by_label("Run again").is_none()
}

/// Picks `depth` in the top bar's Depth list.
fn pick_depth(harness: &mut Harness<'_, InspectorApp>, depth: &str) {
    harness
        .get_by_role_and_label(egui::accesskit::Role::ComboBox, "Depth")
        .click();
    harness.run();
    // The list's entries are buttons; the other numbers on screen are labels.
    harness
        .get_by_role_and_label(egui::accesskit::Role::Button, depth)
        .click();
    harness.run();
}

/// Run again in the banner, then the wait for the run, as a person waits.
fn run_again(harness: &mut Harness<'_, InspectorApp>) {
    harness.get_by_label("Run again").click();
    wait_for_corpus(harness);
}

#[test]
fn another_depth_puts_the_run_out_of_date_and_run_again_shows_the_new_numbers() {
    let dir = corpus("stale-depth", TARGETS);
    let (mut harness, _) = run_manifest(&dir, "workbench-stale-depth-config");
    assert!(no_banner(&harness));
    pick_depth(&mut harness, "1");
    harness.get_by_label(&out_of_date("the depth is now 1 (the run was at 2)"));
    // The old numbers stay, under a line that names the old run.
    harness.get_by_label(SCORE_AT_2);
    harness.get_by_label(
        "This run: A: “Scraper defaults” · B: none (choose one with Compare with…) · depth 2, N = 3",
    );
    run_again(&mut harness);
    assert!(no_banner(&harness));
    // At depth 1 N is 0: nothing is followed.
    harness.get_by_label(
        "A reaches a contact, imprint or about page on 0/3 sites (0%); 0.0 links followed per site",
    );
    harness.get_by_label(
        "This run: A: “Scraper defaults” · B: none (choose one with Compare with…) · depth 1, N = 0",
    );
}

#[test]
fn an_edited_setting_puts_a_out_of_date_and_save_as_profile_names_the_edited_a() {
    let dir = corpus("stale-a", TARGETS);
    let (mut harness, _) = run_manifest(&dir, "workbench-stale-a-config");
    // A setting these pages do not care about: the same numbers, another A.
    harness
        .get_by_label("Allow subdomains · followSubdomain")
        .click();
    harness.run();
    assert!(harness.state().is_dirty());
    harness.get_by_label(&out_of_date(
        "A is now “Scraper defaults” (as edited) (the run was under “Scraper defaults”)",
    ));
    harness.get_by_label(SCORE_AT_2);
    run_again(&mut harness);
    assert!(no_banner(&harness));
    harness.get_by_label(SCORE_AT_2);
    harness.get_by_label_contains("This run: A: “Scraper defaults” (as edited) · B: none");
    // A suggestion of this run is the edited A with one change.
    harness
        .get_all_by_label("Save as profile…")
        .next()
        .unwrap()
        .click();
    harness.run();
    harness.get_by_label(
        "Measured on “Scraper defaults” (as edited), depth 2: the suggestion is that A with \
         one change.",
    );
}

#[test]
fn after_try_as_b_another_b_puts_the_run_out_of_date() {
    let dir = corpus("stale-b", TARGETS);
    let (mut harness, _) = run_manifest(&dir, "workbench-stale-b-config");
    harness.get_all_by_label("Try as B").next().unwrap().click();
    wait_for_corpus(&mut harness);
    // The run Try as B makes is made with that B: not out of date.
    assert!(no_banner(&harness));
    harness.get_by_label_contains("B on 3/3 sites (100%)");
    harness
        .get_by_role_and_label(egui::accesskit::Role::ComboBox, "Compare with…")
        .click();
    harness.run();
    harness.get_by_label("(nobody)").click();
    settle(&mut harness);
    assert_eq!(harness.state().comparing(), None);
    harness.get_by_label(&out_of_date(
        "B is now none (the run compared with “A + `besuch` added to the white list”)",
    ));
    harness.get_by_label_contains("B on 3/3 sites (100%)");
    run_again(&mut harness);
    assert!(no_banner(&harness));
    harness.get_by_label(SCORE_AT_2);
}

#[test]
fn no_targets_file_or_another_corpus_puts_the_run_out_of_date() {
    let dir = corpus("stale-files", TARGETS);
    let (mut harness, _) = run_manifest(&dir, "workbench-stale-files-config");
    harness.get_by_label("✕ No targets").click();
    harness.run();
    harness.get_by_label(&out_of_date(
        "the targets file is now none (the run's was targets.tsv beside the corpus)",
    ));
    run_again(&mut harness);
    assert!(no_banner(&harness));
    // Not measured: no scoreboard.
    assert!(
        harness
            .query_by_label_contains("reaches a contact")
            .is_none()
    );
    harness.get_by_label("3 pages read, 6 links, 2 followed");

    let manifest = dir.join("manifest.tsv").display().to_string();
    let pages = dir.join("pages").display().to_string();
    clear_field(&mut harness, "Folder or manifest");
    type_into(&mut harness, "Folder or manifest", &pages);
    harness.get_by_label(&out_of_date(&format!(
        "the corpus is now {pages} (the run read {manifest})"
    )));
    run_again(&mut harness);
    assert!(no_banner(&harness));
}

#[test]
fn tune_applies_the_validated_change_and_shows_it_as_b() {
    // `Ansprechpartner` is missed on two sites: a word they share.
    let dir = temp_dir("workbench-tune");
    std::fs::create_dir_all(dir.join("pages")).unwrap();
    let mut manifest = String::from("id\toriginal_url\n");
    let mut targets = String::from("id\turl\tkind\n");
    for (id, host, link) in [
        ("p1", "one.test", "/ansprechpartner"),
        ("p2", "two.test", "/de/ansprechpartner"),
        ("p3", "three.test", "/kontakt"),
    ] {
        manifest.push_str(&format!("{id}\thttps://{host}/\n"));
        targets.push_str(&format!("{id}\thttps://{host}{link}\tcontact\n"));
        let html = format!(r#"<html><body><a href="{link}">Ansprechpartner</a></body></html>"#);
        std::fs::write(dir.join("pages").join(format!("{id}.html")), html).unwrap();
    }
    std::fs::write(dir.join("manifest.tsv"), manifest).unwrap();
    std::fs::write(dir.join("targets.tsv"), targets).unwrap();
    let (mut harness, _) = run_manifest(&dir, "workbench-tune-config");
    harness.get_by_label("Tune…").click();
    wait_for_corpus(&mut harness);
    assert_eq!(harness.state().comparing(), Some("A tuned in 1 step"));
    harness.get_by_label_contains("B on 3/3 sites (100%): +2 rescued, −0 lost");
    // The step in the tuning's table, and as the cause of B's rescues.
    let step = harness.get_all_by_label("`ansprechpartner` added to the white list");
    assert!(step.count() >= 2);
    harness.get_by_label(
        "tuning stopped after 1 step: no change gains more validated sites than it loses",
    );
    harness.get_by_label("Save tuned as profile…");
}
