//! Every profile action on an edited profile, quitting included, asks the
//! unsaved-changes question first, and each answer does what it says; an edit
//! made while the answer is carried out is kept; the name dialogs take the
//! keyboard as they open and keep it after a refused name. Driven by labels,
//! as a person clicks and types.

use std::path::Path;

use egui::Key;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use follow_inspector::ui::InspectorApp;

use crate::ui::{activate, app_in, config_with_profiles, profile_selector, profile_shown, settle};

const SETTING: &str = "Allow subdomains · followSubdomain";
const IMPORTED_JSON: &str = r#"{"followSubdomain": false}"#;

/// The app on the user profile "Mine" (and "Other"), with one unsaved change.
fn edited_mine(name: &str) -> (std::path::PathBuf, Harness<'static, InspectorApp>) {
    let dir = config_with_profiles(name, &["Mine", "Other"]);
    activate(&dir, "Mine");
    let mut harness = app_in(dir.clone(), None);
    edit(&mut harness);
    assert_eq!(profile_shown(&harness), "Mine ●");
    (dir, harness)
}

fn edit(harness: &mut Harness<'_, InspectorApp>) {
    harness.get_by_label(SETTING).click();
    harness.run();
}

/// Picks `item` in the profile actions menu (⋯).
fn menu(harness: &mut Harness<'_, InspectorApp>, item: &str) {
    harness.get_by_label("⋯").click();
    harness.run();
    harness.get_by_label(item).click();
    harness.run();
}

fn switch_to(harness: &mut Harness<'_, InspectorApp>, name: &str) {
    profile_selector(harness).click();
    harness.run();
    harness.get_by_label(name).click();
    settle(harness);
}

/// The setting is changed from its default, as the settings panel shows it.
fn shows_the_edit(harness: &Harness<'_, InspectorApp>) -> bool {
    harness.query_by_label("↺ default").is_some() && harness.state().settings().follow_subdomain
}

/// The profiles as stored on disk.
fn names_on_disk(dir: &Path) -> Vec<String> {
    follow_inspector::profiles::ProfileStore::open(Some(dir))
        .unwrap()
        .list()
        .unwrap()
}

fn stored_edit(dir: &Path, name: &str) -> bool {
    crate::ui::stored(dir, name).follow_subdomain
}

/// ⋯ → Import…, a name and the JSON typed, Import clicked.
fn import(harness: &mut Harness<'_, InspectorApp>, name: &str) {
    menu(harness, "Import…");
    // The name field has the keyboard as the dialog opens.
    harness.get_by_label("Name").type_text(name);
    harness.run();
    crate::ui::type_into(harness, "Paste the storage-data JSON here", IMPORTED_JSON);
    harness.get_by_label("Import").click();
    settle(harness);
}

fn answer(harness: &mut Harness<'_, InspectorApp>, question: &str, button: &str) {
    harness.get_by_label(question);
    harness.get_by_label(button).click();
    settle(harness);
}

const IMPORT_QUESTION: &str = "Importing “ACME”: save your changes to “Mine” first?";

#[test]
fn import_on_an_edited_profile_can_keep_editing_and_the_import_dialog_is_back() {
    let (dir, mut harness) = edited_mine("import-keep");
    import(&mut harness, "ACME");
    answer(&mut harness, IMPORT_QUESTION, "Keep editing");
    assert_eq!(profile_shown(&harness), "Mine ●");
    assert!(shows_the_edit(&harness));
    assert!(!names_on_disk(&dir).contains(&"ACME".to_owned()));
    // What was typed is still there: Import asks again.
    assert_eq!(
        harness.get_by_label("Name").value().as_deref(),
        Some("ACME")
    );
    let json = harness
        .get_by_label("Paste the storage-data JSON here")
        .value();
    assert_eq!(json.as_deref(), Some(IMPORTED_JSON));
    harness.get_by_label("Import").click();
    settle(&mut harness);
    answer(&mut harness, IMPORT_QUESTION, "Save changes");
    assert_eq!(profile_shown(&harness), "ACME");
}

#[test]
fn import_on_an_edited_profile_can_save_the_changes_first() {
    let (dir, mut harness) = edited_mine("import-save");
    import(&mut harness, "ACME");
    answer(&mut harness, IMPORT_QUESTION, "Save changes");
    assert_eq!(profile_shown(&harness), "ACME");
    assert!(stored_edit(&dir, "Mine"));
    switch_to(&mut harness, "Mine");
    assert_eq!(profile_shown(&harness), "Mine");
    assert!(shows_the_edit(&harness));
}

#[test]
fn import_on_an_edited_profile_can_discard_the_changes() {
    let (dir, mut harness) = edited_mine("import-discard");
    import(&mut harness, "ACME");
    answer(&mut harness, IMPORT_QUESTION, "Discard changes");
    assert_eq!(profile_shown(&harness), "ACME");
    assert!(!stored_edit(&dir, "Mine"));
    switch_to(&mut harness, "Mine");
    assert_eq!(profile_shown(&harness), "Mine");
    assert!(!shows_the_edit(&harness));
}

#[test]
fn import_on_the_edited_built_in_profile_saves_the_changes_as_a_new_one_first() {
    let dir = config_with_profiles("import-built-in", &[]);
    let mut harness = app_in(dir.clone(), None);
    edit(&mut harness);
    assert_eq!(profile_shown(&harness), "Scraper defaults ●");
    import(&mut harness, "ACME");
    answer(
        &mut harness,
        "Importing “ACME”: save your changes to “Scraper defaults” as a new profile first?",
        "Save as…",
    );
    harness.get_by_label("Name").type_text("Kept edits");
    harness.run();
    harness.key_press(Key::Enter);
    settle(&mut harness);
    assert_eq!(profile_shown(&harness), "ACME");
    assert!(stored_edit(&dir, "Kept edits"));
    switch_to(&mut harness, "Kept edits");
    assert!(shows_the_edit(&harness));
}

#[test]
fn an_import_that_fails_after_discard_keeps_the_changes() {
    let (_dir, mut harness) = edited_mine("import-fails");
    menu(&mut harness, "Import…");
    harness.get_by_label("Name").type_text("ACME");
    harness.run();
    crate::ui::type_into(
        &mut harness,
        "or read it from a file",
        "/nonexistent/user.json",
    );
    harness.get_by_label("Import").click();
    settle(&mut harness);
    answer(&mut harness, IMPORT_QUESTION, "Discard changes");
    assert!(harness.state().error().is_some());
    assert_eq!(profile_shown(&harness), "Mine ●");
    assert!(shows_the_edit(&harness));
}

#[test]
fn a_name_the_store_would_refuse_is_shown_before_the_question() {
    let (_dir, mut harness) = edited_mine("rename-taken");
    menu(&mut harness, "Rename…");
    harness.get_by_label("Name").type_text("other");
    harness.run();
    harness.key_press(Key::Enter);
    settle(&mut harness);
    harness.get_by_label_contains("a profile named “other” already exists");
    assert!(harness.query_by_label("Keep editing").is_none());
    assert_eq!(profile_shown(&harness), "Mine ●");
}

/// ⋯ → Rename… or Duplicate…, a new name typed over the suggested one, Enter.
fn name_via_menu(harness: &mut Harness<'_, InspectorApp>, item: &str, name: &str) {
    menu(harness, item);
    harness.get_by_label("Name").type_text(name);
    harness.run();
    harness.key_press(Key::Enter);
    settle(harness);
}

const RENAME_QUESTION: &str = "Renaming to “Yours”: save your changes to “Mine” first?";

#[test]
fn rename_of_an_edited_profile_asks_and_each_answer_does_what_it_says() {
    let (dir, mut harness) = edited_mine("rename-keep");
    name_via_menu(&mut harness, "Rename…", "Yours");
    answer(&mut harness, RENAME_QUESTION, "Keep editing");
    assert_eq!(profile_shown(&harness), "Mine ●");
    assert!(shows_the_edit(&harness));
    assert!(!names_on_disk(&dir).contains(&"Yours".to_owned()));

    // The Rename dialog is back with the typed name. Save: the renamed
    // profile holds the changes.
    harness.get_by_label("Rename the profile");
    assert_eq!(
        harness.get_by_label("Name").value().as_deref(),
        Some("Yours")
    );
    harness.key_press(Key::Enter);
    settle(&mut harness);
    answer(&mut harness, RENAME_QUESTION, "Save changes");
    assert_eq!(profile_shown(&harness), "Yours");
    assert!(shows_the_edit(&harness));
    assert!(stored_edit(&dir, "Yours"));
    assert!(!names_on_disk(&dir).contains(&"Mine".to_owned()));
}

#[test]
fn rename_of_an_edited_profile_can_discard_the_changes() {
    let (dir, mut harness) = edited_mine("rename-discard");
    name_via_menu(&mut harness, "Rename…", "Yours");
    answer(&mut harness, RENAME_QUESTION, "Discard changes");
    assert_eq!(profile_shown(&harness), "Yours");
    assert!(!shows_the_edit(&harness));
    assert!(!stored_edit(&dir, "Yours"));
}

const DUPLICATE_QUESTION: &str = "Duplicating “Mine” as “Twin”: save your changes to “Mine” first?";

#[test]
fn duplicate_of_an_edited_profile_asks_and_save_puts_the_changes_in_both() {
    let (dir, mut harness) = edited_mine("duplicate-save");
    name_via_menu(&mut harness, "Duplicate…", "Twin");
    answer(&mut harness, DUPLICATE_QUESTION, "Keep editing");
    assert_eq!(profile_shown(&harness), "Mine ●");
    assert!(!names_on_disk(&dir).contains(&"Twin".to_owned()));

    // Escape in the Duplicate dialog that is back, then the menu again.
    harness.get_by_label("Duplicate the profile");
    harness.key_press(Key::Escape);
    harness.run();
    name_via_menu(&mut harness, "Duplicate…", "Twin");
    answer(&mut harness, DUPLICATE_QUESTION, "Save changes");
    assert_eq!(profile_shown(&harness), "Twin");
    assert!(shows_the_edit(&harness));
    assert!(stored_edit(&dir, "Mine") && stored_edit(&dir, "Twin"));
    // The status bar says the copy now exists (not only that "Mine" was saved).
    harness.get_by_label("ℹ Saved “Twin”, a copy of “Mine”; it is now the current profile.");
}

#[test]
fn duplicate_of_an_edited_profile_can_discard_the_changes() {
    let (dir, mut harness) = edited_mine("duplicate-discard");
    name_via_menu(&mut harness, "Duplicate…", "Twin");
    answer(&mut harness, DUPLICATE_QUESTION, "Discard changes");
    assert_eq!(profile_shown(&harness), "Twin");
    assert!(!shows_the_edit(&harness));
    assert!(!stored_edit(&dir, "Mine") && !stored_edit(&dir, "Twin"));
    harness.get_by_label("ℹ Saved “Twin”, a copy of “Mine”; it is now the current profile.");
}

/// The changes cannot go into the profile being deleted, and the question
/// does not say they would.
const DELETE_QUESTION: &str =
    "Deleting “Mine” also deletes its unsaved changes: keep them in a new profile first?";

fn delete_mine(harness: &mut Harness<'_, InspectorApp>) {
    menu(harness, "Delete…");
    harness.get_by_label("Delete the profile “Mine”? This cannot be undone.");
    harness.get_by_label("Delete").click();
    settle(harness);
}

#[test]
fn deleting_an_edited_profile_can_keep_editing_or_discard() {
    let (dir, mut harness) = edited_mine("delete-discard");
    delete_mine(&mut harness);
    answer(&mut harness, DELETE_QUESTION, "Keep editing");
    assert_eq!(profile_shown(&harness), "Mine ●");
    assert!(names_on_disk(&dir).contains(&"Mine".to_owned()));

    delete_mine(&mut harness);
    answer(&mut harness, DELETE_QUESTION, "Discard changes");
    assert_eq!(profile_shown(&harness), "Scraper defaults");
    assert!(!shows_the_edit(&harness));
    assert!(!names_on_disk(&dir).contains(&"Mine".to_owned()));
}

#[test]
fn deleting_an_edited_profile_can_keep_the_changes_in_a_new_one() {
    let (dir, mut harness) = edited_mine("delete-save-as");
    delete_mine(&mut harness);
    answer(&mut harness, DELETE_QUESTION, "Save as…");
    harness.get_by_label("Name").type_text("Rescued");
    harness.run();
    harness.key_press(Key::Enter);
    settle(&mut harness);
    assert_eq!(profile_shown(&harness), "Rescued");
    assert!(shows_the_edit(&harness));
    assert!(stored_edit(&dir, "Rescued"));
    assert!(!names_on_disk(&dir).contains(&"Mine".to_owned()));
}

#[test]
fn switching_from_an_edited_profile_can_discard_and_the_edit_is_gone_after() {
    let (dir, mut harness) = edited_mine("switch-discard");
    switch_to(&mut harness, "Other");
    answer(
        &mut harness,
        "Switching to “Other”: save your changes to “Mine” first?",
        "Discard changes",
    );
    assert_eq!(profile_shown(&harness), "Other");
    switch_to(&mut harness, "Mine");
    assert_eq!(profile_shown(&harness), "Mine");
    assert!(!shows_the_edit(&harness));
    assert!(!stored_edit(&dir, "Mine"));
}

#[test]
fn escape_in_the_question_keeps_editing() {
    let (_dir, mut harness) = edited_mine("question-escape");
    switch_to(&mut harness, "Other");
    harness.get_by_label("Keep editing");
    harness.key_press(Key::Escape);
    settle(&mut harness);
    assert!(harness.query_by_label("Keep editing").is_none());
    assert_eq!(profile_shown(&harness), "Mine ●");
    assert!(shows_the_edit(&harness));
}

#[test]
fn the_name_dialogs_take_a_typed_name_and_enter_and_escape_changes_nothing() {
    let dir = config_with_profiles("name-dialogs", &["Mine"]);
    activate(&dir, "Mine");
    let mut harness = app_in(dir.clone(), None);
    for (item, name) in [
        ("Rename…", "Yours"),
        ("Duplicate…", "Twin"),
        ("Save as…", "Third"),
    ] {
        // Escape: closed, nothing changed.
        let before = names_on_disk(&dir);
        menu(&mut harness, item);
        harness.get_by_label("Name").type_text("Never");
        harness.run();
        harness.key_press(Key::Escape);
        settle(&mut harness);
        assert!(harness.query_by_label("Name").is_none(), "{item}");
        assert_eq!(names_on_disk(&dir), before, "{item}");

        // Typed and Enter: done.
        name_via_menu(&mut harness, item, name);
        assert!(harness.query_by_label("Name").is_none(), "{item}");
        assert_eq!(profile_shown(&harness), name, "{item}");
        assert!(names_on_disk(&dir).contains(&name.to_owned()), "{item}");
    }
    assert!(!names_on_disk(&dir).contains(&"Mine".to_owned()));
}

#[test]
fn pasted_json_the_import_would_refuse_is_shown_before_the_question() {
    let (dir, mut harness) = edited_mine("import-bad-json");
    menu(&mut harness, "Import…");
    harness.get_by_label("Name").type_text("ACME");
    harness.run();
    crate::ui::type_into(&mut harness, "Paste the storage-data JSON here", "[1, 2]");
    harness.get_by_label("Import").click();
    settle(&mut harness);
    assert!(harness.query_by_label("Keep editing").is_none());
    harness.get_by_label_contains("invalid settings");
    assert_eq!(profile_shown(&harness), "Mine ●");
    assert!(!names_on_disk(&dir).contains(&"ACME".to_owned()));
}

const OTHER_SETTING: &str = "Skip assets · followSkipAssets";

/// Holds the lock every writer of the profiles file takes, as another
/// instance saving would: the profiles thread waits until it is dropped.
pub fn hold_profiles_lock(dir: &Path) -> std::fs::File {
    let lock = std::fs::File::options()
        .create(true)
        .truncate(false)
        .write(true)
        .open(dir.join(".profiles.lock"))
        .unwrap();
    lock.lock().unwrap();
    lock
}

#[test]
fn an_edit_made_while_save_then_rename_runs_stays_unsaved() {
    let (dir, mut harness) = edited_mine("rename-edit-in-between");
    name_via_menu(&mut harness, "Rename…", "Yours");
    harness.get_by_label(RENAME_QUESTION);
    let lock = hold_profiles_lock(&dir);
    harness.get_by_label("Save changes").click();
    harness.step();
    harness.step();
    // The question is gone and the window usable while the save waits.
    assert!(harness.query_by_label("Keep editing").is_none());
    harness.get_by_label(OTHER_SETTING).click();
    harness.step();
    drop(lock);
    settle(&mut harness);
    assert_eq!(profile_shown(&harness), "Yours ●");
    // Both edits are on screen, each marked as changed from its default.
    assert_eq!(harness.query_all_by_label("↺ default").count(), 2);
    assert!(harness.state().settings().follow_subdomain);
    assert!(!harness.state().settings().follow_skip_assets);
    assert!(stored_edit(&dir, "Yours"));
    assert!(crate::ui::stored(&dir, "Yours").follow_skip_assets);
}

#[test]
fn duplicate_of_the_edited_built_in_profile_copies_the_edits_without_asking() {
    let dir = config_with_profiles("duplicate-built-in", &[]);
    let mut harness = app_in(dir.clone(), None);
    edit(&mut harness);
    assert_eq!(profile_shown(&harness), "Scraper defaults ●");
    name_via_menu(&mut harness, "Duplicate…", "Twin");
    assert!(harness.query_by_label("Keep editing").is_none());
    assert_eq!(profile_shown(&harness), "Twin");
    assert!(shows_the_edit(&harness));
    assert!(stored_edit(&dir, "Twin"));
    assert_eq!(names_on_disk(&dir), ["Scraper defaults", "Twin"]);
    harness.get_by_label(
        "ℹ Saved “Twin”, a copy of “Scraper defaults”; it is now the current profile.",
    );
}

#[test]
fn renaming_an_edited_profile_to_its_own_name_keeps_the_edits_and_asks_nothing() {
    let (dir, mut harness) = edited_mine("rename-same");
    menu(&mut harness, "Rename…");
    // The suggested name is the current one: Enter confirms it unchanged.
    harness.key_press(Key::Enter);
    settle(&mut harness);
    assert!(harness.query_by_label("Keep editing").is_none());
    assert!(harness.query_by_label("Name").is_none());
    assert_eq!(profile_shown(&harness), "Mine ●");
    assert!(shows_the_edit(&harness));
    assert!(!stored_edit(&dir, "Mine"));
}

/// Types `text` and presses Enter wherever the keyboard is, as a person does
/// without clicking first.
fn type_and_enter(harness: &mut Harness<'_, InspectorApp>, text: &str) {
    harness.event(egui::Event::Text(text.into()));
    harness.run();
    harness.key_press(Key::Enter);
    settle(harness);
}

#[test]
fn after_a_refused_name_the_name_field_keeps_the_keyboard() {
    // Edited: refused before the question; not edited: refused by the store.
    for edited in [true, false] {
        let dir = config_with_profiles(&format!("refused-{edited}"), &["Mine", "Other"]);
        activate(&dir, "Mine");
        let mut harness = app_in(dir.clone(), None);
        if edited {
            edit(&mut harness);
        }
        menu(&mut harness, "Rename…");
        type_and_enter(&mut harness, "other");
        harness.get_by_label_contains("a profile named “other” already exists");
        type_and_enter(&mut harness, " 2");
        if edited {
            answer(
                &mut harness,
                "Renaming to “other 2”: save your changes to “Mine” first?",
                "Save changes",
            );
        }
        assert_eq!(profile_shown(&harness), "other 2", "edited: {edited}");
        assert!(names_on_disk(&dir).contains(&"other 2".to_owned()));
    }
}

#[test]
fn after_ok_with_a_refused_name_the_keyboard_goes_back_to_the_name() {
    let (_dir, mut harness) = edited_mine("refused-ok");
    menu(&mut harness, "Duplicate…");
    harness.event(egui::Event::Text("Other".into()));
    harness.run();
    harness.get_by_label("OK").click();
    settle(&mut harness);
    harness.get_by_label_contains("a profile named “Other” already exists");
    type_and_enter(&mut harness, " 2");
    harness.get_by_label("Duplicating “Mine” as “Other 2”: save your changes to “Mine” first?");
}

/// The window manager's close button, as the app hears it.
fn close_window(harness: &mut Harness<'_, InspectorApp>) {
    let root = harness
        .input_mut()
        .viewports
        .entry(egui::ViewportId::ROOT)
        .or_default();
    root.events.push(egui::ViewportEvent::Close);
    harness.step();
}

/// The window commands the app gives from now until its profile work is done.
fn window_commands_until_settled(
    harness: &mut Harness<'_, InspectorApp>,
) -> Vec<egui::ViewportCommand> {
    let mut commands = Vec::new();
    for _ in 0..1000 {
        harness.step();
        commands.extend(
            harness.output().viewport_output[&egui::ViewportId::ROOT]
                .commands
                .iter()
                .cloned(),
        );
        if !harness.state().profiles_busy() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    commands
}

fn cancels_close(harness: &Harness<'_, InspectorApp>) -> bool {
    harness.output().viewport_output[&egui::ViewportId::ROOT]
        .commands
        .contains(&egui::ViewportCommand::CancelClose)
}

#[test]
fn quitting_with_edits_keeps_the_window_open_until_they_are_saved() {
    let (dir, mut harness) = edited_mine("quit-save");
    close_window(&mut harness);
    assert!(cancels_close(&harness));
    harness.run();
    harness.get_by_label("Quitting: save your changes to “Mine” first?");
    harness.get_by_label("Save changes").click();
    let commands = window_commands_until_settled(&mut harness);
    assert!(commands.contains(&egui::ViewportCommand::Close));
    assert!(stored_edit(&dir, "Mine"));
}

#[test]
fn quitting_with_edits_to_the_built_in_profile_closes_after_save_as() {
    let dir = config_with_profiles("quit-save-as", &[]);
    let mut harness = app_in(dir.clone(), None);
    edit(&mut harness);
    close_window(&mut harness);
    assert!(cancels_close(&harness));
    harness.run();
    answer(
        &mut harness,
        "Quitting: save your changes to “Scraper defaults” as a new profile first?",
        "Save as…",
    );
    harness.get_by_label("Name").type_text("Kept");
    harness.run();
    harness.key_press(Key::Enter);
    let commands = window_commands_until_settled(&mut harness);
    assert!(commands.contains(&egui::ViewportCommand::Close));
    assert!(stored_edit(&dir, "Kept"));
}

/// A person who types the moment a dialog opens, as fast as a keyboard
/// repeats (one key a frame, 5 ms apart, no click into the field first):
/// every letter is kept, in the field that has the keyboard, and a suggested
/// name is replaced by them. Twice a user saw only the first letters kept;
/// egui draws a new modal invisibly for its first passes, so keys typed then
/// went nowhere.
#[test]
fn typing_at_once_into_a_fresh_dialog_keeps_every_letter() {
    for (item, suggested) in [("Import…", ""), ("Duplicate…", "Mine copy")] {
        let dir = config_with_profiles(&format!("fast-typing-{}", suggested.len()), &["Mine"]);
        activate(&dir, "Mine");
        let mut harness = Harness::builder()
            .with_size(egui::vec2(1280.0, 800.0))
            .with_step_dt(0.005)
            .build_eframe(move |cc| {
                crate::fonts::with_system_fonts(&cc.egui_ctx);
                InspectorApp::new(cc, None, Some(dir))
            });
        settle(&mut harness);
        harness.get_by_label("⋯").click();
        harness.run();
        harness.get_by_label(item).click();
        // The dialog's first frame, then the keys at once: no settling between.
        harness.step();
        let typed = "ACME Logistics GmbH";
        for letter in typed.chars() {
            harness.event(egui::Event::Text(letter.to_string()));
            harness.step();
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        harness.run();
        let name = harness.get_by_label("Name");
        assert_eq!(name.value().as_deref(), Some(typed), "{item}");
    }
}
