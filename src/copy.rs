//! User-facing words: lint messages, labels and explanations, in one place.

pub const LINT_WHITE_EMPTY: &str = "The white list is empty: nothing will be followed. \
    The list is match-only, not a bonus: a link must contain a white keyword to be followed.";

pub const LINT_OPTIONS_STACK: &str = "Subdomain mode and allowed domains are both on: \
    they stack. A link is same-site if either option admits it; this is the widest setting.";

pub fn lint_black_shadows_white(entries: &str) -> String {
    format!(
        "White keywords that can never fire, because the black list is checked first: {entries}."
    )
}

pub fn lint_asset_suffix_only(paths: &str) -> String {
    format!(
        "Asset detection looks at the URL path suffix only, never at Content-Type: \
         {paths} will be treated as pages."
    )
}

pub fn lint_public_suffix_root(host: &str, root: &str) -> String {
    format!(
        "The page's root domain `{root}` (of `{host}`) is a public suffix: with subdomain mode \
         on, every site under `{root}` counts as same-site."
    )
}

pub fn lint_ip_host(host: &str, root: &str) -> String {
    format!(
        "The page's host `{host}` is an IP address: with subdomain mode on, every address \
         ending in `{root}` counts as same-site."
    )
}

pub fn lint_bad_allowed_domain(entries: &str) -> String {
    format!(
        "Allowed-domain entries that can never match a hostname: {entries}. \
         Write bare host names such as `acmecorp.io`."
    )
}

pub fn lint_suspicious_separator(items: &str) -> String {
    format!("List items that are probably two: {items}. Only the ASCII comma `,` separates items.")
}

pub fn lint_redirected_host(from: &str, to: &str) -> String {
    format!(
        "The start URL redirected from `{from}` to `{to}`: links are judged against the final \
         host `{to}` (in strict mode, `{from}` links become off-domain)."
    )
}
