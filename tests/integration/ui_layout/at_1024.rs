//! The window at 1024×700 as a new user sees it: one-line top bar, every
//! control reachable, every link's URL end and verdict word readable.

use std::sync::Arc;

use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT as _, Queryable as _};
use follow_inspector::copy;
use follow_inspector::fetch::{FetchError, FetchedPage, Fetcher};
use follow_inspector::ui::InspectorApp;
use url::Url;

use crate::temp_dir;
use crate::ui::{app_in, clear_field, html_page, settle, type_into};

const SMALL: egui::Vec2 = egui::vec2(1024.0, 700.0);

/// The ends of the five Kontakt links: what tells them apart.
const ENDS: [&str; 5] = [
    "presse.html",
    "lizenzen.html",
    "lektorat.html",
    "vertrieb.html",
    "veranstaltungen.html",
];

fn kontakt_url(end: &str) -> String {
    format!("https://www.beltz.de/kinder_jugendbuch/verlag/kontakt/{end}")
}

/// A publisher's site: the start page has five Kontakt links whose URLs
/// differ only at the end; every other page is empty.
struct Publisher;

impl Fetcher for Publisher {
    fn fetch(&self, url: &Url) -> Result<FetchedPage, FetchError> {
        let body = if url.path() == "/" {
            let links: String = ENDS
                .iter()
                .map(|end| format!("<a href='{}'>Kontakt</a>", kontakt_url(end)))
                .collect();
            format!("<html><body>{links}</body></html>")
        } else {
            "<html><body><p>Kontakt</p></body></html>".to_owned()
        };
        Ok(html_page(url, 200, &body, 1))
    }
}

fn small_app(name: &str, fetcher: Option<Arc<dyn Fetcher>>) -> Harness<'static, InspectorApp> {
    let mut harness = app_in(temp_dir(name), fetcher);
    harness.set_size(SMALL);
    harness.run();
    harness
}

fn publisher_crawl(name: &str) -> Harness<'static, InspectorApp> {
    let mut harness = small_app(name, Some(Arc::new(Publisher)));
    type_into(&mut harness, "Page", "https://www.beltz.de/");
    harness.get_by_label("Fetch").click();
    settle(&mut harness);
    harness
}

/// "Demo page", from the More menu of a narrow window.
fn demo_page(harness: &mut Harness<'_, InspectorApp>) {
    harness.get_by_label("More ▾").click();
    harness.run();
    harness.get_by_label("Demo page").click();
    harness.run();
}

/// Picks `name` in the More menu's Compare with…
fn compare_with(harness: &mut Harness<'_, InspectorApp>, name: &str) {
    harness.get_by_label("More ▾").click();
    harness.run();
    harness.get_by_label_contains("Compare with…").click();
    harness.run();
    harness.get_by_label(name).click();
    settle(harness);
}

fn rect(harness: &Harness<'_, InspectorApp>, label: &str) -> egui::Rect {
    harness.get_by_label(label).rect()
}

fn assert_inside(label: &str, rect: egui::Rect) {
    let window = egui::Rect::from_min_size(egui::Pos2::ZERO, SMALL);
    assert!(
        window.contains_rect(rect),
        "{label} at {rect:?} is outside the window"
    );
}

#[test]
fn at_1024_the_top_bar_is_one_line_and_every_control_is_in_reach() {
    let mut harness = small_app("layout-top-bar", None);
    let controls = [
        "Save", "Corpus", "Open…", "Depth", "Fetch", "More ▾", "◧", "◨",
    ];
    let profile = harness
        .get_by_role_and_label(egui::accesskit::Role::ComboBox, "Profile")
        .rect();
    let page = harness
        .get_by_role_and_label(egui::accesskit::Role::TextInput, "Page")
        .rect();
    let mut rects = vec![("Profile", profile), ("Page", page)];
    rects.extend(controls.iter().map(|&label| (label, rect(&harness, label))));
    let line = rects[0].1.center().y;
    for (i, (label, r)) in rects.iter().enumerate() {
        assert_inside(label, *r);
        assert!(
            (r.center().y - line).abs() < 6.0,
            "{label} at {r:?} is not on the first line (y {line})"
        );
        for (other, o) in &rects[i + 1..] {
            assert!(!r.intersects(*o), "{label} {r:?} overlaps {other} {o:?}");
        }
    }
    // The room Override N, Rendered and Compare left goes to the page field.
    assert!(page.width() >= 210.0, "page field {} px", page.width());

    // The folded controls are one click away, inside the window.
    harness.get_by_label("More ▾").click();
    harness.run();
    for label in ["Override N", "Rendered", "Compare with…", "Demo page"] {
        assert_inside(label, rect(&harness, label));
    }
    type_into(&mut harness, "Override N", "2");
    let page = &harness.state().inspection().unwrap().pages[0];
    assert_eq!(page.decision.limit, 2);
}

/// The left edge of every table header, in order.
fn header_lefts(harness: &Harness<'_, InspectorApp>, headers: &[&str]) -> Vec<f32> {
    headers.iter().map(|h| rect(harness, h).min.x).collect()
}

/// Every verdict badge in the table shows its word, whole, in its column.
fn assert_verdict_words(harness: &Harness<'_, InspectorApp>, column: (f32, f32)) {
    let mut seen = 0;
    for verdict in follow_inspector::policy::Verdict::ALL {
        let word = copy::verdict_badge(verdict);
        for node in harness.query_all_by_label(word) {
            let r = node.rect();
            // The chips above the table say "word n"; these are the cells.
            if r.min.x >= column.0 - 1.0 && r.max.y <= SMALL.y {
                assert!(
                    r.max.x <= column.1 + 1.0,
                    "{word} at {r:?} is cut by the next column at {}",
                    column.1
                );
                seen += 1;
            }
        }
    }
    assert!(seen >= 10, "only {seen} verdict words seen");
}

#[test]
fn the_verdict_column_shows_its_words_before_during_and_after_compare() {
    let dir = temp_dir("layout-verdict");
    let store = follow_inspector::profiles::ProfileStore::open(Some(&dir)).unwrap();
    store.import("second", "{}").unwrap();
    store
        .set_active(follow_inspector::profiles::BUILT_IN)
        .unwrap();
    let mut harness = app_in(dir, None);
    harness.set_size(SMALL);
    harness.run();
    let before = header_lefts(&harness, &["Verdict", "Score", "URL"]);
    assert_verdict_words(&harness, (before[0], before[1]));

    compare_with(&mut harness, "second");
    assert_eq!(harness.state().comparing(), Some("second"));
    let compared = copy::compared_column("second");
    // Score and Rank give their room to the URL while comparing.
    assert!(harness.query_by_label("Score").is_none());
    let during = header_lefts(&harness, &["Verdict", &compared, "URL"]);
    assert_verdict_words(&harness, (during[0], during[1]));

    compare_with(&mut harness, copy::LABEL_COMPARE_NONE);
    assert!(harness.query_by_label(&compared).is_none());
    // The columns come back as they were.
    assert_eq!(header_lefts(&harness, &["Verdict", "Score", "URL"]), before);
    assert_verdict_words(&harness, (before[0], before[1]));
}

#[test]
fn five_kontakt_links_read_apart_by_the_end_of_their_urls() {
    let mut harness = publisher_crawl("layout-urls");
    let url_column = rect(&harness, "URL").min.x;
    let text_column = rect(&harness, "Text").min.x;
    for end in ENDS {
        let cells: Vec<_> = harness
            .query_all_by_label_contains(end)
            .filter(|n| n.rect().min.x >= url_column - 1.0 && n.rect().max.x <= text_column)
            .collect();
        assert_eq!(cells.len(), 1, "one URL cell shows …{end}");
        let node = cells[0].accesskit_node();
        let shown = node.label().or_else(|| node.value()).unwrap_or_default();
        assert!(
            shown.starts_with("www.beltz.de…/") && shown.ends_with(end),
            "{shown}"
        );
        assert_inside(end, cells[0].rect());
    }
    // The whole URL is on hover.
    harness
        .query_all_by_label_contains("presse.html")
        .find(|n| n.rect().min.x >= url_column - 1.0)
        .unwrap()
        .hover();
    harness.run();
    harness.get_by_label(&kontakt_url("presse.html"));
}

#[test]
fn the_crawl_tree_shows_every_page_and_crawl_again_keeps_the_shown_one() {
    let mut harness = publisher_crawl("layout-crawl");
    harness.get_by_label("Crawled pages (4)");
    let search = rect(&harness, "Search").min.y;
    let lines: Vec<egui::Rect> = harness
        .query_all_by_label_contains("→ https://www.beltz.de/")
        .map(|n| n.rect())
        .collect();
    assert_eq!(lines.len(), 3);
    for line in &lines {
        assert!(line.max.y < search, "tree line {line:?} is hidden");
    }
    // The table below has room for rows.
    assert!(rect(&harness, "URL").max.y < SMALL.y * 0.6);

    harness.get_by_label_contains("lizenzen.html  200").click();
    harness.run();
    harness.get_by_label("Page 3 of 4: ");
    type_into(&mut harness, "White keywords", ",verlag");
    let banner = harness.get_by_label(copy::STALE_CRAWL).rect();
    assert_inside("out-of-date banner", banner);
    harness.get_by_label("Crawl again").click();
    settle(&mut harness);
    assert!(harness.query_by_label(copy::STALE_CRAWL).is_none());
    harness.get_by_label(&kontakt_url("lizenzen.html"));
    assert!(harness.query_by_label("Page 1 of 4: ").is_none());
}

#[test]
fn the_page_field_shows_what_is_loaded() {
    let mut harness = publisher_crawl("layout-field");
    assert_eq!(harness.state().target().0, "https://www.beltz.de/");
    demo_page(&mut harness);
    // The demo is not at an address: the field is empty (its hint names it).
    assert_eq!(harness.state().target().0, "");
    harness.get_by_label("Demo page (bundled, no network):");
}

#[test]
fn a_search_says_it_filters_and_a_new_page_starts_unfiltered() {
    let mut harness = small_app("layout-search", None);
    type_into(&mut harness, "Search", "kontakt");
    let note = copy::search_note("kontakt", 1, 33);
    harness.get_by_label(&note);
    harness.get_by_label(copy::LABEL_CLEAR_SEARCH).click();
    harness.run();
    assert!(harness.query_by_label(&note).is_none());
    harness.get_by_label("Our heritage");

    type_into(&mut harness, "Search", "kontakt");
    harness.get_by_label(&note);
    demo_page(&mut harness);
    assert!(harness.query_by_label(&note).is_none());
    harness.get_by_label("Our heritage");
    clear_field(&mut harness, "Search");
}
