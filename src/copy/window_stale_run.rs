//! Words of the Corpus view about the run shown: what it was made with, and
//! the banner when what is on screen now would make another one.

/// " (as edited)" after a profile's name, when its settings were unsaved edits.
fn as_edited(edited: bool) -> &'static str {
    if edited { " (as edited)" } else { "" }
}

/// The line over a run shown: the sides, depth and N it was made with (not
/// those on screen now, which the out-of-date banner names).
pub fn shown_run_sides(profile: &str, edited: bool, compared: Option<&str>, depth: u32) -> String {
    format!(
        "This run: {}",
        super::corpus_sides(profile, edited, compared, depth)
    )
}

/// The out-of-date banner: each input that differs from the run's, then what
/// the numbers are.
pub fn stale_corpus_run(changes: &[String]) -> String {
    format!(
        "This run is out of date: {}. The numbers below are still the old run's.",
        changes.join("; ")
    )
}

pub const LABEL_RUN_AGAIN: &str = "Run again";

pub fn stale_depth(now: u32, was: u32) -> String {
    format!("the depth is now {now} (the run was at {was})")
}

/// A's settings differ from the run's. `now` and `was` are the profile's
/// name and whether it was edited.
pub fn stale_a(now: (&str, bool), was: (&str, bool)) -> String {
    if now == was {
        format!(
            "A's settings were edited since (the run was under “{}”{})",
            was.0,
            as_edited(was.1)
        )
    } else {
        format!(
            "A is now “{}”{} (the run was under “{}”{})",
            now.0,
            as_edited(now.1),
            was.0,
            as_edited(was.1)
        )
    }
}

/// B differs from the run's: another profile, none, or the same name with
/// other settings.
pub fn stale_b(now: Option<&str>, was: Option<&str>) -> String {
    let named = |b: Option<&str>| b.map_or_else(|| "none".to_owned(), |b| format!("“{b}”"));
    match (now, was) {
        (Some(now), Some(was)) if now == was => {
            format!("B “{now}” has other settings than the run compared with")
        }
        (now, None) => format!("B is now {} (the run had no B)", named(now)),
        (now, was) => format!(
            "B is now {} (the run compared with {})",
            named(now),
            named(was)
        ),
    }
}

/// A targets choice as the banner names it: `None` for no file,
/// `Some(None)` for the one beside the corpus, else the file.
fn targets_words(choice: Option<Option<&std::path::Path>>) -> String {
    match choice {
        None => "none".to_owned(),
        Some(None) => "targets.tsv beside the corpus".to_owned(),
        Some(Some(path)) => path.display().to_string(),
    }
}

/// The targets file differs from the run's (see `targets_words`).
pub fn stale_targets(
    now: Option<Option<&std::path::Path>>,
    was: Option<Option<&std::path::Path>>,
) -> String {
    format!(
        "the targets file is now {} (the run's was {})",
        targets_words(now),
        targets_words(was)
    )
}

/// The corpus field names another corpus than the run's (or none).
pub fn stale_corpus(now: &str, was: &str) -> String {
    if now.is_empty() {
        format!("the corpus field is empty (the run read {was})")
    } else {
        format!("the corpus is now {now} (the run read {was})")
    }
}

/// Save as profile…: which A the suggestion was measured on.
pub fn measured_on(profile: &str, edited: bool, depth: u32) -> String {
    format!(
        "Measured on “{profile}”{}, depth {depth}: the suggestion is that A with one change.",
        as_edited(edited)
    )
}
