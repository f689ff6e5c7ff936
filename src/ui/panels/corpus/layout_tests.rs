//! The corpus view's layout as a person meets it: the wheel over a chart
//! scrolls the view, the charts fold.

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;

use super::panel_tests::{TARGETS, corpus_dir, measured_run};
use super::{CorpusState, CorpusView, show};
use crate::policy::Settings;
use crate::ui::test_support;

fn panel(state: CorpusState, size: egui::Vec2) -> Harness<'static, CorpusState> {
    let mut harness = test_support::harness(
        size,
        |ui, state: &mut CorpusState| {
            let view = CorpusView {
                running: None,
                profile: "(built-in)",
                compared: None,
                a: &Settings::default(),
                b: None,
                depth: 2,
                browsing: false,
                keyboard: true,
                edited: false,
            };
            let _ = show(ui, state, &view);
        },
        state,
    );
    harness.run();
    harness
}

fn wheel_down(harness: &mut Harness<'_, CorpusState>, at: egui::Pos2) {
    harness.hover_at(at);
    harness.run();
    harness.event(egui::Event::MouseWheel {
        unit: egui::MouseWheelUnit::Point,
        delta: egui::vec2(0.0, -300.0),
        phase: egui::TouchPhase::Move,
        source: egui::MouseWheelSource::Unknown,
        modifiers: egui::Modifiers::NONE,
    });
    harness.run();
}

#[test]
fn the_charts_start_folded_and_the_wheel_over_one_scrolls_the_view() {
    let dir = corpus_dir("layout-wheel", TARGETS);
    let mut harness = panel(measured_run(&dir, None), egui::vec2(1280.0, 900.0));
    assert!(harness.query_by_label("white: targets followed").is_none());
    harness.get_by_label("Charts").click();
    harness.run();
    harness.get_by_label("white: targets followed");
    let header = harness.get_by_label("Charts").rect();
    let over_chart = egui::pos2(500.0, header.bottom() + 80.0);
    assert!(
        over_chart.y < 880.0,
        "the chart is below the window: {header:?}"
    );
    wheel_down(&mut harness, over_chart);
    let moved = harness.get_by_label("Charts").rect();
    assert!(
        moved.top() < header.top() - 50.0,
        "the view did not scroll: {header:?} → {moved:?}"
    );
}

#[test]
fn white_and_black_keywords_have_a_chart_each_with_its_legend_above_it() {
    let dir = corpus_dir("layout-truth-chart", TARGETS);
    let mut harness = panel(measured_run(&dir, None), egui::vec2(1280.0, 2400.0));
    harness.get_by_label("Charts").click();
    harness.run();
    let white_targets = harness.get_by_label("white: targets followed").rect();
    let white_others = harness.get_by_label("white: other links followed").rect();
    let black_targets = harness.get_by_label("black: targets blacklisted").rect();
    harness.get_by_label("black: other links blacklisted");
    // Each legend is one line above its own chart: the white chart lies
    // between the two legends.
    assert!((white_targets.center().y - white_others.center().y).abs() < 1.0);
    assert!(
        black_targets.top() > white_targets.bottom() + 80.0,
        "no chart between {white_targets:?} and {black_targets:?}"
    );
}
