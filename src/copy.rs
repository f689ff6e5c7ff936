//! User-facing words: lint messages, labels and explanations, in one place.

/// A lint's message: what it found and what that does.
pub fn lint_message(lint: &crate::policy::Lint) -> String {
    use crate::policy::lints::Finding;
    let quoted = |items: &mut dyn Iterator<Item = String>| {
        items
            .map(|i| format!("`{i}`"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    match &lint.finding {
        Finding::WhiteEmpty => "The white list is empty: nothing will be followed. The list is \
                                match-only, not a bonus: a link must contain a white keyword to \
                                be followed."
            .to_owned(),
        Finding::OptionsStack => "Subdomain mode and allowed domains are both on: they stack. \
                                  A link is same-site if either option admits it; this is the \
                                  widest setting."
            .to_owned(),
        Finding::BlackShadowsWhite(pairs) => {
            let entries = pairs
                .iter()
                .map(|(white, black)| {
                    if white == black {
                        format!("`{white}`")
                    } else {
                        format!("`{white}` (contains `{black}`)")
                    }
                })
                .collect::<Vec<_>>()
                .join(", ");
            format!(
                "White keywords that can never fire, because the black list is checked \
                 first: {entries}."
            )
        }
        Finding::AssetSuffixOnly(paths) => format!(
            "Asset detection looks at the URL path suffix only, never at Content-Type: {} \
             will be treated as pages.",
            quoted(&mut paths.iter().cloned())
        ),
        Finding::PublicSuffixRoot { host, root } => format!(
            "The page's root domain `{root}` (of `{host}`) is a public suffix: with subdomain \
             mode on, every site under `{root}` counts as same-site."
        ),
        Finding::IpHost { host, root } => format!(
            "The page's host `{host}` is an IP address: with subdomain mode on, every address \
             ending in `{root}` counts as same-site."
        ),
        Finding::BadAllowedDomain(entries) => {
            let entries = entries
                .iter()
                .map(|(entry, why)| format!("`{entry}` {}", domain_problem(*why)))
                .collect::<Vec<_>>()
                .join("; ");
            format!(
                "Allowed-domain entries that can never match a hostname: {entries}. Write bare \
                 host names such as `acmecorp.io`."
            )
        }
        Finding::SuspiciousSeparator(items) => {
            let items = items
                .iter()
                .map(|(item, key)| format!("`{}` in {key}", item.escape_debug()))
                .collect::<Vec<_>>()
                .join(", ");
            format!(
                "List items that are probably two: {items}. Only the ASCII comma `,` separates \
                 items."
            )
        }
        Finding::RedirectedHost { from, to } => format!(
            "The start URL redirected from `{from}` to `{to}`: links are judged against the \
             final host `{to}` (in strict mode, `{from}` links become off-domain)."
        ),
        Finding::HostKeyword { host, black, white } => {
            let mut parts = Vec::new();
            if !black.is_empty() {
                parts.push(format!(
                    "the black keyword {} is in every link to `{host}`, so every same-site link \
                     is blacklisted",
                    quoted(&mut black.iter().cloned())
                ));
            }
            if !white.is_empty() {
                parts.push(format!(
                    "the white keyword {} is in every link to `{host}`, so every same-site link \
                     matches it: links without a real keyword become eligible and ties rank in \
                     document order",
                    quoted(&mut white.iter().cloned())
                ));
            }
            format!(
                "The page's own host contains a keyword (the URL is part of what keywords are \
                 matched in): {}.",
                parts.join("; and ")
            )
        }
    }
}

/// Why an allowed-domain entry never matches, after the entry.
pub fn domain_problem(problem: crate::policy::lints::DomainProblem) -> &'static str {
    use crate::policy::lints::DomainProblem;
    match problem {
        DomainProblem::Scheme => "has a scheme",
        DomainProblem::Path => "has a path",
        DomainProblem::Port => "has a port",
        DomainProblem::Wildcard => "has a `*` (wildcards are not supported)",
        DomainProblem::Whitespace => "has spaces",
    }
}

// ---- Desktop inspector ----

pub const APP_TITLE: &str = "Follow Inspector";

/// Verdict badge words: the UI must read without colour vision.
pub fn verdict_badge(verdict: crate::policy::Verdict) -> &'static str {
    use crate::policy::Verdict::*;
    match verdict {
        Followed => "✔ followed",
        RankedOut => "▽ ranked out",
        NoKeyword => "○ no keyword",
        Blacklisted => "⊘ blacklisted",
        OffDomain => "↗ off-domain",
        Asset => "▣ asset",
        Duplicate => "= duplicate",
        SelfLink => "↺ self",
        NotHttp => "✉ not http",
        Invalid => "✖ invalid",
    }
}

/// The verdict's symbol alone (the first character of its badge), for narrow tables.
pub fn verdict_symbol(verdict: crate::policy::Verdict) -> &'static str {
    let badge = verdict_badge(verdict);
    badge.split(' ').next().unwrap_or(badge)
}

/// What a verdict means, for tooltips and the detail panel.
pub fn verdict_meaning(verdict: crate::policy::Verdict) -> &'static str {
    use crate::policy::Verdict::*;
    match verdict {
        Followed => "Eligible and within the top N by score: the scraper follows it.",
        RankedOut => "Eligible, but below the top N by score.",
        NoKeyword => {
            "Same-site, but no white keyword in its URL or text (the white list is match-only)."
        }
        Blacklisted => "A black keyword is in its URL or text (checked before the white list).",
        OffDomain => "Not same-site: neither the host test nor the allowed domains admit it.",
        Asset => "Its URL path ends in an asset extension (Skip assets is on).",
        Duplicate => "The same URL (without #fragment) appeared earlier on the page.",
        SelfLink => "Points to the page itself (#fragment, empty href, or its own URL).",
        NotHttp => "Not an http(s) link (mailto:, tel:, javascript:, …).",
        Invalid => "The href does not parse as a URL.",
    }
}

pub const LABEL_SUBDOMAIN: &str = "Allow subdomains";
pub const LABEL_ALLOWED: &str = "Allowed domains";
pub const LABEL_WHITE: &str = "White keywords";
pub const LABEL_BLACK: &str = "Black keywords";
pub const LABEL_SKIP_ASSETS: &str = "Skip assets";
pub const LABEL_RESET: &str = "Reset to defaults";
pub const LABEL_FETCH: &str = "Fetch";
pub const LABEL_CANCEL: &str = "Cancel";
pub const CANCEL_TOOLTIP: &str = "Stop loading (Esc); the table keeps what it showed before.";
pub const CANCELLED: &str = "Cancelled: the table shows what it showed before.";
pub const LABEL_DEMO: &str = "Demo page";
pub const LABEL_DEPTH: &str = "Depth";
pub const LABEL_LIMIT_OVERRIDE: &str = "Override N";
pub const LABEL_TARGET: &str = "Page";
pub const LABEL_URL_HINT: &str = "URL, host name or saved .html file — Enter fetches";
pub const LABEL_BASE_URL: &str = "Base URL";
pub const LABEL_BASE_URL_HINT: &str = "the page's original URL";
pub const BASE_URL_TOOLTIP: &str = "The URL this saved page was served from; links are judged \
    against it. Empty: the page's canonical or og:url. Enter fetches. It is cleared when the \
    page field changes.";
pub const LABEL_SEARCH: &str = "Search";
pub const LABEL_SEARCH_HINT: &str = "URL or text (Ctrl+F)";
pub const LABEL_COPY_URL: &str = "Copy URL";
pub const LABEL_COPY_EXPLANATION: &str = "Copy explanation";
pub const LABEL_PROFILE: &str = "Profile";
pub const LABEL_PROFILE_MENU: &str = "Profile actions";
pub const LABEL_SAVE: &str = "Save";
pub const LABEL_SAVE_AS: &str = "Save as…";
pub const LABEL_RENAME: &str = "Rename…";
pub const LABEL_DUPLICATE: &str = "Duplicate…";
pub const LABEL_DELETE: &str = "Delete…";
pub const LABEL_IMPORT: &str = "Import…";
pub const LABEL_EXPORT: &str = "Export…";
pub const LABEL_NAME: &str = "Name";
pub const LABEL_OK: &str = "OK";
pub const LABEL_DISCARD: &str = "Discard changes";
pub const LABEL_SAVE_CHANGES: &str = "Save changes";
pub const LABEL_KEEP_EDITING: &str = "Keep editing";
pub const LABEL_PASTE: &str = "Paste the storage-data JSON here";
pub const LABEL_FROM_FILE: &str = "or read it from a file";
pub const LABEL_COPY_JSON: &str = "Copy to clipboard";
pub const LABEL_SAVE_TO_FILE: &str = "Save to file";
pub const LABEL_REVERT: &str = "↺ default";
pub const LABEL_BROWSE: &str = "Browse…";
pub const BROWSE_TOOLTIP: &str = "Choose the file in a file dialog (or type its path).";
pub const LABEL_OPEN_FILE: &str = "Open…";
pub const OPEN_FILE_TOOLTIP: &str = "Open a saved .html page in a file dialog.";
pub const NOTHING_TO_LOAD: &str = "Enter a URL or the path of a saved .html file first.";
/// After "⚠ Profiles: " when the profiles file cannot be opened at all.
pub fn profiles_unavailable(error: &str) -> String {
    format!("unavailable, the built-in profile is used: {error}")
}
pub const PROFILES_BUSY: &str = "Reading or writing the profiles file…";
pub const PROFILES_NOT_SAVED: &str = "unavailable: nothing can be saved (see above).";
pub const BYTES_REPLACED: &str = "⚠ bytes replaced";
/// A page had bytes that are not valid in its encoding.
pub fn replaced_bytes(encoding: &str) -> String {
    format!("some bytes are not valid {encoding} and were read as \u{FFFD}")
}
pub const LABEL_RENDERED: &str = "Rendered";
pub const RENDERED_TOOLTIP: &str = "Load URLs in headless Chromium and read the links from its DOM \
     after the page's scripts ran, as the scraper does; rows added by scripts are marked and \
     links scripts removed are listed under the table.";
pub const ADDED_BY_SCRIPT: &str = "added by script";
pub const ADDED_BY_SCRIPT_TOOLTIP: &str = "Not in the HTML the server sent: a script inserted \
     it. The static view misses this link; the scraper sees it.";
pub fn added_by_script_chip(n: usize) -> String {
    format!("＋ {ADDED_BY_SCRIPT} {n}")
}
pub fn removed_by_scripts(n: usize) -> String {
    format!("Removed by scripts ({n}): in the served HTML only, the scraper never sees them")
}
pub const NO_BROWSER: &str = "rendered mode needs Chromium: apt install chromium-headless-shell \
     (or give --browser PATH / FOLLOW_INSPECTOR_BROWSER)";
/// A rendered page in the status bar (the summary is on hover).
pub fn rendered_status(wait: &str, network_idle: bool) -> String {
    let idle = if network_idle { "idle" } else { "not idle" };
    format!("Rendered ({wait}, network {idle})")
}

/// A rendered page's line in the table, and the status bar's hover text.
pub fn rendered_summary(wait: &str, network_idle: bool, render_ms: u64) -> String {
    let idle = if network_idle {
        "the network went idle"
    } else {
        "the network never went idle (read at the deadline)"
    };
    format!("rendered in Chromium, wait {wait}: {idle}, {render_ms} ms")
}
pub const NO_FILE_CHOSEN: &str =
    "No file chosen. If no file dialog appeared, type the path instead.";
pub const LABEL_OPEN_IN_BROWSER: &str = "Open in browser ↗";
pub const LABEL_DISMISS: &str = "Close";
pub const DISMISS_TOOLTIP: &str = "Close this message";
pub const LABEL_CRAWL_AGAIN: &str = "Crawl again";
pub const LABEL_SETTINGS_PANEL: &str = "◧ Settings";
pub const LABEL_DETAIL_PANEL: &str = "Detail ◨";
pub const LABEL_SHOW_ONLY: &str = "Show only this";
pub const LABEL_SHOW_ALL: &str = "Show all";
pub const STALE_CRAWL: &str = "Out of date: this crawl was made with other settings or another \
    depth. The start page is judged again with the current ones, but the crawled pages below are \
    what the old ones followed.";
pub const PREVIOUS_RESULT: &str = "Previous result: the last load failed (see above).";
pub const KEYBOARD_HELP: &str = "↑ ↓ Home End PageUp PageDown move the selection; \
    Ctrl+C copies its URL, Ctrl+Shift+C its explanation; Ctrl+F searches.";

/// "Warnings (n)" in the top bar.
pub fn warnings_button(n: usize) -> String {
    if n == 1 {
        "⚠ 1 warning".to_owned()
    } else {
        format!("⚠ {n} warnings")
    }
}

/// What to do about a failed load, when its message does not already say.
pub fn load_error_advice(message: &str) -> Option<&'static str> {
    let advice = [
        (
            "DNS",
            "Check the host name. To inspect a saved copy of the page instead, enter the path of its .html file.",
        ),
        (
            "connect",
            "The server refused or dropped the connection: check the address and port, and that the site is up.",
        ),
        (
            "TLS",
            "The secure connection failed: check the certificate, or try the http:// address.",
        ),
        (
            "timeout",
            "The server did not answer in time: try again, or check the address.",
        ),
        (
            "too many redirects",
            "The site redirects too often: open it in a browser to see where it ends.",
        ),
        (
            "redirect loop",
            "The site redirects in a circle: open it in a browser to see where it goes.",
        ),
        (
            "the connection broke",
            "The server closed the connection in the middle of the page: try again, or save the \
             page from a browser and open the file.",
        ),
        (
            "bad redirect",
            "The site redirects to an address that is not a web page.",
        ),
        (
            "not HTML",
            "This address is not a web page: enter the URL of the page that links to it.",
        ),
        (
            "only http and https",
            "Enter an http:// or https:// address, a host name, or the path of a saved page.",
        ),
        (
            "cannot read",
            "Check the path: the file must exist and be readable.",
        ),
    ];
    if message.contains("base URL field") {
        // The message already says what to do.
        return None;
    }
    advice
        .iter()
        .find(|(prefix, _)| message.starts_with(prefix))
        .map(|(_, advice)| *advice)
}

/// The page header of a saved page judged against a base URL that differs from
/// the URL the page names for itself.
pub fn judged_as(judged: &str, says: &str) -> String {
    format!("Judged as {judged}, the page says {says} (base URL field).")
}

/// A notice about the profiles file (kept aside, unreadable, …).
pub fn profile_notice(notice: &str) -> String {
    format!("Profiles: {notice}")
}

/// Crawled pages, failed ones and error pages, for the status bar.
pub fn crawl_summary(pages: usize, failed: usize, http_errors: usize) -> String {
    let mut text = format!("{pages} pages crawled, {failed} failed");
    if http_errors > 0 {
        text.push_str(&format!(", {http_errors} answered HTTP 4xx/5xx"));
    }
    text
}

/// What an empty table says.
pub fn no_links(status: Option<u16>) -> String {
    match status {
        Some(s) if s >= 400 => format!(
            "No links: the server answered HTTP {s}, an error page. The scraper gets the same page."
        ),
        _ => "No links on this page.".to_owned(),
    }
}
pub const UNSAVED_MARK: &str = "●";

pub fn unsaved_question(profile: &str) -> String {
    format!("“{profile}” has unsaved changes: save them or discard them?")
}

pub fn delete_question(profile: &str) -> String {
    format!("Delete the profile “{profile}”? This cannot be undone.")
}

pub fn import_report(name: &str, ignored: &[String], defaulted: &[&str]) -> String {
    let mut out = format!("Imported as “{name}”.");
    if !ignored.is_empty() {
        out.push_str(&format!(
            " Ignored (not follow settings): {}.",
            ignored.join(", ")
        ));
    }
    if !defaulted.is_empty() {
        out.push_str(&format!(
            " Missing, given the defaults: {}.",
            defaulted.join(", ")
        ));
    }
    out
}

/// The "how the options combine" text, shown in the settings panel itself.
pub const HOW_DOMAINS_STACK: &str = "Same-site: the two domain options stack. A link is \
    same-site if either admits it: subdomain mode (same root domain) OR an allowed-domain \
    entry. Both on is the widest setting. With both off, only the page's exact host counts.";
pub const HOW_KEYWORDS_WORK: &str = "The black list is checked first: a black keyword anywhere \
    in the URL or link text rejects the link, whatever the white list says. The white list is \
    match-only: a link without a white keyword is never followed, so an empty white list \
    follows nothing. Earlier white keywords score higher; the top N by score are followed.";
pub const HOW_ASSETS_WORK: &str = "Assets are judged by the URL path suffix only (the query \
    and the Content-Type do not count).";
pub const ROOT_DOMAIN_NOTE: &str = "Root domain = the last two labels of the host \
    (naive: acme.co.uk → co.uk).";

pub fn subdomain_tooltip() -> String {
    "followSubdomain: off = the link's host must equal the page's host; on = the same root \
     domain (last two labels) is enough, e.g. shop.acme.com ↔ acme.com."
        .to_owned()
}

pub fn skip_assets_tooltip() -> String {
    format!(
        "followSkipAssets: skip links whose URL path ends in .{}",
        crate::policy::ASSET_EXTENSIONS.join(" .")
    )
}

pub fn limit_formula(depth: u32, n: usize) -> String {
    format!("N = (depth − 1) × 3 = ({depth} − 1) × 3 = {n}")
}

// ---- Link explanations (detail panel and "Copy explanation") ----

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

/// `n` and the noun, singular for one.
fn plural(n: usize, one: &str, many: &str) -> String {
    if n == 1 {
        format!("{n} {one}")
    } else {
        format!("{n} {many}")
    }
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

pub const SIBLING_ROOTS_HEADING: &str = "Other roots of this site on this page (click to allow):";
pub const SIBLING_ROOTS_TOOLTIP: &str = "The page links to the same name under another suffix. \
    Those links are off-domain now; adding a root to the allowed domains admits them. \
    Nothing is added unless you click.";

/// A suggested sibling root's button: "+ acme.de (2 links)".
pub fn add_sibling_root(domain: &str, links: usize) -> String {
    format!("+ {domain} ({})", plural(links, "link", "links"))
}

pub const LABEL_COMPARE_WITH: &str = "Compare with…";
pub const LABEL_COMPARE_NONE: &str = "(nobody)";
pub const COMPARE_TOOLTIP: &str = "Decide the same pages under a second profile (B) as \
    well: the table gains B's verdict, changed rows are marked, and the detail pane shows \
    both traces. The corpus view runs both profiles too.";
pub const LABEL_ONLY_CHANGED: &str = "Δ changed";
pub const ONLY_CHANGED_TOOLTIP: &str = "Show only the links whose verdict, rank or deciding \
    keyword differs under the compared profile.";

/// The compared profile's column header: "B: tuned".
pub fn compared_column(name: &str) -> String {
    format!("B: {name}")
}

/// The summary of a comparison, with the profile it is against.
pub fn comparison_line(name: &str, summary: &crate::policy::compare::ChangeSummary) -> String {
    format!("Against “{name}”: {}", change_summary(summary))
}

/// The crawled pages' heading.
pub fn crawled_pages_title(n: usize, stale: bool) -> String {
    if stale {
        format!("Crawled pages ({n}, out of date)")
    } else {
        format!("Crawled pages ({n})")
    }
}

/// How a crawled page was reached, before its URL in the tree: "#3 “Kontakt” → ".
pub fn crawl_tree_via(link: usize, text: &str) -> String {
    if text.is_empty() {
        format!("#{link} → ")
    } else {
        format!("#{link} “{text}” → ")
    }
}

pub const LABEL_REGION: &str = "Region";
pub const LABEL_ALL_REGIONS: &str = "all";
pub const REGION_TOOLTIP: &str = "The part of the page a link sits in: its nearest <nav>, \
    <header>, <main>, <aside> or <footer> (or the ARIA role of one). It never changes a \
    verdict; it explains one (\"the Impressum link is only in the footer\").";
pub const NOFOLLOW_MARK: &str = "nofollow";
pub const NOFOLLOW_TOOLTIP: &str = "The link has rel=nofollow. The scraper does not look at \
    rel: it follows such a link like any other.";
pub const INSIDE_WORD_TOOLTIP: &str = "The keyword matched inside a longer word (`tag` in \
    `heritage`, `team` in `steam`). Keywords match as plain substrings, so it still counts.";
pub const SAME_UNDER_B: &str = "The same verdict, rank and keyword under the compared profile.";

pub const LABEL_INSPECTOR_VIEW: &str = "Inspector";
pub const LABEL_CORPUS_VIEW: &str = "Corpus";
pub const CORPUS_VIEW_TOOLTIP: &str = "Run the settings over a folder of saved pages or a \
    corpus manifest: counts per page and per keyword, and every link a change gains or loses.";
pub const LABEL_CORPUS_PATH: &str = "Folder or manifest";
pub const CORPUS_PATH_HINT: &str = "a folder of *.html, or manifest.tsv";
pub const LABEL_CHOOSE_FOLDER: &str = "Folder…";
pub const LABEL_CHOOSE_MANIFEST: &str = "Manifest…";
pub const LABEL_RUN_CORPUS: &str = "▶ Run";
pub const OPEN_CORPUS_PAGE: &str = "Click to open this page in the inspector, under both profiles.";
pub const CORPUS_EMPTY: &str = "Choose a folder of saved pages (each naming its URL with \
    <link rel=canonical> or og:url) or a manifest.tsv (columns id and original_url, pages in \
    pages/<id>.html), then Run. Nothing is fetched.";
pub const KEYWORDS_HEADING: &str = "Keywords: pages and links each one decided";
pub const KEYWORD_TABLE_HEADERS: [&str; 8] = [
    "Keyword",
    "List",
    "Pages (A)",
    "Links (A)",
    "In URL",
    "In text",
    "Inside a word",
    "Pages (B)",
];
pub const CHART_SIDE_A: &str = "A: pages decided";
pub const CHART_SIDE_B: &str = "B: pages decided";
pub const CAUSES_HEADING: &str = "Changed links by cause";
pub const NO_CHANGED_LINKS: &str = "No link changes between A and B.";

/// Which settings a corpus run uses.
pub fn corpus_sides(profile: &str, compared: Option<&str>, depth: u32) -> String {
    let n = crate::policy::follow_limit(depth);
    match compared {
        Some(b) => format!("A: “{profile}” (as edited) · B: “{b}” · depth {depth}, N = {n}"),
        None => format!(
            "A: “{profile}” (as edited) · B: none (choose one with Compare with…) · depth {depth}, N = {n}"
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
            "Under {side}, nothing is followed on {} (no contact page found): {}",
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

pub const TRACE_A: &str = "A: current";

/// Over the two traces of a changed link.
pub fn changed_because(name: &str, because: &str) -> String {
    format!("Under “{name}” this link changes: {because}.")
}

/// After a suggested root was added to the allowed domains.
pub fn added_allowed_domain(domain: &str) -> String {
    format!("Added {domain} to the allowed domains (not saved yet).")
}

/// Where the link sits and whether it says nofollow, in the detail pane.
pub fn link_annotations(region: &str, nofollow: bool) -> String {
    let nofollow = if nofollow {
        " · rel=nofollow (the scraper follows it anyway)"
    } else {
        ""
    };
    format!("Page region: {region}{nofollow}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::lints::{DomainProblem, Finding};
    use crate::policy::{Lint, LintCode};

    fn message(code: LintCode, finding: Finding) -> String {
        lint_message(&Lint { code, finding })
    }

    #[test]
    fn lint_messages_name_what_was_found() {
        let shadows = message(
            LintCode::BlackShadowsWhite,
            Finding::BlackShadowsWhite(vec![
                ("blog".into(), "blog".into()),
                ("tagline".into(), "tag".into()),
            ]),
        );
        assert!(
            shadows.contains("`blog`, `tagline` (contains `tag`)."),
            "{shadows}"
        );
        let bad = message(
            LintCode::BadAllowedDomain,
            Finding::BadAllowedDomain(vec![("https://a.io".into(), DomainProblem::Scheme)]),
        );
        assert!(bad.contains("`https://a.io` has a scheme"), "{bad}");
        let separator = message(
            LintCode::SuspiciousSeparator,
            Finding::SuspiciousSeparator(vec![("a.io;b.io".into(), "followAllowedDomains")]),
        );
        assert!(
            separator.contains("`a.io;b.io` in followAllowedDomains"),
            "{separator}"
        );
        let redirected = message(
            LintCode::RedirectedHost,
            Finding::RedirectedHost {
                from: "acme.com".into(),
                to: "www.acme.com".into(),
            },
        );
        assert!(
            redirected.contains("from `acme.com` to `www.acme.com`"),
            "{redirected}"
        );
        let empty = message(LintCode::WhiteEmpty, Finding::WhiteEmpty);
        assert!(empty.contains("nothing will be followed"));
    }
}
