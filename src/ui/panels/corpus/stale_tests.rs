//! The out-of-date banner over a corpus run, as a person meets it: the
//! inputs on screen changed one by one after a run at depth 2 under “Mine”.

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable as _;

use super::panel_tests::{TARGETS, corpus_dir, measured_run};
use super::{CorpusState, CorpusView, RunInputs, show};
use crate::policy::Settings;
use crate::ui::command::{Command, CorpusCommand};
use crate::ui::state::{CorpusProgress, TargetsChoice};
use crate::ui::test_support;

/// What is on screen besides the view's own state, as the app gives it.
struct Screen {
    profile: String,
    edited: bool,
    a: Settings,
    b: Option<(String, Settings)>,
    depth: u32,
    running: Option<CorpusProgress>,
}

struct Stale {
    state: CorpusState,
    screen: Screen,
    commands: Vec<Command>,
}

/// The run's own inputs: the corpus at `state.path` under “Mine” at depth
/// 2, no B, the targets file beside it.
fn made_with(state: &CorpusState) -> RunInputs {
    RunInputs {
        path: state.path.clone(),
        profile: "Mine".into(),
        edited: false,
        a: Settings::default(),
        compared: None,
        depth: 2,
        targets: TargetsChoice::Beside,
    }
}

/// The view over a measured run whose inputs are those on screen, until a
/// test changes them.
fn stale(name: &str) -> Harness<'static, Stale> {
    let dir = corpus_dir(name, TARGETS);
    let mut state = measured_run(&dir, None);
    state.made_with = Some(made_with(&state));
    let screen = Screen {
        profile: "Mine".into(),
        edited: false,
        a: Settings::default(),
        b: None,
        depth: 2,
        running: None,
    };
    let mut harness = test_support::harness(
        egui::vec2(1280.0, 1600.0),
        |ui, s: &mut Stale| {
            let view = CorpusView {
                running: s.screen.running,
                profile: &s.screen.profile,
                edited: s.screen.edited,
                compared: s.screen.b.as_ref().map(|(name, _)| name.as_str()),
                a: &s.screen.a,
                b: s.screen.b.as_ref().map(|(_, b)| b),
                depth: s.screen.depth,
                browsing: false,
                keyboard: true,
            };
            let commands = show(ui, &mut s.state, &view);
            s.commands.extend(commands);
        },
        Stale {
            state,
            screen,
            commands: Vec::new(),
        },
    );
    harness.run();
    harness
}

/// The banner's whole text for these changes.
fn banner(changes: &str) -> String {
    format!("This run is out of date: {changes}. The numbers below are still the old run's.")
}

const SCORE: &str =
    "A reaches a contact, imprint or about page on 2/3 sites (67%); 0.7 links followed per site";

fn no_banner(harness: &Harness<'_, Stale>) -> bool {
    harness
        .query_by_label_contains("This run is out of date")
        .is_none()
        && harness.query_by_label("Run again").is_none()
}

#[test]
fn a_run_made_with_what_is_on_screen_has_no_banner_and_its_line_names_it() {
    let harness = stale("stale-none");
    assert!(no_banner(&harness));
    harness.get_by_label(
        "This run: A: “Mine” · B: none (choose one with Compare with…) · depth 2, N = 3",
    );
}

#[test]
fn another_depth_keeps_the_numbers_under_a_banner_and_run_again_asks_for_a_run() {
    let mut harness = stale("stale-depth");
    harness.state_mut().screen.depth = 3;
    harness.run();
    harness.get_by_label(&banner("the depth is now 3 (the run was at 2)"));
    // The old numbers stay, and the line over them is still the run's.
    harness.get_by_label(SCORE);
    harness.get_by_label(
        "This run: A: “Mine” · B: none (choose one with Compare with…) · depth 2, N = 3",
    );
    harness.get_by_label("Run again").click();
    harness.run();
    assert_eq!(
        harness.state().commands,
        [Command::from(CorpusCommand::RunCorpus)]
    );
    // Back at the run's depth, nothing is out of date.
    harness.state_mut().screen.depth = 2;
    harness.run();
    assert!(no_banner(&harness));
}

#[test]
fn a_setting_edited_or_another_profile_makes_a_out_of_date() {
    let mut harness = stale("stale-a");
    harness.state_mut().screen.a.follow_subdomain ^= true;
    harness.state_mut().screen.edited = true;
    harness.run();
    harness.get_by_label(&banner(
        "A is now “Mine” (as edited) (the run was under “Mine”)",
    ));
    // Edited again after a run made as edited: the same name, other settings.
    let edited = harness.state().screen.a.clone();
    let made = harness.state_mut().state.made_with.as_mut().unwrap();
    made.edited = true;
    made.a = edited;
    harness
        .state_mut()
        .screen
        .a
        .follow_keywords_white
        .push_str(",besuch");
    harness.run();
    harness.get_by_label(&banner(
        "A's settings were edited since (the run was under “Mine” (as edited))",
    ));
    // Another profile with the run's settings makes the same run.
    let made = harness.state().state.made_with.clone().unwrap();
    harness.state_mut().screen.a = made.a;
    harness.state_mut().screen.profile = "Copy of Mine".into();
    harness.state_mut().screen.edited = false;
    harness.run();
    assert!(no_banner(&harness));
}

#[test]
fn b_chosen_dropped_or_with_other_settings_is_said() {
    let mut harness = stale("stale-b");
    let mut tuned = Settings::default();
    tuned.follow_keywords_white.push_str(",besuch");
    harness.state_mut().screen.b = Some(("A + besuch".into(), tuned.clone()));
    harness.run();
    harness.get_by_label(&banner("B is now “A + besuch” (the run had no B)"));
    harness
        .state_mut()
        .state
        .made_with
        .as_mut()
        .unwrap()
        .compared = Some(("A + besuch".into(), tuned.clone()));
    harness.run();
    assert!(no_banner(&harness));
    harness.state_mut().screen.b = Some(("A + besuch".into(), Settings::default()));
    harness.run();
    harness.get_by_label(&banner(
        "B “A + besuch” has other settings than the run compared with",
    ));
    harness.state_mut().screen.b = None;
    harness.run();
    harness.get_by_label(&banner(
        "B is now none (the run compared with “A + besuch”)",
    ));
}

#[test]
fn the_targets_file_or_the_corpus_changed_is_said_and_an_empty_field_cannot_run() {
    let mut harness = stale("stale-files");
    harness.get_by_label("✕ No targets").click();
    harness.run();
    harness.get_by_label(&banner(
        "the targets file is now none (the run's was targets.tsv beside the corpus)",
    ));
    harness.get_by_label("Look beside the corpus").click();
    harness.run();
    assert!(no_banner(&harness));
    let was = harness.state().state.path.clone();
    harness.state_mut().state.path = "/elsewhere/manifest.tsv".into();
    harness.run();
    harness.get_by_label(&banner(&format!(
        "the corpus is now /elsewhere/manifest.tsv (the run read {was})"
    )));
    harness.get_by_label("Run again");
    // Nothing to run: the banner says so, without the button.
    harness.state_mut().state.path.clear();
    harness.run();
    harness.get_by_label(&banner(&format!(
        "the corpus field is empty (the run read {was})"
    )));
    assert!(harness.query_by_label("Run again").is_none());
}

#[test]
fn several_changes_are_named_together_and_a_run_going_has_no_run_again() {
    let mut harness = stale("stale-several");
    harness.state_mut().screen.depth = 1;
    harness.state_mut().screen.a.follow_subdomain ^= true;
    harness.state_mut().screen.edited = true;
    harness.state_mut().screen.running = Some(CorpusProgress::Pages { done: 1, total: 3 });
    // The progress bar animates: one frame, not until still.
    harness.step();
    harness.get_by_label(&banner(
        "the depth is now 1 (the run was at 2); \
         A is now “Mine” (as edited) (the run was under “Mine”)",
    ));
    assert!(harness.query_by_label("Run again").is_none());
    harness.state_mut().screen.running = None;
    harness.run();
    harness.get_by_label("Run again");
}
