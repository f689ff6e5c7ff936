//! Words of a corpus over web archives: what was skipped, what was damaged.

use crate::corpus::{ArchiveStats, RecordProblem, RecordWarning, SkipKind};

/// A skipped kind of record, in the summary line.
pub fn skip_kind_label(kind: SkipKind) -> &'static str {
    match kind {
        // A record type is named by its WARC-Type, as the JSON names it.
        SkipKind::Warcinfo
        | SkipKind::Request
        | SkipKind::Metadata
        | SkipKind::Revisit
        | SkipKind::Resource
        | SkipKind::Conversion
        | SkipKind::Continuation => kind.id(),
        SkipKind::OtherType => "of another type",
        SkipKind::NotHtml => "not HTML",
        SkipKind::NotOk => "not status 200",
        SkipKind::Duplicate => "duplicate URI",
        SkipKind::BadTargetUri => "target URI does not parse",
        SkipKind::BadHttp => "HTTP part does not parse",
        SkipKind::NonHttp => "not http or https (dns:, whois:, urn:…)",
    }
}

/// The line over an archive corpus's table: files, records, what was
/// skipped and how many records were damaged.
pub fn archive_summary(stats: &ArchiveStats, pages: usize) -> String {
    let skipped: Vec<String> = SkipKind::ALL
        .iter()
        .filter(|k| stats.skipped(**k) > 0)
        .map(|k| format!("{} {}", stats.skipped(*k), skip_kind_label(*k)))
        .collect();
    let mut line = format!(
        "{} of {} records are pages ({})",
        pages,
        stats.records,
        super::plural(stats.files.len(), "archive", "archives")
    );
    if !skipped.is_empty() {
        line.push_str(&format!("; skipped: {}", skipped.join(", ")));
    }
    if stats.damaged_count() > 0 {
        line.push_str(&format!(
            "; {}",
            super::plural(stats.damaged_count(), "damaged record", "damaged records")
        ));
    }
    if stats.warning_count() > 0 {
        line.push_str(&format!(
            "; {} read past something odd",
            super::plural(stats.warning_count(), "record", "records")
        ));
    }
    line
}

/// Under the listed problems, those past the list's cap.
pub fn problems_not_listed(count: usize) -> String {
    format!(
        "… and {} not listed (only the first 1,000 of each kind are)",
        super::plural(count, "more record", "more records")
    )
}

/// A damaged or unreadable record, with its file and offset.
pub fn record_problem(problem: &RecordProblem) -> String {
    let place = format!("{} at offset {}", problem.file.display(), problem.offset);
    match &problem.target_uri {
        Some(uri) => format!("{place} ({uri}): {}", problem.detail),
        None => format!("{place}: {}", problem.detail),
    }
}

/// A damaged record, in the window's list.
pub fn damaged_record_line(problem: &RecordProblem) -> String {
    format!("✖ damaged: {}", record_problem(problem))
}

/// A record read past what was odd about it, in the table and the
/// window's list.
pub fn record_warning_line(warning: &RecordWarning) -> String {
    let place = format!("{} at offset {}", warning.file.display(), warning.offset);
    match &warning.target_uri {
        Some(uri) => format!("warning: {place} ({uri}): {}", warning.detail),
        None => format!("warning: {place}: {}", warning.detail),
    }
}

/// A response record not taken as a page, in the window's list.
pub fn unreadable_record_line(problem: &RecordProblem) -> String {
    format!("skipped: {}", record_problem(problem))
}

pub const LABEL_CHOOSE_ARCHIVE: &str = "Archive…";
/// A streamed corpus report whose JSON has no `pages` array where it
/// should (never seen: it would be a bug in the report's layout).
pub const REPORT_WITHOUT_PAGES: &str = "the corpus report was laid out without its pages";
pub const FILE_DIALOG_CORPUS_ARCHIVE: &str = "A web archive (WARC)";
pub const FILE_FILTER_ARCHIVE: &str = "web archive";
