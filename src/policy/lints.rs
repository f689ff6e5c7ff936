//! The wiki's pitfalls as lints (SPEC section 6). `psl` is used here only, to say
//! where a Public Suffix List would disagree; it never takes part in a verdict.

use serde::{Deserialize, Serialize};
use url::{Host, Url};

use super::contained::first_contained;
use super::domains::root_domain;
use super::keywords::asset_extension;
use super::limits::OverLimit;
use super::settings::{
    CompiledSettings, FollowOptions, KEY_ALLOWED, KEY_BLACK, KEY_WHITE, Settings, over_limits,
};
use super::verdict::{LinkDecision, Verdict};

/// The stable lint codes, in SPEC order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LintCode {
    WhiteEmpty,
    OptionsStack,
    BlackShadowsWhite,
    AssetSuffixOnly,
    PublicSuffixRoot,
    BadAllowedDomain,
    SuspiciousSeparator,
    RedirectedHost,
    HostKeyword,
    SettingsTooLarge,
}

impl LintCode {
    pub fn id(self) -> &'static str {
        match self {
            LintCode::WhiteEmpty => "white_empty",
            LintCode::OptionsStack => "options_stack",
            LintCode::BlackShadowsWhite => "black_shadows_white",
            LintCode::AssetSuffixOnly => "asset_suffix_only",
            LintCode::PublicSuffixRoot => "public_suffix_root",
            LintCode::BadAllowedDomain => "bad_allowed_domain",
            LintCode::SuspiciousSeparator => "suspicious_separator",
            LintCode::RedirectedHost => "redirected_host",
            LintCode::HostKeyword => "host_keyword",
            LintCode::SettingsTooLarge => "settings_too_large",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lint {
    pub code: LintCode,
    pub finding: Finding,
}

/// What a lint found, with the items its message names; `copy::lint_message`
/// words it (the policy holds no user-facing text).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Finding {
    WhiteEmpty,
    OptionsStack,
    /// White keywords that can never fire, each with the black keyword it
    /// contains (equal to it when the two are the same word).
    BlackShadowsWhite(Vec<(String, String)>),
    /// Paths of followed or ranked-out links that end in a non-page suffix.
    AssetSuffixOnly(Vec<String>),
    PublicSuffixRoot {
        host: String,
        root: String,
    },
    IpHost {
        host: String,
        root: String,
    },
    BadAllowedDomain(Vec<(String, DomainProblem)>),
    /// Items with a character that looks like a separator, and their list's key.
    SuspiciousSeparator(Vec<(String, &'static str)>),
    RedirectedHost {
        from: String,
        to: String,
    },
    /// Keywords the page's own host contains: every link to that host has
    /// them in its haystack.
    HostKeyword {
        host: String,
        black: Vec<String>,
        white: Vec<String>,
    },
    /// Lists over a limit of [`super::limits`]: the command line refuses
    /// them, the window shows this.
    SettingsTooLarge(Vec<OverLimit>),
}

/// Why an allowed-domain entry can never equal a URL's hostname.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DomainProblem {
    Scheme,
    Path,
    Port,
    Wildcard,
    Whitespace,
}

/// What the lints may look at beyond the settings.
#[derive(Clone, Copy, Debug, Default)]
pub struct LintContext<'a> {
    /// The page being scanned (the final URL after redirects).
    pub page_url: Option<&'a Url>,
    /// The URL the user asked for, when it was fetched.
    pub start_url: Option<&'a Url>,
    /// The page's decided links.
    pub links: &'a [LinkDecision],
}

/// Lints of the settings alone (what the settings panel shows with no page).
pub fn lint_settings(settings: &Settings) -> Vec<Lint> {
    lint(settings, LintContext::default())
}

/// All lints, one per code at most, in SPEC order. Settings past the limits
/// get only the lint that says so: the others would build their keyword
/// automaton, which is what the limits keep from running.
pub fn lint(settings: &Settings, ctx: LintContext<'_>) -> Vec<Lint> {
    match too_large(settings) {
        Some(lint) => vec![lint],
        None => {
            let opts = settings.options();
            let shadowed = shadowed_pairs(&opts);
            lints_within_limits(&opts, &shadowed, ctx)
        }
    }
}

/// The one lint of settings past the limits, if they are.
fn too_large(settings: &Settings) -> Option<Lint> {
    let over = over_limits(settings);
    (!over.is_empty()).then_some(Lint {
        code: LintCode::SettingsTooLarge,
        finding: Finding::SettingsTooLarge(over),
    })
}

/// [`lint`] with the settings already compiled: a corpus run lints every
/// page, and compiling both keyword automata again for each took 5% of its
/// time on real homepages.
pub fn lint_compiled(settings: &CompiledSettings, ctx: LintContext<'_>) -> Vec<Lint> {
    match too_large(settings.settings()) {
        Some(lint) => vec![lint],
        None => {
            let opts = settings.options();
            let shadowed = settings.shadowed(|| shadowed_pairs(opts));
            lints_within_limits(opts, shadowed, ctx)
        }
    }
}

/// Every lint but the one of the limits, which the caller checked first.
fn lints_within_limits(
    opts: &FollowOptions,
    shadowed: &[(String, String)],
    ctx: LintContext<'_>,
) -> Vec<Lint> {
    let mut lints = Vec::new();
    let mut push = |code, finding: Option<Finding>| {
        if let Some(finding) = finding {
            lints.push(Lint { code, finding });
        }
    };
    push(
        LintCode::WhiteEmpty,
        opts.keywords
            .white()
            .is_empty()
            .then_some(Finding::WhiteEmpty),
    );
    push(
        LintCode::OptionsStack,
        (opts.allow_subdomain && !opts.allowed_domains.is_empty()).then_some(Finding::OptionsStack),
    );
    push(
        LintCode::BlackShadowsWhite,
        (!shadowed.is_empty()).then(|| Finding::BlackShadowsWhite(shadowed.to_vec())),
    );
    push(
        LintCode::AssetSuffixOnly,
        asset_suffix_only(opts, ctx.links),
    );
    push(
        LintCode::PublicSuffixRoot,
        ctx.page_url.and_then(|u| public_suffix_root(opts, u)),
    );
    push(LintCode::BadAllowedDomain, bad_allowed_domains(opts));
    push(LintCode::SuspiciousSeparator, suspicious_separators(opts));
    push(
        LintCode::RedirectedHost,
        ctx.start_url
            .zip(ctx.page_url)
            .and_then(|(start, page)| redirected_host(start, page)),
    );
    push(
        LintCode::HostKeyword,
        ctx.page_url.and_then(|u| host_keyword(opts, u)),
    );
    lints
}

/// The haystack holds the whole URL, so a keyword in the page's own host is
/// in every same-host link: a black one blacklists them all (`news` on
/// `newsweek.com`), a white one makes them all eligible with the same score
/// (`team` on `teamviewer.com`).
fn host_keyword(opts: &FollowOptions, page_url: &Url) -> Option<Finding> {
    let host = page_url.host_str()?;
    let in_host = |list: &[String]| -> Vec<String> {
        list.iter()
            .filter(|k| host.contains(k.as_str()))
            .cloned()
            .collect()
    };
    let (black, white) = (
        in_host(opts.keywords.black()),
        in_host(opts.keywords.white()),
    );
    (!black.is_empty() || !white.is_empty()).then(|| Finding::HostKeyword {
        host: host.to_owned(),
        black,
        white,
    })
}

/// Another root of the page's own site that the page links to: the same
/// registrable name under another suffix (`acme.de`, `acme.co.uk` beside
/// `acme.com`). Adding it to the allowed domains would admit those links.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SiblingRoot {
    /// The entry to add to `followAllowedDomains`.
    pub domain: String,
    /// How many of the page's off-domain links it would admit.
    pub links: usize,
}

/// The sibling roots among the page's off-domain links, in order of first
/// appearance. Suggestions only: nothing is added by itself. Uses the Public
/// Suffix List to find the registrable name, as the lints do.
pub fn sibling_roots(page_host: &str, links: &[LinkDecision]) -> Vec<SiblingRoot> {
    let Some(own) = registrable_domain(page_host) else {
        return Vec::new();
    };
    let name = |domain: &str| domain.split('.').next().map(str::to_owned);
    let Some(own_name) = name(&own) else {
        return Vec::new();
    };
    let mut found: Vec<SiblingRoot> = Vec::new();
    for link in links.iter().filter(|l| l.trace.same_site == Some(false)) {
        let Some(host) = link.url.as_ref().and_then(|u| u.host_str()) else {
            continue;
        };
        // Most off-domain hosts (social networks, CDNs) do not even contain
        // the name: no list lookup for them.
        if !host.contains(own_name.as_str()) {
            continue;
        }
        let Some(domain) = registrable_domain(host) else {
            continue;
        };
        if domain == own || name(&domain).as_deref() != Some(own_name.as_str()) {
            continue;
        }
        match found.iter_mut().find(|s| s.domain == domain) {
            Some(sibling) => sibling.links += 1,
            None => found.push(SiblingRoot { domain, links: 1 }),
        }
    }
    found
}

/// A white keyword containing a black one can never fire: every haystack that
/// contains it also contains the black keyword, and black is checked first.
/// The (white, black) pairs of the lint `black_shadows_white`.
fn shadowed_pairs(opts: &FollowOptions) -> Vec<(String, String)> {
    let (black, white) = (opts.keywords.black(), opts.keywords.white());
    white
        .iter()
        .zip(first_contained(black, white))
        .filter_map(|(w, b)| Some((w.clone(), black.get(b?)?.clone())))
        .collect()
}

/// File suffixes that are not pages but that the asset list does not know, so a
/// link to them can be followed: the pitfall of suffix-only detection.
const NON_PAGE_SUFFIXES: [&str; 20] = [
    "json", "xml", "rss", "atom", "txt", "csv", "ics", "vcf", "rtf", "odt", "ods", "odp", "epub",
    "bz2", "xz", "7zip", "msi", "heic", "flac", "m4v",
];

fn asset_suffix_only(opts: &FollowOptions, links: &[LinkDecision]) -> Option<Finding> {
    if !opts.skip_assets {
        return None;
    }
    let examples: Vec<String> = links
        .iter()
        .filter(|l| matches!(l.verdict, Verdict::Followed | Verdict::RankedOut))
        .filter_map(|l| l.url.as_ref())
        .filter(|u| {
            let path = u.path().to_lowercase();
            asset_extension(&path).is_none()
                && path
                    .rsplit_once('.')
                    .is_some_and(|(_, ext)| NON_PAGE_SUFFIXES.contains(&ext))
        })
        .map(|u| u.path().to_owned())
        .take(3)
        .collect();
    (!examples.is_empty()).then_some(Finding::AssetSuffixOnly(examples))
}

/// The PSL registrable domain of a host, when the list knows one.
pub fn registrable_domain(host: &str) -> Option<String> {
    let domain = psl::domain(host.as_bytes())?;
    std::str::from_utf8(domain.as_bytes())
        .ok()
        .map(str::to_owned)
}

/// True when the naive root of `host` is itself a public suffix (`co.uk`).
pub fn root_is_public_suffix(host: &str) -> bool {
    let root = root_domain(host);
    root.contains('.')
        && psl::suffix(root.as_bytes()).is_some_and(|s| s.as_bytes() == root.as_bytes())
}

fn public_suffix_root(opts: &FollowOptions, page_url: &Url) -> Option<Finding> {
    if !opts.allow_subdomain {
        return None;
    }
    let host = page_url.host_str()?;
    let (host, root) = (host.to_owned(), root_domain(host).to_owned());
    match page_url.host()? {
        Host::Ipv4(_) | Host::Ipv6(_) => Some(Finding::IpHost { host, root }),
        Host::Domain(domain) => {
            root_is_public_suffix(domain).then_some(Finding::PublicSuffixRoot { host, root })
        }
    }
}

/// Why an allowed-domain entry can never equal a URL's hostname, if it cannot.
pub fn allowed_domain_problem(entry: &str) -> Option<DomainProblem> {
    if entry.contains("://") {
        Some(DomainProblem::Scheme)
    } else if entry.contains('/') {
        Some(DomainProblem::Path)
    } else if entry.contains(':') {
        Some(DomainProblem::Port)
    } else if entry.contains('*') {
        Some(DomainProblem::Wildcard)
    } else if entry.chars().any(char::is_whitespace) {
        Some(DomainProblem::Whitespace)
    } else {
        None
    }
}

fn bad_allowed_domains(opts: &FollowOptions) -> Option<Finding> {
    let bad: Vec<(String, DomainProblem)> = opts
        .allowed_domains
        .iter()
        .filter_map(|d| allowed_domain_problem(d).map(|why| (d.clone(), why)))
        .collect();
    (!bad.is_empty()).then_some(Finding::BadAllowedDomain(bad))
}

/// Characters that look like separators but are not: the item is probably two.
pub const SUSPICIOUS_SEPARATORS: [char; 5] = ['，', '、', ';', '\n', '\r'];

fn suspicious_separators(opts: &FollowOptions) -> Option<Finding> {
    let lists: [(&str, &[String]); 3] = [
        (KEY_WHITE, opts.keywords.white()),
        (KEY_BLACK, opts.keywords.black()),
        (KEY_ALLOWED, &opts.allowed_domains),
    ];
    let found: Vec<(String, &'static str)> = lists
        .iter()
        .flat_map(|(key, items)| {
            items
                .iter()
                .filter(|i| i.contains(SUSPICIOUS_SEPARATORS))
                .map(move |i| (i.clone(), *key))
        })
        .collect();
    (!found.is_empty()).then_some(Finding::SuspiciousSeparator(found))
}

fn redirected_host(start: &Url, page: &Url) -> Option<Finding> {
    let (from, to) = (start.host_str()?, page.host_str()?);
    (from != to).then(|| Finding::RedirectedHost {
        from: from.to_owned(),
        to: to.to_owned(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn codes(lints: &[Lint]) -> Vec<&'static str> {
        lints.iter().map(|l| l.code.id()).collect()
    }

    fn settings(f: impl FnOnce(&mut Settings)) -> Settings {
        let mut s = Settings::default();
        f(&mut s);
        s
    }

    #[test]
    fn defaults_raise_no_settings_lint() {
        assert!(lint_settings(&Settings::default()).is_empty());
    }

    #[test]
    fn empty_white_list() {
        let lints = lint_settings(&settings(|s| s.follow_keywords_white = " , ".into()));
        assert_eq!(codes(&lints), ["white_empty"]);
        assert_eq!(lints[0].finding, Finding::WhiteEmpty);
    }

    #[test]
    fn options_stack_when_both_on() {
        let s = settings(|s| {
            s.follow_subdomain = true;
            s.follow_allowed_domains = "acmecorp.io".into();
        });
        assert_eq!(codes(&lint_settings(&s)), ["options_stack"]);
        let only_one = settings(|s| s.follow_allowed_domains = "acmecorp.io".into());
        assert!(lint_settings(&only_one).is_empty());
    }

    #[test]
    fn keyword_in_both_lists_and_white_containing_black() {
        let s = settings(|s| {
            s.follow_keywords_white = "about,blog,tagline,contact".into();
            s.follow_keywords_black = "blog,tag".into();
        });
        let lints = lint_settings(&s);
        assert_eq!(codes(&lints), ["black_shadows_white"]);
        let pair = |w: &str, b: &str| (w.to_owned(), b.to_owned());
        assert_eq!(
            lints[0].finding,
            Finding::BlackShadowsWhite(vec![pair("blog", "blog"), pair("tagline", "tag")])
        );
    }

    #[test]
    fn settings_too_large_names_each_list_over_a_limit() {
        let s = settings(|s| s.follow_allowed_domains = "a".repeat(1001));
        let lints = lint_settings(&s);
        assert_eq!(codes(&lints), ["settings_too_large"]);
        assert!(matches!(&lints[0].finding,
            Finding::SettingsTooLarge(over) if over.len() == 1 && over[0].key() == KEY_ALLOWED));
    }

    #[test]
    fn bad_allowed_domain_entries() {
        for entry in [
            "https://acmecorp.io",
            "acmecorp.io/de",
            "acmecorp.io:8080",
            "*.acmecorp.io",
            "acme corp.io",
        ] {
            let s = settings(|s| s.follow_allowed_domains = entry.into());
            assert_eq!(codes(&lint_settings(&s)), ["bad_allowed_domain"], "{entry}");
        }
        let good = settings(|s| s.follow_allowed_domains = "acmecorp.io, acme-blog.io".into());
        assert!(lint_settings(&good).is_empty());
    }

    #[test]
    fn suspicious_separators_in_any_list() {
        for white in [
            "联系，关于",
            "contact、about",
            "contact;about",
            "contact\nabout",
        ] {
            let s = settings(|s| s.follow_keywords_white = white.into());
            assert_eq!(
                codes(&lint_settings(&s)),
                ["suspicious_separator"],
                "{white:?}"
            );
        }
        let s = settings(|s| s.follow_allowed_domains = "a.io;b.io".into());
        let lints = lint_settings(&s);
        assert!(codes(&lints).contains(&"suspicious_separator"));
        assert!(
            lints.iter().any(|l| l.finding
                == Finding::SuspiciousSeparator(vec![("a.io;b.io".into(), KEY_ALLOWED)]))
        );
    }

    #[test]
    fn public_suffix_root_only_in_subdomain_mode() {
        let on = settings(|s| s.follow_subdomain = true);
        for page in [
            "https://www.acme.co.uk/",
            "http://acme.com.cn/",
            "https://192.168.1.10/",
        ] {
            let url = Url::parse(page).unwrap();
            let ctx = LintContext {
                page_url: Some(&url),
                ..Default::default()
            };
            assert_eq!(codes(&lint(&on, ctx)), ["public_suffix_root"], "{page}");
            assert!(lint(&Settings::default(), ctx).is_empty(), "{page}");
        }
        for page in [
            "https://www.acme.com/",
            "https://acme.test/",
            "https://localhost/",
        ] {
            let url = Url::parse(page).unwrap();
            let ctx = LintContext {
                page_url: Some(&url),
                ..Default::default()
            };
            assert!(lint(&on, ctx).is_empty(), "{page}");
        }
    }

    #[test]
    fn registrable_domain_differs_from_the_naive_root() {
        assert_eq!(
            registrable_domain("www.acme.co.uk").as_deref(),
            Some("acme.co.uk")
        );
        assert_eq!(
            registrable_domain("shop.acme.com").as_deref(),
            Some("acme.com")
        );
        assert!(root_is_public_suffix("acme.co.uk"));
        assert!(!root_is_public_suffix("acme.com"));
    }

    #[test]
    fn asset_suffix_only_when_a_non_page_file_would_be_followed() {
        use crate::policy::decide_page;
        let page = Url::parse("https://acme.com/").unwrap();
        let candidates = hrefs(&["/contact.json", "/contact", "/about.png"]);
        let s = Settings::default();
        let d = decide_page(&candidates, &page, &page, &s.options(), 3);
        let ctx = LintContext {
            page_url: Some(&page),
            start_url: None,
            links: &d.links,
        };
        let lints = lint(&s, ctx);
        assert_eq!(codes(&lints), ["asset_suffix_only"]);
        assert_eq!(
            lints[0].finding,
            Finding::AssetSuffixOnly(vec!["/contact.json".into()])
        );
        let d = decide_page(&candidates[1..], &page, &page, &s.options(), 3);
        let ctx = LintContext {
            links: &d.links,
            ..ctx
        };
        assert!(lint(&s, ctx).is_empty());
    }

    /// Candidates with these hrefs and no text.
    fn hrefs(hrefs: &[&str]) -> Vec<crate::policy::Candidate> {
        let pairs: Vec<(&str, &str)> = hrefs.iter().map(|h| (*h, "")).collect();
        crate::policy::verdict::candidates(&pairs)
    }

    fn page_lints(page: &str, settings: &Settings) -> Vec<Lint> {
        let url = Url::parse(page).unwrap();
        let ctx = LintContext {
            page_url: Some(&url),
            ..Default::default()
        };
        lint(settings, ctx)
    }

    #[test]
    fn host_keyword_on_newsweek_tagesschau_and_teamviewer() {
        let defaults = Settings::default();
        let newsweek = page_lints("https://www.newsweek.com/", &defaults);
        assert_eq!(codes(&newsweek), ["host_keyword"]);
        assert_eq!(
            newsweek[0].finding,
            Finding::HostKeyword {
                host: "www.newsweek.com".into(),
                black: vec!["news".into()],
                white: vec![],
            }
        );
        let tagesschau = page_lints("https://www.tagesschau.de/", &defaults);
        assert!(matches!(&tagesschau[0].finding,
            Finding::HostKeyword { black, .. } if black == &["tag"]));
        let teamviewer = page_lints("https://www.teamviewer.com/en/", &defaults);
        assert!(matches!(&teamviewer[0].finding,
            Finding::HostKeyword { black, white, .. } if black.is_empty() && white == &["team"]));
        assert!(page_lints("https://acme.com/", &defaults).is_empty());
        // The settings alone know no host.
        assert!(lint_settings(&defaults).is_empty());
    }

    #[test]
    fn host_keyword_blacklists_every_same_site_link_on_newsweek() {
        use crate::policy::decide_page;
        let page = Url::parse("https://www.newsweek.com/").unwrap();
        let candidates = hrefs(&["/contact", "/about-us", "https://facebook.com/x"]);
        let d = decide_page(&candidates, &page, &page, &Settings::default().options(), 3);
        let verdicts: Vec<_> = d.links.iter().map(|l| l.verdict).collect();
        assert_eq!(
            verdicts,
            [
                Verdict::Blacklisted,
                Verdict::Blacklisted,
                Verdict::OffDomain
            ]
        );
    }

    #[test]
    fn sibling_roots_are_suggested_once_each_in_page_order() {
        use crate::policy::decide_page;
        let page = Url::parse("https://www.acme.com/").unwrap();
        let candidates = hrefs(&[
            "https://acme.de/kontakt",
            "https://www.acme.co.uk/contact",
            "https://shop.acme.de/",
            "https://acme-shop.com/",
            "https://blog.acme.com/",
            "https://facebook.com/acme",
            "/about",
        ]);
        let d = decide_page(&candidates, &page, &page, &Settings::default().options(), 3);
        assert_eq!(
            sibling_roots(&d.page_host, &d.links),
            [
                SiblingRoot {
                    domain: "acme.de".into(),
                    links: 2
                },
                SiblingRoot {
                    domain: "acme.co.uk".into(),
                    links: 1
                },
            ]
        );
        // Once allowed, a root is no longer suggested.
        let settings = Settings {
            follow_allowed_domains: "acme.de".into(),
            ..Settings::default()
        };
        let d = decide_page(&candidates, &page, &page, &settings.options(), 3);
        assert_eq!(sibling_roots(&d.page_host, &d.links).len(), 1);
    }

    #[test]
    fn redirected_host_names_both_hosts() {
        let start = Url::parse("https://acme.com/").unwrap();
        let page = Url::parse("https://www.acme.com/en/").unwrap();
        let ctx = LintContext {
            page_url: Some(&page),
            start_url: Some(&start),
            links: &[],
        };
        let lints = lint(&Settings::default(), ctx);
        assert_eq!(codes(&lints), ["redirected_host"]);
        assert_eq!(
            lints[0].finding,
            Finding::RedirectedHost {
                from: "acme.com".into(),
                to: "www.acme.com".into()
            }
        );
        let same = LintContext {
            page_url: Some(&start),
            start_url: Some(&start),
            links: &[],
        };
        assert!(lint(&Settings::default(), same).is_empty());
    }
}
