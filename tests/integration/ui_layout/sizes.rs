//! The window at every size the tests know: the settings panel keeps its
//! width when a revert button appears, the top bar's controls and the
//! table's columns stay on screen from 1920 down to 800 px, and a zero-size
//! window still draws.

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;
use follow_inspector::ui::InspectorApp;

use crate::temp_dir;
use crate::ui::{app_in, type_into};

/// The window with the demo page, its profiles in a folder of its own.
fn app(name: &str) -> Harness<'static, InspectorApp> {
    app_in(temp_dir(name), None)
}

fn fixture(name: &str) -> String {
    crate::repo_path(&format!("tests/fixtures/{name}"))
        .to_string_lossy()
        .into_owned()
}

#[test]
fn the_settings_panel_keeps_its_width_when_a_revert_button_appears() {
    let mut harness = app("settings-width");
    let before = harness.get_by_label("White keywords").rect().width();
    harness
        .get_by_label("Allow subdomains · followSubdomain")
        .click();
    harness.run();
    harness.get_by_label("↺ default");
    let after = harness.get_by_label("White keywords").rect().width();
    assert!((after - before).abs() < 1.0, "{before} → {after}");
}

/// The node's rectangle lies inside a window of `size`.
fn inside(harness: &Harness<'_, InspectorApp>, label: &str, size: egui::Vec2) -> egui::Rect {
    let rect = harness.get_by_label(label).rect();
    assert!(
        rect.min.x >= 0.0 && rect.max.x <= size.x && rect.min.y >= 0.0 && rect.max.y <= size.y,
        "{label} at {rect:?} is outside {size:?}"
    );
    rect
}

/// The widths of the URL and Text columns: a column starts where its header is.
fn url_and_text_widths(harness: &Harness<'_, InspectorApp>, size: egui::Vec2) -> (f32, f32) {
    let url = inside(harness, "URL", size).min.x;
    let text = inside(harness, "Text", size).min.x;
    let keyword = inside(harness, "Keyword", size).min.x;
    (text - url, keyword - text)
}

#[test]
fn everything_stays_on_screen_in_small_windows() {
    let mut harness = app("small-windows");
    // The file target shows the base URL field, the widest top bar.
    type_into(&mut harness, "Page", &fixture("with-canonical.html"));
    for (size, min_url, min_text) in [
        (egui::vec2(1920.0, 1080.0), 400.0, 250.0),
        (egui::vec2(1280.0, 800.0), 160.0, 100.0),
        (egui::vec2(900.0, 600.0), 120.0, 80.0),
        (egui::vec2(800.0, 600.0), 120.0, 80.0),
    ] {
        harness.set_size(size);
        harness.run();
        // Below 1100 px Demo page and Override N are in the More menu.
        let folded = size.x < 1100.0;
        let (demo, override_n) = if folded {
            ("More ▾", "More ▾")
        } else {
            ("Demo page", "Override N")
        };
        for label in ["Fetch", demo, override_n, "Base URL", "Depth", "Open…"] {
            inside(&harness, label, size);
        }
        let (url, text) = url_and_text_widths(&harness, size);
        assert!(url >= min_url, "URL column {url} px at {size:?}");
        assert!(text >= min_text, "Text column {text} px at {size:?}");
    }
    // Folding the settings panel away gives the table the whole width.
    let size = egui::vec2(800.0, 600.0);
    // Folded, the switch shows its symbol alone.
    harness.get_by_label("◧").click();
    harness.run();
    let (url, text) = url_and_text_widths(&harness, size);
    assert!(url >= 250.0, "URL column {url} px with the settings folded");
    assert!(
        text >= 150.0,
        "Text column {text} px with the settings folded"
    );
}

#[test]
fn frames_at_normal_and_zero_size() {
    let mut harness = app("zero-size");
    for size in [
        egui::vec2(0.0, 0.0),
        egui::vec2(640.0, 400.0),
        egui::vec2(1920.0, 1080.0),
    ] {
        harness.set_size(size);
        harness.run();
        // The app survives every size and still holds the demo page.
        assert_eq!(harness.state().inspection().unwrap().pages.len(), 1);
    }
    harness.get_by_label("✔ followed 3");
}
