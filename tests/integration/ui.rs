//! The desktop inspector driven as a person would, by labels, with no network
//! and no GPU (egui_kittest).

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use follow_inspector::fetch::{FetchError, FetchedPage, Fetcher};
use follow_inspector::inspect::FetchSummary;
use follow_inspector::policy::Verdict;
use follow_inspector::ui::InspectorApp;
use url::Url;

/// A fresh profiles folder per test: no test touches the user's configuration.
pub fn temp_config_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("fi-ui-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn app_harness(fetcher: Option<Arc<dyn Fetcher>>) -> Harness<'static, InspectorApp> {
    let dir = temp_config_dir(&format!("{:?}", std::thread::current().id()));
    app_in(dir, fetcher)
}

fn app_in(dir: PathBuf, fetcher: Option<Arc<dyn Fetcher>>) -> Harness<'static, InspectorApp> {
    let mut harness = Harness::builder()
        .with_size(egui::vec2(1280.0, 800.0))
        .build_eframe(move |cc| {
            let app = InspectorApp::new(cc, None, Some(dir));
            match fetcher {
                Some(f) => app.with_fetcher(f),
                None => app,
            }
        });
    harness.run();
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
    harness.get_by_label("White keywords").focus();
    harness.run();
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    harness.key_press(egui::Key::Delete);
    harness.run();
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

struct FakeFetcher {
    fail: bool,
}

impl Fetcher for FakeFetcher {
    fn fetch(&self, url: &Url) -> Result<FetchedPage, FetchError> {
        if self.fail {
            return Err(FetchError::Dns {
                host: url.host_str().unwrap_or_default().to_owned(),
            });
        }
        let body =
            b"<html><body><a href='/kontakt'>Kontakt</a><a href='/blog'>Blog</a></body></html>";
        Ok(FetchedPage {
            final_url: url.clone(),
            status: 200,
            charset: None,
            body: body.to_vec(),
            summary: FetchSummary {
                requested_url: url.clone(),
                redirects: Vec::new(),
                content_type: Some("text/html".into()),
                bytes: body.len(),
                truncated: false,
                elapsed_ms: 1,
            },
        })
    }
}

fn fetch(harness: &mut Harness<'_, InspectorApp>, target: &str) {
    harness.get_by_label("Page").focus();
    harness.run();
    harness.get_by_label("Page").type_text(target);
    harness.run();
    harness.get_by_label("Fetch").click();
    for _ in 0..1000 {
        harness.step();
        if !harness.state().is_busy() {
            break;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    harness.run();
}

#[test]
fn a_fetch_fills_the_table() {
    let mut harness = app_harness(Some(Arc::new(FakeFetcher { fail: false })));
    fetch(&mut harness, "https://beispiel.test/");
    harness.get_by_label("✔ followed 1");
    harness.get_by_label("⊘ blacklisted 1");
    harness.get_by_label("Kontakt");
    harness.get_by_label("HTTP 200");
}

#[test]
fn a_failing_fetch_shows_the_error_and_keeps_the_previous_result() {
    let mut harness = app_harness(Some(Arc::new(FakeFetcher { fail: true })));
    fetch(&mut harness, "https://nowhere.test/");
    harness.get_by_label("✖ DNS");
    assert_eq!(
        harness.state().error(),
        Some("DNS: cannot resolve nowhere.test")
    );
    // The demo page is still shown.
    harness.get_by_label("✔ followed 3");
}

#[test]
fn frames_at_normal_and_zero_size() {
    let mut harness = app_harness(None);
    harness.set_size(egui::vec2(0.0, 0.0));
    harness.run();
    harness.set_size(egui::vec2(640.0, 400.0));
    harness.run();
    harness.set_size(egui::vec2(1920.0, 1080.0));
    harness.run();
}

fn profile_selector<'h>(harness: &'h Harness<'_, InspectorApp>) -> egui_kittest::Node<'h> {
    harness.get_by_role_and_label(egui::accesskit::Role::ComboBox, "Profile")
}

/// What the profile selector shows (name, plus ● when unsaved).
fn profile_shown(harness: &Harness<'_, InspectorApp>) -> String {
    profile_selector(harness).value().unwrap_or_default()
}

#[test]
fn save_as_creates_a_profile_and_the_unsaved_dot_comes_and_goes() {
    let dir = temp_config_dir("save-as");
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
    harness.run();

    assert_eq!(harness.state().profile(), "ACME ticket 4411");
    assert!(!harness.state().is_dirty());
    assert_eq!(profile_shown(&harness), "ACME ticket 4411");

    // The profile survives a restart, and is the active one.
    drop(harness);
    let again = app_in(dir, None);
    assert_eq!(again.state().profile(), "ACME ticket 4411");
    assert!(again.state().settings().follow_subdomain);
}

#[test]
fn switching_away_from_unsaved_changes_asks_first() {
    let dir = temp_config_dir("switch");
    let store = follow_inspector::profiles::ProfileStore::open(Some(&dir)).unwrap();
    store
        .save_as("Other", &follow_inspector::policy::Settings::default())
        .unwrap();
    let mut harness = app_in(dir, None);
    harness
        .get_by_label("Allow subdomains · followSubdomain")
        .click();
    harness.run();
    assert_eq!(profile_shown(&harness), "Scraper defaults ●");
    profile_selector(&harness).click();
    harness.run();
    harness.get_by_label("Other").click();
    harness.run();
    harness.get_by_label("“Scraper defaults” has unsaved changes. Discard them?");
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
