//! Web archives in the window (SPEC 10): Save for ticket… after a fetch from
//! the local test server, reopening the file in a fresh window (as
//! `follow-inspector FILE.warc.gz` does, and by dropping it on the window)
//! with the verdicts support saw, the archive's settings shown as unsaved
//! edits, the copied explanation naming the file, and the replace question.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT as _, Queryable as _};
use follow_inspector::copy;
use follow_inspector::fetch::{Capture, Exchange, FetchError, FetchedPage, Fetcher};
use follow_inspector::policy::Verdict;
use follow_inspector::ui::InspectorApp;
use url::Url;

use crate::fonts::with_system_fonts;
use crate::server::{Route, Server};
use crate::temp_dir;
use crate::ui::{app_in, clear_field, copy_with, fetch, html_page, key_c, settle, type_into};
use crate::ui_detail::{app_rendering, fetch_rendered_home, map_hosts};

/// A site that answers only to its host name, on 127.0.0.1: a start page
/// with a contact page, a blog and a shop on a subdomain.
pub fn acme_site(_port: u16) -> HashMap<String, Route> {
    HashMap::from([
        (
            "acme.test/".to_owned(),
            Route::html(
                "<a href=/kontakt>Kontakt</a><a href=/blog>Blog</a>\
                 <a href=/impressum>Impressum</a>\
                 <a href=http://shop.acme.test/kontakt>Shop Kontakt</a>",
            ),
        ),
        (
            "acme.test/kontakt".to_owned(),
            Route::html("<a href=/team>Team</a>"),
        ),
        ("acme.test/impressum".to_owned(), Route::html("Impressum")),
    ])
}

/// Waits (up to 10 s on a busy machine) for Save for ticket to finish.
fn settle_save(harness: &mut Harness<'_, InspectorApp>) {
    for _ in 0..1000 {
        harness.step();
        if !harness.state().is_saving() {
            break;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    harness.run();
}

/// Save for ticket…, `path` typed in its dialog, Save.
pub(crate) fn save_for_ticket(harness: &mut Harness<'_, InspectorApp>, path: &Path) {
    harness.get_by_label(copy::LABEL_SAVE_FOR_TICKET).click();
    harness.run();
    clear_field(harness, copy::LABEL_ARCHIVE_FILE);
    type_into(
        harness,
        copy::LABEL_ARCHIVE_FILE,
        &path.display().to_string(),
    );
    // Enter in the path field saves (the profiles bar has a Save button too).
    harness.key_press(egui::Key::Enter);
    settle_save(harness);
}

/// Every page's URL and its links' verdicts, as the table shows them.
pub fn verdict_table(harness: &Harness<'_, InspectorApp>) -> Vec<(String, Vec<(String, Verdict)>)> {
    harness
        .state()
        .inspection()
        .unwrap()
        .pages
        .iter()
        .map(|page| {
            let links = page
                .decision
                .links
                .iter()
                .map(|l| (l.href.to_string(), l.verdict))
                .collect();
            (page.url.to_string(), links)
        })
        .collect()
}

/// The window opened on `path`, as `follow-inspector FILE.warc.gz` opens it.
fn app_on(name: &str, path: &Path) -> Harness<'static, InspectorApp> {
    app_on_in(temp_dir(name), path)
}

/// The same with the profiles in `dir`.
fn app_on_in(dir: PathBuf, path: &Path) -> Harness<'static, InspectorApp> {
    let start = path.display().to_string();
    let mut harness = Harness::builder()
        .with_size(egui::vec2(1280.0, 800.0))
        .build_eframe(move |cc| {
            with_system_fonts(&cc.egui_ctx);
            InspectorApp::new(cc, Some(start), Some(dir))
        });
    settle(&mut harness);
    harness
}

/// Fetches the acme site through the host mapping, subdomains allowed (an
/// edit over the built-in profile), and saves it for a ticket in `dir`.
pub fn fetch_and_save(
    name: &str,
    server: &Server,
    dir: &Path,
) -> (Harness<'static, InspectorApp>, PathBuf) {
    let mut harness = app_in(temp_dir(name), None);
    map_hosts(
        &mut harness,
        &format!(
            "acme.test:{p}:127.0.0.1 shop.acme.test:{p}:127.0.0.1",
            p = server.port
        ),
    );
    harness
        .get_by_label("Allow subdomains · followSubdomain")
        .click();
    harness.run();
    fetch(&mut harness, &format!("http://acme.test:{}/", server.port));
    assert_eq!(harness.state().error(), None);
    let path = dir.join("acme.test-ticket.warc.gz");
    save_for_ticket(&mut harness, &path);
    assert_eq!(harness.state().error(), None);
    (harness, path)
}

/// Picks `depth` in the top bar's Depth list.
pub fn pick_depth(harness: &mut Harness<'_, InspectorApp>, depth: &str) {
    harness
        .get_by_role_and_label(egui::accesskit::Role::ComboBox, "Depth")
        .click();
    harness.run();
    // The list's entries are buttons; the other "3"s on screen are labels.
    harness
        .get_by_role_and_label(egui::accesskit::Role::Button, depth)
        .click();
    harness.run();
}

#[test]
fn a_fetch_saved_for_a_ticket_reopens_offline_with_the_same_verdicts() {
    let server = Server::start(acme_site, Duration::ZERO);
    let dir = crate::temp_dir("round-trip");
    let (mut saving, path) = fetch_and_save("archive-save", &server, &dir);
    assert!(path.is_file(), "{} was not written", path.display());
    let notice = saving.state().notice().unwrap_or_default().to_owned();
    assert!(
        notice.starts_with("Saved acme.test-ticket.warc.gz for the ticket ("),
        "{notice}"
    );
    saving.get_by_label(&format!("ℹ {notice}"));

    // The explanation copied for the ticket names the file.
    saving.get_by_label("Kontakt").click();
    saving.run();
    let explanation = copy_with(
        &mut saving,
        key_c(egui::Modifiers::COMMAND | egui::Modifiers::SHIFT),
    )
    .unwrap_or_default();
    assert!(
        explanation.contains("  archive: acme.test-ticket.warc.gz (saved "),
        "{explanation}"
    );
    assert!(explanation.contains(" UTC)\n"), "{explanation}");

    let hits = server.all_hits();
    let mut reopened = app_on("archive-reopen", &path);
    assert_eq!(reopened.state().error(), None);
    assert_eq!(verdict_table(&reopened), verdict_table(&saving));
    // Offline: the archive answered every page.
    assert_eq!(server.all_hits(), hits);
    reopened.get_by_label_contains("From an archive, captured ");
    reopened.get_by_label_contains("From the web archive acme.test-ticket.warc.gz, captured ");

    // Its explanation names the archive and when it was captured.
    reopened.get_by_label("Kontakt").click();
    reopened.run();
    let explanation = copy_with(
        &mut reopened,
        key_c(egui::Modifiers::COMMAND | egui::Modifiers::SHIFT),
    )
    .unwrap_or_default();
    let named = format!(
        "  archive: {} (reopened offline, captured 20",
        path.display()
    );
    assert!(explanation.contains(&named), "{explanation}");
    assert!(explanation.contains(" UTC)\n"), "{explanation}");

    // What was reopened is kept too: saved again, it reopens the same.
    let again = dir.join("again.warc");
    save_for_ticket(&mut reopened, &again);
    assert_eq!(reopened.state().error(), None);
    let twice = app_on("archive-reopen-again", &again);
    assert_eq!(verdict_table(&twice), verdict_table(&saving));
    assert_eq!(server.all_hits(), hits);
}

#[test]
fn an_archive_saved_under_the_current_profiles_settings_calls_nothing_unsaved() {
    let server = Server::start(acme_site, Duration::ZERO);
    let dir = crate::temp_dir("settings-same");
    let (_saving, path) = fetch_and_save("archive-settings-same-save", &server, &dir);
    // The profile the window opens on holds the archive's settings as saved.
    let config = temp_dir("archive-settings-same-reopen");
    let store = follow_inspector::profiles::ProfileStore::open(Some(&config)).unwrap();
    store
        .import("Subdomains", r#"{"followSubdomain": true}"#)
        .unwrap();
    store.set_active("Subdomains").unwrap();
    let reopened = app_on_in(config, &path);
    assert_eq!(reopened.state().profile(), "Subdomains");
    assert!(!reopened.state().is_dirty());
    assert_eq!(crate::ui::profile_shown(&reopened), "Subdomains");
    reopened.get_by_label_contains(
        "these are the verdicts it was saved with, and they are your profile “Subdomains” as \
         saved; nothing is fetched.",
    );
    assert!(reopened.query_by_label_contains("unsaved edits").is_none());
    // Judging under the profile would change nothing: no button says it would.
    assert!(
        reopened
            .query_by_label("Judge under “Subdomains”")
            .is_none()
    );
}

#[test]
fn an_archive_shows_its_own_settings_as_unsaved_edits_and_rejudges_without_fetching() {
    let server = Server::start(acme_site, Duration::ZERO);
    let dir = crate::temp_dir("settings");
    let (saving, path) = fetch_and_save("archive-settings-save", &server, &dir);
    let shop = |harness: &Harness<'_, InspectorApp>| {
        harness.state().inspection().unwrap().pages[0]
            .decision
            .links
            .iter()
            .find(|l| l.href.contains("shop.acme.test"))
            .map(|l| l.verdict)
    };
    assert_ne!(shop(&saving), Some(Verdict::OffDomain));

    let hits = server.all_hits();
    let config = temp_dir("archive-settings-reopen");
    let store = follow_inspector::profiles::ProfileStore::open(Some(&config)).unwrap();
    store.import("second", "{}").unwrap();
    store
        .set_active(follow_inspector::profiles::BUILT_IN)
        .unwrap();
    let mut reopened = app_on_in(config, &path);
    // The verdicts support saw, under the archive's settings.
    assert_eq!(shop(&reopened), shop(&saving));
    assert!(reopened.state().settings().follow_subdomain);
    assert!(reopened.state().is_dirty());
    // As unsaved edits: leaving the profile asks first, and keeping them
    // keeps the archive's verdicts.
    reopened
        .get_by_role_and_label(egui::accesskit::Role::ComboBox, "Profile")
        .click();
    reopened.run();
    reopened.get_by_label("second").click();
    settle(&mut reopened);
    reopened.get_by_label(copy::LABEL_KEEP_EDITING).click();
    reopened.run();
    assert_eq!(
        reopened.state().profile(),
        follow_inspector::profiles::BUILT_IN
    );
    assert_eq!(shop(&reopened), shop(&saving));
    reopened.get_by_label_contains("Settings from the archive (edited settings, captured ");

    // Judged under the profile instead: no edits, nothing fetched.
    reopened
        .get_by_label("Judge under “Scraper defaults”")
        .click();
    reopened.run();
    assert!(!reopened.state().is_dirty());
    assert_eq!(shop(&reopened), Some(Verdict::OffDomain));
    reopened.get_by_label_contains("Judged under your settings, not the archive's");
    reopened.get_by_label(copy::JUDGE_UNDER_ARCHIVE).click();
    reopened.run();
    assert_eq!(shop(&reopened), shop(&saving));

    // Crawling deeper reads the archive only: a page it lacks fails.
    pick_depth(&mut reopened, "3");
    reopened.get_by_label(copy::LABEL_CRAWL_AGAIN).click();
    settle(&mut reopened);
    assert_eq!(reopened.state().error(), None);
    assert_eq!(reopened.state().inspection().unwrap().depth(), 3);
    assert_eq!(server.all_hits(), hits);
    reopened.get_by_label_contains("not in the archive");
}

/// A file dropped on the window, as the desktop hands it over.
#[derive(Debug)]
pub struct Dropped(pub PathBuf);

impl egui::DroppedFile for Dropped {
    fn path(&self) -> &Path {
        &self.0
    }

    fn bytes(&self) -> Result<Vec<u8>, String> {
        std::fs::read(&self.0).map_err(|e| e.to_string())
    }
}

#[test]
fn an_archive_does_not_replace_unsaved_edits_unasked() {
    let server = Server::start(acme_site, Duration::ZERO);
    let dir = crate::temp_dir("own-edits");
    let (saving, path) = fetch_and_save("archive-own-edits-save", &server, &dir);
    let mut harness = app_in(temp_dir("archive-own-edits"), None);
    type_into(&mut harness, "White keywords", ",impressum2");
    let edited = harness.state().settings().clone();
    type_into(&mut harness, "Page", &path.display().to_string());
    harness.get_by_label("Fetch").click();
    settle(&mut harness);
    assert_eq!(harness.state().error(), None);
    // The user's edits stay, and judge the pages; the banner says so.
    assert_eq!(*harness.state().settings(), edited);
    assert_eq!(harness.state().inspection().unwrap().settings(), &edited);
    harness.get_by_label_contains("Judged under your settings, not the archive's");
    // The archive's settings would replace the edits: asked first.
    harness.get_by_label(copy::JUDGE_UNDER_ARCHIVE).click();
    harness.run();
    harness.get_by_label(
        "Using the archive's settings: save your changes to “Scraper defaults” as a new \
         profile first?",
    );
    harness.get_by_label(copy::LABEL_DISCARD).click();
    harness.run();
    assert_eq!(verdict_table(&harness), verdict_table(&saving));
}

#[test]
fn an_archive_dropped_on_the_window_opens() {
    let server = Server::start(acme_site, Duration::ZERO);
    let dir = crate::temp_dir("drop");
    let (saving, path) = fetch_and_save("archive-drop-save", &server, &dir);
    let mut harness = app_in(temp_dir("archive-drop"), None);
    harness
        .input_mut()
        .dropped_files
        .push(Arc::new(Dropped(path.clone())));
    harness.step();
    settle(&mut harness);
    assert_eq!(harness.state().error(), None);
    assert_eq!(verdict_table(&harness), verdict_table(&saving));
    harness.get_by_label_contains("From an archive, captured ");
    assert_eq!(harness.state().target().0, path.display().to_string());
}

#[test]
fn an_existing_file_is_replaced_only_when_the_user_says_so() {
    let mut harness = app_in(
        temp_dir("archive-replace"),
        Some(Arc::new(CapturingFetcher)),
    );
    fetch(&mut harness, "https://acme.test/");
    let path = crate::temp_dir("replace").join("ticket.warc.gz");
    std::fs::write(&path, "keep me").unwrap();

    save_for_ticket(&mut harness, &path);
    let question = copy::overwrite_question(&path.display().to_string());
    harness.get_by_label(&question);
    harness.get_by_label(copy::LABEL_CANCEL).click();
    harness.run();
    // Back in the dialog, the path as typed, the file as it was.
    assert!(harness.query_by_label(&question).is_none());
    harness.get_by_label(copy::SAVE_FOR_TICKET_TITLE);
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "keep me");

    harness.key_press(egui::Key::Enter);
    settle_save(&mut harness);
    harness.get_by_label(copy::LABEL_REPLACE).click();
    settle_save(&mut harness);
    assert_eq!(harness.state().error(), None);
    assert_ne!(std::fs::read(&path).unwrap(), b"keep me");
    assert!(
        harness
            .state()
            .notice()
            .unwrap_or_default()
            .starts_with("Saved ticket.warc.gz for the ticket ("),
        "{:?}",
        harness.state().notice()
    );
}

#[test]
fn a_save_that_fails_says_why_and_what_to_do_in_its_dialog() {
    let mut harness = app_in(
        temp_dir("archive-save-fails"),
        Some(Arc::new(CapturingFetcher)),
    );
    fetch(&mut harness, "https://acme.test/");
    let path = crate::temp_dir("save-fails").join("no-such-folder/ticket.warc.gz");
    save_for_ticket(&mut harness, &path);
    harness.get_by_label_contains(&format!("✖ cannot write {}", path.display()));
    harness.get_by_label_contains("Check that the folder exists and is writable");
    // Still in the dialog, to choose another path.
    harness.get_by_label(copy::SAVE_FOR_TICKET_TITLE);
    assert!(!path.exists());
}

/// Hovers the disabled Save for ticket… and finds why it is disabled.
fn save_is_refused_because(harness: &mut Harness<'_, InspectorApp>, why: &str) {
    let button = harness.get_by_label(copy::LABEL_SAVE_FOR_TICKET);
    assert!(button.accesskit_node().is_disabled());
    button.hover();
    harness.run();
    harness.get_by_label(why);
}

#[test]
fn save_for_ticket_is_disabled_for_the_demo_page_and_a_saved_file_saying_why() {
    let mut harness = app_in(temp_dir("archive-refused"), None);
    save_is_refused_because(&mut harness, copy::DEMO_NOT_SAVED);

    let page = crate::temp_dir("refused").join("page.html");
    std::fs::write(
        &page,
        "<link rel=canonical href=https://acme.test/><a href=/kontakt>Kontakt</a>",
    )
    .unwrap();
    fetch(&mut harness, &page.display().to_string());
    assert_eq!(harness.state().error(), None);
    save_is_refused_because(&mut harness, copy::SAVED_PAGE_NOT_SAVED);
}

/// Every page with two links, and what went over the wire for it.
struct CapturingFetcher;

impl Fetcher for CapturingFetcher {
    fn fetch(&self, url: &Url) -> Result<FetchedPage, FetchError> {
        let body = "<a href=/kontakt>Kontakt</a><a href=/blog>Blog</a>";
        let mut page = html_page(url, 200, body, 1);
        page.capture = Some(Arc::new(Capture {
            exchanges: vec![Exchange {
                url: url.clone(),
                method: "GET".into(),
                request_headers: vec![("Host".into(), "acme.test".into())],
                version: "HTTP/1.1".into(),
                status: 200,
                reason: "OK".into(),
                response_headers: vec![("Content-Type".into(), "text/html".into())],
                body: body.as_bytes().to_vec(),
                truncated: false,
                body_unread: false,
                ip: None,
                at: SystemTime::now(),
            }],
            dom: None,
            rendered: None,
            ..Capture::default()
        }));
        Ok(page)
    }
}

/// The pages' captures, as kept by the shown inspection.
fn captures(harness: &Harness<'_, InspectorApp>) -> Vec<Arc<Capture>> {
    harness
        .state()
        .inspection()
        .unwrap()
        .pages
        .iter()
        .map(|p| Arc::clone(p.capture.as_ref().expect("the page keeps its capture")))
        .collect()
}

#[test]
fn what_was_fetched_survives_rejudging_compare_and_the_crawl_tree() {
    let dir = temp_dir("archive-capture");
    let store = follow_inspector::profiles::ProfileStore::open(Some(&dir)).unwrap();
    store.import("second", "{}").unwrap();
    store
        .set_active(follow_inspector::profiles::BUILT_IN)
        .unwrap();
    let mut harness = app_in(dir, Some(Arc::new(CapturingFetcher)));
    fetch(&mut harness, "https://acme.test/");
    let fetched = captures(&harness);
    assert_eq!(fetched.len(), 2, "the start page and Kontakt");

    // A setting edited, the depth changed, a page of the crawl tree chosen,
    // Compare with… on: the same captures, not copies.
    harness
        .get_by_label("Allow subdomains · followSubdomain")
        .click();
    harness.run();
    pick_depth(&mut harness, "3");
    harness
        .get_by_label_contains("https://acme.test/kontakt  200")
        .click();
    harness.run();
    harness.get_by_label("Page 2 of 2: ");
    harness
        .get_by_role_and_label(egui::accesskit::Role::ComboBox, copy::LABEL_COMPARE_WITH)
        .click();
    harness.run();
    harness.get_by_label("second").click();
    settle(&mut harness);
    assert_eq!(harness.state().comparing(), Some("second"));
    let kept = captures(&harness);
    assert_eq!(kept.len(), fetched.len());
    for (kept, fetched) in kept.iter().zip(&fetched) {
        assert!(Arc::ptr_eq(kept, fetched));
    }
}

#[test]
fn a_rendered_page_saved_for_a_ticket_reopens_rendered_without_a_browser() {
    let Some(_turn) = crate::rendered::browser_turn() else {
        return;
    };
    let server = Server::start(crate::rendered::site, Duration::ZERO);
    let mut harness = app_rendering("archive-rendered");
    fetch_rendered_home(&mut harness, &server);
    harness.get_by_label("＋ added by script 2");
    let path = crate::temp_dir("rendered").join("rendered.warc.gz");
    save_for_ticket(&mut harness, &path);
    assert_eq!(harness.state().error(), None);

    // No browser in the window that reopens it.
    let dir = temp_dir("archive-rendered-reopen");
    let start = path.display().to_string();
    let mut reopened = Harness::builder()
        .with_size(egui::vec2(1280.0, 800.0))
        .build_eframe(move |cc| {
            with_system_fonts(&cc.egui_ctx);
            InspectorApp::new(cc, Some(start), Some(dir)).with_browser(None)
        });
    settle(&mut reopened);
    assert_eq!(reopened.state().error(), None);
    assert_eq!(verdict_table(&reopened), verdict_table(&harness));
    reopened.get_by_label("＋ added by script 2");
    reopened.get_by_label_contains("From an archive, captured ");
}

#[test]
fn an_archive_with_odd_records_says_how_many_its_pages_were_read_past() {
    // pywb: chunked kept over a body stored de-chunked; the page reads, and
    // the page header counts the record beside the damaged ones.
    let dir = temp_dir("archive-odd");
    let block = crate::warc_files::http_response(
        200,
        &[
            ("Content-Type", "text/html"),
            ("Transfer-Encoding", "chunked"),
        ],
        b"<html><body><a href=\"/contact\">Contact</a></body></html>",
    );
    let bytes = [
        crate::warc_files::warcinfo(),
        crate::warc_files::record(
            "response",
            &[
                ("WARC-Target-URI", "https://chunked.test/"),
                ("Content-Type", "application/http; msgtype=response"),
            ],
            &block,
        ),
    ]
    .concat();
    let path = crate::warc_files::write(&dir, "odd.warc", &bytes);
    let harness = app_on("archive-odd-open", &path);
    assert_eq!(harness.state().error(), None);
    harness.get_by_label_contains(
        "(offline); 1 record read past something odd (inspect on the command line names them)",
    );
}

#[test]
fn a_wacz_package_opens_at_its_first_page_and_lists_its_pages_to_start_from() {
    use crate::archive_wacz::{ABOUT, HOME, package};
    let dir = temp_dir("archive-wacz");
    let Some((_, wacz)) = package(&dir) else {
        return;
    };
    let mut harness = app_on("archive-wacz-open", &wacz);
    assert_eq!(harness.state().error(), None);
    assert_eq!(
        harness.state().inspection().unwrap().start_url.as_str(),
        HOME
    );
    harness
        .get_by_role_and_label(egui::accesskit::Role::ComboBox, copy::LABEL_PACKAGE_PAGE)
        .click();
    harness.run();
    harness
        .get_by_role_and_label(
            egui::accesskit::Role::Button,
            &copy::package_page(Some("Über uns"), ABOUT),
        )
        .click();
    // The click starts a load: its spinner repaints until it is done.
    harness.step();
    settle(&mut harness);
    assert_eq!(harness.state().error(), None);
    assert_eq!(
        harness.state().inspection().unwrap().start_url.as_str(),
        ABOUT
    );
    // The package stays the target; the page chosen is where it starts.
    assert_eq!(harness.state().target().0, wacz.display().to_string());
}

/// The file Save for ticket proposes, as its dialog shows it.
fn proposed(harness: &mut Harness<'_, InspectorApp>) -> String {
    harness.get_by_label(copy::LABEL_SAVE_FOR_TICKET).click();
    harness.run();
    harness
        .get_by_label(copy::LABEL_ARCHIVE_FILE)
        .value()
        .unwrap_or_default()
}

#[test]
fn save_for_ticket_writes_a_wacz_when_chosen_and_it_reopens_with_the_same_verdicts() {
    let server = Server::start(acme_site, Duration::ZERO);
    let mut harness = app_in(temp_dir("archive-wacz-save"), None);
    map_hosts(
        &mut harness,
        &format!("acme.test:{}:127.0.0.1", server.port),
    );
    fetch(&mut harness, &format!("http://acme.test:{}/", server.port));
    assert_eq!(harness.state().error(), None);
    // A static inspection: a WARC is proposed; choosing WACZ renames it.
    let warc = proposed(&mut harness);
    assert!(
        warc.ends_with(".warc.gz") && warc.contains("acme.test-"),
        "{warc}"
    );
    harness.get_by_label(copy::LABEL_FORMAT_WACZ).click();
    harness.run();
    let wacz = harness
        .get_by_label(copy::LABEL_ARCHIVE_FILE)
        .value()
        .unwrap_or_default();
    assert_eq!(wacz, format!("{}.wacz", warc.trim_end_matches(".warc.gz")));
    // Saved where the test says (the proposal is in the home folder).
    let path = temp_dir("archive-wacz-saved").join("ticket.wacz");
    clear_field(&mut harness, copy::LABEL_ARCHIVE_FILE);
    type_into(
        &mut harness,
        copy::LABEL_ARCHIVE_FILE,
        &path.display().to_string(),
    );
    harness.key_press(egui::Key::Enter);
    settle_save(&mut harness);
    assert_eq!(harness.state().error(), None);
    assert!(path.is_file(), "{} was not written", path.display());

    let hits = server.all_hits();
    let reopened = app_on("archive-wacz-reopen", &path);
    assert_eq!(reopened.state().error(), None);
    assert_eq!(verdict_table(&reopened), verdict_table(&harness));
    assert_eq!(server.all_hits(), hits);
}

#[test]
fn save_for_ticket_proposes_a_wacz_for_a_rendered_inspection() {
    let Some(_turn) = crate::rendered::browser_turn() else {
        return;
    };
    let server = Server::start(crate::rendered::site, Duration::ZERO);
    let mut harness = app_rendering("archive-rendered-wacz");
    fetch_rendered_home(&mut harness, &server);
    let name = proposed(&mut harness);
    assert!(
        name.ends_with(".wacz") && name.contains("acme.test-"),
        "{name}"
    );
}
