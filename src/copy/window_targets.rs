//! The window's words for marking targets: the detail pane's section, the
//! kind chooser, the table's column and chip, the targets file dialogs and
//! what happened to the file.

use std::path::Path;

use crate::corpus::truth::TargetKind;
use crate::corpus::truth::edit::Edit;

pub const COLUMN_TARGET: &str = "Target";
pub const TARGETS_CHIP_TOOLTIP: &str =
    "The links the targets file names for this page. Click to show only them.";
pub const LABEL_TARGETS_FILE: &str = "Targets file…";
pub const TARGETS_FILE_TOOLTIP: &str =
    "The targets file (TSV: id, url, kind, …) where links are marked as targets.";
pub const LABEL_MARK_TARGET: &str = "Mark as target…";
pub const LABEL_CHANGE_KIND: &str = "Change kind…";
pub const LABEL_NOT_A_TARGET: &str = "Not a target";
pub const MARK_TARGET_TOOLTIP: &str = "Say which kind of page this link leads to (key T).";
pub const NOT_A_TARGET_TOOLTIP: &str = "Remove this link's row from the targets file (key N).";
pub const CHOOSE_TARGETS_FILE_FIRST: &str =
    "Choose a targets file first (Targets file…), or create one.";
pub const WHICH_KIND: &str = "Which kind of page does it lead to?";
pub const KIND_KEYS: &str =
    "Keys: C, I or A (Enter: the kind shown chosen, else contact); Esc closes.";
pub const LABEL_UNDO_MARK: &str = "↶ Undo mark";
pub const UNDO_MARK_TOOLTIP: &str =
    "Put the targets file back as it was before the last mark, notes included (Ctrl+Z)";
pub const NOTHING_TO_UNDO: &str = "No mark to undo.";
pub const NO_TARGETS_FILE: &str = "No targets file";
pub const TARGETS_FILE_TITLE: &str = "Choose the targets file";
pub const LABEL_TARGETS_PATH: &str = "Targets file";
pub const TARGETS_FILE_NOTE: &str = "Links marked as targets are written to this file (a TSV \
    with at least id, url and kind). A name that does not exist yet can be created.";
pub const TARGETS_PATH_HINT: &str = "targets.tsv";
pub const LABEL_USE: &str = "Use";
pub const LABEL_CREATE: &str = "Create";
pub const FILE_DIALOG_TARGETS: &str = "A targets file";
pub const FILE_FILTER_TARGETS: &str = "targets file";
pub const TARGETS_THREAD_STOPPED: &str =
    "The targets file's thread stopped: nothing more is written to it.";
pub const NO_LINK_TO_MARK: &str = "Select a link with a URL to mark it.";

/// The chooser's button for `kind`, with its key.
pub fn kind_button(kind: TargetKind) -> &'static str {
    match kind {
        TargetKind::Contact => "Contact (C)",
        TargetKind::Imprint => "Imprint (I)",
        TargetKind::About => "About (A)",
    }
}

pub fn targets_chip(n: usize) -> String {
    format!("◎ targets {n}")
}

/// The detail pane's line about the selected link.
pub fn target_line(kind: Option<TargetKind>, file: &str) -> String {
    match kind {
        Some(kind) => format!("Target: {} (in {file})", kind.id()),
        None => format!("Not a target in {file}"),
    }
}

fn name(path: &Path) -> String {
    path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into(),
    )
}

pub fn targets_opened(path: &Path, targets: usize, pages: usize, skipped: usize) -> String {
    let mut line = format!(
        "Targets file {}: {} on {}",
        name(path),
        super::plural(targets, "target", "targets"),
        super::plural(pages, "page", "pages"),
    );
    if skipped > 0 {
        line.push_str(&format!(
            " ({} skipped)",
            super::plural(skipped, "row", "rows")
        ));
    }
    line.push('.');
    line
}

pub fn targets_created(path: &Path) -> String {
    format!("Created the targets file {}.", path.display())
}

pub fn create_targets_question(path: &str) -> String {
    format!(
        "{path} does not exist. Create it, with the columns id, url, kind, index, text and note?"
    )
}

/// What marking did, for the status bar.
pub fn marked(edit: Edit, url: &str, path: &Path) -> String {
    let file = name(path);
    match edit {
        Edit::Added(kind) => format!("Marked as {} in {file}: {url}", kind.id()),
        Edit::Changed { from, to } => {
            format!("{} → {} in {file}: {url}", from.id(), to.id())
        }
        Edit::Removed => format!("Not a target any more in {file} (Ctrl+Z undoes): {url}"),
        Edit::Unchanged => format!("{file} already says so: {url}"),
    }
}

pub fn undone(path: &Path) -> String {
    format!("Undid the last mark in {}.", name(path))
}

pub fn cannot_read_targets(err: &dyn std::fmt::Display) -> String {
    format!("The targets file cannot be used: {err}")
}

pub fn targets_gone(path: &Path) -> String {
    format!(
        "{} no longer exists: nothing was written. Choose it again (Targets file…) to create it.",
        path.display()
    )
}

pub fn targets_changed_on_disk(path: &Path) -> String {
    format!(
        "{} changed on disk since it was read: nothing was written. It has been read again; mark the link again.",
        name(path)
    )
}

pub fn targets_read_only(path: &Path) -> String {
    format!("{} is read-only: nothing was written.", path.display())
}

pub fn cannot_write_targets(path: &Path, err: &dyn std::fmt::Display) -> String {
    format!(
        "Cannot write {}: {err}. Nothing was changed.",
        path.display()
    )
}
