//! The results panel on its own, driven as a person would: by labels.

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;

use super::{ResultsState, ResultsView, show};
use crate::inspect::Inspection;
use crate::policy::Verdict;
use crate::ui::command::{Command, SelectionCommand, Subject};
use crate::ui::test_support;

/// The panel's inputs and what it gave back.
struct Panel {
    inspection: Inspection,
    state: ResultsState,
    selected: Option<usize>,
    commands: Vec<Command>,
}

/// The demo page's results, tall enough that every row is drawn.
fn demo_results() -> Harness<'static, Panel> {
    let panel = Panel {
        inspection: test_support::demo(),
        state: ResultsState::default(),
        selected: None,
        commands: Vec::new(),
    };
    let mut harness = test_support::harness(
        egui::vec2(1280.0, 1400.0),
        |ui, panel: &mut Panel| {
            let view = ResultsView {
                inspection: Some(&panel.inspection),
                generation: 1,
                loaded: 1,
                page: 0,
                selected: panel.selected,
                previous_result: false,
                stale_crawl: false,
                saved_file: false,
                archive: None,
                keyboard: true,
                comparison: None,
                targets: None,
                choosing_kind: false,
            };
            let commands = show(ui, &view, &mut panel.state);
            // As the app does: the selection is what the last click chose.
            for command in &commands {
                if let Subject::Selection(SelectionCommand::SelectLink(link)) = command.subject() {
                    panel.selected = *link;
                }
            }
            panel.commands.extend(commands);
        },
        panel,
    );
    harness.run();
    harness
}

fn links_with(panel: &Panel, verdict: Verdict) -> usize {
    panel.inspection.pages[0]
        .decision
        .links
        .iter()
        .filter(|l| l.verdict == verdict)
        .count()
}

#[test]
fn every_link_has_a_row_with_its_verdict_badge() {
    let harness = demo_results();
    harness.get_by_label("✔ followed 3");
    harness.get_by_label("⊘ blacklisted 7");
    for verdict in [Verdict::Followed, Verdict::Blacklisted, Verdict::OffDomain] {
        let badge = crate::copy::verdict_badge(verdict);
        assert_eq!(
            harness.query_all_by_label(badge).count(),
            links_with(harness.state(), verdict),
            "{badge}"
        );
    }
    harness.get_by_label("Our heritage");
    assert!(harness.state().commands.is_empty());
}

#[test]
fn clicking_a_chip_hides_that_verdict_and_clicking_again_shows_it() {
    let mut harness = demo_results();
    harness.get_by_label("⊘ blacklisted 7").click();
    harness.run();
    assert_eq!(harness.query_all_by_label("⊘ blacklisted").count(), 0);
    assert_eq!(harness.query_all_by_label("✔ followed").count(), 3);
    // The chip stays, so the verdict can be shown again.
    harness.get_by_label("⊘ blacklisted 7").click();
    harness.run();
    assert_eq!(harness.query_all_by_label("⊘ blacklisted").count(), 7);
}

#[test]
fn clicking_a_header_sorts_by_it_then_reverses() {
    let mut harness = demo_results();
    let links = &harness.state().inspection.pages[0].decision.links;
    // Two link texts that each appear once, first and last in text order.
    let mut texts: Vec<String> = links
        .iter()
        .map(|l| l.text.to_string())
        .filter(|t| !t.is_empty() && links.iter().filter(|l| *l.text == **t).count() == 1)
        .collect();
    texts.sort_by_key(|t| t.to_lowercase());
    let (first, last) = (texts[0].clone(), texts[texts.len() - 1].clone());
    let top = |harness: &Harness<'_, Panel>, text: &str| harness.get_by_label(text).rect().top();

    harness.get_by_label("Text").click();
    harness.run();
    harness.get_by_label("Text ▲");
    assert!(top(&harness, &first) < top(&harness, &last));

    harness.get_by_label("Text ▲").click();
    harness.run();
    harness.get_by_label("Text ▼");
    assert!(top(&harness, &first) > top(&harness, &last));

    // A third click goes back to page order.
    harness.get_by_label("Text ▼").click();
    harness.run();
    harness.get_by_label("Text");
    assert!(harness.query_by_label("Text ▲").is_none());
}

#[test]
fn clicking_a_row_asks_to_select_its_link() {
    let mut harness = demo_results();
    harness.get_by_label("Our heritage").click();
    harness.run();
    assert_eq!(
        harness.state().commands,
        [Command::from(SelectionCommand::SelectLink(Some(11)))]
    );
}

#[test]
fn hiding_the_selected_links_verdict_clears_the_selection() {
    let mut harness = demo_results();
    harness.get_by_label("Our heritage").click();
    harness.run();
    let selected = harness.state().selected.unwrap();
    let verdict = harness.state().inspection.pages[0].decision.links[selected].verdict;
    let chip = format!(
        "{} {}",
        crate::copy::verdict_badge(verdict),
        links_with(harness.state(), verdict)
    );
    harness.get_by_label(&chip).click();
    harness.run();
    assert_eq!(
        harness.state().commands.last(),
        Some(&Command::from(SelectionCommand::SelectLink(None)))
    );
}

#[test]
fn the_search_box_narrows_the_rows() {
    let mut harness = demo_results();
    harness.get_by_label("Search").focus();
    harness.run();
    harness.get_by_label("Search").type_text("impressum");
    harness.run();
    harness.get_by_label("Impressum");
    assert!(harness.query_by_label("Our heritage").is_none());
}

#[test]
fn arrow_keys_move_the_selection_through_the_shown_rows() {
    let mut harness = demo_results();
    harness.key_press(egui::Key::ArrowDown);
    harness.run();
    assert_eq!(
        harness.state().commands,
        [Command::from(SelectionCommand::SelectLink(Some(0)))]
    );
    harness.key_press(egui::Key::End);
    harness.run();
    let last = harness.state().inspection.pages[0].decision.links.len() - 1;
    assert_eq!(
        harness.state().commands.last(),
        Some(&Command::from(SelectionCommand::SelectLink(Some(last))))
    );
}
