//! What-if answers for one link: the policy run again with one setting changed,
//! so a hint like "followed if `acmecorp.test` is added to allowed domains" is
//! the policy's own answer, not a guess.

use url::Url;

use super::keywords::Haystack;
use super::settings::Settings;
use super::verdict::{Candidate, LinkDecision, Verdict, decide_page};

/// One change to the settings or the limit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Change {
    AddAllowedDomain(String),
    EnableSubdomains,
    RemoveBlackKeyword(String),
    KeepAssets,
    AddWhiteKeyword(String),
    Limit(usize),
}

/// The link's verdict under a changed setting.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WhatIf {
    pub change: Change,
    pub verdict: Verdict,
}

/// The page as the policy saw it, to run again.
#[derive(Clone, Copy, Debug)]
pub struct PageInput<'a> {
    pub candidates: &'a [Candidate],
    pub page_url: &'a Url,
    pub base_url: &'a Url,
    pub limit: usize,
}

fn changed(settings: &Settings, change: &Change) -> Settings {
    let mut s = settings.clone();
    let append = |list: &str, item: &str| {
        if list.trim().is_empty() {
            item.to_owned()
        } else {
            format!("{list},{item}")
        }
    };
    match change {
        Change::AddAllowedDomain(d) => {
            s.follow_allowed_domains = append(&s.follow_allowed_domains, d);
        }
        Change::EnableSubdomains => s.follow_subdomain = true,
        Change::RemoveBlackKeyword(k) => {
            s.follow_keywords_black = super::settings::parse_list(&s.follow_keywords_black)
                .into_iter()
                .filter(|b| b != k)
                .collect::<Vec<_>>()
                .join(",");
        }
        Change::KeepAssets => s.follow_skip_assets = false,
        Change::AddWhiteKeyword(k) => {
            s.follow_keywords_white = append(&s.follow_keywords_white, k);
        }
        Change::Limit(_) => {}
    }
    s
}

/// The single settings changes worth trying for this link's verdict.
fn candidate_changes(link: &LinkDecision, page_host: &str, settings: &Settings) -> Vec<Change> {
    let opts = settings.options();
    let mut out = Vec::new();
    match link.verdict {
        Verdict::OffDomain => {
            if let Some(site) = link.site_check(page_host, &opts) {
                if !opts.allow_subdomain && site.link_root == site.base_root {
                    out.push(Change::EnableSubdomains);
                }
                if site.link_root != site.link_host {
                    out.push(Change::AddAllowedDomain(site.link_root.clone()));
                    out.push(Change::AddAllowedDomain(site.link_host));
                } else {
                    out.push(Change::AddAllowedDomain(site.link_root));
                }
            }
        }
        Verdict::Asset => out.push(Change::KeepAssets),
        Verdict::Blacklisted => {
            if let Some(hit) = &link.trace.black {
                out.push(Change::RemoveBlackKeyword(hit.keyword.to_string()));
            }
        }
        Verdict::NoKeyword => {
            if let Some(word) = link
                .url
                .as_ref()
                .and_then(|u| u.path_segments()?.rev().find(|s| !s.is_empty()))
                .map(|s| Haystack::new(s, "").url_part().to_owned())
            {
                out.push(Change::AddWhiteKeyword(word));
            }
        }
        Verdict::RankedOut => {
            if let Some(rank) = link.rank {
                out.push(Change::Limit(rank));
            }
        }
        _ => {}
    }
    out
}

/// Runs the policy again with each relevant single change and reports the link's
/// verdict under it.
pub fn what_if(page: PageInput<'_>, settings: &Settings, link: &LinkDecision) -> Vec<WhatIf> {
    let page_host = page.page_url.host_str().unwrap_or_default();
    candidate_changes(link, page_host, settings)
        .into_iter()
        .map(|change| {
            let s = changed(settings, &change);
            let limit = match change {
                Change::Limit(n) => n,
                _ => page.limit,
            };
            let decision = decide_page(
                page.candidates,
                page.page_url,
                page.base_url,
                &s.options(),
                limit,
            );
            let verdict = decision
                .links
                .get(link.index)
                .map_or(link.verdict, |l| l.verdict);
            WhatIf { change, verdict }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::follow_limit;

    fn setup(links: &[(&str, &str)]) -> (Vec<Candidate>, Url) {
        (
            crate::policy::verdict::candidates(links),
            Url::parse("https://acme.test/").unwrap(),
        )
    }

    fn ask(links: &[(&str, &str)], settings: &Settings, index: usize) -> Vec<WhatIf> {
        let (candidates, url) = setup(links);
        let input = PageInput {
            candidates: &candidates,
            page_url: &url,
            base_url: &url,
            limit: follow_limit(2),
        };
        let d = decide_page(&candidates, &url, &url, &settings.options(), input.limit);
        what_if(input, settings, &d.links[index])
    }

    #[test]
    fn off_domain_sibling_is_followed_if_added_to_allowed_domains() {
        let w = ask(
            &[("https://acmecorp.test/about", "")],
            &Settings::default(),
            0,
        );
        assert_eq!(
            w,
            [WhatIf {
                change: Change::AddAllowedDomain("acmecorp.test".into()),
                verdict: Verdict::Followed
            }]
        );
    }

    #[test]
    fn off_domain_subdomain_is_followed_with_subdomains_on() {
        let w = ask(
            &[("https://shop.acme.test/contact", "")],
            &Settings::default(),
            0,
        );
        assert_eq!(w[0].change, Change::EnableSubdomains);
        assert_eq!(w[0].verdict, Verdict::Followed);
    }

    #[test]
    fn blacklisted_link_under_another_black_keyword_stays_blacklisted() {
        let w = ask(&[("/blog/news/about", "")], &Settings::default(), 0);
        assert_eq!(w[0].change, Change::RemoveBlackKeyword("blog".into()));
        assert_eq!(w[0].verdict, Verdict::Blacklisted);
        let w = ask(&[("/our-heritage/about", "")], &Settings::default(), 0);
        assert_eq!(w[0].verdict, Verdict::Followed);
    }

    #[test]
    fn ranked_out_is_followed_with_a_limit_of_its_rank() {
        let links = [
            ("/contact-1", ""),
            ("/contact-2", ""),
            ("/contact-3", ""),
            ("/about", ""),
        ];
        let w = ask(&links, &Settings::default(), 3);
        assert_eq!(
            w,
            [WhatIf {
                change: Change::Limit(4),
                verdict: Verdict::Followed
            }]
        );
    }

    #[test]
    fn assets_and_missing_keywords() {
        let w = ask(&[("/contact.pdf", "")], &Settings::default(), 0);
        assert_eq!(
            (w[0].change.clone(), w[0].verdict),
            (Change::KeepAssets, Verdict::Followed)
        );
        let w = ask(&[("/careers/", "")], &Settings::default(), 0);
        assert_eq!(w[0].change, Change::AddWhiteKeyword("careers".into()));
        assert_eq!(w[0].verdict, Verdict::Followed);
    }
}
