//! The out-of-date banner over a run made with other inputs than those on
//! screen now (the depth, A, B, the targets file, the corpus), as the
//! inspector has one over an old crawl: the numbers stay, the banner names
//! what changed and offers Run again.

use egui::Ui;

use super::state::{CorpusState, CorpusView, RunInputs};
use crate::copy;
use crate::ui::command::{Command, CorpusCommand};
use crate::ui::state::TargetsChoice;
use crate::ui::{palette, widgets};

/// A targets choice as the banner's words take it.
fn targets(choice: &TargetsChoice) -> Option<Option<&std::path::Path>> {
    match choice {
        TargetsChoice::None => None,
        TargetsChoice::Beside => Some(None),
        TargetsChoice::Chosen(path) => Some(Some(path.as_path())),
    }
}

/// What differs between the run's inputs and those on screen, worded, in
/// the order the view shows them (the corpus, then the top bar's depth, the
/// sides, the targets file). Empty: the run is what Run would make now.
pub fn changes(made: &RunInputs, state: &CorpusState, view: &CorpusView<'_>) -> Vec<String> {
    let mut changes = Vec::new();
    let path = state.path.trim();
    if path != made.path {
        changes.push(copy::stale_corpus(path, &made.path));
    }
    if view.depth != made.depth {
        changes.push(copy::stale_depth(view.depth, made.depth));
    }
    // The settings decide; a profile saved or renamed with the same ones
    // would make the same run. Comparing them every frame is a few string
    // comparisons, as the inspector's stale-crawl check does.
    if *view.a != made.a {
        changes.push(copy::stale_a(
            (view.profile, view.edited),
            (&made.profile, made.edited),
        ));
    }
    let made_b = made.compared.as_ref().map(|(_, settings)| settings);
    if view.b != made_b {
        let was = made.compared.as_ref().map(|(name, _)| name.as_str());
        changes.push(copy::stale_b(view.compared, was));
    }
    let choice = state.targets_choice();
    if choice != made.targets {
        changes.push(copy::stale_targets(
            targets(&choice),
            targets(&made.targets),
        ));
    }
    changes
}

/// The banner, when the run shown is out of date; Run again is offered when
/// a run can start (none is going, the corpus field is filled).
pub fn banner(ui: &mut Ui, state: &CorpusState, view: &CorpusView<'_>) -> Option<Command> {
    let made = state.made_with.as_ref()?;
    let changes = changes(made, state, view);
    if changes.is_empty() {
        return None;
    }
    let dark = ui.visuals().dark_mode;
    let can_run = view.running.is_none() && !state.path.trim().is_empty();
    widgets::banner(
        ui,
        palette::stale_banner(dark),
        palette::stale_text(dark),
        &copy::stale_corpus_run(&changes),
        can_run.then_some(copy::LABEL_RUN_AGAIN),
    )
    .then_some(CorpusCommand::RunCorpus.into())
}
