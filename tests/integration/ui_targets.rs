//! Marking links as targets in the inspector: the key and the buttons write
//! the targets file row by row, the Target column and the chip show it, and
//! a file that cannot be written says so in the status bar.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use follow_inspector::fetch::{FetchError, FetchedPage, Fetcher};
use follow_inspector::ui::InspectorApp;
use url::Url;

use crate::temp_dir;
use crate::ui::{app_in, fetch, html_page, run_corpus_view, settle};

const PAGE: &str = "https://beispiel.test/";

/// The same page for every URL: a contact link, an imprint, a blog.
struct ThreeLinks;

impl Fetcher for ThreeLinks {
    fn fetch(&self, url: &Url) -> Result<FetchedPage, FetchError> {
        let body = "<html><body><a href='/kontakt'>Kontakt</a>\
            <a href='/impressum'>Impressum</a><a href='/blog'>Blog</a></body></html>";
        Ok(html_page(url, 200, body, 1))
    }
}

/// A targets file as labelled by hand: another page's row, an unknown column.
const HAND_LABELLED: &str = "id\turl\tkind\tindex\ttext\tnote\treviewer\n\
    007\thttps://andere.test/about\tabout\t4\tÜber uns\toffsite\tana\n";

/// The window with the page fetched and `text` as its targets file.
fn marking(name: &str, text: &str) -> (Harness<'static, InspectorApp>, PathBuf) {
    let dir = temp_dir(name);
    let file = dir.join("targets.tsv");
    std::fs::write(&file, text).unwrap();
    let mut harness = app_in(dir, Some(Arc::new(ThreeLinks)));
    fetch(&mut harness, PAGE);
    harness.state_mut().use_targets_file(file.clone());
    settle_targets(&mut harness);
    (harness, file)
}

/// Waits for the targets thread, as a person waits for the file to be written.
fn settle_targets(harness: &mut Harness<'_, InspectorApp>) {
    for _ in 0..1000 {
        harness.step();
        if !harness.state().targets_busy() {
            break;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    settle(harness);
}

fn read(file: &Path) -> String {
    std::fs::read_to_string(file).unwrap()
}

fn notice(harness: &Harness<'_, InspectorApp>) -> String {
    harness.state().notice().unwrap_or_default().to_owned()
}

#[test]
fn a_link_is_marked_with_the_key_and_the_button_and_unmarked_again() {
    let (mut harness, file) = marking("targets-mark", HAND_LABELLED);
    assert_eq!(harness.state().targets_file(), Some(file.as_path()));
    harness.get_by_label("◎ targets 0");
    harness.get_by_label("Target");

    // The key: T asks which kind, C says contact.
    harness.get_by_label("Kontakt").click();
    harness.run();
    harness.get_by_label("Not a target in targets.tsv");
    // Escape closes the chooser, and nothing is written.
    harness.key_press(egui::Key::T);
    harness.run();
    harness.get_by_label("Which kind of page does it lead to?");
    harness.key_press(egui::Key::Escape);
    harness.run();
    assert!(
        harness
            .query_by_label("Which kind of page does it lead to?")
            .is_none()
    );
    assert_eq!(read(&file), HAND_LABELLED);
    harness.key_press(egui::Key::T);
    harness.run();
    harness.key_press(egui::Key::C);
    settle_targets(&mut harness);
    let contact =
        "https://beispiel.test/\thttps://beispiel.test/kontakt\tcontact\t0\tKontakt\t\t\n";
    assert_eq!(read(&file), format!("{HAND_LABELLED}{contact}"));
    assert!(
        harness
            .query_by_label("Which kind of page does it lead to?")
            .is_none()
    );
    harness.get_by_label("Target: contact (in targets.tsv)");
    harness.get_by_label("◎ targets 1");
    harness.get_by_label("contact");
    assert_eq!(
        notice(&harness),
        "Marked as contact in targets.tsv: https://beispiel.test/kontakt"
    );

    // The button: Mark as target…, then the kind.
    harness.get_by_label("Impressum").click();
    harness.run();
    harness.get_by_label("Mark as target…").click();
    harness.run();
    harness.get_by_label("Imprint (I)").click();
    settle_targets(&mut harness);
    let imprint =
        "https://beispiel.test/\thttps://beispiel.test/impressum\timprint\t1\tImpressum\t\t\n";
    assert_eq!(read(&file), format!("{HAND_LABELLED}{contact}{imprint}"));
    harness.get_by_label("◎ targets 2");
    harness.get_by_label("imprint");

    // The chip shows only the targets.
    harness.get_by_label("◎ targets 2").click();
    harness.run();
    assert!(harness.query_by_label("Blog").is_none());
    harness.get_by_label("Kontakt");
    harness.get_by_label("◎ targets 2").click();
    harness.run();
    harness.get_by_label("Blog");

    // Changing the kind rewrites that row only; Not a target removes it.
    harness.get_by_label("Change kind…").click();
    harness.run();
    harness.get_by_label("About (A)").click();
    settle_targets(&mut harness);
    assert_eq!(
        read(&file),
        format!(
            "{HAND_LABELLED}{contact}{}",
            imprint.replace("imprint", "about")
        )
    );
    harness.get_by_label("Not a target").click();
    settle_targets(&mut harness);
    assert_eq!(read(&file), format!("{HAND_LABELLED}{contact}"));
    harness.get_by_label("◎ targets 1");
    harness.get_by_label("Not a target in targets.tsv");

    // Undo puts the row back where it was.
    harness.get_by_label("↶ Undo mark").click();
    settle_targets(&mut harness);
    assert_eq!(
        read(&file),
        format!(
            "{HAND_LABELLED}{contact}{}",
            imprint.replace("imprint", "about")
        )
    );
    assert_eq!(notice(&harness), "Undid the last mark in targets.tsv.");
    assert!(harness.query_by_label("↶ Undo mark").is_none());
}

#[test]
fn a_row_removed_by_the_n_key_comes_back_with_its_note_on_ctrl_z() {
    let labelled = format!(
        "{HAND_LABELLED}{PAGE}\t{PAGE}kontakt\tcontact\t0\tKontakt\tthe form, not the phone\tana\n"
    );
    let (mut harness, file) = marking("targets-undo", &labelled);
    harness.get_by_label("Kontakt").click();
    harness.run();
    harness.get_by_label("Target: contact (in targets.tsv)");
    harness.key_press(egui::Key::N);
    settle_targets(&mut harness);
    assert_eq!(read(&file), HAND_LABELLED);
    assert_eq!(
        notice(&harness),
        format!("Not a target any more in targets.tsv (Ctrl+Z undoes): {PAGE}kontakt")
    );
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    settle_targets(&mut harness);
    assert_eq!(read(&file), labelled);
    harness.get_by_label("Target: contact (in targets.tsv)");
}

#[test]
fn a_read_only_or_vanished_targets_file_says_so_and_nothing_is_lost() {
    use std::os::unix::fs::PermissionsExt as _;
    let (mut harness, file) = marking("targets-read-only", HAND_LABELLED);
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o444)).unwrap();
    harness.get_by_label("Kontakt").click();
    harness.run();
    harness.key_press(egui::Key::T);
    harness.run();
    harness.key_press(egui::Key::Enter);
    settle_targets(&mut harness);
    let message = format!("{} is read-only: nothing was written.", file.display());
    assert_eq!(notice(&harness), message);
    harness.get_by_label_contains("is read-only: nothing was written.");
    assert_eq!(read(&file), HAND_LABELLED);
    harness.get_by_label("◎ targets 0");

    // Edited in another program meanwhile: read again, not overwritten.
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o644)).unwrap();
    let edited = format!("{HAND_LABELLED}{PAGE}\t{PAGE}blog\tabout\t2\tBlog\t\tbob\n");
    std::fs::write(&file, &edited).unwrap();
    harness.key_press(egui::Key::T);
    harness.run();
    harness.key_press(egui::Key::C);
    settle_targets(&mut harness);
    assert_eq!(
        notice(&harness),
        "targets.tsv changed on disk since it was read: nothing was written. \
         It has been read again; mark the link again."
    );
    assert_eq!(read(&file), edited);
    harness.get_by_label("◎ targets 1");

    // Gone: nothing is written, and no file appears.
    std::fs::remove_file(&file).unwrap();
    harness.key_press(egui::Key::T);
    harness.run();
    harness.key_press(egui::Key::C);
    settle_targets(&mut harness);
    assert!(notice(&harness).starts_with(&format!("{} no longer exists", file.display())));
    assert!(!file.exists());
}

#[test]
fn a_targets_file_that_does_not_exist_is_offered_to_be_created() {
    let dir = temp_dir("targets-create");
    let file = dir.join("new-targets.tsv");
    let mut harness = app_in(dir, Some(Arc::new(ThreeLinks)));
    fetch(&mut harness, PAGE);
    harness.get_by_label("Blog").click();
    harness.run();
    harness.get_by_label("No targets file");
    harness.get_by_label("Targets file…").click();
    harness.run();
    harness
        .get_by_label("Targets file")
        .type_text(&file.display().to_string());
    harness.run();
    harness.get_by_label("Use").click();
    settle_targets(&mut harness);
    harness.get_by_label_contains("does not exist. Create it");
    harness.get_by_label("Create").click();
    settle_targets(&mut harness);
    assert_eq!(read(&file), "id\turl\tkind\tindex\ttext\tnote\n");
    harness.get_by_label("Not a target in new-targets.tsv");
    harness.key_press(egui::Key::T);
    harness.run();
    harness.key_press(egui::Key::A);
    settle_targets(&mut harness);
    assert_eq!(
        read(&file),
        format!("id\turl\tkind\tindex\ttext\tnote\n{PAGE}\t{PAGE}blog\tabout\t2\tBlog\t\n")
    );
}

#[test]
fn a_page_opened_from_the_corpus_view_is_marked_under_its_corpus_id() {
    let pages = temp_dir("targets-corpus-pages");
    let fixture = format!(
        "{}/tests/fixtures/acme-home.html",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::copy(fixture, pages.join("a-acme.html")).unwrap();
    let dir = temp_dir("targets-corpus");
    let file = dir.join("targets.tsv");
    std::fs::write(&file, "id\turl\tkind\n").unwrap();
    let mut harness = app_in(dir, None);
    run_corpus_view(&mut harness, &pages);
    harness.get_by_label("a-acme").click();
    settle(&mut harness);
    harness.state_mut().use_targets_file(file.clone());
    settle_targets(&mut harness);
    harness.get_by_label("About us").click();
    harness.run();
    harness.key_press(egui::Key::T);
    harness.run();
    harness.key_press(egui::Key::A);
    settle_targets(&mut harness);
    assert_eq!(
        read(&file),
        "id\turl\tkind\na-acme\thttps://www.acme.com/about/\tabout\n"
    );
    harness.get_by_label("◎ targets 1");
}

#[test]
fn undoing_every_mark_since_the_run_takes_back_run_again() {
    let pages = temp_dir("targets-undo-all-pages");
    let fixture = format!(
        "{}/tests/fixtures/acme-home.html",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::copy(fixture, pages.join("a-acme.html")).unwrap();
    // Found beside the pages: the run is measured against it, and links
    // marked in the inspector go to it.
    let file = pages.join("targets.tsv");
    let original = "id\turl\tkind\n";
    std::fs::write(&file, original).unwrap();
    let mut harness = app_in(temp_dir("targets-undo-all"), None);
    run_corpus_view(&mut harness, &pages);
    settle_targets(&mut harness);
    assert_eq!(harness.state().targets_file(), Some(file.as_path()));
    let run_again = format!(
        "Links were marked in {} after this run: Run again to measure them.",
        file.display()
    );
    assert!(harness.query_by_label(&run_again).is_none());

    harness.get_by_label("a-acme").click();
    settle(&mut harness);
    harness.get_by_label("About us").click();
    harness.run();
    harness.key_press(egui::Key::T);
    harness.run();
    harness.key_press(egui::Key::A);
    settle_targets(&mut harness);
    let about = read(&file);
    assert_ne!(about, original);
    harness.key_press(egui::Key::T);
    harness.run();
    harness.key_press(egui::Key::C);
    settle_targets(&mut harness);
    // One mark undone of two: the file still differs from the run's.
    harness.get_by_label("↶ Undo mark").click();
    settle_targets(&mut harness);
    assert_eq!(read(&file), about);
    harness.get_by_label("Corpus").click();
    harness.run();
    harness.get_by_label(&run_again);

    // Not a target takes the last row out: the file is the run's again.
    harness.get_by_label("Inspector").click();
    harness.run();
    harness.get_by_label("Not a target").click();
    settle_targets(&mut harness);
    assert_eq!(read(&file), original);
    harness.get_by_label("Corpus").click();
    harness.run();
    assert!(harness.query_by_label(&run_again).is_none());

    // Marked and undone: byte for byte as the run read it, nothing to run.
    harness.get_by_label("Inspector").click();
    harness.run();
    harness.key_press(egui::Key::T);
    harness.run();
    harness.key_press(egui::Key::A);
    settle_targets(&mut harness);
    harness.get_by_label("Corpus").click();
    harness.run();
    harness.get_by_label(&run_again);
    harness.get_by_label("Inspector").click();
    harness.run();
    harness.get_by_label("↶ Undo mark").click();
    settle_targets(&mut harness);
    assert_eq!(read(&file), original);
    harness.get_by_label("Corpus").click();
    harness.run();
    assert!(harness.query_by_label(&run_again).is_none());
}
