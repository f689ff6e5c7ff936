//! Turns a page's bytes into candidate links (SPEC section 3).

pub mod decode;
mod dom;
mod fast;
mod parsed;
mod wide_tags;

use std::sync::Arc;

use crate::policy::{Candidate, Region};
pub use decode::{CharsetSource, Decoded, decode};
use dom::{NodeData, NodeId};
pub use fast::Bail;
pub use parsed::{ParsedPage, base_url};
use parsed::{absolute_http, fold_whitespace};

const NO_NODE: NodeId = NodeId::MAX;

/// The value of the attribute `name` without a namespace (an SVG
/// `xlink:href` is not an `href`).
fn attr<'a>(attrs: &'a [html5ever::Attribute], name: &str) -> Option<&'a str> {
    attrs
        .iter()
        .find(|a| a.name.ns == html5ever::ns!() && &*a.name.local == name)
        .map(|a| &*a.value)
}

/// Parses decoded HTML: the document's `a[href]` in tree order, each with its
/// text content, the first `<base href>`, and the canonical URL. Most pages
/// are read by the fast path (`fast`), the rest by html5ever; both read a
/// page alike.
pub fn parse(html: &str) -> ParsedPage {
    fast::parse(html).unwrap_or_else(|_| parse_with_html5ever(html))
}

/// The fast path alone: the page, or why it leaves the page to html5ever.
pub fn parse_fast(html: &str) -> Result<ParsedPage, Bail> {
    fast::parse(html)
}

/// The page as html5ever builds its tree, whatever the fast path would do.
pub fn parse_with_html5ever(html: &str) -> ParsedPage {
    let dom = dom::parse_document(html);
    let nodes = dom.nodes();
    let mut candidates = Vec::new();
    // One allocation for every link without text.
    let no_text: Arc<str> = Arc::from("");
    let mut base_href = None;
    let mut canonical = None;
    let mut og_url = None;
    // The text under open anchors, in tree order; an anchor's text content is
    // the slice between its start and end, so nested anchors cost no copies.
    let mut text = String::new();
    // (candidate index, where its text starts, the anchor's node).
    let mut open_anchors: Vec<(usize, usize, NodeId)> = Vec::new();
    // The landmarks the walk is inside, innermost last.
    let mut open_regions: Vec<(Region, NodeId)> = Vec::new();
    let mut node = nodes[0].first_child;
    while node != NO_NODE {
        let n = &nodes[node as usize];
        if n.landmark != Region::Other {
            open_regions.push((n.landmark, node));
        }
        match &n.data {
            NodeData::Element { name, attrs } => {
                let html = name.ns == html5ever::ns!(html);
                match &*name.local {
                    "a" => {
                        if let Some(href) = attr(attrs, "href") {
                            open_anchors.push((candidates.len(), text.len(), node));
                            let nofollow = attr(attrs, "rel").is_some_and(|rel| {
                                rel.split_ascii_whitespace()
                                    .any(|r| r.eq_ignore_ascii_case("nofollow"))
                            });
                            candidates.push(Candidate {
                                href: Arc::from(href),
                                text: Arc::clone(&no_text),
                                nofollow,
                                region: open_regions.last().map_or(Region::Other, |r| r.0),
                            });
                        }
                    }
                    "base" if html && base_href.is_none() => {
                        base_href = attr(attrs, "href").map(str::to_owned);
                    }
                    "link" if html && canonical.is_none() => {
                        let is_canonical = attr(attrs, "rel").is_some_and(|rel| {
                            rel.split_ascii_whitespace()
                                .any(|r| r.eq_ignore_ascii_case("canonical"))
                        });
                        if is_canonical {
                            canonical = attr(attrs, "href").and_then(absolute_http);
                        }
                    }
                    "meta"
                        if html
                            && og_url.is_none()
                            && attr(attrs, "property") == Some("og:url") =>
                    {
                        og_url = attr(attrs, "content").and_then(absolute_http);
                    }
                    _ => {}
                }
            }
            NodeData::Text(t) if !open_anchors.is_empty() => text.push_str(t),
            _ => {}
        }
        // Tree order: down, else along, else up (closing anchors on the way).
        if n.first_child != NO_NODE {
            node = n.first_child;
            continue;
        }
        let mut at = node;
        loop {
            if let Some(&(index, start, anchor)) = open_anchors.last()
                && anchor == at
            {
                let folded = fold_whitespace(&text[start..]);
                if !folded.is_empty() {
                    candidates[index].text = Arc::from(folded);
                }
                open_anchors.pop();
                if open_anchors.is_empty() {
                    text.clear();
                }
            }
            if open_regions.last().is_some_and(|r| r.1 == at) {
                open_regions.pop();
            }
            let here = &nodes[at as usize];
            if here.next_sibling != NO_NODE {
                node = here.next_sibling;
                break;
            }
            at = here.parent;
            if at == NO_NODE || at == 0 {
                node = NO_NODE;
                break;
            }
        }
    }
    candidates.shrink_to_fit();
    ParsedPage {
        candidates,
        base_href,
        canonical_url: canonical.or(og_url),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use url::Url;

    #[test]
    fn anchors_with_href_in_document_order_with_folded_text() {
        let page = parse(
            "<a href='/a'>  About\n\t<b>us</b> </a><a name=x>no href</a>\
             <div><a href=''>Home</a></div><a href=/c>联系\u{3000}我们</a>",
        );
        let got: Vec<_> = page
            .candidates
            .iter()
            .map(|c| (&*c.href, &*c.text))
            .collect();
        assert_eq!(got, [("/a", "About us"), ("", "Home"), ("/c", "联系 我们")]);
    }

    #[test]
    fn words_split_only_by_whitespace_between_text_nodes() {
        let page = parse("<a href=/x>Con<span>tact</span></a>");
        assert_eq!(&*page.candidates[0].text, "Contact");
    }

    #[test]
    fn each_link_has_its_nearest_landmark_and_nofollow() {
        let page = parse(
            "<header><a href=/logo>Logo</a><nav><a href=/about>About</a></nav></header>\
             <div role=main><p><a href=/p1 rel='external NoFollow'>P1</a></p>\
             <aside><a href=/side>Side</a></aside><a href=/p2>P2</a></div>\
             <footer><div role=navigation><a href=/imprint>Imprint</a></div>\
             <a href=/privacy rel=nofollow>Privacy</a></footer><a href=/loose>Loose</a>\
             <svg><nav><a href=/svg-nav>x</a></nav></svg>",
        );
        let got: Vec<_> = page
            .candidates
            .iter()
            .map(|c| (&*c.href, c.region.id(), c.nofollow))
            .collect();
        assert_eq!(
            got,
            [
                ("/logo", "header", false),
                ("/about", "nav", false),
                ("/p1", "main", true),
                ("/side", "aside", false),
                ("/p2", "main", false),
                ("/imprint", "nav", false),
                ("/privacy", "footer", true),
                ("/loose", "other", false),
                ("/svg-nav", "other", false),
            ]
        );
    }

    fn hrefs(page: &ParsedPage) -> Vec<&str> {
        page.candidates.iter().map(|c| &*c.href).collect()
    }

    #[test]
    fn template_contents_are_not_part_of_the_document() {
        let page = parse(
            "<a href=/before>x</a><template><a href=/inert>Log in</a>\
             <template><a href=/nested>y</a></template></template><a href=/after>z</a>",
        );
        assert_eq!(hrefs(&page), ["/before", "/after"]);
    }

    #[test]
    fn an_svg_xlink_href_is_not_an_href_but_a_plain_href_on_svg_a_is() {
        let page = parse(
            "<svg><a xlink:href='/xlink'><text>old</text></a>\
             <a href='/svg2'><text>new</text></a></svg><a href=/html>h</a>",
        );
        assert_eq!(hrefs(&page), ["/svg2", "/html"]);
        assert_eq!(&*page.candidates[0].text, "new");
    }

    #[test]
    fn noscript_content_is_text_as_in_a_browser_with_scripts_on() {
        let page = parse("<body><noscript><a href=/ns>x</a></noscript><a href=/y>y</a>");
        assert_eq!(hrefs(&page), ["/y"]);
    }

    #[test]
    fn misnested_anchors_are_split_as_the_standard_says() {
        // The adoption agency closes the first anchor and clones it into the <p>.
        let page = parse("<a href=/one>one<p>two</a>three");
        let got: Vec<_> = page
            .candidates
            .iter()
            .map(|c| (&*c.href, &*c.text))
            .collect();
        assert_eq!(got, [("/one", "one"), ("/one", "two")]);
        // A table inside an anchor: text foster-parented out of the table.
        let page = parse("<a href=/t><table><tr><td>cell</td></tr></table>after</a>");
        assert_eq!(&*page.candidates[0].text, "cellafter");
    }

    fn nested(depth: usize, inner: &str) -> String {
        format!("{}{inner}{}", "<div>".repeat(depth), "</div>".repeat(depth))
    }

    #[test]
    fn elements_deeper_than_512_levels_go_to_their_grandparent() {
        // html, body, then divs: the anchor would be at level 2 + 600 + 1.
        let page = parse(&nested(600, "<a href=/deep>deep <b>bold</b> text</a>"));
        assert_eq!(hrefs(&page), ["/deep"]);
        // <b> would sit below the anchor at level 513: Chromium puts it beside
        // the anchor, so its text is not the anchor's.
        assert_eq!(&*page.candidates[0].text, "deep text");
        let shallow = parse(&nested(100, "<a href=/x>deep <b>bold</b> text</a>"));
        assert_eq!(&*shallow.candidates[0].text, "deep bold text");
    }

    #[test]
    fn a_hundred_thousand_nested_elements_keep_every_link() {
        let mut html = String::new();
        for i in 0..100_000 {
            html.push_str(&format!("<div><a href=/l{i}>link {i}</a>"));
        }
        let page = parse(&html);
        assert_eq!(page.candidates.len(), 100_000);
        assert_eq!(&*page.candidates[99_999].href, "/l99999");
        assert_eq!(&*page.candidates[99_999].text, "link 99999");
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

    /// The fast path (`fast.rs`) against html5ever's tree, page for page.
    mod fast_path {
        use super::*;
        use proptest::prelude::*;

        fn same_as_html5ever(html: &str) -> Result<ParsedPage, Bail> {
            let fast = parse_fast(html)?;
            let slow = parse_with_html5ever(html);
            assert_eq!(fast, slow, "{html:?}");
            Ok(fast)
        }

        fn links(html: &str) -> Vec<(String, String, &'static str)> {
            same_as_html5ever(html)
                .unwrap_or_else(|why| panic!("refused ({why:?}): {html:?}"))
                .candidates
                .iter()
                .map(|c| (c.href.to_string(), c.text.to_string(), c.region.id()))
                .collect()
        }

        #[test]
        fn a_plain_page_is_read_as_html5ever_reads_it() {
            let got = links(
                "<!DOCTYPE html><html><head><title>T &amp; co</title>\
                 <base href=/b/><link rel=canonical href='https://x.test/'></head>\
                 <body><header><nav><a href=/a>About &amp; us</a></nav></header>\
                 <main><p>Hi <a href='/c?x=1&copy=2'>Con<b>tact</b></a></main></body></html>",
            );
            assert_eq!(
                got,
                [
                    ("/a".into(), "About & us".into(), "nav"),
                    ("/c?x=1&copy=2".into(), "Contact".into(), "main"),
                ]
            );
        }

        #[test]
        fn what_the_adoption_agency_moves_is_read_here() {
            // `</a>` with a block open: the block leaves the anchor, and a
            // clone of the anchor takes the block's children.
            assert_eq!(
                links("<a href=/x>one<div>two</a>three</div>"),
                [
                    ("/x".into(), "one".into(), "other"),
                    ("/x".into(), "two".into(), "other")
                ]
            );
            // Formatting between is cloned; a link between loses the text.
            links("<a href=/a>a<b>b<i>i<p>p<a href=/n>n</a>q</b>r</p>s");
            links("<b>1<a href=/c>2<em>3<nav>4<a href=/d>5</b>6</nav>7</a>8");
            links("<nobr><a href=/e>1<div>2<nobr>3</div>4");
            links(&"<b>x<div>".repeat(3));
            links("<a href=/f>f<i>i<b>b<u>u<s>s<p>p</a>after");
            // Moves that take 200 levels off: html5ever's tree keeps the
            // moved block's grandchildren at their old depth, where the depth
            // rule puts `<i>` beside the anchor, not in it (the review's find).
            let deep = format!(
                "<b>{}{}</b>{}<a href=/z><i>y</i>q</a>",
                "<span>".repeat(200),
                "<div>".repeat(10),
                "<span>".repeat(300)
            );
            assert_eq!(same_as_html5ever(&deep).err(), Some(Bail::Deep));
            // The clone of a landmark would sit between the block and its
            // children, in another landmark: left to html5ever (the fuzzer's
            // find).
            let clone_in_another_landmark = "<b role=contentinfo><a role=contentinfo href=/3>\
                 <div role=navigation><a href=/4>x</a><a>";
            assert_eq!(
                same_as_html5ever(clone_in_another_landmark).err(),
                Some(Bail::Formatting)
            );
        }

        #[test]
        fn misnesting_that_moves_no_node_is_read_here() {
            // `</p>` closes the anchor; the text after it gets a clone.
            assert_eq!(
                links("<p><a href=/x>one</p>two</a>"),
                [
                    ("/x".into(), "one".into(), "other"),
                    ("/x".into(), "two".into(), "other")
                ]
            );
            // A second `<a>` closes the first.
            assert_eq!(links("<a href=/1>1<a href=/2>2</a>").len(), 2);
            links("<li><b>x<li>y</b>z");
            links("<div><span>x</div>y</span>");
            links("<select><option>a<option>b</select><a href=/s>s</a>");
        }

        #[test]
        fn tables_in_cells_and_their_spaces_are_read_here() {
            assert_eq!(
                links(
                    "<table> <tr> <td><a href=/t>cell <table><td>inner</table></a>\
                     <th>h</table><a href=/after>after</a>"
                ),
                [
                    ("/t".into(), "cell inner".into(), "other"),
                    ("/after".into(), "after".into(), "other")
                ]
            );
            links("<table><caption><a href=/c>c</a></caption><colgroup><col></colgroup></table>");
            links("<table><form><input type=hidden></form><tbody><tr><td>x</table>");
        }

        #[test]
        fn template_contents_are_read_by_neither_path() {
            assert_eq!(
                links(
                    "<head><template><base href=/t/><a href=/h>h</a></template>\
                     <base href=/b/></head><a href=/x>a<template>b<a href=/in>in</a>\
                     <table><tr><td><a href=/cell>c</template>c</a><template><col>\
                     <template><tr><td>x</td></template></template><a href=/y>y</a>"
                ),
                [
                    ("/x".into(), "ac".into(), "other"),
                    ("/y".into(), "y".into(), "other")
                ]
            );
            assert_eq!(
                same_as_html5ever("<template><base href=/t/></template><base href=/b/>")
                    .map(|page| page.base_href),
                Ok(Some("/b/".into()))
            );
            links(
                "<template><form><p>x</form></template><form><template></form>y</template></form>",
            );
            links("<template><p><a href=/f>x<div>y</a></template><a href=/g>g</a>");
            links("<table><template><td>t</template><tr><td><a href=/t>t</table>");
            links("<template><caption>c<tbody><tr><td>x</template>z");
            links("<template><colgroup><col><template></template></colgroup></template>");
            links("<template shadowrootmode=open><a href=/s>s</a></template><a href=/u>u</a>");
            links("<template><svg><template></template></svg></template><a href=/v>v</a>");
            // `</template>` clears the active formatting list only to the
            // object's marker: the anchor made in the template is made
            // again after it, a link of the document (the fuzzer's find).
            assert_eq!(
                links("<template><a href=/r><object></template>word two"),
                [("/r".into(), "word two".into(), "other")]
            );
        }

        #[test]
        fn a_table_after_an_open_p_follows_the_doctypes_quirks_mode() {
            // Limited quirks (XHTML 1.0 Transitional with its system id):
            // `<table>` closes the `<p>`; quirks (HTML 4.01 Transitional
            // without one): the table goes inside it.
            for doctype in [
                "<!DOCTYPE html PUBLIC \"-//W3C//DTD XHTML 1.0 Transitional//EN\" \
                 \"http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd\">",
                "<!DOCTYPE HTML PUBLIC \"-//W3C//DTD HTML 4.01 Transitional//EN\">",
                "<!doctype html system 'about:legacy-compat'>",
                "<!DOCTYPEhtml>",
            ] {
                links(&format!(
                    "{doctype}<p><a href=/p>p<table><tr><td><a href=/t>t</a></table>q</a>"
                ));
            }
        }

        #[test]
        fn scripts_comments_and_raw_text_end_where_the_tokenizer_ends_them() {
            links("<a href=/s><script><!-- <script>x</script> --></script>y</a>");
            links("<a href=/s><script><!-- x --></script>y</a>");
            links("<!-- a --!> <a href=/c>c</a> <!--> <!---> <!-- -- --->");
            links("<a href=/t><textarea>\n&lt;b&gt;</textarea><style>a</b></style></a>");
            links("<pre>\r\nx<a href=/p>p</a></pre><?php x ?></ x><! y>");
        }

        #[test]
        fn a_u_feff_after_the_decoder_is_text_in_both_readers() {
            // html5ever's `discard_bom` would drop it where `feed` resumes,
            // after `</script>` and after `<meta charset>`; a browser keeps it.
            let page = same_as_html5ever(
                "<a href=/x><script></script>\u{feff}</a>\
                 <meta charset=utf-8>\u{feff}<a href=/y>\u{feff}y</a>",
            )
            .unwrap();
            let texts: Vec<&str> = page.candidates.iter().map(|c| &*c.text).collect();
            assert_eq!(texts, ["\u{feff}", "\u{feff}y"]);
        }

        #[test]
        fn svg_links_and_titles_are_read_here() {
            assert_eq!(
                links(
                    "<a href=/h><svg><title>Home</title><path d=x /></svg></a><svg><a href=/s>s</a></svg>"
                ),
                [
                    ("/h".into(), "Home".into(), "other"),
                    ("/s".into(), "s".into(), "other")
                ]
            );
        }

        #[test]
        fn character_references_decode_as_html5ever_decodes_them() {
            links(
                "<a href='?a=1&amp;b=2&notit;&para'>&notit; &#x41;&#128;&#0;&#x110000;&;&#;&#x;</a>",
            );
            links("<a href=x&lt=1&lt;>&ampx &amp &AMP; &NotNestedLessLess;</a>");
        }

        /// Pieces of tag soup: the names, attributes, references, comments and
        /// raw text the rules treat apart.
        fn piece() -> impl Strategy<Value = String> {
            let names = prop::sample::select(vec![
                "a",
                "b",
                "i",
                "u",
                "font",
                "nobr",
                "p",
                "div",
                "span",
                "li",
                "ul",
                "ol",
                "dd",
                "dt",
                "table",
                "tbody",
                "thead",
                "tr",
                "td",
                "th",
                "caption",
                "colgroup",
                "col",
                "form",
                "input",
                "select",
                "option",
                "optgroup",
                "button",
                "svg",
                "title",
                "desc",
                "foreignObject",
                "path",
                "nav",
                "header",
                "footer",
                "main",
                "aside",
                "section",
                "h1",
                "h2",
                "pre",
                "listing",
                "textarea",
                "script",
                "style",
                "noscript",
                "iframe",
                "xmp",
                "html",
                "head",
                "body",
                "base",
                "link",
                "meta",
                "br",
                "img",
                "hr",
                "image",
                "object",
                "marquee",
                "ruby",
                "rt",
                "rp",
                "template",
                "math",
                "my-el",
                "A",
                "DiV",
                "strong",
                "em",
                "small",
                "applet",
                "dialog",
                "search",
                "summary",
                "h3",
                "frameset",
                "plaintext",
                "area",
                "wbr",
                "keygen",
                "embed",
                "param",
                "rb",
                "rtc",
                "label",
                "svG",
            ]);
            let attrs = prop::sample::select(vec![
                "",
                " href=/x",
                " href='/y?a=1&amp;b=2'",
                " href=\"/z&copy=1\"",
                " href=/n rel=nofollow",
                " role=navigation",
                " role='banner x'",
                " rel=canonical href=https://c.test/",
                " property=og:url content=https://o.test/",
                " type=hidden",
                " color=red",
                " href=/d href=/e",
                " /",
                " href",
                "=x href=/q",
                " HREF=/u",
                " hReF = '/w'",
                " href=\"/q\"title=x",
                " href=a/",
                " rel='x NoFollow'",
                " role=MAIN",
                " href=&#x2f;e&para",
                " href='/a\r\nb\tc'",
                " href=/&lt=1&lt",
                " color",
                " <a=b",
            ]);
            let text = prop::sample::select(vec![
                "x",
                " ",
                "\n",
                "\r\n",
                "word two",
                "&amp;",
                "&copy",
                "&notit;",
                "&#x41;",
                "&#128;",
                "&",
                "&nbsp;",
                "<",
                "<!-- c -->",
                "<!-->",
                "<!--->",
                "<!-- --!>",
                "<!x>",
                "<?x>",
                "</ x>",
                "</>",
                "<!DOCTYPE html>",
                "<!doctype html public>",
                "<![CDATA[x]]>",
                "<!--<script>",
                "</script>",
                "-->",
                "\u{feff}",
                "\t",
                "ü",
                "&auml;",
                "&#xD800;",
                "&#9999999999;",
                "\u{a0}",
                "&lt;a href=x&gt;",
                "&Afr;",
                "&NotEqualTilde;",
                "\u{c}",
                "</a >",
                "<a href=/r>",
                "</p>",
                "</br>",
            ]);
            prop_oneof![
                (names.clone(), attrs).prop_map(|(n, a)| format!("<{n}{a}>")),
                names.prop_map(|n| format!("</{n}>")),
                text.prop_map(str::to_owned),
            ]
        }

        /// Formatting elements, blocks, landmarks and links, misnested.
        fn misnested_piece() -> impl Strategy<Value = String> {
            let names = prop::sample::select(vec![
                "a", "b", "i", "em", "nobr", "font", "span", "div", "p", "nav", "li", "ul",
                "section", "table", "td", "tr", "form", "button", "h1", "main", "address",
                "template", "tbody", "caption", "col", "colgroup", "base", "head", "script",
            ]);
            let attrs = prop::sample::select(vec![
                "",
                " href=/1",
                " href=/2 rel=nofollow",
                " role=navigation",
                " role=contentinfo href=/3",
            ]);
            let text = prop::sample::select(vec!["x", "y ", " ", "z"]);
            prop_oneof![
                (names.clone(), attrs).prop_map(|(n, a)| format!("<{n}{a}>")),
                names.prop_map(|n| format!("</{n}>")),
                text.prop_map(str::to_owned),
            ]
        }

        /// Tags the wide-tag scan thins, or nearly, and what puts the scan
        /// out of step with the tokenizer (a `<` and a quote where no tag is
        /// read), among ordinary pieces.
        fn wide_piece() -> impl Strategy<Value = String> {
            let attrs = |n: usize| (0..n).map(|i| format!(" d{i}")).collect::<String>();
            let wide = super::wide_tags::WIDE_TAG;
            let pieces = vec![
                format!("<i{}>", attrs(wide + 1)),
                format!("<i{}>", attrs(wide)),
                format!("</i{}>", attrs(wide)),
                format!("</i{}>", attrs(wide - 1)),
                format!("<a href=/w{} href=/v>", attrs(wide)),
                format!("\"{}>", attrs(wide + 1)),
                format!("'{} href=/q>", attrs(wide + 1)),
                "<b x=\"".to_owned(),
                "<b x='".to_owned(),
                "\"".to_owned(),
                "'".to_owned(),
                "<script>".to_owned(),
                "</script>".to_owned(),
                "<!-- ".to_owned(),
                " -->".to_owned(),
                "<title>".to_owned(),
                "</title>".to_owned(),
                "<style>".to_owned(),
                "</style>".to_owned(),
            ];
            prop_oneof![prop::sample::select(pieces), piece()]
        }

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(2_000))]

            /// A page the wide-tag scan thins is left to html5ever, however
            /// the wide tag hides (`fast::Reader::passed_over`).
            #[test]
            fn pages_with_wide_tags_are_read_as_html5ever_reads_them(pieces in prop::collection::vec(wide_piece(), 0..30)) {
                let html: String = pieces.concat();
                let _ = same_as_html5ever(&html);
            }

            /// Whatever it accepts, the fast path reads as html5ever does.
            #[test]
            fn what_the_fast_path_accepts_it_reads_as_html5ever(pieces in prop::collection::vec(piece(), 0..80)) {
                let html: String = pieces.concat();
                let _ = same_as_html5ever(&html);
            }

            /// Misnested formatting and blocks, the adoption agency's moves.
            #[test]
            fn misnested_formatting_is_read_as_html5ever_reads_it(pieces in prop::collection::vec(misnested_piece(), 0..40)) {
                let html: String = pieces.concat();
                let _ = same_as_html5ever(&html);
            }
        }
    }
}
