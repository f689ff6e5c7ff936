//! Tuning: allow-list suggestions, why links change between two settings, corpus runs.

use super::*;

/// The report's line of allow-list suggestions.
pub fn allow_suggestions_line(suggestions: &[crate::policy::SiblingRoot]) -> String {
    let items: Vec<String> = suggestions
        .iter()
        .map(|s| format!("{} ({})", s.domain, plural(s.links, "link", "links")))
        .collect();
    format!(
        "other roots of this site, off-domain now: {} (add to followAllowedDomains to follow them)",
        items.join(", ")
    )
}

/// Why a link changed between settings A and B, for `because` in the
/// reports and the Compare view ("`tag` added to the black list").
pub fn because(cause: &crate::policy::compare::Cause) -> String {
    use crate::policy::compare::{Cause, ListName};
    let list = |name: &ListName| match name {
        ListName::White => "white list",
        ListName::Black => "black list",
    };
    let on_off = |on: bool| if on { "turned on" } else { "turned off" };
    match cause {
        Cause::KeywordAdded(name, k) => format!("`{k}` added to the {}", list(name)),
        Cause::KeywordRemoved(name, k) => format!("`{k}` removed from the {}", list(name)),
        Cause::KeywordMoved(name, k) => format!("`{k}` moved in the {}", list(name)),
        Cause::SubdomainMode(on) => format!("subdomain mode {}", on_off(*on)),
        Cause::AllowedDomainAdded(d) => format!("`{d}` added to the allowed domains"),
        Cause::AllowedDomainRemoved(d) => format!("`{d}` removed from the allowed domains"),
        Cause::SkipAssets(on) => format!("skip assets {}", on_off(*on)),
        Cause::Ranking => "ranking: other links now score above or below it".to_owned(),
    }
}

/// "+2 followed, −1 followed, 5 verdicts changed".
pub fn change_summary(s: &crate::policy::compare::ChangeSummary) -> String {
    if s.links_changed == 0 {
        return "no link changes".to_owned();
    }
    let mut out = format!(
        "+{} followed, −{} followed, {}",
        s.gained,
        s.lost,
        plural(s.verdicts_changed, "verdict changed", "verdicts changed")
    );
    let others = s.links_changed - s.verdicts_changed;
    if others > 0 {
        out.push_str(&format!(
            ", {} with another rank or keyword",
            plural(others, "link", "links")
        ));
    }
    out
}

/// Which settings a corpus run uses.
pub fn corpus_sides(profile: &str, edited: bool, compared: Option<&str>, depth: u32) -> String {
    let n = crate::policy::follow_limit(depth);
    let edited = if edited { " (as edited)" } else { "" };
    match compared {
        Some(b) => format!("A: “{profile}”{edited} · B: “{b}” · depth {depth}, N = {n}"),
        None => format!(
            "A: “{profile}”{edited} · B: none (choose one with Compare with…) · depth {depth}, N = {n}"
        ),
    }
}

/// The progress bar's text.
pub fn corpus_progress(done: usize, total: usize) -> String {
    if total == 0 {
        "Listing the pages…".to_owned()
    } else {
        format!("Read {done} of {total} pages")
    }
}

/// A corpus page that could not be read, in its row.
pub fn corpus_page_error(error: &str) -> String {
    format!("✖ {error}")
}

/// One line of the changed links grouped by cause.
pub fn cause_line(because: &str, links: usize, pages: usize, gained: usize, lost: usize) -> String {
    format!(
        "{} on {}: {because} (+{gained} −{lost} followed)",
        plural(links, "link", "links"),
        plural(pages, "page", "pages")
    )
}

/// The pages where a side follows nothing.
pub fn nothing_followed_line(side: &str, ids: &[&str]) -> String {
    if ids.is_empty() {
        format!("Under {side}, every page follows at least one link.")
    } else {
        format!(
            "Under {side}, nothing is followed on {}: {}",
            plural(ids.len(), "page", "pages"),
            ids.join(" ")
        )
    }
}

/// The line over a corpus run's tables.
pub fn corpus_summary(run: &crate::corpus::CorpusRun) -> String {
    let t = run.totals();
    let mut out = format!(
        "{} read{}, {} links, {} followed",
        plural(t.pages_read, "page", "pages"),
        if t.pages_failed > 0 {
            format!(" ({} failed)", t.pages_failed)
        } else {
            String::new()
        },
        t.links,
        t.followed_a
    );
    if let Some(followed_b) = t.followed_b {
        out.push_str(&format!(
            " under A, {followed_b} under B; {} changed",
            plural(t.changed_links, "link", "links")
        ));
    }
    if run.cancelled {
        out.push_str(" (cancelled: partial)");
    }
    out
}
