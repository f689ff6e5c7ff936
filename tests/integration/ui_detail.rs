//! The window's detail pane, status bar and host mapping, driven as a person
//! would: what a copied explanation says, where the theme switch is, what the
//! status bar keeps in view at 1024 px, and a site reached by host name
//! through the window's `--resolve` (which is remembered between runs).

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use eframe::Storage as _;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use follow_inspector::fetch::{FetchError, FetchedPage, Fetcher, Rendered, Wait};
use follow_inspector::ui::InspectorApp;
use url::Url;

use crate::server::{Route, Server};
use crate::temp_dir;
use crate::ui::{
    app_in, clear_field, copied, copy_with, fetch, html_page, key_c, settle, type_into,
};

/// A rendered page: the DOM has /about and /kontakt (a script added it); the
/// served HTML had /about and /blog.
struct ScriptedPage;

impl Fetcher for ScriptedPage {
    fn fetch(&self, url: &Url) -> Result<FetchedPage, FetchError> {
        let body = "<a href='/about'>About</a><a href='/kontakt'>Kontakt</a>";
        Ok(FetchedPage {
            charset: Some("utf-8".into()),
            capture: None,
            rendered: Some(Rendered {
                served_html: Some("<a href=/about>About</a><a href=/blog>Blog</a>".into()),
                wait: Wait::Load,
                render_ms: 1500,
                ..Default::default()
            }),
            ..html_page(url, 200, body, 1500)
        })
    }
}

/// What Ctrl+Shift+C puts on the clipboard: the selected link's explanation.
fn copied_explanation(harness: &mut Harness<'_, InspectorApp>) -> String {
    copy_with(
        harness,
        key_c(egui::Modifiers::COMMAND | egui::Modifiers::SHIFT),
    )
    .unwrap_or_default()
}

#[test]
fn the_copied_explanation_says_profile_settings_limits_page_and_script() {
    let dir = temp_dir("detail-explanation");
    let mut harness = app_in(dir, Some(Arc::new(ScriptedPage)));
    harness
        .get_by_label("Allow subdomains · followSubdomain")
        .click();
    harness.run();
    fetch(&mut harness, "https://acme.test/");
    // The status bar labels the render time and says what scripts changed.
    harness.get_by_label_contains("rendered in 1.5 s");
    harness.get_by_label_contains("scripts added 1, removed 1");
    assert!(harness.query_by_label_contains("1500").is_none());

    harness.get_by_label("Kontakt").click();
    harness.run();
    harness.get_by_label_contains("＋ added by script: not in the HTML the server sent");

    let shortcut = copied_explanation(&mut harness);
    for part in [
        "Link #1 on https://acme.test/\n",
        "  added by script: not in the HTML the server sent (rendered-only)",
        "Verdict: followed",
        "Context:\n  profile: Scraper defaults (with unsaved edits)\n",
        "  settings changed from the defaults:\n    followSubdomain: true\n",
        "  depth: 2, N = 3 (from the depth at level 1)\n",
        "  page: https://acme.test/ (page 1 of 3, level 1)\n",
        "  rendered: yes, in Chromium (wait load, network idle, 1.5 s)\n",
    ] {
        assert!(shortcut.contains(part), "{part:?} not in:\n{shortcut}");
    }

    // The detail pane's button copies the same text.
    harness.run();
    harness.get_by_label("Copy explanation").click();
    harness.step();
    assert_eq!(copied(&harness).as_deref(), Some(shortcut.as_str()));
}

#[test]
fn the_explanation_of_a_saved_page_names_its_file_and_the_override() {
    let dir = temp_dir("detail-file");
    let mut harness = app_in(dir, None);
    let file = format!(
        "{}/tests/fixtures/with-canonical.html",
        env!("CARGO_MANIFEST_DIR")
    );
    type_into(&mut harness, "Override N", "1");
    fetch(&mut harness, &file);
    harness.get_by_label("Contact").click();
    harness.run();
    let text = copied_explanation(&mut harness);
    for part in [
        "  profile: Scraper defaults\n",
        "  settings changed from the defaults: none\n",
        "  depth: 2, N = 1 (overridden in the window)\n",
        &format!("  file: {file}\n"),
        "  rendered: no (the HTML as the server sent it)\n",
    ] {
        assert!(text.contains(part), "{part:?} not in:\n{text}");
    }
    assert!(!text.contains("added by script"), "{text}");
}

/// The y of the detail pane's heading.
fn heading_y(harness: &Harness<'_, InspectorApp>, index: usize) -> f32 {
    harness.get_by_label(&format!("Link #{index}")).rect().min.y
}

#[test]
fn a_new_selection_opens_the_detail_pane_at_its_heading() {
    let dir = temp_dir("detail-scroll");
    let mut harness = app_in(dir, None);
    harness.set_size(egui::vec2(1280.0, 600.0));
    harness.get_by_label("Our heritage").click();
    harness.run();
    let top = heading_y(&harness, 11);
    // Read down to the what-ifs: the heading scrolls out of view.
    harness.get_by_label("What if").scroll_to_me();
    harness.run();
    assert!(heading_y(&harness, 11) < top - 50.0, "did not scroll");

    harness.get_by_label("Our team").click();
    harness.run();
    assert_eq!(
        heading_y(&harness, 5),
        top,
        "the new heading is not at the top"
    );
}

/// The app in a window of `size`.
fn app_sized(name: &str, size: egui::Vec2) -> Harness<'static, InspectorApp> {
    let mut harness = app_in(temp_dir(name), None);
    harness.set_size(size);
    harness.run();
    harness
}

#[test]
fn a_long_url_in_the_status_bar_leaves_the_theme_switch_clickable() {
    let size = egui::vec2(1024.0, 700.0);
    let mut harness = app_sized("detail-theme", size);
    let file = format!(
        "{}/tests/fixtures/with-canonical.html",
        env!("CARGO_MANIFEST_DIR")
    );
    let long = format!(
        "https://staging.acme.test/{}/index.html",
        "a-very-long-path-segment".repeat(12)
    );
    type_into(&mut harness, "Page", &file);
    type_into(&mut harness, "Base URL", &long);
    harness.key_press(egui::Key::Enter);
    settle(&mut harness);
    // The file's name, not its whole path, and the URL elided before the switch.
    harness.get_by_label("File with-canonical.html as");
    // The page heading shows the URL too; the status bar's is the lowest.
    let url = harness
        .query_all_by_label(&long)
        .map(|n| n.rect())
        .max_by(|a, b| a.min.y.total_cmp(&b.min.y))
        .unwrap();
    assert!(url.min.y > size.y - 40.0, "{url:?}");
    let switch = harness.get_by_label("☀ Light theme").rect();
    assert!(
        switch.max.x <= size.x && switch.max.y <= size.y,
        "{switch:?}"
    );
    assert!(
        url.max.x <= switch.min.x,
        "URL {url:?} runs into {switch:?}"
    );

    harness.get_by_label("☀ Light theme").click();
    harness.run();
    harness.get_by_label("Dark theme");
}

#[test]
fn a_keyword_chip_never_breaks_inside_itself() {
    let mut harness = app_sized("detail-chips", egui::vec2(1000.0, 800.0));
    for width in (1000..1300).step_by(10) {
        harness.set_size(egui::vec2(width as f32, 800.0));
        harness.run();
        let one_line = harness.get_by_label("contact 11").rect().height();
        let cjk = harness.get_by_label("关于 4").rect().height();
        assert!(
            (cjk - one_line).abs() < 1.0,
            "关于 is {cjk} px tall, a chip {one_line} px, at {width} px"
        );
    }
}

/// A site that answers only to its host name, on 127.0.0.1.
fn acme_site(_port: u16) -> HashMap<String, Route> {
    HashMap::from([(
        "acme.test/".to_owned(),
        Route::html("<a href=/kontakt>Kontakt</a><a href=/blog>Blog</a>"),
    )])
}

/// Opens Settings › Advanced and types `mapping` into the host mapping.
pub(crate) fn map_hosts(harness: &mut Harness<'_, InspectorApp>, mapping: &str) {
    harness.get_by_label("Advanced").click();
    harness.run();
    harness.get_by_label("Host mapping").scroll_to_me();
    harness.run();
    type_into(harness, "Host mapping", mapping);
}

#[test]
fn the_host_mapping_reaches_a_site_by_its_host_name() {
    let server = Server::start(acme_site, Duration::ZERO);
    let mut harness = app_in(temp_dir("detail-resolve"), None);
    // A mapping that does not parse says so and is not used.
    map_hosts(&mut harness, "acme.test");
    harness.get_by_label_contains("✖ `acme.test` is not HOST:PORT:ADDR");
    harness.get_by_label("⚠ host mapping not valid");
    fetch(&mut harness, &format!("http://acme.test:{}/", server.port));
    harness.get_by_label_contains("✖ host mapping (Settings › Advanced): `acme.test` is not");
    assert_eq!(server.hits("acme.test/"), 0);

    clear_field(&mut harness, "Host mapping");
    type_into(
        &mut harness,
        "Host mapping",
        &format!("acme.test:{}:127.0.0.1", server.port),
    );
    assert_eq!(
        harness.state().host_mapping(),
        format!("acme.test:{}:127.0.0.1", server.port)
    );
    harness.get_by_label("Fetch").click();
    settle(&mut harness);
    assert_eq!(harness.state().error(), None);
    harness.get_by_label(&format!("⇄ acme.test → 127.0.0.1:{}", server.port));
    harness.get_by_label("Kontakt");
    harness.get_by_label_contains("HTTP 200");
    assert_eq!(server.hits("acme.test/"), 1);
}

/// The app with the real browser for rendered mode.
pub(crate) fn app_rendering(name: &str) -> Harness<'static, InspectorApp> {
    let dir = temp_dir(name);
    let browser = PathBuf::from(crate::rendered::BROWSER);
    let mut harness = Harness::builder()
        .with_size(egui::vec2(1280.0, 800.0))
        .build_eframe(move |cc| {
            crate::fonts::with_system_fonts(&cc.egui_ctx);
            InspectorApp::new(cc, None, Some(dir)).with_browser(Some(browser))
        });
    settle(&mut harness);
    harness
}

/// Rendered ticked, the host mapped to `server`, its home page fetched.
pub(crate) fn fetch_rendered_home(harness: &mut Harness<'_, InspectorApp>, server: &Server) {
    harness.get_by_label("Rendered").click();
    harness.run();
    map_hosts(harness, &format!("acme.test:{}:127.0.0.1", server.port));
    type_into(
        harness,
        "Page",
        &format!("http://acme.test:{}/", server.port),
    );
    harness.get_by_label("Fetch").click();
    // A browser on a busy machine takes longer than `settle` waits.
    for _ in 0..6 {
        settle(harness);
    }
    assert_eq!(harness.state().error(), None);
}

#[test]
fn the_host_mapping_reaches_a_rendered_site_by_its_host_name() {
    let Some(_turn) = crate::rendered::browser_turn() else {
        return;
    };
    let server = Server::start(crate::rendered::site, Duration::ZERO);
    let mut harness = app_rendering("detail-resolve-rendered");
    fetch_rendered_home(&mut harness, &server);
    harness.get_by_label("＋ added by script 2");
    harness.get_by_label_contains("scripts added 2, removed 1");
    harness.get_by_label_contains("rendered in ");
}

/// A site with facts to say: a redirect, two pages crawled, the host mapped.
fn redirecting_site(_port: u16) -> HashMap<String, Route> {
    HashMap::from([
        (
            "acme.test/".to_owned(),
            Route::redirect(301, "/welcome/to/the/acme/staging/site"),
        ),
        (
            "acme.test/welcome/to/the/acme/staging/site".to_owned(),
            Route::html("<a href=/kontakt>Kontakt</a>"),
        ),
        ("acme.test/kontakt".to_owned(), Route::html("Kontakt")),
    ])
}

#[test]
fn a_fetched_page_with_many_facts_keeps_its_url_in_view_at_1024_px() {
    let server = Server::start(redirecting_site, Duration::ZERO);
    let size = egui::vec2(1024.0, 700.0);
    let mut harness = app_in(temp_dir("detail-status-facts"), None);
    map_hosts(
        &mut harness,
        &format!("acme.test:{}:127.0.0.1", server.port),
    );
    harness.set_size(size);
    harness.run();
    fetch(&mut harness, &format!("http://acme.test:{}/", server.port));
    assert_eq!(harness.state().error(), None);
    let url = format!(
        "http://acme.test:{}/welcome/to/the/acme/staging/site",
        server.port
    );
    // The facts are one line, elided before the URL.
    let facts = harness.get_by_label_contains("HTTP 200").rect();
    harness.get_by_label_contains("← 1 redirect");
    harness.get_by_label_contains("2 pages crawled");
    let shown = harness
        .query_all_by_label(&url)
        .map(|n| n.rect())
        .max_by(|a, b| a.min.y.total_cmp(&b.min.y))
        .unwrap();
    assert!(shown.min.y > size.y - 40.0, "{shown:?}");
    assert!(
        shown.min.x >= 0.0,
        "the URL starts off the left edge: {shown:?}"
    );
    assert!(
        shown.width() >= size.x * 0.25,
        "the URL has only {} px",
        shown.width()
    );
    assert!(shown.max.x <= facts.min.x, "{shown:?} runs into {facts:?}");
    assert!(facts.min.x >= 0.0, "{facts:?}");
    let switch = harness.get_by_label("☀ Light theme").rect();
    assert!(switch.max.x <= size.x, "{switch:?}");
    harness.get_by_label("☀ Light theme").click();
    harness.run();
    harness.get_by_label("Dark theme");
}

#[test]
fn a_host_mapping_that_does_not_parse_refuses_only_a_fetch() {
    let mut harness = app_in(temp_dir("detail-resolve-file"), None);
    map_hosts(&mut harness, "acme.test");
    let file = format!(
        "{}/tests/fixtures/with-canonical.html",
        env!("CARGO_MANIFEST_DIR")
    );
    // A saved file is read, not fetched: it loads.
    fetch(&mut harness, &file);
    assert_eq!(harness.state().error(), None);
    harness.get_by_label("Contact");
    harness.get_by_label_contains("File with-canonical.html");
    // So does the demo page.
    harness.get_by_label("Demo page").click();
    settle(&mut harness);
    assert_eq!(harness.state().error(), None);
    harness.get_by_label("Our heritage");
    // A URL is refused, and says why.
    fetch(&mut harness, "http://acme.test:9/");
    harness.get_by_label_contains("✖ host mapping (Settings › Advanced): `acme.test` is not");
}

#[test]
fn the_status_bar_and_the_explanation_name_the_mapping_the_page_was_fetched_with() {
    let server = Server::start(acme_site, Duration::ZERO);
    let mut harness = app_in(temp_dir("detail-resolve-used"), None);
    let used = format!("acme.test:{}:127.0.0.1", server.port);
    let mark = format!("⇄ acme.test → 127.0.0.1:{}", server.port);
    // The demo page is no fetch: no mark, whatever is typed.
    map_hosts(&mut harness, &used);
    assert!(harness.query_by_label(&mark).is_none());
    fetch(&mut harness, &format!("http://acme.test:{}/", server.port));
    assert_eq!(harness.state().error(), None);
    harness.get_by_label(&mark);

    // Another mapping typed: the page shown was still fetched with the first.
    clear_field(&mut harness, "Host mapping");
    type_into(&mut harness, "Host mapping", "acme.test:1:127.0.0.2");
    harness.get_by_label(&mark);
    assert!(
        harness
            .query_by_label("⇄ acme.test → 127.0.0.2:1")
            .is_none()
    );

    harness.get_by_label("Kontakt").click();
    harness.run();
    let text = copied_explanation(&mut harness);
    let line = format!("  host mapping: {used}\n");
    assert!(text.contains(&line), "{line:?} not in:\n{text}");

    // A saved file was not fetched: no mapping named.
    let file = format!(
        "{}/tests/fixtures/with-canonical.html",
        env!("CARGO_MANIFEST_DIR")
    );
    clear_field(&mut harness, "Page");
    fetch(&mut harness, &file);
    assert_eq!(harness.state().error(), None);
    assert!(harness.query_by_label_contains("⇄").is_none());
    harness.get_by_label("Contact").click();
    harness.run();
    let text = copied_explanation(&mut harness);
    assert!(!text.contains("host mapping"), "{text}");
}

#[test]
fn edits_past_the_limits_are_not_called_unsaved_edits_of_the_settings_listed() {
    let mut harness = app_in(temp_dir("detail-unsaved-limits"), None);
    harness.get_by_label("White keywords").focus();
    harness.run();
    let long = "k".repeat(1_001);
    harness
        .get_by_label("White keywords")
        .type_text(&format!(",{long}"));
    harness.run();
    harness.get_by_label_contains("Settings too large");
    harness.get_by_label("Our heritage").click();
    harness.run();
    let text = copied_explanation(&mut harness);
    // The page was decided under the saved settings, and they are listed.
    for part in [
        "  profile: Scraper defaults\n",
        "  settings changed from the defaults: none\n",
    ] {
        assert!(text.contains(part), "{part:?} not in:\n{text}");
    }
}

/// eframe's storage, in memory.
#[derive(Default)]
struct MemoryStorage(HashMap<String, String>);

impl eframe::Storage for MemoryStorage {
    fn get_string(&self, key: &str) -> Option<String> {
        self.0.get(key).cloned()
    }

    fn set_string(&mut self, key: &str, value: String) {
        self.0.insert(key.to_owned(), value);
    }

    fn remove_string(&mut self, key: &str) {
        self.0.remove(key);
    }

    fn flush(&mut self) {}
}

#[test]
fn the_host_mapping_is_remembered_between_runs() {
    let dir = temp_dir("detail-resolve-remembered");
    let mut harness = app_in(dir.clone(), None);
    map_hosts(&mut harness, "acme.test:8080:127.0.0.1");
    let mut storage = MemoryStorage::default();
    eframe::App::save(harness.state_mut(), &mut storage);
    let stored = storage.get_string("follow-inspector-window-options");
    assert!(
        stored
            .as_deref()
            .is_some_and(|s| s.contains("acme.test:8080:127.0.0.1")),
        "{stored:?}"
    );

    // The next run starts with it.
    let storage: &'static MemoryStorage = Box::leak(Box::new(storage));
    let mut again = Harness::builder()
        .with_size(egui::vec2(1280.0, 800.0))
        .build_eframe(move |cc| {
            cc.storage = Some(storage);
            crate::fonts::with_system_fonts(&cc.egui_ctx);
            InspectorApp::new(cc, None, Some(dir))
        });
    settle(&mut again);
    assert_eq!(again.state().host_mapping(), "acme.test:8080:127.0.0.1");
    again.get_by_label("Host mapping");
}

#[test]
fn a_rendered_page_keeps_its_url_and_the_theme_switch_in_view_at_1024_px() {
    let size = egui::vec2(1024.0, 700.0);
    let mut harness = app_in(
        temp_dir("detail-status-rendered"),
        Some(Arc::new(ScriptedPage)),
    );
    harness.set_size(size);
    harness.run();
    let url = "https://staging.acme.test/welcome/to/the/acme/site";
    fetch(&mut harness, url);
    assert_eq!(harness.state().error(), None);
    let facts = harness.get_by_label_contains("rendered in 1.5 s").rect();
    let shown = harness
        .query_all_by_label(url)
        .map(|n| n.rect())
        .max_by(|a, b| a.min.y.total_cmp(&b.min.y))
        .unwrap();
    assert!(shown.min.y > size.y - 40.0, "{shown:?}");
    assert!(shown.min.x >= 0.0, "{shown:?}");
    assert!(shown.width() >= size.x * 0.25, "{shown:?}");
    assert!(shown.max.x <= facts.min.x, "{shown:?} runs into {facts:?}");
    harness.get_by_label("☀ Light theme").click();
    harness.run();
    harness.get_by_label("Dark theme");
}

/// The redirecting site on 127.0.0.1 itself: no host mapping to show.
fn local_redirecting_site(port: u16) -> HashMap<String, Route> {
    redirecting_site(port)
        .into_iter()
        .map(|(key, route)| (key.replacen("acme.test", "127.0.0.1", 1), route))
        .collect()
}

#[test]
fn at_800_px_the_saved_notice_names_its_file_and_the_url_keeps_a_fair_share() {
    let server = Server::start(local_redirecting_site, Duration::ZERO);
    let mut harness = app_in(temp_dir("detail-status-saved"), None);
    fetch(&mut harness, &format!("http://127.0.0.1:{}/", server.port));
    assert_eq!(harness.state().error(), None);
    let path = temp_dir("detail-status-saved-archive").join("acme.test-2026-12-02.warc.gz");
    crate::ui_archive::save_for_ticket(&mut harness, &path);
    assert_eq!(harness.state().error(), None);
    let size = egui::vec2(800.0, 700.0);
    harness.set_size(size);
    harness.run();

    // The notice names the file, and shows its name at 800 px (what is
    // drawn is the label's text runs, elided or not).
    let notice = harness.state().notice().unwrap_or_default().to_owned();
    assert!(
        notice.starts_with("Saved acme.test-2026-12-02.warc.gz for the ticket ("),
        "{notice}"
    );
    let drawn: String = harness
        .query_all_by_role(egui::accesskit::Role::TextRun)
        .filter_map(|n| n.value())
        .find(|v| v.starts_with("ℹ Saved"))
        .unwrap_or_default();
    assert!(
        drawn.contains("acme.test-2026-12-02.warc.gz"),
        "the bar shows {drawn:?}"
    );
    // The URL keeps a fair share of the bar.
    let url = format!(
        "http://127.0.0.1:{}/welcome/to/the/acme/staging/site",
        server.port
    );
    let shown = harness
        .query_all_by_label(&url)
        .map(|n| n.rect())
        .max_by(|a, b| a.min.y.total_cmp(&b.min.y))
        .unwrap();
    assert!(shown.min.y > size.y - 40.0, "{shown:?}");
    assert!(
        shown.width() >= size.x * 0.25,
        "the URL has only {} px",
        shown.width()
    );
    // The whole path on hover.
    harness.get_by_label(&format!("ℹ {notice}")).hover();
    harness.run();
    harness.get_by_label(&path.display().to_string());
}
