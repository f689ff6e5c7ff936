//! Two settings on the same page (SPEC section 9): which links change verdict,
//! rank or deciding keyword, and the rule that made each difference.

use serde::{Deserialize, Serialize};

use super::domains::Admission;
use super::keywords::KeywordHit;
use super::settings::FollowOptions;
use super::verdict::{LinkDecision, PageDecision, Verdict};

// The list names are the keywords' own; kept here too for the old path.
pub use super::keywords::ListName;

/// One side of a changed link.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outcome {
    pub verdict: Verdict,
    pub keyword: Option<String>,
    pub score: Option<usize>,
    pub rank: Option<usize>,
}

impl Outcome {
    /// What a change is: the verdict, the rank or the deciding keyword. A
    /// score that moved with a reordered list but changed nothing else is not.
    fn differs(&self, other: &Outcome) -> bool {
        (self.verdict, &self.keyword, self.rank) != (other.verdict, &other.keyword, other.rank)
    }

    fn of(link: &LinkDecision) -> Self {
        Self {
            verdict: link.verdict,
            keyword: link.keyword().map(|k| k.keyword.to_string()),
            score: link.score,
            rank: link.rank,
        }
    }
}

/// The rule that made a link's outcome differ between settings A and B, read
/// from A to B ("added" means B has it and A does not).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Cause {
    KeywordAdded(ListName, String),
    KeywordRemoved(ListName, String),
    /// Both lists have the keyword, at another position: the deciding
    /// keyword or the score changed.
    KeywordMoved(ListName, String),
    SubdomainMode(bool),
    AllowedDomainAdded(String),
    AllowedDomainRemoved(String),
    SkipAssets(bool),
    /// Same score, but other links moved above or below it in the ranking
    /// (or the number followed changed).
    Ranking,
}

/// A link whose verdict, rank or deciding keyword differs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LinkChange {
    pub index: usize,
    pub a: Outcome,
    pub b: Outcome,
    pub because: Cause,
}

impl LinkChange {
    /// A link followed under one side only: +1 or −1 followed from A to B.
    pub fn followed_delta(&self) -> i8 {
        match (
            self.a.verdict == Verdict::Followed,
            self.b.verdict == Verdict::Followed,
        ) {
            (false, true) => 1,
            (true, false) => -1,
            _ => 0,
        }
    }
}

/// The changes from A to B for the same page decided twice (`a.links[i]` and
/// `b.links[i]` are the same candidate), in document order.
pub fn compare_pages(
    a: &PageDecision,
    b: &PageDecision,
    opts_a: &FollowOptions,
    opts_b: &FollowOptions,
) -> Vec<LinkChange> {
    a.links
        .iter()
        .zip(&b.links)
        .filter_map(|(la, lb)| {
            let (oa, ob) = (Outcome::of(la), Outcome::of(lb));
            oa.differs(&ob).then(|| LinkChange {
                index: la.index,
                because: cause(la, lb, &a.page_host, opts_a, opts_b),
                a: oa,
                b: ob,
            })
        })
        .collect()
}

/// Changes to the totals of a comparison: "+2 followed, −1 followed, 5 verdicts changed".
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ChangeSummary {
    pub gained: usize,
    pub lost: usize,
    pub verdicts_changed: usize,
    pub links_changed: usize,
}

pub fn summarize<'a>(changes: impl IntoIterator<Item = &'a LinkChange>) -> ChangeSummary {
    let mut s = ChangeSummary::default();
    for change in changes {
        match change.followed_delta() {
            1 => s.gained += 1,
            -1 => s.lost += 1,
            _ => {}
        }
        if change.a.verdict != change.b.verdict {
            s.verdicts_changed += 1;
        }
        s.links_changed += 1;
    }
    s
}

fn has(list: &[String], keyword: &str) -> bool {
    list.iter().any(|k| k == keyword)
}

/// `keyword` is on list `name` of B but not of A: added; of A but not B:
/// removed; of both: moved.
fn keyword_cause(name: ListName, keyword: &str, a: &[String], b: &[String]) -> Cause {
    match (has(a, keyword), has(b, keyword)) {
        (false, true) => Cause::KeywordAdded(name, keyword.to_owned()),
        (true, false) => Cause::KeywordRemoved(name, keyword.to_owned()),
        _ => Cause::KeywordMoved(name, keyword.to_owned()),
    }
}

fn cause(
    a: &LinkDecision,
    b: &LinkDecision,
    page_host: &str,
    opts_a: &FollowOptions,
    opts_b: &FollowOptions,
) -> Cause {
    let (va, vb) = (a.verdict, b.verdict);
    // The side rejected earlier in the pipeline holds the rule that differs;
    // followed and ranked out both reached the ranking.
    let step = |v: Verdict| v.min(Verdict::RankedOut);
    let earlier = step(va).min(step(vb));
    let lists = |n: ListName| match n {
        ListName::White => (&opts_a.keywords.white()[..], &opts_b.keywords.white()[..]),
        ListName::Black => (&opts_a.keywords.black()[..], &opts_b.keywords.black()[..]),
    };
    let keyword_of = |hit: Option<&KeywordHit>| hit.map(|h| h.keyword.to_string());
    match earlier {
        Verdict::OffDomain if step(va) != step(vb) => site_cause(a, page_host, opts_a, opts_b),
        Verdict::Asset if step(va) != step(vb) => Cause::SkipAssets(opts_b.skip_assets),
        Verdict::Blacklisted | Verdict::NoKeyword | Verdict::RankedOut => {
            let black = (
                keyword_of(a.trace.black.as_ref()),
                keyword_of(b.trace.black.as_ref()),
            );
            let white = (
                keyword_of(a.trace.white.as_ref()),
                keyword_of(b.trace.white.as_ref()),
            );
            let (name, pair) = if earlier == Verdict::Blacklisted || black.0 != black.1 {
                (ListName::Black, black)
            } else {
                (ListName::White, white)
            };
            let (list_a, list_b) = lists(name);
            match pair {
                // Only B has a keyword of this list: it was added to B's list
                // (it is in the same haystack under both).
                (None, Some(k)) => keyword_cause(name, &k, list_a, list_b),
                (Some(k), None) => keyword_cause(name, &k, list_a, list_b),
                (Some(ka), Some(kb)) if ka != kb => {
                    // The new deciding keyword explains it when B gained it,
                    // else the old one when B lost it, else they moved.
                    match keyword_cause(name, &kb, list_a, list_b) {
                        added @ Cause::KeywordAdded(..) => added,
                        _ => keyword_cause(name, &ka, list_a, list_b),
                    }
                }
                (Some(k), Some(_)) if a.score != b.score => {
                    // The same keyword at another position of a reordered or
                    // lengthened list.
                    Cause::KeywordMoved(name, k)
                }
                _ => Cause::Ranking,
            }
        }
        _ => Cause::Ranking,
    }
}

/// Why a link is same-site under one side and off-domain under the other.
fn site_cause(
    link: &LinkDecision,
    page_host: &str,
    opts_a: &FollowOptions,
    opts_b: &FollowOptions,
) -> Cause {
    let (Some(check_a), Some(check_b)) = (
        link.site_check(page_host, opts_a),
        link.site_check(page_host, opts_b),
    ) else {
        return Cause::Ranking;
    };
    let (admitted, other, b_admits) = if check_b.is_same_site() {
        (check_b.admitted_by, check_a.admitted_by, true)
    } else {
        (check_a.admitted_by, check_b.admitted_by, false)
    };
    for admission in admitted {
        if other.contains(&admission) {
            continue;
        }
        return match admission {
            Admission::RootDomain => Cause::SubdomainMode(b_admits),
            Admission::AllowedDomain(entry) if b_admits => Cause::AllowedDomainAdded(entry),
            Admission::AllowedDomain(entry) => Cause::AllowedDomainRemoved(entry),
            Admission::StrictHost => Cause::Ranking,
        };
    }
    Cause::Ranking
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::{Settings, decide_page};
    use url::Url;

    fn compare(links: &[(&str, &str)], a: &Settings, b: &Settings) -> Vec<LinkChange> {
        let page = Url::parse("https://acme.com/").unwrap();
        let candidates = crate::policy::verdict::candidates(links);
        let (oa, ob) = (a.options(), b.options());
        let da = decide_page(&candidates, &page, &page, &oa, 3);
        let db = decide_page(&candidates, &page, &page, &ob, 3);
        compare_pages(&da, &db, &oa, &ob)
    }

    fn with(f: impl FnOnce(&mut Settings)) -> Settings {
        let mut s = Settings::default();
        f(&mut s);
        s
    }

    #[test]
    fn identical_settings_change_nothing() {
        let s = Settings::default();
        assert!(compare(&[("/contact", ""), ("/blog", "")], &s, &s).is_empty());
    }

    #[test]
    fn a_black_keyword_added_blacklists_and_promotes_the_next_link() {
        let a = Settings::default();
        let b = with(|s| s.follow_keywords_black.push_str(",team"));
        let changes = compare(
            &[
                ("/contact", ""),
                ("/about", ""),
                ("/team", ""),
                ("/impressum", ""),
            ],
            &a,
            &b,
        );
        assert_eq!(changes.len(), 2);
        assert_eq!(changes[0].index, 2);
        assert_eq!(changes[0].a.verdict, Verdict::Followed);
        assert_eq!(changes[0].b.verdict, Verdict::Blacklisted);
        assert_eq!(changes[0].b.keyword.as_deref(), Some("team"));
        assert_eq!(
            changes[0].because,
            Cause::KeywordAdded(ListName::Black, "team".into())
        );
        assert_eq!(changes[1].index, 3);
        assert_eq!(
            (changes[1].a.verdict, changes[1].b.verdict),
            (Verdict::RankedOut, Verdict::Followed)
        );
        assert_eq!((changes[1].a.rank, changes[1].b.rank), (Some(4), Some(3)));
        assert_eq!(changes[1].because, Cause::Ranking);
        let summary = summarize(&changes);
        assert_eq!(
            (summary.gained, summary.lost, summary.verdicts_changed),
            (1, 1, 2)
        );
    }

    #[test]
    fn white_keywords_added_removed_and_moved() {
        let a = Settings::default();
        let b = with(|s| s.follow_keywords_white = "about,careers,contact".into());
        let changes = compare(&[("/careers", ""), ("/team", ""), ("/contact", "")], &a, &b);
        let because: Vec<_> = changes
            .iter()
            .map(|c| (c.index, c.because.clone()))
            .collect();
        assert_eq!(
            because,
            [
                (0, Cause::KeywordAdded(ListName::White, "careers".into())),
                (1, Cause::KeywordRemoved(ListName::White, "team".into())),
                (2, Cause::KeywordMoved(ListName::White, "contact".into())),
            ]
        );
        assert_eq!(
            (changes[2].a.score, changes[2].b.score),
            (Some(11), Some(1))
        );
    }

    #[test]
    fn a_score_that_moves_without_changing_the_rank_is_no_change() {
        let a = Settings::default();
        let b = with(|s| s.follow_keywords_white.insert_str(0, "careers,"));
        assert!(compare(&[("/contact", ""), ("/about", "")], &a, &b).is_empty());
    }

    #[test]
    fn a_black_keyword_removed_lets_the_white_one_decide() {
        let a = Settings::default();
        let b = with(|s| s.follow_keywords_black = "news".into());
        let changes = compare(&[("/blog/contact", "")], &a, &b);
        assert_eq!(
            changes[0].because,
            Cause::KeywordRemoved(ListName::Black, "blog".into())
        );
        assert_eq!(changes[0].b.verdict, Verdict::Followed);
    }

    #[test]
    fn site_options_and_asset_skipping() {
        let a = Settings::default();
        let links = [
            ("https://shop.acme.com/contact", ""),
            ("https://acme.de/kontakt", ""),
            ("/about.pdf", ""),
        ];
        let b = with(|s| {
            s.follow_subdomain = true;
            s.follow_allowed_domains = "acme.de".into();
            s.follow_skip_assets = false;
        });
        let because: Vec<_> = compare(&links, &a, &b)
            .into_iter()
            .map(|c| c.because)
            .collect();
        assert_eq!(
            because,
            [
                Cause::SubdomainMode(true),
                Cause::AllowedDomainAdded("acme.de".into()),
                Cause::SkipAssets(false),
            ]
        );
        let back: Vec<_> = compare(&links, &b, &a)
            .into_iter()
            .map(|c| c.because)
            .collect();
        assert_eq!(
            back,
            [
                Cause::SubdomainMode(false),
                Cause::AllowedDomainRemoved("acme.de".into()),
                Cause::SkipAssets(true),
            ]
        );
    }
}
