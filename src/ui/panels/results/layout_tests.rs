//! The links table in a narrow panel, as a person sees it: Score and Rank
//! give their room to the URL, which keeps its host.

use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT as _, Queryable as _};

use super::{ResultsState, ResultsView, show};
use crate::inspect::Inspection;
use crate::ui::test_support;

fn demo_at(width: f32) -> Harness<'static, (Inspection, ResultsState)> {
    let mut harness = test_support::harness(
        egui::vec2(width, 1400.0),
        |ui, (inspection, state): &mut (Inspection, ResultsState)| {
            let view = ResultsView {
                inspection: Some(inspection),
                generation: 1,
                loaded: 1,
                page: 0,
                selected: None,
                previous_result: false,
                stale_crawl: false,
                saved_file: false,
                archive: None,
                keyboard: true,
                comparison: None,
                targets: None,
                choosing_kind: false,
            };
            let _ = show(ui, &view, state);
        },
        (test_support::demo(), ResultsState::default()),
    );
    harness.run();
    harness
}

#[test]
fn in_a_narrow_panel_score_and_rank_give_way_and_urls_keep_their_host() {
    let wide = demo_at(1280.0);
    wide.get_by_label("Score");
    wide.get_by_label("Rank");
    let narrow = demo_at(440.0);
    assert!(narrow.query_by_label("Score").is_none());
    assert!(narrow.query_by_label("Rank").is_none());
    // Cut URLs are "host…end of the path", never the end alone.
    let cut: Vec<String> = narrow
        .query_all_by_label_contains("…")
        .filter_map(|n| n.accesskit_node().value())
        .filter(|l| l.contains('/'))
        .collect();
    assert!(!cut.is_empty(), "no URL was cut at 440 points");
    for label in &cut {
        assert!(!label.starts_with('…'), "{label} lost its host");
    }
}
