//! The Corpus view as a tuning workbench, in the whole window: the targets
//! file found beside the manifest, Try as B running the corpus again with a
//! suggestion, Save as profile…, and a targets file that cannot be used.

use std::path::{Path, PathBuf};
use std::time::Duration;

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use follow_inspector::ui::InspectorApp;

use crate::temp_dir;
use crate::ui::{app_in, run_corpus_view, settle, stored, type_into, wait_for_corpus};

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
    harness.get_by_label("`besuch` added to the white list");
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
