//! A link's explanation rule by rule (the detail pane and "Copy explanation").

use super::*;

/// How one rule of the pipeline went for a link.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Pass,
    Fail,
    /// The rule could not be evaluated (no URL, no host).
    NotChecked,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TraceLine {
    pub step: usize,
    pub rule: &'static str,
    pub outcome: Outcome,
    pub detail: String,
}

fn outcome(pass: Option<bool>) -> Outcome {
    match pass {
        Some(true) => Outcome::Pass,
        Some(false) => Outcome::Fail,
        None => Outcome::NotChecked,
    }
}

fn keyword_detail(found: &crate::policy::KeywordFound<'_>) -> String {
    let place = found.matched_in.as_str();
    match &found.inside {
        Some(word) => format!("`{}` in the {place}, inside `{word}`", found.keyword),
        None => format!("`{}` in the {place}", found.keyword),
    }
}

/// What admitted a link as same-site, in words ("the same host and …").
pub fn admissions(site: &crate::policy::SiteCheck) -> String {
    use crate::policy::Admission;
    site.admitted_by
        .iter()
        .map(|a| match a {
            Admission::StrictHost => "the same host".to_owned(),
            Admission::RootDomain => {
                format!("the same root domain `{}` (subdomain mode)", site.base_root)
            }
            Admission::AllowedDomain(entry) => format!("allowed-domain entry `{entry}`"),
        })
        .collect::<Vec<_>>()
        .join(" and ")
}

fn site_detail(step: &crate::policy::SiteStep) -> String {
    let site = &step.check;
    if site.admitted_by.is_empty() {
        let mode = if step.subdomain_mode {
            format!("root `{}` ≠ page root `{}`", site.link_root, site.base_root)
        } else {
            format!(
                "host `{}` ≠ page host `{}` (strict)",
                site.link_host, site.base_host
            )
        };
        let allow = if step.has_allowed_domains {
            "no allowed-domain entry matches".to_owned()
        } else {
            "no allowed domains".to_owned()
        };
        format!("{mode}; {allow}")
    } else {
        format!("`{}` admitted by {}", site.link_host, admissions(site))
    }
}

/// A rule's name and what it found, in words.
fn step_words(facts: &crate::policy::StepFacts<'_>) -> (&'static str, String) {
    use crate::policy::{StepFacts, WhiteStep};
    match facts {
        StepFacts::Parses { href, error } => (
            "Parses as a URL",
            error.map_or_else(|| "parses".to_owned(), |e| format!("`{href}`: {e}")),
        ),
        StepFacts::Scheme(scheme) => (
            "http or https",
            scheme.map_or_else(String::new, |s| format!("scheme `{s}`")),
        ),
        StepFacts::SelfLink(is_self) => (
            "Not the page itself",
            match is_self {
                Some(true) => "same URL as the page (fragment ignored)".to_owned(),
                Some(false) => "another URL".to_owned(),
                None => String::new(),
            },
        ),
        StepFacts::DuplicateOf(earlier) => (
            "Not a duplicate",
            earlier.map_or_else(
                || "first time on the page".to_owned(),
                |i| format!("same URL as link #{i}"),
            ),
        ),
        StepFacts::Site(site) => (
            "Same-site",
            site.as_ref().map_or_else(String::new, site_detail),
        ),
        StepFacts::Asset {
            extension,
            skip_assets,
        } => (
            "Not an asset",
            match (extension, skip_assets) {
                (Some(ext), true) => format!("path ends in .{ext}"),
                (Some(ext), false) => format!("path ends in .{ext}, but Skip assets is off"),
                (None, _) => "no asset extension in the path".to_owned(),
            },
        ),
        StepFacts::Black(hit) => (
            "No black keyword",
            hit.as_ref()
                .map_or_else(|| "none found".to_owned(), keyword_detail),
        ),
        StepFacts::White(white) => (
            "Has a white keyword",
            match white {
                WhiteStep::Found { keyword, score } => {
                    format!("{}, score {score}", keyword_detail(keyword))
                }
                WhiteStep::ListEmpty => "the white list is empty: nothing is followed".to_owned(),
                WhiteStep::NoneFound => "none found (the white list is match-only)".to_owned(),
            },
        ),
        StepFacts::Rank(rank) => ("Ranked in the top N", rank_detail(*rank)),
    }
}

fn rank_detail(step: crate::policy::RankStep) -> String {
    use crate::policy::RankStep;
    match step {
        RankStep::Followed { rank, limit } => format!("rank {rank} of N = {limit}"),
        RankStep::TiesCutoff {
            rank,
            limit,
            score,
            cutoff,
        } => format!(
            "rank {rank}, N = {limit}: score {score} ties the cut-off score {cutoff} but comes later in the page"
        ),
        RankStep::ShortOfCutoff {
            rank,
            limit,
            score,
            cutoff,
            gap,
        } => format!(
            "rank {rank}, N = {limit}: score {score} vs cut-off score {cutoff} (short by {gap})"
        ),
        RankStep::NothingFollowed { rank, limit } => {
            format!("rank {rank}, but N = {limit}: nothing is followed")
        }
        RankStep::NotEligible => "not eligible".to_owned(),
    }
}

/// Every rule of SPEC section 4 for one link, in order, evaluated even after
/// the deciding one.
pub fn trace_lines(
    link: &crate::policy::LinkDecision,
    page: &crate::policy::PageDecision,
    settings: &crate::policy::Settings,
) -> Vec<TraceLine> {
    crate::policy::trace_steps(link, page, &settings.options())
        .iter()
        .enumerate()
        .map(|(i, step)| {
            let (rule, detail) = step_words(&step.facts);
            TraceLine {
                step: i + 1,
                rule,
                outcome: outcome(step.passed),
                detail,
            }
        })
        .collect()
}

/// A what-if answer in words.
pub fn what_if_text(w: &crate::policy::explain::WhatIf) -> String {
    use crate::policy::explain::Change;
    let verdict = w.verdict.id().replace('_', " ");
    match &w.change {
        Change::AddAllowedDomain(d) => format!("{verdict} if `{d}` is added to allowed domains"),
        Change::EnableSubdomains => format!("{verdict} if “{LABEL_SUBDOMAIN}” is ticked"),
        Change::RemoveBlackKeyword(k) => {
            format!("{verdict} if `{k}` is removed from the black keywords")
        }
        Change::KeepAssets => format!("{verdict} if “{LABEL_SKIP_ASSETS}” is off"),
        Change::AddWhiteKeyword(k) => format!("{verdict} if `{k}` is added to the white keywords"),
        Change::Limit(n) => format!("{verdict} if N were {n} or more"),
    }
}

/// The link's explanation as plain text, for a ticket: the link, its
/// verdict rule by rule, the what-ifs, and the context it was decided in.
pub fn link_explanation(
    page_url: &str,
    link: &crate::policy::LinkDecision,
    page: &crate::policy::PageDecision,
    settings: &crate::policy::Settings,
    what_ifs: &[crate::policy::explain::WhatIf],
    context: &ExplanationContext<'_>,
) -> String {
    let mut out = format!(
        "Link #{} on {page_url}\n  href: {}\n  url:  {}\n  text: {}\n",
        link.index,
        link.href,
        link.url.as_ref().map_or("(does not parse)", |u| u.as_str()),
        link.text,
    );
    if context.added_by_script {
        out.push_str(&format!("  {ADDED_BY_SCRIPT}: {ADDED_BY_SCRIPT_NOTE}\n"));
    }
    out.push_str(&format!(
        "Verdict: {} — {}\n",
        link.verdict.id(),
        verdict_meaning(link.verdict),
    ));
    for line in trace_lines(link, page, settings) {
        let mark = match line.outcome {
            Outcome::Pass => "pass",
            Outcome::Fail => "FAIL",
            Outcome::NotChecked => "  - ",
        };
        out.push_str(&format!(
            "  {}. [{mark}] {}: {}\n",
            line.step, line.rule, line.detail
        ));
    }
    for w in what_ifs {
        out.push_str(&format!("  What if: {}\n", what_if_text(w)));
    }
    out.push_str(&context_lines(page_url, page, settings, context));
    out
}

/// A rendered-only link, in the explanation and the detail pane.
pub const ADDED_BY_SCRIPT_NOTE: &str =
    "not in the HTML the server sent (rendered-only): a script inserted it";

pub fn added_by_script_line() -> String {
    format!("＋ {ADDED_BY_SCRIPT}: {ADDED_BY_SCRIPT_NOTE}")
}

#[cfg(test)]
mod tests {
    use url::Url;

    use super::*;
    use crate::policy::{Candidate, Settings, decide_page};

    /// The explanations of every link of a small page, joined.
    fn explanations(links: &[&str], settings: &Settings, limit: usize) -> String {
        let url = Url::parse("https://acme.test/").unwrap();
        let candidates: Vec<Candidate> = links
            .iter()
            .map(|href| Candidate {
                href: (*href).into(),
                ..Candidate::default()
            })
            .collect();
        let page = decide_page(&candidates, &url, &url, &settings.options(), limit);
        page.links
            .iter()
            .map(|link| {
                let text = link_explanation(url.as_str(), link, &page, settings, &[], &context());
                // The context has its own test.
                text.split("Context:\n")
                    .next()
                    .unwrap_or_default()
                    .to_owned()
            })
            .collect()
    }

    fn context() -> ExplanationContext<'static> {
        ExplanationContext {
            profile: "Scraper defaults",
            unsaved: false,
            depth: 2,
            limit_overridden: false,
            level: 1,
            page: (0, 1),
            origin: PageOrigin::Fetched,
            host_mapping: &[],
            rendered: None,
            added_by_script: false,
            saved_archive: None,
        }
    }

    /// The explanation of the first link of a page of `/contact`.
    fn explained(settings: &Settings, context: &ExplanationContext<'_>) -> String {
        let url = Url::parse("https://acme.test/").unwrap();
        let candidates = [Candidate {
            href: "/contact".into(),
            text: "Contact".into(),
            ..Candidate::default()
        }];
        let page = decide_page(&candidates, &url, &url, &settings.options(), 3);
        link_explanation(url.as_str(), &page.links[0], &page, settings, &[], context)
    }

    #[test]
    fn the_explanation_says_the_profile_settings_limits_and_page() {
        let text = explained(&Settings::default(), &context());
        let context_part = text.split_once("Context:\n").unwrap().1;
        assert_eq!(
            context_part,
            "  profile: Scraper defaults
  settings changed from the defaults: none
  depth: 2, N = 3 (from the depth at level 1)
  page: https://acme.test/
  rendered: no (the HTML as the server sent it)
"
        );
        assert!(!text.contains(ADDED_BY_SCRIPT), "{text}");

        let settings = Settings {
            follow_subdomain: true,
            follow_keywords_black: "blog,关于".into(),
            ..Settings::default()
        };
        let rendered = crate::inspect::RenderedRead::compare(
            &[],
            &[],
            None,
            &Url::parse("https://acme.test/").unwrap(),
            &crate::fetch::Rendered {
                render_ms: 1200,
                ..Default::default()
            },
        );
        let context = ExplanationContext {
            profile: "Staging",
            unsaved: true,
            depth: 3,
            limit_overridden: true,
            level: 2,
            page: (1, 4),
            origin: PageOrigin::File("/tmp/saved/page.html"),
            host_mapping: &[],
            rendered: Some(&rendered),
            added_by_script: true,
            saved_archive: None,
        };
        let text = explained(&settings, &context);
        assert!(
            text.starts_with(
                "Link #0 on https://acme.test/
  href: /contact
  url:  https://acme.test/contact
  text: Contact
  added by script: not in the HTML the server sent (rendered-only): a script inserted it
Verdict: followed"
            ),
            "{text}"
        );
        let context_part = text.split_once("Context:\n").unwrap().1;
        assert_eq!(
            context_part,
            r#"  profile: Staging (with unsaved edits)
  settings changed from the defaults:
    followSubdomain: true
    followKeywordsBlack: "blog,关于"
  depth: 3, N = 3 (overridden in the window)
  page: https://acme.test/ (page 2 of 4, level 2)
  file: /tmp/saved/page.html
  rendered: yes, in Chromium (wait networkidle2, network idle, 1.2 s)
"#
        );
    }

    /// The words of every step, byte for byte as before the deciding moved
    /// into the policy.
    #[test]
    fn explanations_word_every_step() {
        let links = [
            "/our-heritage/about",
            "https://acmecorp.test/about",
            "/contact-1",
            "/contact-2",
            "/about",
            "http://[::1",
        ];
        assert_eq!(
            explanations(&links, &Settings::default(), 1),
            r#"Link #0 on https://acme.test/
  href: /our-heritage/about
  url:  https://acme.test/our-heritage/about
  text: 
Verdict: blacklisted — A black keyword is in its URL or text (checked before the white list).
  1. [pass] Parses as a URL: parses
  2. [pass] http or https: scheme `https`
  3. [pass] Not the page itself: another URL
  4. [pass] Not a duplicate: first time on the page
  5. [pass] Same-site: `acme.test` admitted by the same host
  6. [pass] Not an asset: no asset extension in the path
  7. [FAIL] No black keyword: `tag` in the url, inside `heritage`
  8. [pass] Has a white keyword: `about` in the url, score 10
  9. [  - ] Ranked in the top N: not eligible
Link #1 on https://acme.test/
  href: https://acmecorp.test/about
  url:  https://acmecorp.test/about
  text: 
Verdict: off_domain — Not same-site: neither the host test nor the allowed domains admit it.
  1. [pass] Parses as a URL: parses
  2. [pass] http or https: scheme `https`
  3. [pass] Not the page itself: another URL
  4. [pass] Not a duplicate: first time on the page
  5. [FAIL] Same-site: host `acmecorp.test` ≠ page host `acme.test` (strict); no allowed domains
  6. [pass] Not an asset: no asset extension in the path
  7. [pass] No black keyword: none found
  8. [pass] Has a white keyword: `about` in the url, score 10
  9. [  - ] Ranked in the top N: not eligible
Link #2 on https://acme.test/
  href: /contact-1
  url:  https://acme.test/contact-1
  text: 
Verdict: followed — Eligible and within the top N by score: the scraper follows it.
  1. [pass] Parses as a URL: parses
  2. [pass] http or https: scheme `https`
  3. [pass] Not the page itself: another URL
  4. [pass] Not a duplicate: first time on the page
  5. [pass] Same-site: `acme.test` admitted by the same host
  6. [pass] Not an asset: no asset extension in the path
  7. [pass] No black keyword: none found
  8. [pass] Has a white keyword: `contact` in the url, score 11
  9. [pass] Ranked in the top N: rank 1 of N = 1
Link #3 on https://acme.test/
  href: /contact-2
  url:  https://acme.test/contact-2
  text: 
Verdict: ranked_out — Eligible, but below the top N by score.
  1. [pass] Parses as a URL: parses
  2. [pass] http or https: scheme `https`
  3. [pass] Not the page itself: another URL
  4. [pass] Not a duplicate: first time on the page
  5. [pass] Same-site: `acme.test` admitted by the same host
  6. [pass] Not an asset: no asset extension in the path
  7. [pass] No black keyword: none found
  8. [pass] Has a white keyword: `contact` in the url, score 11
  9. [FAIL] Ranked in the top N: rank 2, N = 1: score 11 ties the cut-off score 11 but comes later in the page
Link #4 on https://acme.test/
  href: /about
  url:  https://acme.test/about
  text: 
Verdict: ranked_out — Eligible, but below the top N by score.
  1. [pass] Parses as a URL: parses
  2. [pass] http or https: scheme `https`
  3. [pass] Not the page itself: another URL
  4. [pass] Not a duplicate: first time on the page
  5. [pass] Same-site: `acme.test` admitted by the same host
  6. [pass] Not an asset: no asset extension in the path
  7. [pass] No black keyword: none found
  8. [pass] Has a white keyword: `about` in the url, score 10
  9. [FAIL] Ranked in the top N: rank 3, N = 1: score 10 vs cut-off score 11 (short by 1)
Link #5 on https://acme.test/
  href: http://[::1
  url:  (does not parse)
  text: 
Verdict: invalid — The href does not parse as a URL.
  1. [FAIL] Parses as a URL: `http://[::1`: invalid IPv6 address
  2. [  - ] http or https: 
  3. [  - ] Not the page itself: 
  4. [  - ] Not a duplicate: first time on the page
  5. [  - ] Same-site: 
  6. [  - ] Not an asset: no asset extension in the path
  7. [  - ] No black keyword: none found
  8. [  - ] Has a white keyword: none found (the white list is match-only)
  9. [  - ] Ranked in the top N: not eligible
"#
        );
        let settings = Settings {
            follow_skip_assets: false,
            follow_subdomain: true,
            follow_allowed_domains: "other.test".into(),
            ..Settings::default()
        };
        let links = [
            "/logo.png",
            "https://shop.acme.test/x",
            "https://www.acme.test/contact",
        ];
        assert_eq!(
            explanations(&links, &settings, 0),
            r#"Link #0 on https://acme.test/
  href: /logo.png
  url:  https://acme.test/logo.png
  text: 
Verdict: no_keyword — Same-site, but no white keyword in its URL or text (the white list is match-only).
  1. [pass] Parses as a URL: parses
  2. [pass] http or https: scheme `https`
  3. [pass] Not the page itself: another URL
  4. [pass] Not a duplicate: first time on the page
  5. [pass] Same-site: `acme.test` admitted by the same host
  6. [pass] Not an asset: path ends in .png, but Skip assets is off
  7. [pass] No black keyword: none found
  8. [FAIL] Has a white keyword: none found (the white list is match-only)
  9. [  - ] Ranked in the top N: not eligible
Link #1 on https://acme.test/
  href: https://shop.acme.test/x
  url:  https://shop.acme.test/x
  text: 
Verdict: no_keyword — Same-site, but no white keyword in its URL or text (the white list is match-only).
  1. [pass] Parses as a URL: parses
  2. [pass] http or https: scheme `https`
  3. [pass] Not the page itself: another URL
  4. [pass] Not a duplicate: first time on the page
  5. [pass] Same-site: `shop.acme.test` admitted by the same root domain `acme.test` (subdomain mode)
  6. [pass] Not an asset: no asset extension in the path
  7. [pass] No black keyword: none found
  8. [FAIL] Has a white keyword: none found (the white list is match-only)
  9. [  - ] Ranked in the top N: not eligible
Link #2 on https://acme.test/
  href: https://www.acme.test/contact
  url:  https://www.acme.test/contact
  text: 
Verdict: ranked_out — Eligible, but below the top N by score.
  1. [pass] Parses as a URL: parses
  2. [pass] http or https: scheme `https`
  3. [pass] Not the page itself: another URL
  4. [pass] Not a duplicate: first time on the page
  5. [pass] Same-site: `www.acme.test` admitted by the same root domain `acme.test` (subdomain mode)
  6. [pass] Not an asset: no asset extension in the path
  7. [pass] No black keyword: none found
  8. [pass] Has a white keyword: `contact` in the url, score 11
  9. [FAIL] Ranked in the top N: rank 1, but N = 0: nothing is followed
"#
        );
    }
}
