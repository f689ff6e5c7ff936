//! No path in the window loses an unsaved edit (issue 30): with an edit on
//! the profile "Mine", each way the settings on screen could be replaced
//! (the archive banner, a reopened archive, Crawl again, a file dropped on
//! the window, the Corpus view's Try as B and Save as profile…) keeps the
//! edit or asks the unsaved-changes question, each answer does what it says,
//! and nothing is written that the user did not ask for.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use follow_inspector::copy;
use follow_inspector::policy::Settings;
use follow_inspector::ui::InspectorApp;

use crate::server::Server;
use crate::temp_dir;
use crate::ui::{
    activate, app_in, config_with_profiles, fetch, profile_shown, run_corpus_view, settle, stored,
    type_into, wait_for_corpus,
};
use crate::ui_archive::{Dropped, acme_site, fetch_and_save, pick_depth};
use crate::ui_profile_actions::hold_profiles_lock;

/// The edit: a word added to the white list, which no page here has.
const EDITED_FIELD: &str = "White keywords";
const EDIT: &str = ",impressum2";

/// A second edit, made while the profiles thread waits.
const OTHER_SETTING: &str = "Allow subdomains · followSubdomain";

const QUESTION: &str = "Using the archive's settings: save your changes to “Mine” first?";
const NOT_AS_ARCHIVED: &str = "Judged under your settings, not the archive's";

/// The app on the user profile "Mine" (and "Other"), with one unsaved edit;
/// the folder of the profiles and the settings on screen.
fn edited_mine(name: &str) -> (PathBuf, Harness<'static, InspectorApp>, Settings) {
    let dir = config_with_profiles(name, &["Mine", "Other"]);
    activate(&dir, "Mine");
    let mut harness = app_in(dir.clone(), None);
    type_into(&mut harness, EDITED_FIELD, EDIT);
    assert_eq!(profile_shown(&harness), "Mine ●");
    let edited = harness.state().settings().clone();
    assert!(edited.follow_keywords_white.ends_with(EDIT));
    (dir, harness, edited)
}

/// An archive of the acme site saved for a ticket under other settings
/// (subdomains allowed, over the built-in profile).
fn archive(name: &str) -> PathBuf {
    let server = Server::start(acme_site, Duration::ZERO);
    let (_saving, path) = fetch_and_save(name, &server, &temp_dir(name));
    path
}

/// Every file under `dir` and its bytes: what the profiles folder holds.
fn files(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut all = BTreeMap::new();
    let mut folders = vec![dir.to_path_buf()];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                folders.push(path);
            } else {
                let bytes = std::fs::read(&path).unwrap();
                all.insert(path, bytes);
            }
        }
    }
    all
}

/// The edit is on screen, unsaved, and the shown pages are judged under it.
fn keeps_the_edit(harness: &Harness<'_, InspectorApp>, edited: &Settings) {
    assert_eq!(harness.state().settings(), edited);
    assert_eq!(profile_shown(harness), "Mine ●");
    if let Some(inspection) = harness.state().inspection() {
        assert_eq!(inspection.settings(), edited);
    }
}

fn answer(harness: &mut Harness<'_, InspectorApp>, button: &str) {
    harness.get_by_label(QUESTION);
    harness.get_by_label(button).click();
    settle(harness);
}

fn use_the_archives_settings(harness: &mut Harness<'_, InspectorApp>) {
    harness.get_by_label(copy::JUDGE_UNDER_ARCHIVE).click();
    harness.run();
}

/// The archive's settings are on screen: subdomains allowed, not the edit.
fn shows_the_archives_settings(harness: &Harness<'_, InspectorApp>) {
    let settings = harness.state().settings();
    assert!(settings.follow_subdomain);
    assert!(!settings.follow_keywords_white.ends_with(EDIT));
    harness.get_by_label_contains("Settings from the archive (");
}

#[test]
fn the_archive_banner_asks_first_and_keep_editing_or_save_keep_the_edit() {
    let path = archive("unsaved-banner-save-archive");
    let (dir, mut harness, edited) = edited_mine("unsaved-banner-save");
    fetch(&mut harness, &path.display().to_string());
    assert_eq!(harness.state().error(), None);
    keeps_the_edit(&harness, &edited);
    harness.get_by_label_contains(NOT_AS_ARCHIVED);
    let before = files(&dir);

    use_the_archives_settings(&mut harness);
    answer(&mut harness, copy::LABEL_KEEP_EDITING);
    assert!(harness.query_by_label(QUESTION).is_none());
    keeps_the_edit(&harness, &edited);
    harness.get_by_label_contains(NOT_AS_ARCHIVED);
    assert_eq!(files(&dir), before);

    // Saved first, the edit is in "Mine", and judging under "Mine" again
    // brings it back: the report, with nothing lost.
    use_the_archives_settings(&mut harness);
    answer(&mut harness, copy::LABEL_SAVE_CHANGES);
    assert_eq!(stored(&dir, "Mine"), edited);
    shows_the_archives_settings(&harness);
    harness.get_by_label("Judge under “Mine”").click();
    harness.run();
    assert_eq!(harness.state().settings(), &edited);
    assert_eq!(profile_shown(&harness), "Mine");
    harness.get_by_label_contains(NOT_AS_ARCHIVED);
}

#[test]
fn an_edit_made_while_the_save_before_the_archives_settings_waits_is_kept() {
    let path = archive("unsaved-banner-meanwhile-archive");
    let (dir, mut harness, edited) = edited_mine("unsaved-banner-meanwhile");
    fetch(&mut harness, &path.display().to_string());
    use_the_archives_settings(&mut harness);
    harness.get_by_label(QUESTION);
    // Another window writing the profiles holds their lock: the save waits.
    let lock = hold_profiles_lock(&dir);
    harness.get_by_label(copy::LABEL_SAVE_CHANGES).click();
    harness.step();
    harness.step();
    assert!(harness.query_by_label(QUESTION).is_none());
    harness.get_by_label(OTHER_SETTING).click();
    harness.step();
    drop(lock);
    settle(&mut harness);
    // What was saved is saved; the edit made since is on screen, unsaved.
    assert_eq!(stored(&dir, "Mine"), edited);
    let shown = harness.state().settings();
    assert!(shown.follow_keywords_white.ends_with(EDIT) && shown.follow_subdomain);
    assert_eq!(profile_shown(&harness), "Mine ●");
    harness.get_by_label_contains(NOT_AS_ARCHIVED);
}

#[test]
fn an_edit_made_while_a_switch_waits_for_the_profiles_file_is_kept() {
    let (dir, mut harness, _) = edited_mine("unsaved-switch-meanwhile");
    crate::ui::profile_selector(&harness).click();
    harness.run();
    harness.get_by_label("Other").click();
    harness.run();
    harness.get_by_label("Switching to “Other”: save your changes to “Mine” first?");
    let lock = hold_profiles_lock(&dir);
    harness.get_by_label(copy::LABEL_DISCARD).click();
    harness.step();
    harness.step();
    harness.get_by_label(OTHER_SETTING).click();
    harness.step();
    drop(lock);
    settle(&mut harness);
    // The switch is done; the edit made while it waited stays, unsaved.
    assert_eq!(harness.state().profile(), "Other");
    assert_eq!(profile_shown(&harness), "Other ●");
    assert!(harness.state().settings().follow_subdomain);
    assert_eq!(stored(&dir, "Mine"), Settings::default());
    assert_eq!(stored(&dir, "Other"), Settings::default());
}

#[test]
fn the_archive_banner_discards_the_edit_only_when_told_to() {
    let path = archive("unsaved-banner-discard-archive");
    let (dir, mut harness, _) = edited_mine("unsaved-banner-discard");
    fetch(&mut harness, &path.display().to_string());
    let before = files(&dir);

    use_the_archives_settings(&mut harness);
    answer(&mut harness, copy::LABEL_DISCARD);
    shows_the_archives_settings(&harness);
    // Under "Mine" again: "Mine" as saved, which is as it was on disk.
    harness.get_by_label("Judge under “Mine”").click();
    harness.run();
    assert_eq!(harness.state().settings(), &Settings::default());
    assert_eq!(profile_shown(&harness), "Mine");
    assert_eq!(files(&dir), before);
}

#[test]
fn a_reopened_archive_keeps_the_edit_and_edits_over_its_settings_are_asked_about() {
    let path = archive("unsaved-reopen-archive");
    let (dir, mut harness, edited) = edited_mine("unsaved-reopen");
    let before = files(&dir);
    fetch(&mut harness, &path.display().to_string());
    assert_eq!(harness.state().error(), None);
    keeps_the_edit(&harness, &edited);
    harness.get_by_label_contains(NOT_AS_ARCHIVED);
    assert_eq!(files(&dir), before);

    // With no edit of the user's, the archive's settings show as edits over
    // "Mine"; an edit made over them is asked about as any other.
    let dir = config_with_profiles("unsaved-reopen-clean", &["Mine"]);
    activate(&dir, "Mine");
    let mut harness = app_in(dir.clone(), None);
    fetch(&mut harness, &path.display().to_string());
    shows_the_archives_settings(&harness);
    assert_eq!(profile_shown(&harness), "Mine ●");
    type_into(&mut harness, EDITED_FIELD, EDIT);
    let edited = harness.state().settings().clone();
    assert!(edited.follow_subdomain && edited.follow_keywords_white.ends_with(EDIT));
    harness.get_by_label_contains(NOT_AS_ARCHIVED);
    let before = files(&dir);
    use_the_archives_settings(&mut harness);
    answer(&mut harness, copy::LABEL_KEEP_EDITING);
    keeps_the_edit(&harness, &edited);
    assert_eq!(files(&dir), before);
}

#[test]
fn crawl_again_keeps_the_edit() {
    let path = archive("unsaved-crawl-again-archive");
    let (dir, mut harness, edited) = edited_mine("unsaved-crawl-again");
    fetch(&mut harness, &path.display().to_string());
    let before = files(&dir);
    pick_depth(&mut harness, "3");
    harness.get_by_label(copy::LABEL_CRAWL_AGAIN).click();
    settle(&mut harness);
    assert_eq!(harness.state().error(), None);
    assert_eq!(harness.state().inspection().unwrap().depth(), 3);
    keeps_the_edit(&harness, &edited);
    harness.get_by_label_contains(NOT_AS_ARCHIVED);
    assert_eq!(files(&dir), before);
}

#[test]
fn a_file_dropped_on_the_window_keeps_the_edit() {
    let path = archive("unsaved-drop-archive");
    let page = temp_dir("unsaved-drop-page").join("page.html");
    std::fs::write(
        &page,
        "<link rel=canonical href=https://acme.test/><a href=/kontakt>Kontakt</a>",
    )
    .unwrap();
    let (dir, mut harness, edited) = edited_mine("unsaved-drop");
    let before = files(&dir);
    for dropped in [&path, &page] {
        harness
            .input_mut()
            .dropped_files
            .push(Arc::new(Dropped(dropped.clone())));
        harness.step();
        settle(&mut harness);
        assert_eq!(harness.state().error(), None);
        assert_eq!(harness.state().target().0, dropped.display().to_string());
        keeps_the_edit(&harness, &edited);
    }
    assert_eq!(files(&dir), before);
}

/// The Corpus view run over the workbench's manifest, with the edit on "Mine".
fn corpus_run_on_edited_mine(name: &str) -> (PathBuf, Harness<'static, InspectorApp>, Settings) {
    let corpus = crate::ui_workbench::corpus(name, crate::ui_workbench::TARGETS);
    let (dir, mut harness, edited) = edited_mine(&format!("{name}-config"));
    run_corpus_view(&mut harness, &corpus.join("manifest.tsv"));
    harness.get_by_label("`besuch` added to the white list (same links as `ihr`)");
    (dir, harness, edited)
}

#[test]
fn try_as_b_keeps_the_edit_as_a() {
    let (dir, mut harness, edited) = corpus_run_on_edited_mine("unsaved-try");
    let before = files(&dir);
    harness.get_all_by_label("Try as B").next().unwrap().click();
    wait_for_corpus(&mut harness);
    assert_eq!(
        harness.state().comparing(),
        Some("A + `besuch` added to the white list")
    );
    keeps_the_edit(&harness, &edited);
    assert!(harness.state().corpus_run().is_some());
    assert_eq!(files(&dir), before);
}

#[test]
fn save_as_profile_keeps_the_edit_and_writes_only_the_new_profile() {
    let (dir, mut harness, edited) = corpus_run_on_edited_mine("unsaved-save-suggestion");
    harness
        .get_all_by_label("Save as profile…")
        .next()
        .unwrap()
        .click();
    harness.run();
    type_into(&mut harness, "Name", "visits");
    harness.get_by_label("OK").click();
    settle(&mut harness);
    let saved = stored(&dir, "visits");
    assert!(saved.follow_keywords_white.ends_with(",besuch"));
    assert_eq!(harness.state().profile(), "Mine");
    keeps_the_edit(&harness, &edited);
    // "Mine" on disk is as it was: the edit is still only on screen.
    assert_eq!(stored(&dir, "Mine"), Settings::default());
}
