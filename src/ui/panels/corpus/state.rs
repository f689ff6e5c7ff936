//! What the corpus view keeps between frames, and what it is shown besides.

use std::path::PathBuf;

use crate::corpus::CorpusRun;
use crate::corpus::truth::{TuneAsk, Tuning};
use crate::policy::Settings;
use crate::policy::compare::Cause;
use crate::ui::state::{CorpusProgress, TargetsChoice};

/// What the tables are narrowed to, by a click on a cause line or a
/// suggestion.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Filter {
    /// The links changed for this cause, and their pages.
    Cause(Cause),
    /// The pages the suggestion (its index in the evaluation) gains or loses.
    Suggestion(usize),
}

/// A table's order: the column and whether it runs downwards.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Sort<C> {
    pub column: C,
    pub descending: bool,
}

impl<C: PartialEq + Copy> Sort<C> {
    /// A click on `column`'s header: that column, or the other way round.
    pub fn click(&mut self, column: C) {
        if self.column == column {
            self.descending ^= true;
        } else {
            self.column = column;
            self.descending = false;
        }
    }

    pub fn apply(&self, order: std::cmp::Ordering) -> std::cmp::Ordering {
        if self.descending {
            order.reverse()
        } else {
            order
        }
    }
}

/// The page table's sortable columns.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PageColumn {
    /// Corpus order.
    #[default]
    Page,
    Links,
    FollowedA,
    FollowedB,
    FoundA,
    FoundB,
    Targets,
}

/// The changed-links table's sortable columns.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum LinkColumn {
    #[default]
    Page,
    Url,
    Text,
    Target,
    Change,
    Because,
}

/// What a run was made with, as the view named it then: what tells the run
/// shown from the one Run would make now.
#[derive(Clone, Debug, PartialEq)]
pub struct RunInputs {
    /// The corpus field, trimmed.
    pub path: String,
    /// A: the profile's name, whether it was edited, its settings.
    pub profile: String,
    pub edited: bool,
    pub a: Settings,
    /// B's name and settings.
    pub compared: Option<(String, Settings)>,
    pub depth: u32,
    pub targets: TargetsChoice,
}

/// What the corpus view keeps between frames.
pub struct CorpusState {
    /// The folder or manifest typed or chosen.
    pub path: String,
    /// The targets file typed or chosen; empty: `targets.tsv` beside the
    /// corpus, unless `targets_off`.
    pub targets: String,
    /// Cleared: the run is not measured.
    pub targets_off: bool,
    /// The last run, kept while the next one runs.
    pub run: Option<CorpusRun>,
    /// What `run` was made with; none: not known, and never called out of date.
    pub made_with: Option<RunInputs>,
    /// The targets file the last run was measured against.
    pub targets_used: Option<PathBuf>,
    /// Why the last run's targets file could not be used.
    pub targets_error: Option<String>,
    pub error: Option<String>,
    pub filter: Option<Filter>,
    pub page_sort: Sort<PageColumn>,
    /// The page row the keys move (its corpus index); Enter opens it.
    pub selected_page: Option<usize>,
    pub link_sort: Sort<LinkColumn>,
    /// The changed-links table shows the rows whose page, URL or text has this.
    pub link_text: String,
    pub only_targets: bool,
    /// The settings Save as profile… is naming.
    pub saving: Option<Settings>,
    /// Which A (and depth) the suggestion being named was measured on.
    pub saving_measured_on: Option<String>,
    /// A targets file links were marked in since the last run finished.
    pub marked_since: Option<PathBuf>,
    /// The last run was cancelled and the one before it is still shown.
    pub kept_after_cancel: bool,
    /// Tune…'s steps and bounds, as set in the view.
    pub tune_ask: TuneAsk,
    /// Whether the two bounds are used.
    pub tune_bound_per_page: bool,
    pub tune_bound_precision: bool,
    /// The last Tune…'s result (its settings are B once it is done).
    pub tuning: Option<Tuning>,
}

/// Tune…'s steps when the view opens: the CLI figure the README measures.
pub const TUNE_STEPS: usize = 8;

impl Default for CorpusState {
    fn default() -> Self {
        Self {
            path: String::new(),
            targets: String::new(),
            targets_off: false,
            run: None,
            made_with: None,
            targets_used: None,
            targets_error: None,
            error: None,
            filter: None,
            page_sort: Sort::default(),
            selected_page: None,
            link_sort: Sort::default(),
            link_text: String::new(),
            only_targets: false,
            saving: None,
            saving_measured_on: None,
            marked_since: None,
            kept_after_cancel: false,
            tune_ask: TuneAsk {
                steps: TUNE_STEPS,
                max_followed_per_page: Some(6.0),
                min_precision: Some(0.5),
            },
            tune_bound_per_page: false,
            tune_bound_precision: false,
            tuning: None,
        }
    }
}

impl CorpusState {
    /// The targets file the next run is to use.
    pub fn targets_choice(&self) -> TargetsChoice {
        let typed = self.targets.trim();
        if !typed.is_empty() {
            TargetsChoice::Chosen(PathBuf::from(typed))
        } else if self.targets_off {
            TargetsChoice::None
        } else {
            TargetsChoice::Beside
        }
    }

    /// Takes in a finished run; a filter of the last one no longer applies.
    /// A cancelled run keeps a complete one on screen (it is what the
    /// user measured last); with none, the cancelled run is shown.
    /// `made_with` is what the run was started with.
    pub fn finished(
        &mut self,
        result: crate::ui::state::CorpusResult,
        made_with: Option<RunInputs>,
    ) {
        let complete_shown = self.run.as_ref().is_some_and(|r| !r.cancelled);
        self.kept_after_cancel = result.run.cancelled && complete_shown;
        if self.kept_after_cancel {
            return;
        }
        self.marked_since = None;
        self.error = None;
        self.filter = None;
        self.selected_page = None;
        self.targets_used = result.targets_used;
        self.targets_error = result.targets_error;
        if let Some(tuning) = result
            .run
            .evaluation
            .as_ref()
            .and_then(|e| e.tuning.clone())
        {
            self.tuning = Some(tuning);
        }
        self.run = Some(result.run);
        self.made_with = made_with;
    }
}

/// What the view shows besides its own state.
pub struct CorpusView<'a> {
    /// How far the run going now has come.
    pub running: Option<CorpusProgress>,
    pub profile: &'a str,
    /// A's settings differ from the saved profile.
    pub edited: bool,
    pub compared: Option<&'a str>,
    /// A's and B's settings on screen now.
    pub a: &'a Settings,
    pub b: Option<&'a Settings>,
    pub depth: u32,
    pub browsing: bool,
    /// No dialog is open: the view's keys apply.
    pub keyboard: bool,
}
