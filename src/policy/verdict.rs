//! The verdict pipeline of SPEC section 4: one verdict per candidate, plus the
//! outcome of every rule (the trace), then ranking.

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use url::Url;

use super::domains::{SiteCheck, check_site, is_same_site};
use super::keywords::{Haystack, KeywordHit, ListName, asset_extension};
use super::settings::FollowOptions;

/// The ten verdicts, in pipeline order. The serde names are the report's identifiers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    Invalid,
    NotHttp,
    #[serde(rename = "self")]
    SelfLink,
    Duplicate,
    OffDomain,
    Asset,
    Blacklisted,
    NoKeyword,
    RankedOut,
    Followed,
}

impl Verdict {
    pub const ALL: [Verdict; 10] = [
        Verdict::Invalid,
        Verdict::NotHttp,
        Verdict::SelfLink,
        Verdict::Duplicate,
        Verdict::OffDomain,
        Verdict::Asset,
        Verdict::Blacklisted,
        Verdict::NoKeyword,
        Verdict::RankedOut,
        Verdict::Followed,
    ];

    /// The report identifier (`off_domain`, `self`, …).
    pub fn id(self) -> &'static str {
        match self {
            Verdict::Invalid => "invalid",
            Verdict::NotHttp => "not_http",
            Verdict::SelfLink => "self",
            Verdict::Duplicate => "duplicate",
            Verdict::OffDomain => "off_domain",
            Verdict::Asset => "asset",
            Verdict::Blacklisted => "blacklisted",
            Verdict::NoKeyword => "no_keyword",
            Verdict::RankedOut => "ranked_out",
            Verdict::Followed => "followed",
        }
    }
}

/// The part of the page a link sits in: its nearest landmark ancestor
/// (`<nav>`, `<header>`, … or the ARIA role of one). Shown to explain a
/// report; it never changes a verdict.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
#[serde(rename_all = "snake_case")]
pub enum Region {
    Nav,
    Header,
    Main,
    Aside,
    Footer,
    #[default]
    Other,
}

impl Region {
    pub const ALL: [Region; 6] = [
        Region::Nav,
        Region::Header,
        Region::Main,
        Region::Aside,
        Region::Footer,
        Region::Other,
    ];

    /// The report identifier.
    pub fn id(self) -> &'static str {
        match self {
            Region::Nav => "nav",
            Region::Header => "header",
            Region::Main => "main",
            Region::Aside => "aside",
            Region::Footer => "footer",
            Region::Other => "other",
        }
    }
}

/// A candidate link as the page reader found it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Candidate {
    /// The `href` attribute as written.
    pub href: Arc<str>,
    /// The element's text, whitespace folded and trimmed.
    pub text: Arc<str>,
    /// `rel` contains `nofollow`: the scraper follows it anyway.
    pub nofollow: bool,
    pub region: Region,
}

/// The outcome of every rule for one link, evaluated even after the deciding one.
/// `None` means the rule could not be evaluated (e.g. no URL for an invalid href).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Trace {
    /// Step 1: the parse error, when the href does not resolve.
    pub parse_error: Option<String>,
    /// Step 2: the URL's scheme (the common ones not copied for every link).
    pub scheme: Option<Cow<'static, str>>,
    /// Step 3: the key equals the page's own URL.
    pub is_self: Option<bool>,
    /// Step 4: index of the earlier candidate with the same key.
    pub duplicate_of: Option<usize>,
    /// Step 5: whether the link is same-site (absent when the URL has no
    /// host); [`LinkDecision::site_check`] shows the computation.
    pub same_site: Option<bool>,
    /// Step 6: the asset extension of the path, whether or not skipAssets is on.
    pub asset_extension: Option<&'static str>,
    /// Step 7: the first black keyword in the haystack.
    pub black: Option<KeywordHit>,
    /// Step 8: the first white keyword in the haystack, and its score.
    pub white: Option<KeywordHit>,
    pub score: Option<usize>,
}

impl Trace {
    /// Step 6, for the verdict and for the explanation alike: an asset
    /// extension rejects the link only while assets are skipped.
    fn skips_as_asset(&self, skip_assets: bool) -> bool {
        skip_assets && self.asset_extension.is_some()
    }
}

/// One candidate with its verdict.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LinkDecision {
    /// Position among the page's candidates, from 0, in document order.
    pub index: usize,
    /// Shared with the candidate, the resolved link and other decisions of
    /// the same page, so half a million links fit in memory.
    pub href: Arc<str>,
    pub text: Arc<str>,
    /// The absolute URL; `None` when invalid.
    pub url: Option<Arc<Url>>,
    /// The URL without its fragment.
    pub key: Option<Arc<str>>,
    pub verdict: Verdict,
    pub score: Option<usize>,
    /// Position in the ranking (1-based) for followed and ranked-out links.
    pub rank: Option<usize>,
    /// Set by the crawl: a followed link whose key was already visited.
    pub visited: bool,
    /// Annotations from the page that do not change the verdict.
    pub nofollow: bool,
    pub region: Region,
    pub trace: Trace,
}

impl LinkDecision {
    /// The keyword that decided a blacklisted, followed or ranked-out verdict.
    pub fn keyword(&self) -> Option<&KeywordHit> {
        match self.verdict {
            Verdict::Blacklisted => self.trace.black.as_ref(),
            Verdict::Followed | Verdict::RankedOut => self.trace.white.as_ref(),
            _ => None,
        }
    }

    /// The list of the keyword that decided the verdict: black for a
    /// blacklisted link, white for a followed or ranked-out one.
    pub fn keyword_list(&self) -> Option<ListName> {
        match self.verdict {
            Verdict::Blacklisted => Some(ListName::Black),
            Verdict::Followed | Verdict::RankedOut => Some(ListName::White),
            _ => None,
        }
    }

    /// The same-site computation of step 5 for this link on the page whose
    /// host is `page_host` (absent when the URL has no host). Computed when
    /// asked rather than stored with every link.
    pub fn site_check(&self, page_host: &str, opts: &FollowOptions) -> Option<SiteCheck> {
        let host = self.url.as_ref()?.host_str()?;
        Some(check_site(host, page_host, opts))
    }

    /// The lowercased haystack, rebuilt for display (highlighting a keyword span).
    pub fn haystack(&self) -> Option<Haystack> {
        self.key
            .as_deref()
            .map(|key| Haystack::new(key, &self.text))
    }

    /// Whether each of the nine steps of SPEC section 4 passed (`Some(true)`),
    /// rejected the link (`Some(false)`), or could not be evaluated (`None`),
    /// judged on its own even after the deciding step. `skip_assets` is the
    /// setting the page was decided with.
    pub fn rule_outcomes(&self, skip_assets: bool) -> [Option<bool>; 9] {
        let t = &self.trace;
        let parsed = t.parse_error.is_none();
        // The duplicate set only holds links that got past steps 2 and 3.
        let duplicate_checked =
            parsed && !matches!(self.verdict, Verdict::NotHttp | Verdict::SelfLink);
        let ranked = matches!(self.verdict, Verdict::Followed | Verdict::RankedOut);
        [
            Some(parsed),
            t.scheme.as_deref().map(|s| s == "http" || s == "https"),
            t.is_self.map(|s| !s),
            duplicate_checked.then_some(t.duplicate_of.is_none()),
            t.same_site,
            parsed.then_some(!t.skips_as_asset(skip_assets)),
            parsed.then_some(t.black.is_none()),
            parsed.then_some(t.white.is_some()),
            ranked.then_some(self.verdict == Verdict::Followed),
        ]
    }
}

/// All candidates of one page, decided.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PageDecision {
    pub links: Vec<LinkDecision>,
    /// The host of the page the links were judged on (the same-site test's).
    pub page_host: String,
    /// N: how many eligible links are followed.
    pub limit: usize,
}

impl PageDecision {
    pub fn count(&self, verdict: Verdict) -> usize {
        self.links.iter().filter(|l| l.verdict == verdict).count()
    }

    /// The score of the last followed link (the ranking's cut-off).
    pub fn cutoff_score(&self) -> Option<usize> {
        self.links
            .iter()
            .filter(|l| l.verdict == Verdict::Followed)
            .filter_map(|l| l.rank.zip(l.score))
            .max_by_key(|(rank, _)| *rank)
            .map(|(_, score)| score)
    }

    /// For a ranked-out link: how many points it lacks against the cut-off
    /// (0 when it tied and lost on document order). `None` when nothing was followed.
    pub fn score_gap(&self, link: &LinkDecision) -> Option<usize> {
        if link.verdict != Verdict::RankedOut {
            return None;
        }
        Some(self.cutoff_score()?.saturating_sub(link.score?))
    }
}

/// N for a page scanned with `depth` levels remaining: `(depth - 1) * 3`.
/// The wiki's example ("depth 3: 9") disagrees; SPEC section 4 keeps the formula.
pub fn follow_limit(depth: u32) -> usize {
    depth.saturating_sub(1) as usize * 3
}

/// `key` of a URL: the URL without its fragment.
pub fn url_key(url: &Url) -> String {
    let mut key = url.clone();
    key.set_fragment(None);
    key.into()
}

/// A candidate resolved against the page's base: everything about it that does
/// not depend on the settings, computed once per page read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResolvedLink {
    /// The absolute URL, or why the href does not parse.
    pub url: Result<Arc<Url>, String>,
    /// The URL without its fragment (empty when invalid).
    pub key: Arc<str>,
    /// The keyword haystack (`None` when invalid).
    pub haystack: Option<Haystack>,
    /// The asset extension of an http(s) URL's path (step 6's test, which
    /// no setting changes).
    pub asset_extension: Option<&'static str>,
}

/// Resolves every candidate's href against `base_url`.
///
/// An href written again on the same page (27% of the links of the 265 real
/// homepages of `../shared`) shares the first one's URL and key instead of
/// being parsed again: joining is a function of the base and the href.
pub fn resolve_links(candidates: &[Candidate], base_url: &Url) -> Vec<ResolvedLink> {
    let mut seen: HashMap<&str, Resolved, foldhash::fast::RandomState> =
        HashMap::with_capacity_and_hasher(candidates.len(), Default::default());
    candidates
        .iter()
        .map(|c| {
            let (url, key, asset_extension) = seen
                .entry(&*c.href)
                .or_insert_with(|| resolve(&c.href, base_url))
                .clone();
            ResolvedLink {
                haystack: url.is_ok().then(|| Haystack::new(&key, &c.text)),
                url,
                key,
                asset_extension,
            }
        })
        .collect()
}

/// An href joined to its base: the URL (or why it does not parse), its key,
/// and its asset extension; what every link of that href shares.
type Resolved = (Result<Arc<Url>, String>, Arc<str>, Option<&'static str>);

/// One href joined to `base_url`.
fn resolve(href: &str, base_url: &Url) -> Resolved {
    match base_url.join(href) {
        Ok(url) => {
            // Most links have no fragment: then the key is the URL's text.
            let key: Arc<str> = if url.fragment().is_none() {
                Arc::from(url.as_str())
            } else {
                Arc::from(url_key(&url))
            };
            let asset = if matches!(url.scheme(), "http" | "https") {
                asset_extension(url.path())
            } else {
                None
            };
            (Ok(Arc::new(url)), key, asset)
        }
        Err(e) => (Err(e.to_string()), Arc::from(""), None),
    }
}

/// Decides every candidate of the page at `page_url`, whose links resolve against
/// `base_url` (the `<base href>`, or the page URL), following the top `limit`.
pub fn decide_page(
    candidates: &[Candidate],
    page_url: &Url,
    base_url: &Url,
    opts: &FollowOptions,
    limit: usize,
) -> PageDecision {
    let resolved = resolve_links(candidates, base_url);
    decide_resolved(candidates, &resolved, page_url, opts, limit)
}

/// [`decide_page`] with the links already resolved (`resolved[i]` belongs to
/// `candidates[i]`): what the window runs on every settings change.
pub fn decide_resolved(
    candidates: &[Candidate],
    resolved: &[ResolvedLink],
    page_url: &Url,
    opts: &FollowOptions,
    limit: usize,
) -> PageDecision {
    let page = PageContext {
        key: url_key(page_url),
        host: page_url.host_str().unwrap_or(""),
        opts,
    };
    // Keys are looked up, never listed, so a fast non-cryptographic hash is fine.
    let mut first_by_key: KeyMap<'_> =
        HashMap::with_capacity_and_hasher(candidates.len(), Default::default());
    let mut links: Vec<LinkDecision> = candidates
        .iter()
        .zip(resolved)
        .enumerate()
        .map(|(index, (c, r))| decide_link(index, c, r, &page, &mut first_by_key))
        .collect();
    rank(&mut links, limit);
    PageDecision {
        links,
        page_host: page.host.to_owned(),
        limit,
    }
}

/// The first candidate with each key.
type KeyMap<'a> = HashMap<&'a str, usize, foldhash::fast::RandomState>;

/// What every link of a page is judged against.
struct PageContext<'a> {
    key: String,
    host: &'a str,
    opts: &'a FollowOptions,
}

fn decide_link<'r>(
    index: usize,
    candidate: &Candidate,
    resolved: &'r ResolvedLink,
    page: &PageContext<'_>,
    first_by_key: &mut KeyMap<'r>,
) -> LinkDecision {
    let mut decision = LinkDecision {
        index,
        href: candidate.href.clone(),
        text: candidate.text.clone(),
        url: None,
        key: None,
        verdict: Verdict::Invalid,
        score: None,
        rank: None,
        visited: false,
        nofollow: candidate.nofollow,
        region: candidate.region,
        trace: Trace::default(),
    };
    let (Ok(url), Some(haystack)) = (&resolved.url, &resolved.haystack) else {
        decision.trace.parse_error = resolved.url.as_ref().err().cloned();
        return decision;
    };
    let key: &str = &resolved.key;
    let opts = page.opts;
    let mut trace = trace_rules(url, resolved, haystack, page);
    let is_http = matches!(url.scheme(), "http" | "https");

    // Steps 2-4; a key enters the duplicate set only once it got past step 3.
    let mut verdict = if !is_http {
        Some(Verdict::NotHttp)
    } else if trace.is_self == Some(true) {
        Some(Verdict::SelfLink)
    } else {
        None
    };
    if verdict.is_none() {
        match first_by_key.get(key) {
            Some(&earlier) => {
                trace.duplicate_of = Some(earlier);
                verdict = Some(Verdict::Duplicate);
            }
            None => {
                first_by_key.insert(key, index);
            }
        }
    }
    let verdict = verdict.unwrap_or_else(|| {
        if trace.same_site != Some(true) {
            Verdict::OffDomain
        } else if trace.skips_as_asset(opts.skip_assets) {
            Verdict::Asset
        } else if trace.black.is_some() {
            Verdict::Blacklisted
        } else if trace.white.is_none() {
            Verdict::NoKeyword
        } else {
            // Provisional: ranking decides between followed and ranked out.
            Verdict::RankedOut
        }
    });
    decision.score = (verdict == Verdict::RankedOut)
        .then_some(trace.score)
        .flatten();
    decision.url = Some(Arc::clone(url));
    decision.key = Some(Arc::clone(&resolved.key));
    decision.verdict = verdict;
    decision.trace = trace;
    decision
}

/// Steps 3 and 5-8 evaluated independently of each other.
fn trace_rules(
    url: &Url,
    resolved: &ResolvedLink,
    haystack: &Haystack,
    page: &PageContext<'_>,
) -> Trace {
    let opts = page.opts;
    let (black, white) = haystack.find_first_of_each(&opts.keywords);
    Trace {
        parse_error: None,
        scheme: Some(match url.scheme() {
            "https" => Cow::Borrowed("https"),
            "http" => Cow::Borrowed("http"),
            other => Cow::Owned(other.to_owned()),
        }),
        is_self: Some(*resolved.key == *page.key),
        duplicate_of: None,
        same_site: url
            .host_str()
            .map(|host| is_same_site(host, page.host, opts)),
        asset_extension: resolved.asset_extension,
        black: black.map(|(_, hit)| hit),
        score: white.as_ref().map(|(i, _)| opts.keywords.white().len() - i),
        white: white.map(|(_, hit)| hit),
    }
}

/// Candidates from `(href, text)` pairs, for the policy's tests.
#[cfg(test)]
pub(crate) fn candidates(links: &[(&str, &str)]) -> Vec<Candidate> {
    links
        .iter()
        .map(|(href, text)| Candidate {
            href: (*href).into(),
            text: (*text).into(),
            ..Candidate::default()
        })
        .collect()
}

/// Sorts the eligible links by score (highest first, ties in document order) and
/// follows the first `limit`.
fn rank(links: &mut [LinkDecision], limit: usize) {
    let mut eligible: Vec<usize> = links
        .iter()
        .filter(|l| l.verdict == Verdict::RankedOut)
        .map(|l| l.index)
        .collect();
    // `sort_by` is stable, so equal scores keep document order.
    eligible.sort_by(|&a, &b| links[b].score.cmp(&links[a].score));
    for (position, index) in eligible.into_iter().enumerate() {
        let link = &mut links[index];
        link.rank = Some(position + 1);
        if position < limit {
            link.verdict = Verdict::Followed;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::{Admission, MatchedIn, Settings};

    const PAGE: &str = "https://acme.com/";

    fn decide_with(
        links: &[(&str, &str)],
        page: &str,
        base: Option<&str>,
        settings: &Settings,
        limit: usize,
    ) -> PageDecision {
        let page_url = Url::parse(page).unwrap();
        let base_url = base.map_or(page_url.clone(), |b| page_url.join(b).unwrap());
        let candidates = candidates(links);
        decide_page(
            &candidates,
            &page_url,
            &base_url,
            &settings.options(),
            limit,
        )
    }

    fn decide(links: &[(&str, &str)]) -> PageDecision {
        decide_with(links, PAGE, None, &Settings::default(), follow_limit(2))
    }

    fn verdicts(d: &PageDecision) -> Vec<&'static str> {
        d.links.iter().map(|l| l.verdict.id()).collect()
    }

    #[test]
    fn the_wikis_depth_2_example() {
        let d = decide(&[
            ("/contact", "Contact"),
            ("/about", "About us"),
            ("/blog/", "Blog"),
            ("https://facebook.com/acme", "Facebook"),
        ]);
        assert_eq!(
            verdicts(&d),
            ["followed", "followed", "blacklisted", "off_domain"]
        );
    }

    #[test]
    fn follow_limit_is_depth_minus_one_times_three() {
        assert_eq!(follow_limit(1), 0);
        assert_eq!(follow_limit(2), 3);
        assert_eq!(follow_limit(3), 6);
        assert_eq!(follow_limit(5), 12);
        assert_eq!(follow_limit(0), 0);
    }

    #[test]
    fn depth_1_2_3_follow_0_3_6() {
        let links: Vec<(String, &str)> = (0..10).map(|i| (format!("/contact-{i}"), "")).collect();
        let links: Vec<(&str, &str)> = links.iter().map(|(h, t)| (h.as_str(), *t)).collect();
        for (depth, followed) in [(1, 0), (2, 3), (3, 6)] {
            let d = decide_with(
                &links,
                PAGE,
                None,
                &Settings::default(),
                follow_limit(depth),
            );
            assert_eq!(d.count(Verdict::Followed), followed, "depth {depth}");
            assert_eq!(d.count(Verdict::RankedOut), 10 - followed, "depth {depth}");
        }
    }

    #[test]
    fn empty_white_list_follows_nothing() {
        let settings = Settings {
            follow_keywords_white: String::new(),
            ..Settings::default()
        };
        let d = decide_with(
            &[("/contact", "Contact"), ("/about", "About")],
            PAGE,
            None,
            &settings,
            3,
        );
        assert_eq!(verdicts(&d), ["no_keyword", "no_keyword"]);
    }

    #[test]
    fn blacklist_is_checked_before_whitelist() {
        let d = decide(&[("/blog/about-us", "About us")]);
        let link = &d.links[0];
        assert_eq!(link.verdict, Verdict::Blacklisted);
        assert_eq!(&*link.keyword().unwrap().keyword, "blog");
        assert_eq!(&*link.trace.white.as_ref().unwrap().keyword, "about");
        assert_eq!(link.score, None);
    }

    #[test]
    fn assets_by_path_only_and_only_when_skipping() {
        let d = decide(&[
            ("/logo.png?v=2", "Contact"),
            ("/feed.json", "Contact feed"),
            ("/contact.pdf#page=2", "Contact sheet"),
            ("/contact?file=a.pdf", "Contact"),
        ]);
        assert_eq!(verdicts(&d), ["asset", "followed", "asset", "followed"]);
        assert_eq!(d.links[0].trace.asset_extension, Some("png"));

        let keep_assets = Settings {
            follow_skip_assets: false,
            ..Settings::default()
        };
        let d = decide_with(&[("/contact.pdf", "")], PAGE, None, &keep_assets, 3);
        assert_eq!(verdicts(&d), ["followed"]);
        assert_eq!(d.links[0].trace.asset_extension, Some("pdf"));
    }

    #[test]
    fn scores_by_position_in_the_white_list() {
        let d = decide(&[
            ("/nosotros", ""),
            ("/team", ""),
            ("/contact", ""),
            ("/impressum", ""),
        ]);
        let scores: Vec<_> = d.links.iter().map(|l| l.score.unwrap()).collect();
        // 11 keywords: contact=11, team=9, impressum=8, nosotros=1.
        assert_eq!(scores, [1, 9, 11, 8]);
        let ranks: Vec<_> = d.links.iter().map(|l| l.rank.unwrap()).collect();
        assert_eq!(ranks, [4, 2, 1, 3]);
        assert_eq!(
            verdicts(&d),
            ["ranked_out", "followed", "followed", "followed"]
        );
    }

    #[test]
    fn ties_keep_document_order() {
        let d = decide(&[
            ("/about-a", ""),
            ("/about-b", ""),
            ("/contact", ""),
            ("/about-c", ""),
            ("/about-d", ""),
        ]);
        assert_eq!(
            verdicts(&d),
            [
                "followed",
                "followed",
                "followed",
                "ranked_out",
                "ranked_out"
            ]
        );
        let ranks: Vec<_> = d.links.iter().map(|l| l.rank.unwrap()).collect();
        assert_eq!(ranks, [2, 3, 1, 4, 5]);
    }

    #[test]
    fn ranked_out_links_know_their_gap_to_the_cutoff() {
        let d = decide(&[
            ("/contact-1", ""),
            ("/contact-2", ""),
            ("/about", ""),
            ("/team", ""),
            ("/about-2", ""),
        ]);
        assert_eq!(d.cutoff_score(), Some(10));
        assert_eq!(d.score_gap(&d.links[3]), Some(1));
        assert_eq!(d.score_gap(&d.links[4]), Some(0));
        assert_eq!(d.score_gap(&d.links[0]), None);
        let none = decide_with(&[("/about", "")], PAGE, None, &Settings::default(), 0);
        assert_eq!(none.score_gap(&none.links[0]), None);
    }

    #[test]
    fn percent_encoded_chinese_path_matches_lian_xi() {
        let d = decide_with(
            &[("/%E8%81%94%E7%B3%BB%E6%88%91%E4%BB%AC.html", "")],
            "https://acme.com.cn/",
            None,
            &Settings::default(),
            3,
        );
        let link = &d.links[0];
        assert_eq!(link.verdict, Verdict::Followed);
        let hit = link.keyword().unwrap();
        assert_eq!((&*hit.keyword, hit.matched_in), ("联系", MatchedIn::Url));
        assert_eq!(link.score, Some(5));
        // A raw (unencoded) Chinese href is percent-encoded by URL parsing, then decoded.
        let d = decide(&[("/关于我们", "")]);
        assert_eq!(&*d.links[0].keyword().unwrap().keyword, "关于");
    }

    #[test]
    fn link_text_matches() {
        let d = decide(&[("/page?id=7", "Kontakt")]);
        let hit = d.links[0].keyword().unwrap();
        assert_eq!(
            (&*hit.keyword, hit.matched_in),
            ("kontakt", MatchedIn::Text)
        );
        assert_eq!(d.links[0].verdict, Verdict::Followed);
    }

    #[test]
    fn substring_tag_matches_heritage() {
        let d = decide(&[("/our-heritage", "Our heritage and team")]);
        let link = &d.links[0];
        assert_eq!(link.verdict, Verdict::Blacklisted);
        assert_eq!(&*link.keyword().unwrap().keyword, "tag");
    }

    #[test]
    fn self_links_are_fragments_empty_and_the_page_itself() {
        let d = decide_with(
            &[
                ("#top", "Top"),
                ("", "Home"),
                ("https://acme.com/", "Home"),
                ("/#contact", "Contact"),
                ("/?contact", "Contact"),
            ],
            "https://acme.com/",
            None,
            &Settings::default(),
            3,
        );
        assert_eq!(verdicts(&d), ["self", "self", "self", "self", "followed"]);
    }

    #[test]
    fn duplicates_compare_keys_without_fragment() {
        let d = decide(&[
            ("/contact", "Contact"),
            ("/contact#form", "Write to us"),
            ("/blog", "Blog"),
            ("https://acme.com/blog", "Blog again"),
            ("#top", "Top"),
            ("#top", "Top"),
            ("https://other.com/x", ""),
            ("https://other.com/x#y", ""),
        ]);
        assert_eq!(
            verdicts(&d),
            [
                "followed",
                "duplicate",
                "blacklisted",
                "duplicate",
                "self",
                "self",
                "off_domain",
                "duplicate"
            ]
        );
        assert_eq!(d.links[1].trace.duplicate_of, Some(0));
        assert_eq!(d.links[7].trace.duplicate_of, Some(6));
    }

    #[test]
    fn invalid_and_not_http() {
        let d = decide(&[
            ("http://[::1", "Broken"),
            ("mailto:contact@acme.com", "Contact"),
            ("tel:+4912345", ""),
            ("javascript:void(0)", "About"),
            ("ftp://acme.com/about", ""),
            ("data:text/html,contact", ""),
        ]);
        assert_eq!(
            verdicts(&d),
            [
                "invalid", "not_http", "not_http", "not_http", "not_http", "not_http"
            ]
        );
        assert!(d.links[0].url.is_none());
        assert!(d.links[0].trace.parse_error.is_some());
        assert_eq!(d.links[1].trace.scheme.as_deref(), Some("mailto"));
    }

    #[test]
    fn trace_keeps_every_rule_after_the_deciding_one() {
        let d = decide(&[("https://facebook.com/acme-blog", "About")]);
        let link = &d.links[0];
        assert_eq!(link.verdict, Verdict::OffDomain);
        assert_eq!(link.keyword(), None);
        assert_eq!(&*link.trace.black.as_ref().unwrap().keyword, "blog");
        assert_eq!(&*link.trace.white.as_ref().unwrap().keyword, "about");
        assert_eq!(link.trace.same_site, Some(false));
        assert_eq!(d.page_host, "acme.com");
        let site = link
            .site_check(&d.page_host, &Settings::default().options())
            .unwrap();
        assert_eq!(
            (site.link_host.as_str(), site.base_host.as_str()),
            ("facebook.com", "acme.com")
        );
        assert!(site.admitted_by.is_empty());
    }

    #[test]
    fn subdomain_and_allowed_domain_links() {
        let links = [
            ("https://shop.acme.com/contact", ""),
            ("https://acmecorp.io/about", ""),
        ];
        let d = decide(&links);
        assert_eq!(verdicts(&d), ["off_domain", "off_domain"]);

        let both = Settings {
            follow_subdomain: true,
            follow_allowed_domains: "acmecorp.io".into(),
            ..Settings::default()
        };
        let d = decide_with(&links, PAGE, None, &both, 3);
        assert_eq!(verdicts(&d), ["followed", "followed"]);
        let admitted = |i: usize| {
            d.links[i]
                .site_check(&d.page_host, &both.options())
                .unwrap()
                .admitted_by
        };
        assert_eq!(admitted(0), [Admission::RootDomain]);
        assert_eq!(
            admitted(1),
            [Admission::AllowedDomain("acmecorp.io".into())]
        );
    }

    #[test]
    fn base_href_resolves_links_but_the_page_host_decides_same_site() {
        // <base href> on another host: relative links land there and are off-domain.
        let d = decide_with(
            &[("contact", ""), ("//acme.com/about", "")],
            "https://acme.com/en/",
            Some("https://cdn.acme-static.com/"),
            &Settings::default(),
            3,
        );
        assert_eq!(
            d.links[0].url.as_ref().unwrap().as_str(),
            "https://cdn.acme-static.com/contact"
        );
        assert_eq!(verdicts(&d), ["off_domain", "followed"]);
        // A relative base.
        let d = decide_with(
            &[("contact", "")],
            "https://acme.com/en/index.html",
            Some("/de/"),
            &Settings::default(),
            3,
        );
        assert_eq!(
            d.links[0].url.as_ref().unwrap().as_str(),
            "https://acme.com/de/contact"
        );
        // A protocol-relative base keeps the page's scheme.
        let d = decide_with(
            &[("about", "")],
            "http://www.acme.com/",
            Some("//www.acme.com"),
            &Settings::default(),
            3,
        );
        assert_eq!(
            d.links[0].url.as_ref().unwrap().as_str(),
            "http://www.acme.com/about"
        );
        assert_eq!(verdicts(&d), ["followed"]);
    }

    #[test]
    fn hosts_compare_case_insensitively_and_without_port() {
        let d = decide(&[
            ("https://ACME.com/contact", ""),
            ("https://acme.com:8443/about", ""),
            ("http://acme.com/team", ""),
        ]);
        assert_eq!(verdicts(&d), ["followed", "followed", "followed"]);
    }

    #[test]
    fn rule_outcomes_report_every_step() {
        let d = decide(&[
            ("https://facebook.com/blog/about", ""),
            ("mailto:a@acme.com", ""),
            ("http://[bad", ""),
        ]);
        let off = d.links[0].rule_outcomes(true);
        assert_eq!(
            off,
            [
                Some(true),
                Some(true),
                Some(true),
                Some(true),
                Some(false),
                Some(true),
                Some(false),
                Some(true),
                None
            ]
        );
        let mail = d.links[1].rule_outcomes(true);
        assert_eq!((mail[1], mail[3], mail[4]), (Some(false), None, None));
        let invalid = d.links[2].rule_outcomes(true);
        assert_eq!(invalid[0], Some(false));
        assert!(invalid[1..].iter().all(Option::is_none));
    }

    #[test]
    fn verdict_ids_are_what_json_says() {
        for v in Verdict::ALL {
            assert_eq!(serde_json::to_value(v).unwrap(), v.id());
        }
    }
}
