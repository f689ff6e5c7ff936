//! SPEC 11's suggestions: single changes of side A's settings, each tried by
//! deciding every labelled page again, ranked by the pages they gain.

use std::collections::{BTreeSet, HashSet};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use url::Url;

use super::outcome::{LabelledPage, Missed, PageTruth, TargetWhy};
use super::tokens::keyword_tokens;
use crate::par;
use crate::policy::{PageDecision, Settings, Verdict, parse_list};

/// One change of the settings.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Change {
    /// A keyword appended to the white list.
    AddWhite(String),
    RemoveBlack(String),
    /// A white keyword moved to the front of its list.
    MoveWhite(String),
    /// A registrable domain added to the allowed domains.
    AllowDomain(String),
    /// Subdomain mode turned on (`true`) or off.
    Subdomain(bool),
}

impl Change {
    /// The report identifier of the change's kind.
    pub fn kind_id(&self) -> &'static str {
        match self {
            Change::AddWhite(_) => "add_white",
            Change::RemoveBlack(_) => "remove_black",
            Change::MoveWhite(_) => "move_white",
            Change::AllowDomain(_) => "allow_domain",
            Change::Subdomain(_) => "subdomain",
        }
    }
}

/// How many suggestions to keep, and how to try them.
#[derive(Clone, Copy)]
pub struct Suggest<'a> {
    /// 0: none are tried.
    pub keep: usize,
    pub jobs: usize,
    /// The words a change is shown in: the ranking's last tie-break, so
    /// equal suggestions come in the order a reader sorts them.
    pub words: &'a (dyn Fn(&Change) -> String + Sync),
    /// Gets (candidates tried, candidates in all), from any thread.
    pub progress: &'a (dyn Fn(usize, usize) + Sync),
}

/// A change tried over the corpus.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Suggestion {
    pub change: Change,
    /// Labelled pages found only with the change, and only without it.
    pub pages_gained: Vec<String>,
    pub pages_lost: Vec<String>,
    /// Targets followed only with the change.
    pub targets_gained: usize,
    /// Links followed only with the change that are not targets.
    pub non_targets_gained: usize,
    /// Side A's settings with only this change.
    pub settings: Settings,
}

impl Suggestion {
    /// Pages gained minus pages lost: what the ranking puts first.
    pub fn net_pages(&self) -> isize {
        self.pages_gained.len() as isize - self.pages_lost.len() as isize
    }
}

/// `settings` with `change` applied; every other item kept as written.
pub fn apply_change(settings: &Settings, change: &Change) -> Settings {
    let mut out = settings.clone();
    match change {
        Change::AddWhite(k) => append(&mut out.follow_keywords_white, k),
        Change::AllowDomain(d) => append(&mut out.follow_allowed_domains, d),
        Change::RemoveBlack(k) => {
            out.follow_keywords_black = items(&out.follow_keywords_black)
                .filter(|item| !same_item(item, k))
                .collect::<Vec<_>>()
                .join(",");
        }
        Change::MoveWhite(k) => {
            let rest = items(&out.follow_keywords_white).filter(|item| !same_item(item, k));
            out.follow_keywords_white = std::iter::once(k.as_str())
                .chain(rest)
                .collect::<Vec<_>>()
                .join(",");
        }
        Change::Subdomain(on) => out.follow_subdomain = *on,
    }
    out
}

fn items(stored: &str) -> impl Iterator<Item = &str> {
    stored.split(',').filter(|item| !item.trim().is_empty())
}

fn same_item(item: &str, keyword: &str) -> bool {
    item.trim().to_lowercase() == keyword
}

fn append(stored: &mut String, item: &str) {
    if !stored.trim().is_empty() && !stored.trim_end().ends_with(',') {
        stored.push(',');
    }
    stored.push_str(item);
}

/// The candidate changes of SPEC 11, each once, in a fixed order.
fn candidates(base: &Settings, pages: &[PageTruth], missed: &[Missed]) -> Vec<Change> {
    let white = parse_list(&base.follow_keywords_white);
    let allowed = parse_list(&base.follow_allowed_domains);
    let mut out: BTreeSet<Change> = BTreeSet::new();
    for miss in missed {
        let Ok(url) = Url::parse(&miss.target.url) else {
            continue;
        };
        for token in keyword_tokens(&url, miss.text.as_deref().unwrap_or_default()) {
            // A link with a token that holds a white keyword matches that
            // keyword already: appending the token changes nothing.
            if !white.iter().any(|w| token.contains(w.as_str())) {
                out.insert(Change::AddWhite(token));
            }
        }
    }
    for outcome in pages.iter().flat_map(|p| &p.targets) {
        match &outcome.a {
            TargetWhy::Blacklisted { keyword, .. } => {
                out.insert(Change::RemoveBlack(keyword.clone()));
            }
            TargetWhy::RankedOut { keyword, .. } if white.first() != Some(keyword) => {
                out.insert(Change::MoveWhite(keyword.clone()));
            }
            TargetWhy::OffDomain { host, .. } => {
                // An IP address has no registrable domain (the list would
                // take its last two numbers for one).
                let is_name = matches!(url::Host::parse(host), Ok(url::Host::Domain(_)));
                if let Some(domain) = psl::domain_str(host).filter(|_| is_name)
                    && !allowed.iter().any(|d| d == domain)
                {
                    out.insert(Change::AllowDomain(domain.to_owned()));
                }
            }
            _ => {}
        }
    }
    out.insert(Change::Subdomain(!base.follow_subdomain));
    out.into_iter().collect()
}

/// The keys of the links a decision follows.
fn followed_keys(decision: &PageDecision) -> HashSet<String> {
    decision
        .links
        .iter()
        .filter(|l| l.verdict == Verdict::Followed)
        .filter_map(|l| l.key.as_deref().map(str::to_owned))
        .collect()
}

/// Tries every candidate change of `base` over the labelled pages; returns
/// the best `suggest.keep` of those that change a follow, and how many were
/// tried.
pub(super) fn suggest(
    base: &Settings,
    labelled: &[LabelledPage<'_>],
    pages: &[PageTruth],
    missed: &[Missed],
    suggest: Suggest<'_>,
    cancel: &AtomicBool,
) -> (Vec<Suggestion>, usize) {
    let base_followed: Vec<HashSet<String>> = labelled
        .iter()
        .map(|page| followed_keys(&page.page.decision))
        .collect();
    // A keyword or domain no link of a page contains cannot change a verdict
    // there.
    let haystacks: Vec<String> = labelled
        .iter()
        .map(|page| {
            let links = page.page.decision.links.iter();
            let texts = links.filter_map(|l| l.haystack());
            // Joined as the policy joins them: a keyword may span URL and text.
            texts.fold(String::new(), |mut all, h| {
                all.push_str(h.as_str());
                all.push('\n');
                all
            })
        })
        .collect();
    let changes = candidates(base, pages, missed);
    let done = AtomicUsize::new(0);
    (suggest.progress)(0, changes.len());
    let tried = par::map_ordered(
        &changes,
        suggest.jobs,
        "follow-inspector-suggest",
        cancel,
        |change| {
            let settings = apply_change(base, change);
            let mut suggestion = Suggestion {
                change: change.clone(),
                pages_gained: Vec::new(),
                pages_lost: Vec::new(),
                targets_gained: 0,
                non_targets_gained: 0,
                settings,
            };
            let opts = suggestion.settings.options();
            let mut changed = false;
            // Every keyword match and every allow-list match (host, subdomain
            // or root) needs the keyword or domain inside the link's URL or text.
            let needed = match change {
                Change::AddWhite(k)
                | Change::RemoveBlack(k)
                | Change::MoveWhite(k)
                | Change::AllowDomain(k) => Some(k),
                Change::Subdomain(_) => None,
            };
            let pages = labelled
                .iter()
                .zip(pages)
                .zip(&base_followed)
                .zip(&haystacks);
            for (((page, truth), before), haystack) in pages {
                if needed.is_some_and(|k| !haystack.contains(k.as_str())) {
                    continue;
                }
                let after = followed_keys(&page.page.decided(&opts, page.page.decision.limit));
                changed |= after != *before;
                let found_after = page.targets.iter().any(|t| after.contains(&t.key));
                match (truth.found(false), found_after) {
                    (false, true) => suggestion.pages_gained.push(truth.id.clone()),
                    (true, false) => suggestion.pages_lost.push(truth.id.clone()),
                    _ => {}
                }
                for key in after.difference(before) {
                    if truth.is_target(key) {
                        suggestion.targets_gained += 1;
                    } else {
                        suggestion.non_targets_gained += 1;
                    }
                }
            }
            (suggest.progress)(done.fetch_add(1, Ordering::SeqCst) + 1, changes.len());
            // A change that follows the same links everywhere is no suggestion.
            changed.then_some(suggestion)
        },
    );
    let count = tried.iter().filter(|t| t.is_some()).count();
    let mut tried: Vec<(Suggestion, String)> = tried
        .into_iter()
        .flatten()
        .flatten()
        .map(|s| {
            let words = (suggest.words)(&s.change);
            (s, words)
        })
        .collect();
    tried.sort_by(|(x, x_words), (y, y_words)| {
        y.net_pages()
            .cmp(&x.net_pages())
            .then(x.non_targets_gained.cmp(&y.non_targets_gained))
            .then_with(|| x_words.cmp(y_words))
    });
    tried.truncate(suggest.keep);
    (tried.into_iter().map(|(s, _)| s).collect(), count)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(white: &str, black: &str) -> Settings {
        Settings {
            follow_keywords_white: white.into(),
            follow_keywords_black: black.into(),
            ..Settings::default()
        }
    }

    #[test]
    fn changes_keep_every_other_item_as_written() {
        let s = settings("Contact, about ,team", "blog,News,tag");
        let white = |c| apply_change(&s, &c).follow_keywords_white;
        assert_eq!(
            white(Change::AddWhite("ihr".into())),
            "Contact, about ,team,ihr"
        );
        assert_eq!(
            white(Change::MoveWhite("team".into())),
            "team,Contact, about "
        );
        assert_eq!(
            apply_change(&s, &Change::RemoveBlack("news".into())).follow_keywords_black,
            "blog,tag"
        );
        assert_eq!(
            apply_change(&settings("", ""), &Change::AddWhite("x".into())).follow_keywords_white,
            "x"
        );
        // Every copy of a keyword goes; a list that ends in a comma takes one more.
        let twice = settings("team,about,Team", "News,blog,news");
        assert_eq!(
            apply_change(&twice, &Change::RemoveBlack("news".into())).follow_keywords_black,
            "blog"
        );
        assert_eq!(
            apply_change(&twice, &Change::MoveWhite("team".into())).follow_keywords_white,
            "team,about"
        );
        assert_eq!(
            apply_change(&settings("a,", ""), &Change::AddWhite("x".into())).follow_keywords_white,
            "a,x"
        );
        let allowed = apply_change(&s, &Change::AllowDomain("acme.de".into()));
        assert_eq!(allowed.follow_allowed_domains, "acme.de");
        assert!(apply_change(&s, &Change::Subdomain(true)).follow_subdomain);
    }
}
