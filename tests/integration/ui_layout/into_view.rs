//! The window's layout as a person meets it: a row of the Corpus view's
//! gained and lost links or of its missed targets opens its page with that
//! link selected and explained; in a short window, T brings the kind
//! chooser into view.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use follow_inspector::fetch::{FetchError, FetchedPage, Fetcher};
use follow_inspector::ui::InspectorApp;
use url::Url;

use crate::temp_dir;
use crate::ui::{app_in, fetch, html_page, run_corpus_view, settle, wait_for_corpus};

/// A manifest and two pages: p1's `Kontakt` is found by the defaults, p2's
/// `Ihr Besuch` (its second link) by no keyword. The walk's Corpus view
/// scene runs it too.
pub(super) fn corpus(name: &str) -> PathBuf {
    let dir = temp_dir(&format!("corpus-layout-{name}"));
    std::fs::create_dir_all(dir.join("pages")).unwrap();
    let manifest = "id\toriginal_url\np1\thttps://one.test/\np2\thttps://two.test/\n";
    std::fs::write(dir.join("manifest.tsv"), manifest).unwrap();
    for (id, links) in [
        (
            "p1",
            r#"<a href="/kontakt">Kontakt</a><a href="/shop">Shop</a>"#,
        ),
        (
            "p2",
            r#"<a href="/menu">Menü</a><a href="/ihr-besuch">Ihr Besuch</a>"#,
        ),
    ] {
        let html = format!("<html><body>{links}</body></html>");
        std::fs::write(dir.join("pages").join(format!("{id}.html")), html).unwrap();
    }
    let targets = "id\turl\tkind\n\
        p1\thttps://one.test/kontakt\tcontact\n\
        p2\thttps://two.test/ihr-besuch\tcontact\n";
    std::fs::write(dir.join("targets.tsv"), targets).unwrap();
    dir
}

fn run_manifest(dir: &Path, config: &str) -> Harness<'static, InspectorApp> {
    let mut harness = app_in(temp_dir(config), None);
    run_corpus_view(&mut harness, &dir.join("manifest.tsv"));
    harness
}

/// The inspector shows p2 with its second link (#1) selected and explained.
fn shows_the_missed_link_explained(harness: &mut Harness<'_, InspectorApp>) {
    settle(harness);
    assert!(harness.state().target().0.ends_with("p2.html"));
    harness.get_by_label("Link #1");
    harness.get_by_label_contains("no white keyword in its URL or text");
    assert!(
        harness
            .query_by_label_contains("Select a row to see")
            .is_none()
    );
}

#[test]
fn a_missed_target_clicked_opens_its_page_with_the_link_selected() {
    let dir = corpus("missed");
    let mut harness = run_manifest(&dir, "corpus-layout-missed-config");
    harness.get_by_label("https://two.test/ihr-besuch").click();
    harness.run();
    shows_the_missed_link_explained(&mut harness);
}

#[test]
fn a_gained_link_clicked_opens_its_page_with_the_link_selected() {
    let dir = corpus("gained");
    let mut harness = run_manifest(&dir, "corpus-layout-gained-config");
    harness.get_all_by_label("Try as B").next().unwrap().click();
    wait_for_corpus(&mut harness);
    harness.get_by_label("1 link gained or lost");
    // The gained/lost table comes before the missed targets.
    harness
        .get_all_by_label("https://two.test/ihr-besuch")
        .next()
        .unwrap()
        .click();
    harness.run();
    shows_the_missed_link_explained(&mut harness);
}

/// A page of a contact link and a few others.
struct ContactPage;

impl Fetcher for ContactPage {
    fn fetch(&self, url: &Url) -> Result<FetchedPage, FetchError> {
        let body = "<html><body><a href='/kontakt'>Kontakt</a>\
            <a href='/impressum'>Impressum</a><a href='/blog'>Blog</a></body></html>";
        Ok(html_page(url, 200, body, 1))
    }
}

#[test]
fn in_a_short_window_t_scrolls_the_kind_chooser_into_view() {
    let dir = temp_dir("layout-kind-chooser");
    let file = dir.join("targets.tsv");
    std::fs::write(&file, "id\turl\tkind\n").unwrap();
    let mut harness = app_in(dir, Some(Arc::new(ContactPage)));
    fetch(&mut harness, "https://beispiel.test/");
    harness.state_mut().use_targets_file(file);
    for _ in 0..1000 {
        harness.step();
        if !harness.state().targets_busy() {
            break;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    settle(&mut harness);
    // 900 × 700, the settings folded: the detail pane is under the table.
    let size = egui::vec2(900.0, 700.0);
    harness.set_size(size);
    harness.get_by_label("◧ Settings").click();
    harness.run();
    harness.get_by_label("Kontakt").click();
    harness.run();
    harness.key_press(egui::Key::T);
    harness.run();
    let prompt = harness
        .get_by_label("Which kind of page does it lead to?")
        .rect();
    assert!(
        prompt.bottom() <= size.y && prompt.top() >= 0.0,
        "the prompt is off-screen at {prompt:?}"
    );
}
