//! The crawl's page tree in a small window: each line fits, keeping its
//! page's host, the end of its path and its status (the whole line on
//! hover), and the page shown is in view when a crawl opens, however the
//! tree was scrolled before.

use std::sync::Arc;

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use follow_inspector::fetch::{FetchError, FetchedPage, Fetcher};
use follow_inspector::ui::InspectorApp;
use url::Url;

use crate::temp_dir;
use crate::ui::{app_in, clear_field, fetch, html_page, settle};
use crate::ui_archive::pick_depth;

/// Narrow, as a laptop beside a browser; tall enough for the tree to show
/// several of its 25 lines at once (it is 40% of the room at most).
const WINDOW: egui::Vec2 = egui::vec2(800.0, 900.0);

/// A site with long paths: the start page links six contact pages, each of
/// those three more, so a depth-3 crawl has 25 pages, more than a small
/// window's tree shows at once.
struct DeepSite;

impl Fetcher for DeepSite {
    fn fetch(&self, url: &Url) -> Result<FetchedPage, FetchError> {
        let base = format!(
            "https://{}/unternehmen/standorte/deutschland",
            url.host_str().unwrap_or("")
        );
        let links: String = if url.path() == "/" {
            (0..6)
                .map(|i| format!("<a href='{base}/kontakt-{i}/'>Kontakt {i}</a>"))
                .collect()
        } else if !url.path().contains("/team-") {
            (0..3)
                .map(|j| format!("<a href='{}team-{j}/'>Team {j}</a>", url.as_str()))
                .collect()
        } else {
            String::new()
        };
        Ok(html_page(
            url,
            200,
            &format!("<html><body>{links}</body></html>"),
            1,
        ))
    }
}

fn crawl(harness: &mut Harness<'_, InspectorApp>, url: &str) {
    fetch(harness, url);
    settle(harness);
}

/// The tree's lines: each page's line names its host (a shortened one
/// without "https://", which tells nothing).
fn tree_lines(harness: &Harness<'_, InspectorApp>, host: &str) -> Vec<(String, egui::Rect)> {
    harness
        .query_all_by_label_contains(host)
        .filter(|n| n.accesskit_node().role() == egui::accesskit::Role::Button)
        .map(|n| (n.accesskit_node().label().unwrap_or_default(), n.rect()))
        .collect()
}

use egui_kittest::kittest::NodeT as _;

#[test]
fn a_long_tree_line_keeps_its_host_and_its_end_and_the_page_shown_is_in_view() {
    let mut harness = app_in(temp_dir("tree-lines"), Some(Arc::new(DeepSite)));
    harness.set_size(WINDOW);
    harness.run();
    pick_depth(&mut harness, "3");
    crawl(&mut harness, "https://www.mittelstand-beispiel-werke.de/");
    harness.get_by_label_contains("Crawled pages (25)");

    // Every line shown fits the window, with its host, its end and its status.
    let lines = tree_lines(&harness, "www.mittelstand-beispiel-werke.de");
    assert!(!lines.is_empty());
    let mut shortened = 0;
    for (label, rect) in &lines {
        assert!(
            rect.max.x <= WINDOW.x,
            "{label} at {rect:?} runs out of the window"
        );
        assert!(label.ends_with("  200"), "{label} lost its status");
        shortened += usize::from(label.contains('…'));
    }
    assert!(
        shortened > 0,
        "no line needed shortening at 800 px: {lines:?}"
    );

    // Scroll the tree to its end and show the last page.
    let tree = lines[0].1;
    for _ in 0..40 {
        harness.event(egui::Event::PointerMoved(tree.center()));
        harness.event(egui::Event::MouseWheel {
            unit: egui::MouseWheelUnit::Line,
            delta: egui::vec2(0.0, -3.0),
            modifiers: egui::Modifiers::default(),
            phase: egui::TouchPhase::Move,
            source: egui::MouseWheelSource::Wheel,
        });
        harness.run_steps(4);
    }
    // The tree's last line: the last contact page's last team page.
    harness
        .query_all_by_label_contains("team-2/  200")
        .last()
        .expect("the tree's last line, scrolled to")
        .click();
    harness.run();
    harness.get_by_label("Page 25 of 25: ");

    // Another crawl opens on its start page, and the tree shows that page.
    clear_field(&mut harness, "Page");
    crawl(&mut harness, "https://www.zweites-beispiel-haus.de/");
    harness.get_by_label("Page 1 of 25: ");
    let first = harness.get_by_label("https://www.zweites-beispiel-haus.de/  200");
    let window = egui::Rect::from_min_size(egui::Pos2::ZERO, WINDOW);
    assert!(
        window.contains_rect(first.rect()) && first.rect().min.y >= tree.min.y - 1.0,
        "the page shown is out of the tree's view at {:?} (the tree starts at {})",
        first.rect(),
        tree.min.y
    );
}
