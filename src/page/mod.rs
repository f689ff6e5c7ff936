//! Turns a page's bytes into candidate links (SPEC section 3).

pub mod decode;

use std::sync::LazyLock;

use scraper::{ElementRef, Html, Selector};
use url::Url;

use crate::policy::Candidate;
pub use decode::{CharsetSource, Decoded, decode};

/// A parsed page: its candidates in document order and what the reader found.
#[derive(Clone, Debug)]
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

fn selector(css: &str) -> Option<Selector> {
    Selector::parse(css).ok()
}

static ANCHORS: LazyLock<Option<Selector>> = LazyLock::new(|| selector("a[href]"));
static BASE: LazyLock<Option<Selector>> = LazyLock::new(|| selector("base[href]"));
static CANONICAL: LazyLock<Option<Selector>> =
    LazyLock::new(|| selector("link[rel~=canonical][href]"));
static OG_URL: LazyLock<Option<Selector>> =
    LazyLock::new(|| selector("meta[property=\"og:url\"][content]"));

/// Parses decoded HTML.
pub fn parse(html: &str) -> ParsedPage {
    let doc = Html::parse_document(html);
    let select = |sel: &LazyLock<Option<Selector>>| {
        sel.as_ref()
            .map(|s| doc.select(s).collect::<Vec<_>>())
            .unwrap_or_default()
    };
    let candidates = select(&ANCHORS)
        .into_iter()
        .filter_map(|a| {
            Some(Candidate {
                href: a.value().attr("href")?.to_owned(),
                text: folded_text(a),
            })
        })
        .collect();
    let base_href = select(&BASE)
        .first()
        .and_then(|b| b.value().attr("href"))
        .map(str::to_owned);
    let absolute = |value: &str| {
        Url::parse(value.trim())
            .ok()
            .filter(|u| matches!(u.scheme(), "http" | "https"))
    };
    let canonical_url = select(&CANONICAL)
        .iter()
        .filter_map(|l| l.value().attr("href"))
        .chain(
            select(&OG_URL)
                .iter()
                .filter_map(|m| m.value().attr("content")),
        )
        .find_map(absolute);
    ParsedPage {
        candidates,
        base_href,
        canonical_url,
    }
}

/// The element's text content, each run of Unicode whitespace folded to one space.
fn folded_text(element: ElementRef<'_>) -> String {
    let content: String = element.text().collect();
    content.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn anchors_with_href_in_document_order_with_folded_text() {
        let page = parse(
            "<a href='/a'>  About\n\t<b>us</b> </a><a name=x>no href</a>\
             <div><a href=''>Home</a></div><a href=/c>联系\u{3000}我们</a>",
        );
        let got: Vec<_> = page
            .candidates
            .iter()
            .map(|c| (c.href.as_str(), c.text.as_str()))
            .collect();
        assert_eq!(got, [("/a", "About us"), ("", "Home"), ("/c", "联系 我们")]);
    }

    #[test]
    fn words_split_only_by_whitespace_between_text_nodes() {
        let page = parse("<a href=/x>Con<span>tact</span></a>");
        assert_eq!(page.candidates[0].text, "Contact");
    }

    #[test]
    fn base_href_relative_protocol_relative_and_other_host() {
        let page_url = Url::parse("https://www.acme.test/en/index.html").unwrap();
        let cases = [
            ("<base href='/de/'>", "https://www.acme.test/de/"),
            ("<base href='./sub/'>", "https://www.acme.test/en/sub/"),
            ("<base href='//cdn.acme.test'>", "https://cdn.acme.test/"),
            ("<base href='http://other.test/x/'>", "http://other.test/x/"),
            (
                "<base target=_blank><base href='/first/'><base href='/second/'>",
                "https://www.acme.test/first/",
            ),
            (
                "<base href='http://[bad'>",
                "https://www.acme.test/en/index.html",
            ),
            ("", "https://www.acme.test/en/index.html"),
        ];
        for (head, expected) in cases {
            let page = parse(&format!("<html><head>{head}</head><body></body></html>"));
            assert_eq!(page.base_url(&page_url).as_str(), expected, "{head}");
        }
    }

    #[test]
    fn canonical_then_og_url() {
        let both = parse(
            "<head><meta property='og:url' content='https://og.acme.test/'>\
             <link rel='canonical' href='https://www.acme.test/home'></head>",
        );
        assert_eq!(
            both.canonical_url.unwrap().as_str(),
            "https://www.acme.test/home"
        );
        let og = parse("<head><meta property='og:url' content=' https://og.acme.test/ '></head>");
        assert_eq!(og.canonical_url.unwrap().as_str(), "https://og.acme.test/");
        let relative = parse("<head><link rel=canonical href='/home'></head>");
        assert!(relative.canonical_url.is_none());
    }
}
