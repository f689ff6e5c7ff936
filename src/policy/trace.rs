//! A link's trace as data: every rule of SPEC section 4 for one link, in
//! order, evaluated even after the deciding one, with the facts its
//! explanation names. Whether a rule passed is [`LinkDecision::rule_outcomes`]'s
//! answer, the one the verdict was read from; the words are `copy`'s.

use super::domains::SiteCheck;
use super::keywords::{Haystack, KeywordHit, MatchedIn, enclosing_word};
use super::settings::FollowOptions;
use super::verdict::{LinkDecision, PageDecision, Verdict};

/// One rule's result for one link.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TraceStep<'a> {
    /// `Some(true)` passed, `Some(false)` rejected the link, `None` could not
    /// be evaluated (no URL, no host).
    pub passed: Option<bool>,
    pub facts: StepFacts<'a>,
}

/// What a rule found, one variant per rule, in pipeline order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StepFacts<'a> {
    /// Step 1: the href as written and, when it does not resolve, why.
    Parses {
        href: &'a str,
        error: Option<&'a str>,
    },
    /// Step 2: the URL's scheme (absent when the href does not parse).
    Scheme(Option<&'a str>),
    /// Step 3: whether the URL is the page's own (absent when not evaluated).
    SelfLink(Option<bool>),
    /// Step 4: the index of the earlier link with the same URL.
    DuplicateOf(Option<usize>),
    /// Step 5: the same-site computation (absent when the URL has no host).
    Site(Option<SiteStep>),
    /// Step 6: the path's asset extension, and whether assets are skipped.
    Asset {
        extension: Option<&'static str>,
        skip_assets: bool,
    },
    /// Step 7: the first black keyword found.
    Black(Option<KeywordFound<'a>>),
    /// Step 8: the first white keyword found.
    White(WhiteStep<'a>),
    /// Step 9: the ranking.
    Rank(RankStep),
}

/// Step 5 with the settings it ran under.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SiteStep {
    pub check: SiteCheck,
    /// Roots were compared (subdomain mode) rather than hosts (strict).
    pub subdomain_mode: bool,
    /// The allow-list has entries (none of which matched, when rejected).
    pub has_allowed_domains: bool,
}

/// A keyword found in the link.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeywordFound<'a> {
    pub keyword: &'a str,
    pub matched_in: MatchedIn,
    /// The longer word the match is part of (`heritage` for `tag`).
    pub inside: Option<String>,
}

/// Step 8's finding.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WhiteStep<'a> {
    Found {
        keyword: KeywordFound<'a>,
        score: usize,
    },
    /// No white keyword, because there are none: nothing is followed.
    ListEmpty,
    /// No white keyword of the list occurs (the list only admits).
    NoneFound,
}

/// Step 9's finding. `limit` is the page's N.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RankStep {
    Followed {
        rank: usize,
        limit: usize,
    },
    /// Ranked out with fewer points than the last followed link.
    ShortOfCutoff {
        rank: usize,
        limit: usize,
        score: usize,
        cutoff: usize,
        gap: usize,
    },
    /// Ranked out with the last followed link's score, later in the page.
    TiesCutoff {
        rank: usize,
        limit: usize,
        score: usize,
        cutoff: usize,
    },
    /// Ranked out because nothing is followed (N = 0).
    NothingFollowed {
        rank: usize,
        limit: usize,
    },
    /// Rejected by an earlier rule: never ranked.
    NotEligible,
}

/// The nine steps of SPEC section 4 for `link` on `page`, decided with `opts`.
pub fn trace_steps<'a>(
    link: &'a LinkDecision,
    page: &PageDecision,
    opts: &FollowOptions,
) -> [TraceStep<'a>; 9] {
    let t = &link.trace;
    // Rebuilt (an allocation) only when a keyword's surroundings are shown.
    let haystack = if t.black.is_some() || t.white.is_some() {
        link.haystack()
    } else {
        None
    };
    let found = |hit: &'a KeywordHit| keyword_found(hit, haystack.as_ref());
    let white = match (&t.white, t.score) {
        (Some(hit), Some(score)) => WhiteStep::Found {
            keyword: found(hit),
            score,
        },
        _ if opts.keywords.white().is_empty() => WhiteStep::ListEmpty,
        _ => WhiteStep::NoneFound,
    };
    let facts = [
        StepFacts::Parses {
            href: &link.href,
            error: t.parse_error.as_deref(),
        },
        StepFacts::Scheme(t.scheme.as_deref()),
        StepFacts::SelfLink(t.is_self),
        StepFacts::DuplicateOf(t.duplicate_of),
        StepFacts::Site(
            link.site_check(&page.page_host, opts)
                .map(|check| SiteStep {
                    check,
                    subdomain_mode: opts.allow_subdomain,
                    has_allowed_domains: !opts.allowed_domains.is_empty(),
                }),
        ),
        StepFacts::Asset {
            extension: t.asset_extension,
            skip_assets: opts.skip_assets,
        },
        StepFacts::Black(t.black.as_ref().map(found)),
        StepFacts::White(white),
        StepFacts::Rank(rank_step(link, page)),
    ];
    // One outcome per step, in the same order as the facts.
    let mut passed = link.rule_outcomes(opts.skip_assets).into_iter();
    facts.map(|facts| TraceStep {
        passed: passed.next().flatten(),
        facts,
    })
}

fn keyword_found<'a>(hit: &'a KeywordHit, haystack: Option<&Haystack>) -> KeywordFound<'a> {
    let inside = haystack.and_then(|h| {
        let part = match hit.matched_in {
            MatchedIn::Url => h.url_part(),
            MatchedIn::Text => h.text_part(),
        };
        enclosing_word(part, hit.span.clone()).map(str::to_owned)
    });
    KeywordFound {
        keyword: &hit.keyword,
        matched_in: hit.matched_in,
        inside,
    }
}

fn rank_step(link: &LinkDecision, page: &PageDecision) -> RankStep {
    let limit = page.limit;
    match (link.verdict, link.rank) {
        (Verdict::Followed, Some(rank)) => RankStep::Followed { rank, limit },
        (Verdict::RankedOut, Some(rank)) => {
            let score = link.score.unwrap_or(0);
            match (page.cutoff_score(), page.score_gap(link)) {
                (Some(cutoff), Some(0)) => RankStep::TiesCutoff {
                    rank,
                    limit,
                    score,
                    cutoff,
                },
                (Some(cutoff), Some(gap)) => RankStep::ShortOfCutoff {
                    rank,
                    limit,
                    score,
                    cutoff,
                    gap,
                },
                _ => RankStep::NothingFollowed { rank, limit },
            }
        }
        _ => RankStep::NotEligible,
    }
}

#[cfg(test)]
mod tests {
    use url::Url;

    use super::*;
    use crate::policy::domains::Admission;
    use crate::policy::settings::Settings;
    use crate::policy::verdict::{candidates, decide_page};

    /// The page decided with `settings`, and the options it was decided with.
    fn decide(
        links: &[(&str, &str)],
        settings: &Settings,
        limit: usize,
    ) -> (PageDecision, FollowOptions) {
        let url = Url::parse("https://acme.test/").unwrap();
        let opts = settings.options();
        let page = decide_page(&candidates(links), &url, &url, &opts, limit);
        (page, opts)
    }

    /// Link `index`'s steps, with whether each passed.
    fn steps<'a>(
        (page, opts): &'a (PageDecision, FollowOptions),
        index: usize,
    ) -> Vec<(Option<bool>, StepFacts<'a>)> {
        trace_steps(&page.links[index], page, opts)
            .into_iter()
            .map(|s| (s.passed, s.facts))
            .collect()
    }

    fn passed(steps: &[(Option<bool>, StepFacts<'_>)]) -> Vec<Option<bool>> {
        steps.iter().map(|(p, _)| *p).collect()
    }

    #[test]
    fn a_followed_link_passes_every_step() {
        let s_page = decide(&[("/contact", "Contact")], &Settings::default(), 3);
        let s = steps(&s_page, 0);
        assert_eq!(passed(&s), [Some(true); 9]);
        assert_eq!(
            s[0].1,
            StepFacts::Parses {
                href: "/contact",
                error: None
            }
        );
        assert_eq!(s[1].1, StepFacts::Scheme(Some("https")));
        assert_eq!(s[2].1, StepFacts::SelfLink(Some(false)));
        assert_eq!(s[3].1, StepFacts::DuplicateOf(None));
        let StepFacts::Site(Some(site)) = &s[4].1 else {
            panic!("{:?}", s[4].1)
        };
        assert_eq!(site.check.admitted_by, [Admission::StrictHost]);
        assert_eq!(
            s[5].1,
            StepFacts::Asset {
                extension: None,
                skip_assets: true
            }
        );
        assert_eq!(s[6].1, StepFacts::Black(None));
        assert_eq!(
            s[7].1,
            StepFacts::White(WhiteStep::Found {
                keyword: KeywordFound {
                    keyword: "contact",
                    matched_in: MatchedIn::Url,
                    inside: None
                },
                score: 11
            })
        );
        assert_eq!(
            s[8].1,
            StepFacts::Rank(RankStep::Followed { rank: 1, limit: 3 })
        );
    }

    #[test]
    fn ranked_out_links_name_the_gap_or_the_tie() {
        let links = [("/about", ""), ("/contact-2", ""), ("/team", "")];
        // Scores: about 10, contact 11, team 9; N = 1 follows contact.
        let gap_page = decide(&links, &Settings::default(), 1);
        let gap = steps(&gap_page, 0);
        assert_eq!(gap[8].0, Some(false));
        assert_eq!(
            gap[8].1,
            StepFacts::Rank(RankStep::ShortOfCutoff {
                rank: 2,
                limit: 1,
                score: 10,
                cutoff: 11,
                gap: 1
            })
        );
        let tie = [("/contact-1", ""), ("/contact-2", "")];
        let tie_page = decide(&tie, &Settings::default(), 1);
        let tie = steps(&tie_page, 1);
        assert_eq!(
            tie[8].1,
            StepFacts::Rank(RankStep::TiesCutoff {
                rank: 2,
                limit: 1,
                score: 11,
                cutoff: 11
            })
        );
        let none_page = decide(&links, &Settings::default(), 0);
        let none = steps(&none_page, 1);
        assert_eq!(
            none[8].1,
            StepFacts::Rank(RankStep::NothingFollowed { rank: 1, limit: 0 })
        );
    }

    #[test]
    fn a_blacklisted_link_names_the_word_around_the_keyword_and_goes_on() {
        let s_page = decide(&[("/our-heritage/about", "")], &Settings::default(), 3);
        let s = steps(&s_page, 0);
        assert_eq!(passed(&s)[5..], [Some(true), Some(false), Some(true), None]);
        assert_eq!(
            s[6].1,
            StepFacts::Black(Some(KeywordFound {
                keyword: "tag",
                matched_in: MatchedIn::Url,
                inside: Some("heritage".into())
            }))
        );
        // Step 8 is evaluated after the deciding step 7.
        assert!(matches!(
            &s[7].1,
            StepFacts::White(WhiteStep::Found { keyword, score: 10 }) if keyword.keyword == "about"
        ));
        assert_eq!(s[8].1, StepFacts::Rank(RankStep::NotEligible));
    }

    #[test]
    fn off_domain_strict_and_admitted_by_an_allowed_domain() {
        let link = [("https://acmecorp.test/about", "")];
        let strict_page = decide(&link, &Settings::default(), 3);
        let strict = steps(&strict_page, 0);
        assert_eq!(strict[4].0, Some(false));
        let StepFacts::Site(Some(site)) = &strict[4].1 else {
            panic!("{:?}", strict[4].1)
        };
        assert!(site.check.admitted_by.is_empty());
        assert_eq!(
            (site.subdomain_mode, site.has_allowed_domains),
            (false, false)
        );
        assert_eq!(site.check.link_host, "acmecorp.test");
        assert_eq!(site.check.base_host, "acme.test");

        let allowed = Settings {
            follow_allowed_domains: "acmecorp.test".into(),
            ..Settings::default()
        };
        let admitted_page = decide(&link, &allowed, 3);
        let admitted = steps(&admitted_page, 0);
        assert_eq!(passed(&admitted), [Some(true); 9]);
        let StepFacts::Site(Some(site)) = &admitted[4].1 else {
            panic!("{:?}", admitted[4].1)
        };
        assert_eq!(
            site.check.admitted_by,
            [Admission::AllowedDomain("acmecorp.test".into())]
        );
        assert!(site.has_allowed_domains);
    }

    #[test]
    fn an_asset_passes_with_skip_assets_off() {
        let keep = Settings {
            follow_skip_assets: false,
            ..Settings::default()
        };
        let s_page = decide(&[("/contact.pdf", "")], &keep, 3);
        let s = steps(&s_page, 0);
        assert_eq!(s[5].0, Some(true));
        assert_eq!(
            s[5].1,
            StepFacts::Asset {
                extension: Some("pdf"),
                skip_assets: false
            }
        );
        let skipped_page = decide(&[("/contact.pdf", "")], &Settings::default(), 3);
        let skipped = steps(&skipped_page, 0);
        assert_eq!(skipped[5].0, Some(false));
    }

    #[test]
    fn an_invalid_href_is_checked_by_step_one_only() {
        let s_page = decide(&[("http://[::1", "")], &Settings::default(), 3);
        let s = steps(&s_page, 0);
        assert_eq!(
            passed(&s),
            [Some(false), None, None, None, None, None, None, None, None]
        );
        let StepFacts::Parses { href, error } = s[0].1 else {
            panic!("{:?}", s[0].1)
        };
        assert_eq!(href, "http://[::1");
        assert!(error.is_some());
        assert_eq!(s[1].1, StepFacts::Scheme(None));
        assert_eq!(s[4].1, StepFacts::Site(None));
        assert_eq!(s[7].1, StepFacts::White(WhiteStep::NoneFound));
        let empty = Settings {
            follow_keywords_white: String::new(),
            ..Settings::default()
        };
        let s_page = decide(&[("http://[::1", "")], &empty, 3);
        let s = steps(&s_page, 0);
        assert_eq!(s[7].1, StepFacts::White(WhiteStep::ListEmpty));
    }
}
