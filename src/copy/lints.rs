//! Lint messages and the problems of allowed-domain entries, in words.

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
        Finding::SettingsTooLarge(over) => {
            let lists = over
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join("; ");
            format!(
                "Settings too large to judge links with: {lists}. The command line refuses \
                 them; shorten the list."
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
