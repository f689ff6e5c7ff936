//! What a filter keeps: the pages and changed links a cause or a suggestion
//! is about, and the rows of the gained and lost links.

use std::collections::HashSet;

use url::Url;

use super::state::Filter;
use crate::corpus::{ChangedLink, CorpusRun, PageRun};
use crate::policy::Verdict;
use crate::policy::url_key;

/// The pages a filter keeps; `None` keeps every page.
pub fn kept_pages<'r>(run: &'r CorpusRun, filter: Option<&Filter>) -> Option<HashSet<&'r str>> {
    match filter? {
        Filter::Cause(cause) => Some(
            run.pages
                .iter()
                .filter(|p| p.changes.iter().any(|c| c.because == *cause))
                .map(|p| p.id.as_str())
                .collect(),
        ),
        Filter::Suggestion(index) => {
            let suggestion = run.evaluation.as_ref()?.suggestions.get(*index)?;
            Some(
                suggestion
                    .pages_gained
                    .iter()
                    .chain(&suggestion.pages_lost)
                    .map(String::as_str)
                    .collect(),
            )
        }
    }
}

/// A followed link gained or lost from A to B, on its page.
pub struct LinkRow<'r> {
    pub page: &'r PageRun,
    pub change: &'r ChangedLink,
    /// Followed under B and not under A (else the other way round).
    pub gained: bool,
    /// Whether it is one of the page's targets; `None` without a targets file.
    pub target: Option<bool>,
}

impl LinkRow<'_> {
    /// Whether the page id, the URL or the text holds `needle` (lowercase).
    pub fn has_text(&self, needle: &str) -> bool {
        needle.is_empty()
            || [
                self.page.id.as_str(),
                self.change.url.as_deref().unwrap_or_default(),
                self.change.text.as_str(),
            ]
            .iter()
            .any(|s| s.to_lowercase().contains(needle))
    }
}

/// Whether the link is followed under one side only.
pub fn followed_on_one_side(change: &ChangedLink) -> bool {
    (change.a.verdict == Verdict::Followed) != (change.b.verdict == Verdict::Followed)
}

/// The changed links whose followed state differs, across the corpus, kept
/// by `filter`, the text `needle` and `only_targets`.
pub fn link_rows<'r>(
    run: &'r CorpusRun,
    filter: Option<&Filter>,
    needle: &str,
    only_targets: bool,
) -> Vec<LinkRow<'r>> {
    let pages = kept_pages(run, filter);
    let needle = needle.trim().to_lowercase();
    let cause = match filter {
        Some(Filter::Cause(cause)) => Some(cause),
        _ => None,
    };
    let mut rows = Vec::new();
    for page in &run.pages {
        if pages
            .as_ref()
            .is_some_and(|kept| !kept.contains(page.id.as_str()))
        {
            continue;
        }
        let truth = run.evaluation.as_ref().map(|e| e.page(&page.id));
        for change in &page.changes {
            if !followed_on_one_side(change) || cause.is_some_and(|c| change.because != *c) {
                continue;
            }
            let key = change
                .url
                .as_deref()
                .and_then(|u| Url::parse(u).ok())
                .map(|u| url_key(&u));
            let target = truth.map(|page| {
                page.zip(key.as_deref())
                    .is_some_and(|(page, key)| page.is_target(key))
            });
            let row = LinkRow {
                page,
                change,
                gained: change.b.verdict == Verdict::Followed,
                target,
            };
            if (!only_targets || row.target == Some(true)) && row.has_text(&needle) {
                rows.push(row);
            }
        }
    }
    rows
}
