//! The same-site test (SPEC section 2), with the naive root-domain rule the scraper uses.

use std::borrow::Cow;

use serde::Serialize;

use super::settings::FollowOptions;

/// The scraper's `getRootDomain`: the last two dot-separated labels, or the whole
/// host when it has at most two. Deliberately naive (`acme.co.uk` gives `co.uk`).
pub fn root_domain(host: &str) -> &str {
    // The dots found by bytes: `rmatch_indices('.')` cost 1.7% of a corpus
    // run's instructions on real homepages, twice a link.
    let bytes = host.as_bytes();
    let before_last = bytes
        .iter()
        .rposition(|&b| b == b'.')
        .and_then(|last| bytes[..last].iter().rposition(|&b| b == b'.'));
    match before_last {
        Some(dot) => &host[dot + 1..],
        None => host,
    }
}

/// What admitted a link as same-site. A link can be admitted by both options.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "by", content = "entry", rename_all = "snake_case")]
pub enum Admission {
    /// The link's host equals the page's host (passes in either mode).
    StrictHost,
    /// Subdomain mode is on and the naive roots are equal.
    RootDomain,
    /// An `followAllowedDomains` entry matched; the entry is named.
    AllowedDomain(String),
}

/// The whole same-site computation for one link, for the trace and the explainer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SiteCheck {
    pub link_host: String,
    pub link_root: String,
    pub base_host: String,
    pub base_root: String,
    pub admitted_by: Vec<Admission>,
}

impl SiteCheck {
    pub fn is_same_site(&self) -> bool {
        !self.admitted_by.is_empty()
    }
}

/// Whether the allow-list `entry` admits `link_host` (whose naive root is
/// `link_root`): the same host, a subdomain of it, or the same naive root.
pub fn allow_match(entry: &str, link_host: &str, link_root: &str) -> bool {
    link_host == entry
        || link_host
            .strip_suffix(entry)
            .is_some_and(|head| head.ends_with('.'))
        || link_root == entry
}

/// Lowercased, copied only when it is not lowercase already (the `url` crate
/// gives lowercase punycode hosts, so almost never).
fn lowercase(host: &str) -> Cow<'_, str> {
    // An ASCII host is checked by its bytes (1.2% of a corpus run's
    // instructions went to asking every character for its case).
    let upper = host
        .bytes()
        .any(|b| b.is_ascii_uppercase() || !b.is_ascii())
        && host.chars().any(char::is_uppercase);
    if upper {
        Cow::Owned(host.to_lowercase())
    } else {
        Cow::Borrowed(host)
    }
}

/// The same-site test's three ways in, for lowercase hosts: the same host,
/// the same naive root in subdomain mode, and the first allow-list entry
/// that matches.
fn admissions<'o>(
    link_host: &str,
    base_host: &str,
    opts: &'o FollowOptions,
) -> (Option<Admission>, Option<&'o String>) {
    let link_root = root_domain(link_host);
    let by_host = if link_host == base_host {
        Some(Admission::StrictHost)
    } else if opts.allow_subdomain && link_root == root_domain(base_host) {
        Some(Admission::RootDomain)
    } else {
        None
    };
    let by_list = opts
        .allowed_domains
        .iter()
        .find(|d| allow_match(d, link_host, link_root));
    (by_host, by_list)
}

/// Whether the same-site test admits `link_host` on a page at `base_host`:
/// [`check_site`]'s answer without building its explanation.
pub fn is_same_site(link_host: &str, base_host: &str, opts: &FollowOptions) -> bool {
    let (by_host, by_list) = admissions(&lowercase(link_host), &lowercase(base_host), opts);
    by_host.is_some() || by_list.is_some()
}

/// Runs the same-site test. Hosts are expected lowercase (the `url` crate gives
/// punycode, lowercase, no port); they are lowercased again to be safe.
pub fn check_site(link_host: &str, base_host: &str, opts: &FollowOptions) -> SiteCheck {
    let link_host = link_host.to_lowercase();
    let base_host = base_host.to_lowercase();
    let (by_host, by_list) = admissions(&link_host, &base_host, opts);
    let admitted_by = by_host
        .into_iter()
        .chain(by_list.map(|entry| Admission::AllowedDomain(entry.clone())))
        .collect();
    SiteCheck {
        link_root: root_domain(&link_host).to_owned(),
        base_root: root_domain(&base_host).to_owned(),
        link_host,
        base_host,
        admitted_by,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::Settings;

    #[test]
    fn the_quick_answer_agrees_with_the_explained_one() {
        let hosts = [
            "acme.com",
            "ACME.com",
            "shop.acme.com",
            "acmecorp.io",
            "eu.acmecorp.io",
            "xacmecorp.io",
            "facebook.com",
            "10.0.1.10",
            "acme.co.uk",
            "other.co.uk",
        ];
        for o in [
            opts(false, ""),
            opts(true, ""),
            opts(false, "acmecorp.io, co.uk"),
            opts(true, "acmecorp.io, 1.10"),
        ] {
            for link in hosts {
                for base in hosts {
                    assert_eq!(
                        is_same_site(link, base, &o),
                        check_site(link, base, &o).is_same_site(),
                        "{link} on {base}, {o:?}"
                    );
                }
            }
        }
    }

    fn opts(subdomain: bool, allowed: &str) -> FollowOptions {
        Settings {
            follow_subdomain: subdomain,
            follow_allowed_domains: allowed.into(),
            ..Settings::default()
        }
        .options()
    }

    #[test]
    fn root_domain_is_the_last_two_labels() {
        assert_eq!(root_domain("acme.com"), "acme.com");
        assert_eq!(root_domain("shop.acme.com"), "acme.com");
        assert_eq!(root_domain("a.b.shop.acme.com"), "acme.com");
        assert_eq!(root_domain("localhost"), "localhost");
        assert_eq!(root_domain(""), "");
    }

    #[test]
    fn root_domain_is_naive_on_compound_suffixes_and_ips() {
        assert_eq!(root_domain("acme.co.uk"), "co.uk");
        assert_eq!(root_domain("www.acme.co.uk"), "co.uk");
        assert_eq!(root_domain("acme.com.cn"), "com.cn");
        assert_eq!(root_domain("192.168.1.10"), "1.10");
        // Byte for byte like split/slice/join: a trailing dot is an empty label.
        assert_eq!(root_domain("acme.com."), "com.");
        assert_eq!(root_domain(".com"), ".com");
        assert_eq!(root_domain(".."), ".");
        assert_eq!(root_domain("a..b"), ".b");
        assert_eq!(root_domain("shop.bücher.de"), "bücher.de");
    }

    #[test]
    fn strict_mode_admits_only_the_same_host() {
        let o = opts(false, "");
        assert!(check_site("acme.com", "acme.com", &o).is_same_site());
        assert!(!check_site("shop.acme.com", "acme.com", &o).is_same_site());
        assert!(!check_site("www.acme.com", "acme.com", &o).is_same_site());
        assert!(!check_site("acmecorp.io", "acme.com", &o).is_same_site());
        assert_eq!(
            check_site("acme.com", "acme.com", &o).admitted_by,
            [Admission::StrictHost]
        );
    }

    #[test]
    fn subdomain_mode_admits_the_same_root() {
        let o = opts(true, "");
        let c = check_site("shop.acme.com", "acme.com", &o);
        assert_eq!(c.admitted_by, [Admission::RootDomain]);
        assert!(check_site("acme.com", "www.acme.com", &o).is_same_site());
        assert!(!check_site("acmecorp.io", "acme.com", &o).is_same_site());
    }

    #[test]
    fn allow_list_admits_exact_subdomain_and_root_matches() {
        let o = opts(false, "acmecorp.io, Acme-Blog.io");
        let c = check_site("acmecorp.io", "acme.com", &o);
        assert_eq!(
            c.admitted_by,
            [Admission::AllowedDomain("acmecorp.io".into())]
        );
        assert!(check_site("eu.acmecorp.io", "acme.com", &o).is_same_site());
        assert!(check_site("acme-blog.io", "acme.com", &o).is_same_site());
        // Not a subdomain: `xacmecorp.io` does not end with `.acmecorp.io`.
        assert!(!check_site("xacmecorp.io", "acme.com", &o).is_same_site());
        // Without subdomain mode, the site's own subdomain is still off-site.
        assert!(!check_site("shop.acme.com", "acme.com", &o).is_same_site());
    }

    #[test]
    fn allow_list_root_match_uses_the_naive_root() {
        assert!(allow_match("co.uk", "shop.other.co.uk", "co.uk"));
        assert!(allow_match("acme.com", "x.y.acme.com", "acme.com"));
        assert!(allow_match("acme.com", "acme.com", "acme.com"));
        // An entry that is a naive root: matched through getRootDomain.
        assert!(allow_match("1.10", "10.0.1.10", "1.10"));
        assert!(!allow_match("acme", "acme.com", "acme.com"));
    }

    /// The wiki's table of the three tiers, plus "both on".
    #[test]
    fn the_options_stack() {
        let base = "acme.com";
        let cases = [
            // (subdomain, allowed, link, expected same-site)
            (false, "", "acme.com", true),
            (false, "", "shop.acme.com", false),
            (false, "", "acmecorp.io", false),
            (true, "", "shop.acme.com", true),
            (true, "", "acmecorp.io", false),
            (false, "acmecorp.io", "acmecorp.io", true),
            (false, "acmecorp.io", "shop.acme.com", false),
            (true, "acmecorp.io", "shop.acme.com", true),
            (true, "acmecorp.io", "acmecorp.io", true),
            (true, "acmecorp.io", "facebook.com", false),
        ];
        for (sub, allowed, link, expected) in cases {
            assert_eq!(
                check_site(link, base, &opts(sub, allowed)).is_same_site(),
                expected,
                "subdomain={sub} allowed={allowed:?} link={link}"
            );
        }
    }

    #[test]
    fn both_options_record_both_admissions() {
        let c = check_site("shop.acme.com", "acme.com", &opts(true, "acme.com"));
        assert_eq!(
            c.admitted_by,
            [
                Admission::RootDomain,
                Admission::AllowedDomain("acme.com".into())
            ]
        );
    }

    #[test]
    fn compound_suffix_in_subdomain_mode_admits_the_whole_suffix() {
        let o = opts(true, "");
        assert!(check_site("other.co.uk", "www.acme.co.uk", &o).is_same_site());
        assert!(check_site("shop.acme.com.cn", "acme.com.cn", &o).is_same_site());
        assert!(check_site("evil.com.cn", "acme.com.cn", &o).is_same_site());
    }
}
