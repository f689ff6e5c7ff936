//! The desktop inspector driven as a person would, by labels, with no network
//! and no GPU (egui_kittest).

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT as _, Queryable as _};
use follow_inspector::fetch::FetchSummary;
use follow_inspector::fetch::{FetchError, FetchedPage, Fetcher};
use follow_inspector::policy::Verdict;
use follow_inspector::ui::InspectorApp;
use url::Url;

use crate::fonts::with_system_fonts;
use crate::temp_dir;

fn app_harness(fetcher: Option<Arc<dyn Fetcher>>) -> Harness<'static, InspectorApp> {
    let dir = temp_dir("app");
    app_in(dir, fetcher)
}

pub fn app_in(dir: PathBuf, fetcher: Option<Arc<dyn Fetcher>>) -> Harness<'static, InspectorApp> {
    let mut harness = Harness::builder()
        .with_size(egui::vec2(1280.0, 800.0))
        .build_eframe(move |cc| {
            with_system_fonts(&cc.egui_ctx);
            let app = InspectorApp::new(cc, None, Some(dir));
            match fetcher {
                Some(f) => app.with_fetcher(f),
                None => app,
            }
        });
    settle(&mut harness);
    harness
}

/// The verdict of the demo link to `url`, as the app holds it.
fn verdict_of(harness: &Harness<'_, InspectorApp>, url: &str) -> Verdict {
    harness.state().inspection().unwrap().pages[0]
        .decision
        .links
        .iter()
        .find(|l| l.url.as_ref().is_some_and(|u| u.as_str() == url))
        .unwrap()
        .verdict
}

#[test]
fn the_demo_page_shows_its_counts() {
    let harness = app_harness(None);
    for chip in [
        "✔ followed 3",
        "▽ ranked out 5",
        "○ no keyword 5",
        "⊘ blacklisted 7",
        "▣ asset 2",
        "↗ off-domain 4",
        "= duplicate 1",
        "↺ self 2",
        "✉ not http 3",
        "✖ invalid 1",
    ] {
        harness.get_by_label(chip);
    }
    assert!(harness.query_all_by_label("https://acme.test/").count() >= 1);
    harness.get_by_label("Demo page (bundled, no network):");
}

#[test]
fn ticking_allow_subdomains_follows_the_shop_link() {
    let mut harness = app_harness(None);
    assert_eq!(
        verdict_of(&harness, "https://shop.acme.test/contact"),
        Verdict::OffDomain
    );
    harness
        .get_by_label("Allow subdomains · followSubdomain")
        .click();
    harness.run();
    assert_eq!(
        verdict_of(&harness, "https://shop.acme.test/contact"),
        Verdict::Followed
    );
    harness.get_by_label("↗ off-domain 3");
}

#[test]
fn adding_an_allowed_domain_admits_the_sibling_domain() {
    let mut harness = app_harness(None);
    let field = harness.get_by_label("Allowed domains");
    field.focus();
    harness.run();
    harness
        .get_by_label("Allowed domains")
        .type_text("acmecorp.test");
    harness.run();
    assert_ne!(
        verdict_of(&harness, "https://acmecorp.test/about"),
        Verdict::OffDomain
    );
    harness.get_by_label("↗ off-domain 3");
}

#[test]
fn clearing_the_white_list_warns_and_follows_nothing() {
    let mut harness = app_harness(None);
    clear_field(&mut harness, "White keywords");
    harness.get_by_label("✔ followed 0");
    harness.get_by_label_contains("The white list is empty: nothing will be followed");
}

#[test]
fn clicking_a_verdict_chip_hides_those_rows() {
    let mut harness = app_harness(None);
    assert!(harness.query_all_by_label("⊘ blacklisted").count() > 0);
    harness.get_by_label("⊘ blacklisted 7").click();
    harness.run();
    assert_eq!(harness.query_all_by_label("⊘ blacklisted").count(), 0);
    harness.get_by_label("⊘ blacklisted 7").click();
    harness.run();
    assert!(harness.query_all_by_label("⊘ blacklisted").count() > 0);
}

#[test]
fn selecting_a_row_shows_its_trace() {
    let mut harness = app_harness(None);
    harness.get_by_label("Our heritage").click();
    harness.run();
    harness.get_by_label("Link #11");
    harness.get_by_label("No black keyword");
    harness.get_by_label("`tag` in the url, inside `heritage`");
    harness.get_by_label("Copy explanation");
    harness.get_by_label("• no keyword if `tag` is removed from the black keywords");
}

#[test]
fn the_search_box_filters_rows() {
    let mut harness = app_harness(None);
    harness.get_by_label("Search").focus();
    harness.run();
    harness.get_by_label("Search").type_text("impressum");
    harness.run();
    harness.get_by_label("Impressum");
    assert!(harness.query_by_label("Our heritage").is_none());
}

/// Serves every URL with the same two links, or fails; `not_found` answers
/// 404 with an empty page for URLs whose path contains it.
struct FakeFetcher {
    fail: bool,
    not_found: Option<&'static str>,
    /// How many links the page has beyond the two (`Link 0`, `Link 1`, …).
    extra_links: usize,
}

impl FakeFetcher {
    fn ok() -> Arc<dyn Fetcher> {
        Arc::new(FakeFetcher {
            fail: false,
            not_found: None,
            extra_links: 0,
        })
    }
}

impl Fetcher for FakeFetcher {
    fn fetch(&self, url: &Url) -> Result<FetchedPage, FetchError> {
        if self.fail {
            return Err(FetchError::Dns {
                host: url.host_str().unwrap_or_default().to_owned(),
            });
        }
        let (status, body) = match self.not_found {
            Some(part) if url.path().contains(part) => {
                (404, "<html><body>Not found</body></html>".to_owned())
            }
            _ => {
                let mut body =
                    "<html><body><a href='/kontakt'>Kontakt</a><a href='/blog'>Blog</a>".to_owned();
                for i in 0..self.extra_links {
                    body.push_str(&format!("<a href='/p{i}'>Link {i}</a>"));
                }
                (200, body + "</body></html>")
            }
        };
        Ok(html_page(url, status, &body, 1))
    }
}

/// A page a fake fetcher serves: `body` as HTML, with no redirects.
pub fn html_page(url: &Url, status: u16, body: &str, elapsed_ms: u64) -> FetchedPage {
    FetchedPage {
        final_url: url.clone(),
        status,
        charset: None,
        body: body.as_bytes().to_vec(),
        summary: FetchSummary {
            redirects: Vec::new(),
            content_type: Some("text/html".into()),
            bytes: body.len(),
            truncated: false,
            elapsed_ms,
        },
        capture: None,
        rendered: None,
    }
}

/// Waits (up to 10 s on a busy machine) for the background load and the
/// profile work to finish, as a person waits for the spinner to stop.
pub fn settle(harness: &mut Harness<'_, InspectorApp>) {
    for _ in 0..1000 {
        harness.step();
        if !harness.state().is_busy() && !harness.state().profiles_busy() {
            break;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    harness.run();
}

/// Waits (up to 20 s) for the Corpus view's run to end, then settles.
pub fn wait_for_corpus(harness: &mut Harness<'_, InspectorApp>) {
    for _ in 0..2000 {
        harness.step();
        if !harness.state().corpus_running() {
            break;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    settle(harness);
}

/// Opens the Corpus view, types `path` in its field and runs it to the end.
pub fn run_corpus_view(harness: &mut Harness<'_, InspectorApp>, path: &Path) {
    harness.get_by_label("Corpus").click();
    harness.run();
    type_into(harness, "Folder or manifest", &path.to_string_lossy());
    harness.get_by_label("▶ Run").click();
    wait_for_corpus(harness);
}

/// Empties a text field as a person would: select all, delete.
pub fn clear_field(harness: &mut Harness<'_, InspectorApp>, label: &str) {
    harness.get_by_label(label).focus();
    harness.run();
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    harness.key_press(egui::Key::Delete);
    harness.run();
}

pub fn type_into(harness: &mut Harness<'_, InspectorApp>, label: &str, text: &str) {
    harness.get_by_label(label).focus();
    harness.run();
    harness.get_by_label(label).type_text(text);
    harness.run();
}

/// Types `target` in the page field and fetches it, as a person would.
pub fn fetch(harness: &mut Harness<'_, InspectorApp>, target: &str) {
    type_into(harness, "Page", target);
    harness.get_by_label("Fetch").click();
    settle(harness);
}

#[test]
fn a_fetch_fills_the_table() {
    let mut harness = app_harness(Some(FakeFetcher::ok()));
    fetch(&mut harness, "https://beispiel.test/");
    harness.get_by_label("✔ followed 1");
    harness.get_by_label("⊘ blacklisted 1");
    harness.get_by_label("Kontakt");
    harness.get_by_label_contains("HTTP 200");
}

#[test]
fn a_failing_fetch_shows_the_whole_error_above_the_table_until_closed() {
    let mut harness = app_harness(Some(Arc::new(FakeFetcher {
        fail: true,
        not_found: None,
        extra_links: 0,
    })));
    fetch(&mut harness, "https://nowhere.test/");
    // The whole message and what to do, where the user is looking.
    harness.get_by_label(
        "✖ DNS: cannot resolve nowhere.test\nCheck the host name. To inspect a saved copy of \
         the page instead, enter the path of its .html file.",
    );
    // The demo page is still shown, marked as the previous result.
    harness.get_by_label("✔ followed 3");
    harness.get_by_label("Previous result: the last load failed (see above).");
    harness.get_by_label("Close").click();
    harness.run();
    assert!(
        harness
            .query_by_label_contains("DNS: cannot resolve")
            .is_none()
    );
    assert!(harness.query_by_label_contains("Previous result").is_none());
    assert_eq!(harness.state().error(), None);
}

fn fixture(name: &str) -> String {
    format!("{}/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn enter_in_the_base_url_field_loads_and_the_header_says_it_overrides_the_page() {
    let mut harness = app_harness(None);
    type_into(&mut harness, "Page", &fixture("with-canonical.html"));
    type_into(&mut harness, "Base URL", "https://staging.acme.test/");
    harness.key_press(egui::Key::Enter);
    settle(&mut harness);
    harness.get_by_label(
        "Judged as https://staging.acme.test/, the page says https://www.acme.test/home (base URL field).",
    );
    harness.get_by_label("Contact");
    // Without a base URL the page's own canonical URL is used, and nothing is said.
    clear_field(&mut harness, "Base URL");
    harness.key_press(egui::Key::Enter);
    settle(&mut harness);
    assert!(harness.query_by_label_contains("Judged as").is_none());
    assert!(
        harness
            .query_all_by_label("https://www.acme.test/home")
            .count()
            >= 1
    );
}

#[test]
fn the_base_url_belongs_to_the_file_it_was_typed_for() {
    let mut harness = app_harness(None);
    type_into(&mut harness, "Page", &fixture("with-canonical.html"));
    type_into(&mut harness, "Base URL", "https://other.example.com/");
    assert_eq!(harness.state().target().1, "https://other.example.com/");
    // Another file: the base URL field is empty again.
    harness.get_by_label("Page").focus();
    harness.run();
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    harness.run();
    harness
        .get_by_label("Page")
        .type_text(&fixture("no-canonical.html"));
    harness.run();
    assert_eq!(harness.state().target().1, "");
    assert_eq!(
        harness.get_by_label("Base URL").value().as_deref(),
        Some("")
    );
}

/// The text the last frame put on the clipboard.
pub fn copied(harness: &Harness<'_, InspectorApp>) -> Option<String> {
    harness
        .output()
        .platform_output
        .commands
        .iter()
        .find_map(|c| match c {
            egui::OutputCommand::CopyText(text) => Some(text.clone()),
            _ => None,
        })
}

/// Sends one event and returns what that frame put on the clipboard. (kittest
/// runs a frame per queued event and keeps only the last frame's output, so
/// the key carries its modifiers itself.)
pub fn copy_with(harness: &mut Harness<'_, InspectorApp>, event: egui::Event) -> Option<String> {
    harness.event(event);
    harness.step();
    copied(harness)
}

pub fn key_c(modifiers: egui::Modifiers) -> egui::Event {
    egui::Event::Key {
        key: egui::Key::C,
        physical_key: None,
        pressed: true,
        repeat: false,
        modifiers,
    }
}

#[test]
fn ctrl_c_copies_the_selected_url_and_ctrl_shift_c_its_explanation() {
    let mut harness = app_harness(None);
    // Nothing selected: nothing copied.
    assert_eq!(copy_with(&mut harness, egui::Event::Copy), None);
    harness.get_by_label("Impressum").click();
    harness.run();
    // egui-winit turns Ctrl+C into a copy event.
    assert_eq!(
        copy_with(&mut harness, egui::Event::Copy).as_deref(),
        Some("https://acme.test/impressum")
    );
    harness.run();
    let notice = harness.state().notice().unwrap_or_default().to_owned();
    assert!(notice.starts_with("Copied the URL of link #"), "{notice}");
    harness.get_by_label(&format!("ℹ {notice}"));
    assert_eq!(
        copy_with(&mut harness, key_c(egui::Modifiers::COMMAND)).as_deref(),
        Some("https://acme.test/impressum")
    );

    let explanation = copy_with(
        &mut harness,
        key_c(egui::Modifiers::COMMAND | egui::Modifiers::SHIFT),
    )
    .unwrap_or_default();
    assert!(
        explanation.contains("https://acme.test/impressum"),
        "{explanation}"
    );
    assert!(explanation.contains("followed"), "{explanation}");
    assert!(explanation.lines().count() > 3, "{explanation}");
}

#[test]
fn ctrl_shift_c_with_no_row_selected_says_to_select_one() {
    let mut harness = app_harness(None);
    let explanation = copy_with(
        &mut harness,
        key_c(egui::Modifiers::COMMAND | egui::Modifiers::SHIFT),
    );
    assert_eq!(explanation, None);
    harness.run();
    harness.get_by_label(&format!("ℹ {}", follow_inspector::copy::NO_ROW_TO_COPY));

    // With a row selected, the same keys copy and say so instead.
    harness.get_by_label("Impressum").click();
    harness.run();
    let explanation = copy_with(
        &mut harness,
        key_c(egui::Modifiers::COMMAND | egui::Modifiers::SHIFT),
    )
    .unwrap_or_default();
    assert!(
        explanation.contains("https://acme.test/impressum"),
        "{explanation}"
    );
    harness.run();
    assert!(
        harness
            .query_by_label_contains(follow_inspector::copy::NO_ROW_TO_COPY)
            .is_none()
    );
}

#[test]
fn a_link_opens_in_the_browser_from_the_detail_pane() {
    let mut harness = app_harness(None);
    harness.get_by_label("Impressum").click();
    harness.run();
    harness.get_by_label("Open in browser ↗").click();
    harness.step();
    let opened: Vec<String> = harness
        .output()
        .platform_output
        .commands
        .iter()
        .filter_map(|c| match c {
            egui::OutputCommand::OpenUrl(open) => Some(open.url.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(opened, ["https://acme.test/impressum"]);
}

fn crawl_harness(fetcher: FakeFetcher) -> Harness<'static, InspectorApp> {
    let mut harness = app_harness(Some(Arc::new(fetcher)));
    fetch(&mut harness, "https://beispiel.test/");
    harness
}

#[test]
fn a_crawl_goes_out_of_date_when_the_settings_change_and_crawls_again() {
    let mut harness = crawl_harness(FakeFetcher {
        fail: false,
        not_found: None,
        extra_links: 0,
    });
    harness.get_by_label("Crawled pages (2)");
    harness.get_by_label("Page 1 of 2: ");
    assert!(harness.query_by_label(copy_stale()).is_none());

    clear_field(&mut harness, "White keywords");
    harness.get_by_label("✔ followed 0");
    harness.get_by_label(copy_stale());
    harness.get_by_label("Crawled pages (2, out of date)");

    harness.get_by_label("Crawl again").click();
    settle(&mut harness);
    assert!(harness.query_by_label(copy_stale()).is_none());
    // Nothing is followed any more: the new crawl is the start page alone.
    assert_eq!(harness.state().inspection().unwrap().pages.len(), 1);
}

fn copy_stale() -> &'static str {
    follow_inspector::copy::STALE_CRAWL
}

#[test]
fn error_pages_of_a_crawl_are_counted_and_say_so() {
    let mut harness = crawl_harness(FakeFetcher {
        fail: false,
        not_found: Some("kontakt"),
        extra_links: 0,
    });
    harness.get_by_label_contains("2 pages crawled, 0 failed, 1 answered HTTP 4xx/5xx");
    harness
        .get_by_label_contains("→ https://beispiel.test/kontakt  404")
        .click();
    harness.run();
    harness.get_by_label("Page 2 of 2: ");
    harness.get_by_label(
        "No links: the server answered HTTP 404, an error page. The scraper gets the same page.",
    );
}

/// The row order on screen: the y of each label.
fn y_of(harness: &Harness<'_, InspectorApp>, label: &str) -> f32 {
    harness.get_by_label(label).rect().min.y
}

#[test]
fn headers_sort_the_table() {
    let mut harness = app_harness(None);
    // Document order: the blog link comes before the impressum link on the demo page.
    let (impressum, heritage) = ("Impressum", "Our heritage");
    let before = y_of(&harness, impressum) < y_of(&harness, heritage);
    harness.get_by_label("Text").click();
    harness.run();
    harness.get_by_label("Text ▲");
    assert!(y_of(&harness, impressum) < y_of(&harness, heritage));
    harness.get_by_label("Text ▲").click();
    harness.run();
    harness.get_by_label("Text ▼");
    assert!(y_of(&harness, impressum) > y_of(&harness, heritage));
    harness.get_by_label("Text ▼").click();
    harness.run();
    harness.get_by_label("Text");
    assert_eq!(y_of(&harness, impressum) < y_of(&harness, heritage), before);
}

#[test]
fn show_only_this_verdict_from_a_chip() {
    let mut harness = app_harness(None);
    harness.get_by_label("✔ followed 3").click_secondary();
    harness.run();
    harness.get_by_label("Show only this").click();
    harness.run();
    assert_eq!(harness.query_all_by_label("✔ followed").count(), 3);
    assert_eq!(harness.query_all_by_label("⊘ blacklisted").count(), 0);
    assert_eq!(harness.query_all_by_label("○ no keyword").count(), 0);
    harness.get_by_label("✔ followed 3").click_secondary();
    harness.run();
    harness.get_by_label("Show all").click();
    harness.run();
    assert!(harness.query_all_by_label("⊘ blacklisted").count() > 0);
}

/// What a node says: a button's label, or a text label's value (AccessKit keeps
/// the text of `Role::Label` there).
fn text_of(node: &egui_kittest::Node<'_>) -> String {
    let node = node.accesskit_node();
    node.label().or_else(|| node.value()).unwrap_or_default()
}

/// The heading of the detail pane ("Link #n"), if a link is selected.
fn detail_heading(harness: &Harness<'_, InspectorApp>) -> Option<String> {
    harness
        .query_all_by_label_contains("Link #")
        .map(|n| text_of(&n))
        .find(|l| l.starts_with("Link #"))
}

#[test]
fn home_end_and_page_keys_move_the_selection() {
    let mut harness = app_harness(None);
    let links = harness.state().inspection().unwrap().pages[0]
        .decision
        .links
        .len();
    harness.key_press(egui::Key::End);
    harness.run();
    assert_eq!(
        detail_heading(&harness),
        Some(format!("Link #{}", links - 1))
    );
    harness.key_press(egui::Key::Home);
    harness.run();
    assert_eq!(detail_heading(&harness).as_deref(), Some("Link #0"));
    harness.key_press(egui::Key::PageDown);
    harness.run();
    let after_page_down = detail_heading(&harness).unwrap_or_default();
    let n: usize = after_page_down
        .trim_start_matches("Link #")
        .parse()
        .unwrap();
    assert!(n > 1, "{after_page_down}");
    harness.key_press(egui::Key::PageUp);
    harness.run();
    assert_eq!(detail_heading(&harness).as_deref(), Some("Link #0"));
}

#[test]
fn the_detail_pane_clears_when_search_hides_the_selected_row() {
    let mut harness = app_harness(None);
    harness.get_by_label("Our heritage").click();
    harness.run();
    harness.get_by_label("Link #11");
    type_into(&mut harness, "Search", "impressum");
    assert!(harness.query_by_label("Link #11").is_none());
    harness.get_by_label("Link detail");
}

#[test]
fn a_new_page_opens_at_the_top_of_the_table() {
    let mut harness = app_harness(Some(Arc::new(FakeFetcher {
        fail: false,
        not_found: None,
        extra_links: 300,
    })));
    fetch(&mut harness, "https://beispiel.test/");
    harness.get_by_label("Link 0");
    harness.key_press(egui::Key::End);
    harness.run();
    harness.get_by_label("Link 299");
    assert!(harness.query_by_label("Link 0").is_none());
    harness.get_by_label("Fetch").click();
    settle(&mut harness);
    harness.get_by_label("Link 0");
}

#[test]
fn the_warnings_count_shows_in_the_top_bar_and_opens_the_settings() {
    let mut harness = app_harness(None);
    harness.get_by_label("◧ Settings").click();
    harness.run();
    assert!(harness.query_by_label("White keywords").is_none());
    harness.get_by_label("Detail ◨").click();
    harness.run();
    assert!(harness.query_by_label("Link detail").is_none());

    let warnings = harness
        .query_all_by_label_contains("⚠ ")
        .map(|n| text_of(&n))
        .find(|l| l.contains("warning"));
    let lints = harness.state().inspection().unwrap().lints().len();
    let expected = if lints == 1 {
        "⚠ 1 warning".to_owned()
    } else {
        format!("⚠ {lints} warnings")
    };
    if lints == 0 {
        assert_eq!(warnings, None);
        return;
    }
    assert_eq!(warnings.as_deref(), Some(expected.as_str()));
    harness.get_by_label(&expected).click();
    harness.run();
    harness.get_by_label("White keywords");
    harness.get_by_label(&format!("Warnings ({lints})"));
}

pub fn profile_selector<'h>(harness: &'h Harness<'_, InspectorApp>) -> egui_kittest::Node<'h> {
    harness.get_by_role_and_label(egui::accesskit::Role::ComboBox, "Profile")
}

/// What the profile selector shows (name, plus ● when unsaved).
pub fn profile_shown(harness: &Harness<'_, InspectorApp>) -> String {
    profile_selector(harness).value().unwrap_or_default()
}

#[test]
fn save_as_creates_a_profile_and_the_unsaved_dot_comes_and_goes() {
    let dir = temp_dir("save-as");
    let mut harness = app_in(dir.clone(), None);
    assert_eq!(harness.state().profile(), "Scraper defaults");
    harness
        .get_by_label("Allow subdomains · followSubdomain")
        .click();
    harness.run();
    // Unsaved: the dot shows beside the profile name, and the setting is marked.
    assert_eq!(profile_shown(&harness), "Scraper defaults ●");
    harness.get_by_label("↺ default");

    harness.get_by_label("⋯").click();
    harness.run();
    harness.get_by_label("Save as…").click();
    harness.run();
    harness.get_by_label("Name").type_text("ACME ticket 4411");
    harness.run();
    harness.get_by_label("OK").click();
    settle(&mut harness);

    assert_eq!(harness.state().profile(), "ACME ticket 4411");
    assert!(!harness.state().is_dirty());
    assert_eq!(profile_shown(&harness), "ACME ticket 4411");

    // The profile survives a restart, and is the active one.
    drop(harness);
    let again = app_in(dir, None);
    assert_eq!(again.state().profile(), "ACME ticket 4411");
    assert!(again.state().settings().follow_subdomain);
}

/// A profiles folder holding the user profiles `names` (default settings).
pub fn config_with_profiles(name: &str, names: &[&str]) -> PathBuf {
    let dir = temp_dir(name);
    let store = follow_inspector::profiles::ProfileStore::open(Some(&dir)).unwrap();
    for profile in names {
        store
            .save_as(profile, &follow_inspector::policy::Settings::default())
            .unwrap();
    }
    dir
}

/// A profile's settings as saved in `dir`.
pub fn stored(dir: &std::path::Path, name: &str) -> follow_inspector::policy::Settings {
    follow_inspector::profiles::ProfileStore::open(Some(dir))
        .unwrap()
        .load(name)
        .unwrap()
}

/// Makes `name` the profile the app opens with.
pub fn activate(dir: &std::path::Path, name: &str) {
    follow_inspector::profiles::ProfileStore::open(Some(dir))
        .unwrap()
        .set_active(name)
        .unwrap();
}

/// Makes an unsaved change, then picks `other` in the profile selector.
pub fn edit_then_switch_to(harness: &mut Harness<'_, InspectorApp>, other: &str) {
    harness
        .get_by_label("Allow subdomains · followSubdomain")
        .click();
    harness.run();
    profile_selector(harness).click();
    harness.run();
    harness.get_by_label(other).click();
    settle(harness);
}

#[test]
fn switching_away_from_unsaved_changes_asks_first() {
    let mut harness = app_in(config_with_profiles("switch", &["Other"]), None);
    assert_eq!(profile_shown(&harness), "Scraper defaults");
    edit_then_switch_to(&mut harness, "Other");
    harness.get_by_label(
        "Switching to “Other”: save your changes to “Scraper defaults” as a new profile first?",
    );
    harness.get_by_label("Keep editing").click();
    harness.run();
    assert_eq!(harness.state().profile(), "Scraper defaults");
    assert!(harness.state().is_dirty());
}

#[test]
fn reverting_a_changed_setting_puts_the_default_back() {
    let mut harness = app_harness(None);
    harness
        .get_by_label("Allow subdomains · followSubdomain")
        .click();
    harness.run();
    harness.get_by_label("↺ default").click();
    harness.run();
    assert!(!harness.state().settings().follow_subdomain);
    assert!(harness.query_by_label("↺ default").is_none());
}

#[test]
fn the_unsaved_changes_question_can_save_and_go_on() {
    let dir = config_with_profiles("save-then-switch", &["Mine", "Other"]);
    activate(&dir, "Mine");
    let mut harness = app_in(dir.clone(), None);
    assert_eq!(harness.state().profile(), "Mine");
    edit_then_switch_to(&mut harness, "Other");
    harness.get_by_label("Switching to “Other”: save your changes to “Mine” first?");
    harness.get_by_label("Save changes").click();
    settle(&mut harness);
    // Saved, then switched.
    assert_eq!(harness.state().profile(), "Other");
    assert!(stored(&dir, "Mine").follow_subdomain);
}

#[test]
fn the_built_in_profile_offers_save_as_before_switching() {
    let dir = config_with_profiles("save-as-then-switch", &["Other"]);
    let mut harness = app_in(dir, None);
    edit_then_switch_to(&mut harness, "Other");
    harness.get_by_label("Save as…").click();
    harness.run();
    harness.get_by_label("Name").type_text("Kept edits");
    harness.run();
    harness.get_by_label("OK").click();
    settle(&mut harness);
    assert_eq!(harness.state().profile(), "Other");
    assert!(!harness.state().settings().follow_subdomain);
    // The edits went to the new profile.
    profile_selector(&harness).click();
    harness.run();
    harness.get_by_label("Kept edits").click();
    settle(&mut harness);
    assert!(harness.state().settings().follow_subdomain);
}

#[test]
fn a_damaged_profiles_file_is_reported_until_the_user_closes_it() {
    let dir = temp_dir("damaged");
    std::fs::write(dir.join("profiles.toml"), "this is = = not toml [").unwrap();
    let mut harness = app_in(dir, None);
    // The demo page loaded after the profiles: the notice is still there.
    harness.get_by_label("✔ followed 3");
    let notice = harness
        .query_all_by_label_contains("⚠ Profiles: ")
        .map(|n| text_of(&n))
        .next()
        .unwrap_or_default();
    assert!(notice.contains("profiles.corrupt-"), "{notice}");
    // It survives other actions, then goes when closed.
    harness.get_by_label("Impressum").click();
    harness.run();
    assert!(harness.query_by_label_contains("⚠ Profiles: ").is_some());
    harness.get_by_label("Close").click();
    harness.run();
    assert!(harness.query_by_label_contains("⚠ Profiles: ").is_none());
}

/// The app with a real HTTP client pointed at a local server whose page takes
/// 20 s to answer; Fetch has been clicked.
fn fetching_from_a_slow_server() -> (Harness<'static, InspectorApp>, crate::server::Server) {
    let server = crate::server::Server::start(
        |_| {
            std::collections::HashMap::from([(
                "slow.test/".to_owned(),
                crate::server::Route::html("<a href=/contact>Contact</a>")
                    .delay(Duration::from_secs(20)),
            )])
        },
        Duration::ZERO,
    );
    let options = follow_inspector::fetch::FetchOptions {
        resolve: vec![
            format!("slow.test:{}:127.0.0.1", server.port)
                .parse()
                .unwrap(),
        ],
        ..Default::default()
    };
    let fetcher = follow_inspector::fetch::HttpFetcher::new(options).unwrap();
    let mut harness = app_harness(Some(Arc::new(fetcher)));
    type_into(
        &mut harness,
        "Page",
        &format!("http://slow.test:{}/", server.port),
    );
    harness.get_by_label("Fetch").click();
    harness.step();
    (harness, server)
}

#[test]
fn a_slow_server_shows_the_spinner_and_cancel_returns_at_once() {
    let (mut harness, _server) = fetching_from_a_slow_server();
    // The window keeps drawing while the server says nothing.
    for _ in 0..20 {
        harness.step();
        std::thread::sleep(Duration::from_millis(10));
    }
    assert!(harness.state().is_busy());
    assert!(harness.query_by_label("Fetch").is_none());
    harness.get_by_label_contains("pages ·");
    harness.get_by_label("Cancel").click();
    harness.step();
    // At once: no waiting for the 20 s response.
    assert!(!harness.state().is_busy());
    harness.run();
    harness.get_by_label("Fetch");
    harness.get_by_label("✔ followed 3");
    assert_eq!(
        harness.state().notice(),
        Some("Cancelled: the table shows what it showed before.")
    );
}

#[test]
fn escape_cancels_a_load() {
    let (mut harness, _server) = fetching_from_a_slow_server();
    assert!(harness.state().is_busy());
    harness.key_press(egui::Key::Escape);
    harness.step();
    assert!(!harness.state().is_busy());
}

#[test]
fn saving_while_another_instance_holds_the_profiles_lock_never_freezes_the_window() {
    let dir = config_with_profiles("locked", &["Mine"]);
    activate(&dir, "Mine");
    let mut harness = app_in(dir.clone(), None);
    assert_eq!(harness.state().profile(), "Mine");
    harness
        .get_by_label("Allow subdomains · followSubdomain")
        .click();
    harness.run();

    // Another instance is in the middle of a write.
    let lock = std::fs::File::create(dir.join(".profiles.lock")).unwrap();
    lock.lock().unwrap();
    harness.get_by_label("Save").click();
    harness.run_steps(3);
    // The frame came back while the save waits for the lock; the window works.
    assert!(harness.state().profiles_busy());
    assert!(harness.state().is_dirty());
    harness.get_by_label("⊘ blacklisted 7").click();
    harness.run_steps(3);
    assert_eq!(harness.query_all_by_label("⊘ blacklisted").count(), 0);

    drop(lock);
    settle(&mut harness);
    assert!(!harness.state().is_dirty());
    assert_eq!(harness.state().notice(), Some("Saved “Mine”."));
    assert!(stored(&dir, "Mine").follow_subdomain);
}

#[test]
fn one_damaged_profile_is_named_and_the_others_are_offered() {
    let dir = temp_dir("one-damaged");
    std::fs::write(
        dir.join("profiles.toml"),
        "[profiles.Good]\nfollowSubdomain = true\n[profiles.Typo]\nfollowSkipAssets = \"no\"\n",
    )
    .unwrap();
    let mut harness = app_in(dir, None);
    let notice = harness
        .query_all_by_label_contains("⚠ Profiles: ")
        .map(|n| text_of(&n))
        .next()
        .unwrap_or_default();
    assert!(notice.contains("“Typo”"), "{notice}");
    assert!(notice.contains("followSkipAssets"), "{notice}");
    profile_selector(&harness).click();
    harness.run();
    harness.get_by_label("Good");
    assert!(harness.query_by_label("Typo").is_none());
}

/// A rendered page: the DOM has /about, and /kontakt and /impressum that a
/// script added; the served HTML had /about and /blog.
struct RenderedFetcher;

impl Fetcher for RenderedFetcher {
    fn fetch(&self, url: &Url) -> Result<FetchedPage, FetchError> {
        let body = "<html><body><a href='/about'>About</a><a href='/kontakt'>Kontakt</a>\
                    <a href='/impressum'>Impressum</a></body></html>";
        Ok(FetchedPage {
            charset: Some("utf-8".into()),
            capture: None,
            rendered: Some(follow_inspector::fetch::Rendered {
                served_html: Some("<a href=/about>About</a><a href=/blog>Blog</a>".into()),
                network_idle: true,
                wait: follow_inspector::fetch::Wait::Networkidle2,
                render_ms: 900,
                ..Default::default()
            }),
            ..html_page(url, 200, body, 900)
        })
    }
}

/// The app with `browser` for rendered mode (`None`: Chromium is missing).
fn app_with_browser(name: &str, browser: Option<PathBuf>) -> Harness<'static, InspectorApp> {
    let dir = temp_dir(name);
    let mut harness = Harness::builder()
        .with_size(egui::vec2(1280.0, 800.0))
        .build_eframe(move |cc| {
            with_system_fonts(&cc.egui_ctx);
            InspectorApp::new(cc, None, Some(dir)).with_browser(browser)
        });
    settle(&mut harness);
    harness
}

#[test]
fn the_rendered_switch_says_how_to_install_chromium_when_it_is_missing() {
    let mut harness = app_with_browser("no-browser", None);
    let switch = harness.get_by_label("Rendered");
    assert!(switch.accesskit_node().is_disabled());
    switch.hover();
    harness.run();
    harness.get_by_label_contains("apt install chromium-headless-shell");
}

#[test]
fn a_rendered_page_marks_links_scripts_added_and_lists_the_ones_they_removed() {
    let mut harness = app_harness(Some(Arc::new(RenderedFetcher)));
    fetch(&mut harness, "https://acme.test/");
    harness.get_by_label("＋ added by script 2");
    assert_eq!(harness.query_all_by_label("added by script").count(), 2);
    harness.get_by_label_contains("Rendered (networkidle2, network idle)");
    let removed = "Removed by scripts (1): in the served HTML only, the scraper never sees them";
    harness.get_by_label(removed).click();
    harness.run();
    harness.get_by_label("https://acme.test/blog");

    // The chip shows only the links scripts added.
    assert!(harness.query_by_label("About").is_some());
    harness.get_by_label("＋ added by script 2").click();
    harness.run();
    assert!(harness.query_by_label("About").is_none());
    assert!(harness.query_by_label("Kontakt").is_some());
    assert!(harness.query_by_label("Impressum").is_some());
}

#[test]
fn the_rendered_switch_on_an_archive_renders_it_again_from_the_archive() {
    use crate::rendered::{BROWSER, browser_turn};
    let Some(_turn) = browser_turn() else {
        return;
    };
    let Some(jd) = crate::archive_shelf::shelf_file("JD.warc.gz") else {
        return;
    };
    let mut harness = app_with_browser("render-archive", Some(BROWSER.into()));
    harness.get_by_label("Rendered").click();
    harness.run();
    fetch(&mut harness, jd.to_str().unwrap());
    assert!(!harness.state().is_busy(), "the replay did not end in time");
    // The page header says where the requests were answered from; the
    // links the page's scripts built are marked as theirs.
    harness.get_by_label_contains("rendered from the archive: ");
    harness.get_by_label_contains("not in it");
    assert!(
        harness
            .query_all_by_label_contains("added by script")
            .count()
            > 0
    );
}

#[test]
fn cancel_stops_the_browser_of_a_rendered_load_at_once() {
    use crate::rendered::{BROWSER, browser_turn, browsers_with, site, until};
    let Some(_turn) = browser_turn() else {
        return;
    };
    let server = crate::server::Server::start(site, Duration::ZERO);
    let mut harness = app_with_browser("render-cancel", Some(BROWSER.into()));
    harness.get_by_label("Rendered").click();
    harness.run();
    // The page takes 30 s to answer; 127.0.0.1 needs no --resolve.
    type_into(
        &mut harness,
        "Page",
        &format!("http://127.0.0.1:{}/hang", server.port),
    );
    harness.get_by_label("Fetch").click();
    harness.step();
    // The browser's profile folder names this test process.
    let marker = format!("follow-inspector-browser-{}-", std::process::id());
    assert!(until(|| browsers_with(&marker) > 0), "no browser started");
    harness.step();
    assert!(harness.state().is_busy(), "{:?}", harness.state().error());
    harness.get_by_label("Cancel").click();
    harness.step();
    assert!(!harness.state().is_busy());
    assert!(
        until(|| browsers_with(&marker) == 0),
        "the browser outlived Cancel"
    );
}

/// A profiles folder with the profile "tuned" (tests/fixtures/settings-tuned.json).
fn config_with_tuned(name: &str) -> PathBuf {
    let dir = temp_dir(name);
    let json = std::fs::read_to_string(fixture("settings-tuned.json")).unwrap();
    let store = follow_inspector::profiles::ProfileStore::open(Some(&dir)).unwrap();
    store.import("tuned", &json).unwrap();
    store
        .set_active(follow_inspector::profiles::BUILT_IN)
        .unwrap();
    dir
}

fn compare_with(harness: &mut Harness<'_, InspectorApp>, name: &str) {
    harness
        .get_by_role_and_label(egui::accesskit::Role::ComboBox, "Compare with…")
        .click();
    harness.run();
    harness.get_by_label(name).click();
    settle(harness);
}

#[test]
fn compare_with_marks_the_changed_links_and_shows_both_traces() {
    let mut harness = app_in(config_with_tuned("compare"), None);
    fetch(&mut harness, &fixture("acme-home.html"));
    compare_with(&mut harness, "tuned");
    assert_eq!(harness.state().comparing(), Some("tuned"));
    harness.get_by_label(
        "Against “tuned”: +1 followed, −1 followed, 5 verdicts changed, \
         2 links with another rank or keyword",
    );
    harness.get_by_label("B: tuned");
    // Only the changed rows: the unchanged Privacy link goes, Careers stays.
    assert!(harness.query_by_label("Privacy").is_some());
    harness.get_by_label("Δ changed 7").click();
    harness.run();
    assert!(harness.query_by_label("Privacy").is_none());
    harness.get_by_label("Careers");
    harness.get_by_label("Our heritage").click();
    harness.run();
    harness.get_by_label("A: current");
    harness.get_by_label("Under “tuned” this link changes: `tag` removed from the black list.");
    // Stop comparing: the column and the summary go.
    compare_with(&mut harness, "(nobody)");
    assert!(harness.query_by_label("B: tuned").is_none());
    assert_eq!(harness.state().comparing(), None);
}

#[test]
fn the_region_filter_shows_the_footer_links_and_nofollow_is_marked() {
    let mut harness = app_harness(None);
    fetch(&mut harness, &fixture("acme-home.html"));
    harness
        .get_by_role_and_label(egui::accesskit::Role::ComboBox, "Region")
        .click();
    harness.run();
    harness.get_by_label("footer").click();
    harness.run();
    harness.get_by_label("Impressum");
    assert!(harness.query_by_label("Our team").is_none());
    harness.get_by_label("nofollow");
    harness.get_by_label("Contact").click();
    harness.run();
    harness.get_by_label("Page region: footer · rel=nofollow (the scraper follows it anyway)");
}

#[test]
fn a_suggested_sibling_root_is_added_with_one_click() {
    let mut harness = app_harness(None);
    fetch(&mut harness, &fixture("acme-home.html"));
    harness.get_by_label("↗ off-domain 3");
    harness.get_by_label("+ acme.co.uk (1 link)");
    harness.get_by_label("+ acme.de (1 link)").click();
    harness.run();
    assert_eq!(harness.state().settings().follow_allowed_domains, "acme.de");
    harness.get_by_label("↗ off-domain 2");
    assert!(harness.query_by_label("+ acme.de (1 link)").is_none());
    assert!(harness.state().is_dirty());
}

#[test]
fn the_corpus_view_runs_a_folder_and_a_click_opens_a_page_under_both_profiles() {
    let pages = temp_dir("corpus-pages");
    std::fs::copy(fixture("acme-home.html"), pages.join("a-acme.html")).unwrap();
    std::fs::copy(fixture("no-canonical.html"), pages.join("b-nameless.html")).unwrap();
    let mut harness = app_in(config_with_tuned("corpus-view"), None);
    compare_with(&mut harness, "tuned");
    run_corpus_view(&mut harness, &pages);
    let run = harness.state().corpus_run().expect("the run finished");
    assert_eq!(run.pages.len(), 2);
    harness.get_by_label(
        "1 page read (1 failed), 14 links, 3 followed under A, 3 under B; 7 links changed",
    );
    harness.get_by_label_contains("✖ the page has no <link rel=canonical>");
    // The keyword table, the chart's legend (the charts start folded) and the causes.
    harness.get_by_label("Inside a word");
    harness.get_by_label("Charts").click();
    harness.run();
    harness.get_by_label("A: pages decided");
    harness.get_by_label("B: pages decided");
    harness.get_by_label("1 link on 1 page: `tag` removed from the black list (+0 −0 followed)");
    // The page table's row (its links gained and lost name it too).
    harness.get_all_by_label("a-acme").next().unwrap().click();
    settle(&mut harness);
    let shown = harness.state().inspection().unwrap();
    assert_eq!(shown.pages[0].url.as_str(), "https://www.acme.com/");
    assert!(harness.state().target().0.ends_with("a-acme.html"));
    harness.get_by_label("Page: ");
    harness.get_by_label_contains("Against “tuned”: +1 followed");
}

#[test]
fn settings_past_the_limits_keep_the_verdicts_and_say_which_list() {
    let mut harness = app_harness(None);
    harness.get_by_label("✔ followed 3");
    let long = "k".repeat(1_001);
    let field = harness.get_by_label("White keywords");
    field.focus();
    harness.run();
    harness
        .get_by_label("White keywords")
        .type_text(&format!(",{long}"));
    harness.run();
    // The table keeps what it decided; the settings panel says why.
    harness.get_by_label("✔ followed 3");
    harness.get_by_label_contains("Settings too large");
    // Loading is refused with the limit, as the command line refuses it.
    type_into(&mut harness, "Page", "https://acme.test/");
    harness.get_by_label("Fetch").click();
    settle(&mut harness);
    harness.get_by_label_contains("✖ `followKeywordsWhite` item");
}

#[test]
fn a_list_past_the_item_limit_is_not_edited_in_place_and_clears_in_one_click() {
    let mut harness = app_harness(None);
    clear_field(&mut harness, "Black keywords");
    let many: Vec<String> = (0..10_001).map(|i| format!("b{i}")).collect();
    type_into(&mut harness, "Black keywords", &many.join(","));
    harness.get_by_label_contains("10001 items, 57 KB: too large to edit here");
    harness.get_by_label_contains("Settings too large");
    harness.get_by_label("Clear list").click();
    harness.run();
    // An empty black list follows what the white list allows.
    assert!(
        harness
            .query_by_label_contains("too large to edit here")
            .is_none()
    );
    assert!(harness.query_by_label("⊘ blacklisted 7").is_none());
}
