//! Words of the Corpus view as a tuning workbench: the targets file, the
//! scoreboard, the gained and lost links, missed targets and suggestions.

use crate::corpus::truth::Change;

use super::plural;

// The targets file.
pub const TARGETS_HINT_BESIDE: &str = "targets.tsv beside the corpus, if there is one";
pub const TARGETS_HINT_OFF: &str = "none: the run is not measured";
pub const LABEL_CHOOSE_TARGETS: &str = "Choose…";
pub const LABEL_CLEAR_TARGETS: &str = "✕ No targets";
pub const CLEAR_TARGETS_TOOLTIP: &str =
    "Run without a targets file: no scoreboard, no suggestions.";
pub const LABEL_TARGETS_BESIDE: &str = "Look beside the corpus";
pub const FILE_DIALOG_CORPUS_TARGETS: &str = "A targets file (id, url, kind)";

/// The targets file the run was measured against.
pub fn targets_used(path: &std::path::Path) -> String {
    format!("Measured against {}", path.display())
}

pub const NO_TARGETS_BESIDE: &str = "No targets.tsv beside the corpus, so the run is not \
    measured: choose a targets file to see which sites reach their contact page.";

/// A targets file that cannot be used at all.
pub fn targets_unusable(error: &str) -> String {
    format!("✖ The targets file cannot be used: {error}. The run went on without it.")
}

/// Over the rows of the targets file that were skipped.
pub fn targets_problems_heading(n: usize) -> String {
    format!("⚠ {} of the targets file skipped", plural(n, "row", "rows"))
}

// The gained and lost links.
pub const CHANGED_LINKS_HEADING: &str = "Followed links gained and lost, A → B";
pub const LINK_COLUMNS: [&str; 6] = ["Page", "URL", "Text", "Target", "A → B", "Because"];
pub const LABEL_LINK_FILTER: &str = "Filter links";
pub const LINK_FILTER_HINT: &str = "page, URL or text";
pub const LABEL_ONLY_TARGETS: &str = "only targets";
pub const TARGET_MARK: &str = "◎ target";
pub const LINK_GAINED: &str = "+ followed";
pub const LINK_LOST: &str = "− not followed";
pub const NO_LINKS_SHOWN: &str = "No followed link is gained or lost here.";

/// How many of the changed links the table shows.
pub fn links_shown(shown: usize, all: usize) -> String {
    if shown == all {
        plural(all, "link gained or lost", "links gained or lost")
    } else {
        format!("{shown} of {all} links gained or lost")
    }
}

// The page table's truth columns.
pub const CORPUS_COLUMN_FOUND_A: &str = "Found A";
pub const CORPUS_COLUMN_FOUND_B: &str = "Found B";
pub const CORPUS_COLUMN_TARGETS: &str = "Targets";
pub const FOUND_MARK: &str = "✔";
pub const NOT_FOUND_MARK: &str = "✖";

// The filter chip.
/// What the tables are narrowed to, on the chip that clears it.
pub fn filtered_by(what: &str) -> String {
    format!("filtered by {what} ×")
}

pub const FILTER_CHIP_TOOLTIP: &str = "Click, or press Escape, to show everything again.";
pub const CAUSE_TOOLTIP: &str = "Click to show only these links and their pages.";
pub const SUGGESTION_TOOLTIP: &str = "Click to show only the pages it gains or loses.";

// Missed targets.
pub const MISSED_HEADING: &str = "Targets missed on pages where nothing was found";
pub const MISSED_COLUMNS: [&str; 6] = ["Page", "Side", "Kind", "URL", "Text", "Why"];
pub const NO_MISSED: &str = "Every labelled page reaches a target.";

// Suggestions.
pub const SUGGESTIONS_HEADING: &str =
    "Suggestions: single changes of A, tried over the labelled pages";
pub const SUGGESTION_TABLE_HEADERS: [&str; 7] = [
    "",
    "Change",
    "Pages gained",
    "Validated (its own page left out)",
    "Pages lost",
    "Targets gained",
    "Non-target follows",
];
pub const LABEL_TRY_AS_B: &str = "Try as B";
pub const TRY_AS_B_TOOLTIP: &str =
    "Compare with A plus this change (unsaved) and run the corpus again.";
pub const LABEL_SAVE_SUGGESTION: &str = "Save as profile…";
pub const SAVE_SUGGESTION_TITLE: &str = "Save the suggestion as a profile";
pub const NO_SUGGESTIONS: &str = "No single change of A follows other links on the labelled pages.";
pub const CANCELLED_KEPT_PREVIOUS: &str =
    "The run was cancelled: the last complete run is still shown.";

/// Links were marked in the measured targets file after the run.
pub fn marked_since_run(path: &std::path::Path) -> String {
    format!(
        "Links were marked in {} after this run: Run again to measure them.",
        path.display()
    )
}

/// The inspector marks links in a file this run was not measured against.
pub fn marking_another_file(path: &std::path::Path) -> String {
    format!(
        "Links are marked in {}, which this run was not measured against.",
        path.display()
    )
}

// Tune… (SPEC 11 `--tune`).
pub const TUNING_HEADING: &str = "Tuning: the best validated change, step by step";
pub const LABEL_TUNE: &str = "Tune…";
pub const TUNE_TOOLTIP: &str = "Apply the best validated suggestion step by step, deciding the corpus again after each, then compare the result as B.";
pub const LABEL_TUNE_STEPS: &str = "Steps at most";
pub const LABEL_TUNE_PER_PAGE: &str = "Followed per site at most";
pub const LABEL_TUNE_PRECISION: &str = "Precision at least";
pub const LABEL_SAVE_TUNED: &str = "Save tuned as profile…";
pub const TUNED_FROM_ANOTHER_A: &str =
    "This tuning started from another A than the one on screen: Tune… again to tune this one.";
pub const TUNING_STEP_COLUMNS: [&str; 8] = [
    "Step",
    "Change",
    "Pages gained",
    "Validated",
    "Pages lost",
    "Site recall",
    "Precision",
    "Followed per site",
];

/// B's name after Tune….
pub fn tuned_side_name(steps: usize) -> String {
    format!("A tuned in {}", super::plural(steps, "step", "steps"))
}

/// The name Save tuned as profile… proposes.
pub fn tuned_profile_name(profile: &str, steps: usize) -> String {
    format!("{profile} tuned ({steps})")
}

/// The unsaved profile Try as B compares with.
pub fn tried_change_name(change: &Change) -> String {
    format!("A + {}", super::change_words(change))
}

/// The name Save as profile… proposes.
pub fn suggested_profile_name(profile: &str, change: &Change) -> String {
    match change {
        Change::Subdomain(on) => {
            format!("{profile} + subdomains {}", if *on { "on" } else { "off" })
        }
        Change::AddWhiteLanguage { language, .. } => format!("{profile} + {language} words"),
        Change::AddWhite(s)
        | Change::RemoveBlack(s)
        | Change::MoveWhite(s)
        | Change::AllowDomain(s) => format!("{profile} + {s}"),
    }
}

/// A list of page ids in a cell, the first few named.
pub fn page_ids(ids: &[String]) -> String {
    const SHOWN: usize = 4;
    let mut out = ids
        .iter()
        .take(SHOWN)
        .cloned()
        .collect::<Vec<_>>()
        .join(" ");
    if ids.len() > SHOWN {
        out.push_str(&format!(" +{}", ids.len() - SHOWN));
    }
    if ids.is_empty() {
        "—".to_owned()
    } else {
        format!("{} ({out})", ids.len())
    }
}

// Keywords.
pub const KEYWORD_ONLY_B: &str = "B only";

/// The pages B rescues and loses, by id.
pub fn rescued_and_lost(rescued: &[String], lost: &[String]) -> String {
    let ids = |ids: &[String]| {
        if ids.is_empty() {
            "none".to_owned()
        } else {
            ids.join(" ")
        }
    };
    format!("Rescued by B: {} · lost: {}", ids(rescued), ids(lost))
}

// The chart of targets per keyword.
pub const KEYWORD_TRUTH_HEADING: &str =
    "Per keyword of A, on the labelled pages: targets it decided and other links";
pub const KEYWORD_TRUTH_HEADING_B: &str =
    "Per keyword of B, on the labelled pages: targets it decided and other links";
pub const CHART_WHITE_TARGETS: &str = "white: targets followed";
pub const CHART_WHITE_OTHERS: &str = "white: other links followed";
pub const CHART_BLACK_TARGETS: &str = "black: targets blacklisted";
pub const CHART_BLACK_OTHERS: &str = "black: other links blacklisted";

/// A keyword down the chart's side; black ones marked.
pub fn keyword_axis_label(list: crate::policy::compare::ListName, keyword: &str) -> String {
    match list {
        crate::policy::compare::ListName::White => keyword.to_owned(),
        crate::policy::compare::ListName::Black => format!("⊘ {keyword}"),
    }
}
