//! What the reader finds on a page, whichever reader found it (`fast` or
//! html5ever's tree in `mod.rs`), and the two helpers both read it with.

use url::Url;

use crate::policy::Candidate;

/// A parsed page: its candidates in document order and what the reader found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParsedPage {
    pub candidates: Vec<Candidate>,
    /// The first `<base href>` as written, if any.
    pub base_href: Option<String>,
    /// `<link rel=canonical>`, else `<meta property=og:url>`: absolute http(s) only.
    pub canonical_url: Option<Url>,
}

impl ParsedPage {
    /// The URL links resolve against: the `<base href>` resolved against the page
    /// URL when it resolves, else the page URL.
    pub fn base_url(&self, page_url: &Url) -> Url {
        base_url(self.base_href.as_deref(), page_url)
    }
}

/// `base_href` resolved against `page_url` when it resolves, else `page_url`.
pub fn base_url(base_href: Option<&str>, page_url: &Url) -> Url {
    base_href
        .and_then(|href| page_url.join(href).ok())
        .unwrap_or_else(|| page_url.clone())
}

/// An absolute http(s) URL, or nothing.
pub(super) fn absolute_http(value: &str) -> Option<Url> {
    Url::parse(value.trim())
        .ok()
        .filter(|u| matches!(u.scheme(), "http" | "https"))
}

/// Each run of Unicode whitespace folded to one space, trimmed.
pub(super) fn fold_whitespace(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    // ASCII text splits where `split_whitespace` does by its bytes, but for
    // the vertical tab, which only Unicode counts as whitespace.
    if text.is_ascii() && !text.contains('\x0b') {
        for word in text.split_ascii_whitespace() {
            if !out.is_empty() {
                out.push(' ');
            }
            out.push_str(word);
        }
        return out;
    }
    for word in text.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::fold_whitespace;

    fn by_unicode(text: &str) -> String {
        text.split_whitespace().collect::<Vec<_>>().join(" ")
    }

    #[test]
    fn the_vertical_tab_and_no_break_space_fold_as_unicode_whitespace() {
        assert_eq!(fold_whitespace(" a\x0bb\u{a0}c \t\r\n\x0cd "), "a b c d");
        assert_eq!(fold_whitespace(" About \n us "), "About us");
    }

    proptest::proptest! {
        #[test]
        fn folding_is_unicode_whitespace_folding(text in "[ a\\t\\n\\r\\x0b\\x0c\u{a0}\u{3000}é]{0,30}") {
            proptest::prop_assert_eq!(fold_whitespace(&text), by_unicode(&text));
        }
    }
}
