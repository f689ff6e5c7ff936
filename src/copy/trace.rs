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

fn keyword_detail(link: &crate::policy::LinkDecision, hit: &crate::policy::KeywordHit) -> String {
    let place = hit.matched_in.as_str();
    let inside = link.haystack().and_then(|h| {
        let part = match hit.matched_in {
            crate::policy::MatchedIn::Url => h.url_part().to_owned(),
            crate::policy::MatchedIn::Text => h.text_part().to_owned(),
        };
        crate::policy::keywords::enclosing_word(&part, hit.span.clone()).map(str::to_owned)
    });
    match inside {
        Some(word) => format!("`{}` in the {place}, inside `{word}`", hit.keyword),
        None => format!("`{}` in the {place}", hit.keyword),
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

fn site_detail(site: &crate::policy::SiteCheck, settings: &crate::policy::Settings) -> String {
    if site.admitted_by.is_empty() {
        let mode = if settings.follow_subdomain {
            format!("root `{}` ≠ page root `{}`", site.link_root, site.base_root)
        } else {
            format!(
                "host `{}` ≠ page host `{}` (strict)",
                site.link_host, site.base_host
            )
        };
        let allow = if settings.options().allowed_domains.is_empty() {
            "no allowed domains".to_owned()
        } else {
            "no allowed-domain entry matches".to_owned()
        };
        format!("{mode}; {allow}")
    } else {
        format!("`{}` admitted by {}", site.link_host, admissions(site))
    }
}

/// Every rule of SPEC section 4 for one link, in order, evaluated even after
/// the deciding one.
pub fn trace_lines(
    link: &crate::policy::LinkDecision,
    page: &crate::policy::PageDecision,
    settings: &crate::policy::Settings,
) -> Vec<TraceLine> {
    use crate::policy::Verdict;
    let t = &link.trace;
    let outcomes = link.rule_outcomes(settings.follow_skip_assets).map(outcome);
    let mut lines = vec![TraceLine {
        step: 1,
        rule: "Parses as a URL",
        outcome: outcomes[0],
        detail: t
            .parse_error
            .as_ref()
            .map_or_else(|| "parses".to_owned(), |e| format!("`{}`: {e}", link.href)),
    }];
    let scheme = t.scheme.as_deref();
    lines.push(TraceLine {
        step: 2,
        rule: "http or https",
        outcome: outcomes[1],
        detail: scheme.map_or_else(String::new, |s| format!("scheme `{s}`")),
    });
    lines.push(TraceLine {
        step: 3,
        rule: "Not the page itself",
        outcome: outcomes[2],
        detail: match t.is_self {
            Some(true) => "same URL as the page (fragment ignored)".to_owned(),
            Some(false) => "another URL".to_owned(),
            None => String::new(),
        },
    });
    lines.push(TraceLine {
        step: 4,
        rule: "Not a duplicate",
        outcome: outcomes[3],
        detail: t.duplicate_of.map_or_else(
            || "first time on the page".to_owned(),
            |i| format!("same URL as link #{i}"),
        ),
    });
    lines.push(TraceLine {
        step: 5,
        rule: "Same-site",
        outcome: outcomes[4],
        detail: link
            .site_check(&page.page_host, &settings.options())
            .map_or_else(String::new, |s| site_detail(&s, settings)),
    });
    lines.push(TraceLine {
        step: 6,
        rule: "Not an asset",
        outcome: outcomes[5],
        detail: match (t.asset_extension, settings.follow_skip_assets) {
            (Some(ext), true) => format!("path ends in .{ext}"),
            (Some(ext), false) => format!("path ends in .{ext}, but Skip assets is off"),
            (None, _) => "no asset extension in the path".to_owned(),
        },
    });
    lines.push(TraceLine {
        step: 7,
        rule: "No black keyword",
        outcome: outcomes[6],
        detail: t
            .black
            .as_ref()
            .map_or_else(|| "none found".to_owned(), |hit| keyword_detail(link, hit)),
    });
    lines.push(TraceLine {
        step: 8,
        rule: "Has a white keyword",
        outcome: outcomes[7],
        detail: match (&t.white, t.score) {
            (Some(hit), Some(score)) => format!("{}, score {score}", keyword_detail(link, hit)),
            _ if settings.options().keywords.white().is_empty() => {
                "the white list is empty: nothing is followed".to_owned()
            }
            _ => "none found (the white list is match-only)".to_owned(),
        },
    });
    lines.push(TraceLine {
        step: 9,
        rule: "Ranked in the top N",
        outcome: outcomes[8],
        detail: match (link.verdict, link.rank) {
            (Verdict::Followed, Some(rank)) => format!("rank {rank} of N = {}", page.limit),
            (Verdict::RankedOut, Some(rank)) => ranked_out_detail(link, page, rank),
            _ => "not eligible".to_owned(),
        },
    });
    lines
}

fn ranked_out_detail(
    link: &crate::policy::LinkDecision,
    page: &crate::policy::PageDecision,
    rank: usize,
) -> String {
    let score = link.score.unwrap_or(0);
    match (page.cutoff_score(), page.score_gap(link)) {
        (Some(cutoff), Some(0)) => format!(
            "rank {rank}, N = {}: score {score} ties the cut-off score {cutoff} but comes later in the page",
            page.limit
        ),
        (Some(cutoff), Some(gap)) => format!(
            "rank {rank}, N = {}: score {score} vs cut-off score {cutoff} (short by {gap})",
            page.limit
        ),
        _ => format!("rank {rank}, but N = {}: nothing is followed", page.limit),
    }
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

/// The link's explanation as plain text, for a ticket.
pub fn link_explanation(
    page_url: &str,
    link: &crate::policy::LinkDecision,
    page: &crate::policy::PageDecision,
    settings: &crate::policy::Settings,
    what_ifs: &[crate::policy::explain::WhatIf],
) -> String {
    let mut out = format!(
        "Link #{} on {page_url}\n  href: {}\n  url:  {}\n  text: {}\nVerdict: {} — {}\n",
        link.index,
        link.href,
        link.url.as_ref().map_or("(does not parse)", |u| u.as_str()),
        link.text,
        link.verdict.id(),
        verdict_meaning(link.verdict),
    );
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
    out
}
