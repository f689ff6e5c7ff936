//! The reader's fast path: the candidates, `<base href>` and canonical URL of
//! a document read in one pass, without building its tree, for the documents
//! whose tree is built by a part of the standard's rules this module follows
//! exactly as html5ever 0.40 does. Anything outside that part (a table that
//! would foster parent, templates, MathML, HTML inside SVG, an adoption
//! agency move across a landmark, a nesting deeper than Chromium's depth
//! rule reaches, an unusual character reference, ...) is refused with its
//! [`Bail`] reason, and the caller parses the document with html5ever.
//!
//! Why it can skip the tree: in the part it accepts, every node is inserted
//! as the last child of the current node, so an element's ancestors are the
//! stack of open elements when it is inserted, tree order is insertion
//! order, and an anchor's text is the text inserted while it is open. The
//! one move it follows, the adoption agency's, keeps tree order and changes
//! only which open anchors own the text read since the furthest block opened
//! (`move_furthest_block`). On the 265 real homepages of `../shared` this
//! path accepts 260 and reads them several times faster than html5ever's
//! tokenizer and tree builder (figures in `docs/performance.md`);
//! `tests/integration/real_pages.rs` and the proptests in `page/mod.rs` check
//! that what it accepts, it reads exactly as html5ever does.

mod bail;
mod charref;
mod formatting;
mod names;
mod rules;
mod scan;
mod tables;
mod tokens;

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::Arc;

use url::Url;

use super::parsed::{ParsedPage, absolute_http, fold_whitespace};
use crate::policy::{Candidate, Region};
pub use bail::Bail;
use charref::decode;
use names::{Name, is_svg_integration_point, known, landmark};

/// Stack depth at which the fast path stops: well short of `dom::MAX_DEPTH`.
const MAX_FAST_DEPTH: usize = 400;

/// Formatting entries of one name kept before the Noah's Ark clause could
/// apply; past it, html5ever compares attributes, which this path does not.
const MAX_SAME_FORMATTING: usize = 2;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ns {
    Html,
    Svg,
}

/// An element on the stack of open elements.
#[derive(Clone, Copy, Debug)]
struct Open {
    id: u32,
    name: Name,
    ns: Ns,
    /// The nearest landmark at or above this element.
    region: Region,
    /// Whether this element is an `a[href]` whose text is being collected.
    anchor: bool,
    /// Where its content starts: the candidates read and the length of the
    /// anchor text when it was inserted (an anchor's own candidate index and
    /// text start). What the adoption agency needs to move its content.
    cand_mark: usize,
    text_mark: usize,
}

impl Open {
    fn is(&self, name: Name) -> bool {
        self.ns == Ns::Html && self.name == name
    }

    fn is_html_in(&self, set: fn(Name) -> bool) -> bool {
        self.ns == Ns::Html && set(self.name)
    }

    /// html5ever's `default_scope` (MathML never gets here).
    fn bounds_default_scope(&self) -> bool {
        match self.ns {
            Ns::Html => matches!(
                self.name,
                Name::APPLET
                    | Name::CAPTION
                    | Name::HTML
                    | Name::TABLE
                    | Name::TD
                    | Name::TH
                    | Name::MARQUEE
                    | Name::OBJECT
                    | Name::SELECT
                    | Name::TEMPLATE
            ),
            Ns::Svg => is_svg_integration_point(self.name),
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Scope {
    Default,
    ListItem,
    Button,
}

/// An `a[href]`'s `href`, and whether its `rel` says nofollow.
type Link = (Arc<str>, bool);

/// What a formatting element's entry keeps to make its clone.
#[derive(Clone, Debug)]
struct Formatting {
    /// The element the entry stands for now.
    id: u32,
    name: Name,
    landmark: Region,
    /// `href` and whether `rel` says nofollow, for an `a[href]`.
    link: Option<Link>,
}

#[derive(Clone, Debug)]
enum Entry {
    Marker,
    Element(Formatting),
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Mode {
    Initial,
    BeforeHtml,
    BeforeHead,
    InHead,
    AfterHead,
    InBody,
    InTable,
    InTableBody,
    InRow,
    InCell,
    InCaption,
    InColumnGroup,
    InTemplate,
}

/// The doctype as far as the quirks mode matters here (`<table>` closes an
/// open `<p>` except in quirks mode).
#[derive(Clone, PartialEq, Eq)]
enum Doctype {
    /// None: quirks mode.
    Missing,
    /// `<!DOCTYPE html>`: no quirks.
    Html,
    /// Any other, where in the page: its quirks mode is asked of html5ever
    /// when it matters (the standard's lists of public and system ids).
    Other(std::ops::Range<usize>),
}

/// After a token in a mode: done, or to be processed again in the mode the
/// rules switched to.
enum Step {
    Done(Then),
    Again,
}

/// How the tokenizer goes on after a start tag.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Then {
    Data,
    RawText,
    RcData,
    ScriptData,
}

/// The attributes of a tag that the reader or the rules read: borrowed from
/// the page unless a reference or a carriage return had to be decoded.
#[derive(Default)]
struct Attrs<'a> {
    href: Option<Cow<'a, str>>,
    rel: Option<Cow<'a, str>>,
    role: Option<Cow<'a, str>>,
    property: Option<Cow<'a, str>>,
    content: Option<Cow<'a, str>>,
    /// `type=hidden` (an `<input>` a table keeps).
    hidden: bool,
    /// `font` has `color`, `face` or `size` (it then leaves foreign content).
    font_styling: bool,
}

struct Tag<'a> {
    name: Name,
    self_closing: bool,
    attrs: Attrs<'a>,
}

/// An `a` element's link, from its attributes.
fn link_of(attrs: &Attrs) -> Option<Link> {
    attrs.href.as_ref().map(|href| {
        let nofollow = attrs.rel.as_deref().is_some_and(|rel| {
            rel.split_ascii_whitespace()
                .any(|r| r.eq_ignore_ascii_case("nofollow"))
        });
        (Arc::from(href.as_ref()), nofollow)
    })
}

/// Reads a document by the fast path, or says why it cannot.
///
/// A page `wide_tags` would thin is left to html5ever: the tags this path
/// reads count their attributes as that scan does (`Reader::tag`), and what
/// it passes over unread, the scan is run over (`Reader::passed_over`).
/// Running the scan over the whole page first was 9.4% of a corpus run's
/// instructions on the real-page archive.
pub fn parse(html: &str) -> Result<ParsedPage, Bail> {
    if memchr::memchr(0, html.as_bytes()).is_some() {
        return Err(Bail::Input);
    }
    let mut reader = Reader::new(html);
    reader.run()?;
    Ok(reader.finish())
}

struct Reader<'a> {
    src: &'a str,
    pos: usize,
    mode: Mode,
    doctype: Doctype,
    stack: Vec<Open>,
    active: Vec<Entry>,
    next_id: u32,
    form: Option<u32>,
    /// The tree builder's stack of template insertion modes.
    template_modes: Vec<Mode>,
    /// How many levels the adoption agency's moves have taken off the
    /// elements they moved, in all: `dom.rs` keeps a moved element's
    /// descendants at the depth they had, so its depth rule can see them up
    /// to this much deeper than they are. The depth bound counts it.
    moved_levels: usize,
    /// HTML `<template>` elements on the stack. While one is, what is
    /// inserted goes to its contents, outside the document: no link, no
    /// text, no base is read there (as `page::parse` reads html5ever's tree).
    templates_open: usize,
    /// The tree builder's `ignore_lf`: drop a newline that starts the next
    /// token (after `<pre>`, `<listing>`, `<textarea>`).
    ignore_lf: bool,
    /// The wide-tag scan has run to the end of the page and found nothing
    /// to thin (see [`Reader::passed_over`]).
    wide_scan_done: bool,
    unknown: HashMap<Box<[u8]>, Name>,
    lower: Vec<u8>,
    candidates: Vec<Candidate>,
    no_text: Arc<str>,
    /// The text under open anchors, in tree order.
    text: String,
    /// (candidate index, where its text starts) of the open anchors.
    open_anchors: Vec<(usize, usize)>,
    base_href: Option<String>,
    canonical: Option<Url>,
    og_url: Option<Url>,
}

impl<'a> Reader<'a> {
    fn new(src: &'a str) -> Self {
        Self {
            src,
            pos: 0,
            mode: Mode::Initial,
            doctype: Doctype::Missing,
            stack: Vec::with_capacity(64),
            active: Vec::new(),
            next_id: 0,
            form: None,
            template_modes: Vec::new(),
            moved_levels: 0,
            templates_open: 0,
            ignore_lf: false,
            wide_scan_done: false,
            unknown: HashMap::new(),
            lower: Vec::new(),
            candidates: Vec::new(),
            no_text: Arc::from(""),
            text: String::new(),
            open_anchors: Vec::new(),
            base_href: None,
            canonical: None,
            og_url: None,
        }
    }

    fn finish(mut self) -> ParsedPage {
        self.pop_to(0);
        self.candidates.shrink_to_fit();
        ParsedPage {
            candidates: self.candidates,
            base_href: self.base_href,
            canonical_url: self.canonical.or(self.og_url),
        }
    }

    fn bytes(&self) -> &'a [u8] {
        self.src.as_bytes()
    }

    // ------------------------------------------------------------------ text

    /// Text from `from` to `to` in the data state.
    fn characters(&mut self, from: usize, to: usize) -> Result<(), Bail> {
        if from >= to {
            return Ok(());
        }
        if self.before_body() {
            let raw = &self.src[from..to];
            let text = decode(raw, false)?;
            let rest = text.trim_start_matches(|c: char| c.is_ascii_whitespace());
            self.ignore_lf = false;
            if rest.is_empty() {
                // Whitespace before the body: dropped or put in the head.
                return Ok(());
            }
            self.open_body()?;
            // What is left goes to the body, into an anchor only where the
            // reconstruction makes one (one left open in a head template).
            self.reconstruct()?;
            if !self.open_anchors.is_empty() && self.templates_open == 0 {
                self.text.push_str(rest);
            }
            return Ok(());
        }
        if matches!(
            self.mode,
            Mode::InTable | Mode::InTableBody | Mode::InRow | Mode::InColumnGroup
        ) {
            return self.table_text(from, to);
        }
        if self.in_foreign_for_characters() {
            return self.take_ignore_lf_text(from, to, true);
        }
        // In body (or an SVG integration point): reconstruct, then insert.
        if self.ignore_lf {
            self.ignore_lf = false;
            let raw = &self.bytes()[from..to];
            let skip = match raw {
                [b'\n', ..] => 1,
                [b'\r', b'\n', ..] => 2,
                [b'\r', ..] => 1,
                [b'&', ..] => return Err(Bail::CharRef),
                _ => 0,
            };
            if from + skip >= to {
                return Ok(());
            }
            self.reconstruct()?;
            return self.append_text(from + skip, to, true);
        }
        self.reconstruct()?;
        self.append_text(from, to, true)
    }

    /// Text in a table, not in a cell or caption: kept in place when it is
    /// all spaces and the current node is the table's own, else foster
    /// parented, which this path refuses.
    fn table_text(&mut self, from: usize, to: usize) -> Result<(), Bail> {
        self.ignore_lf = false;
        let table_own = self.stack.last().is_some_and(|open| {
            open.ns == Ns::Html
                && matches!(
                    open.name,
                    Name::TABLE
                        | Name::TBODY
                        | Name::TFOOT
                        | Name::THEAD
                        | Name::TR
                        | Name::COLGROUP
                )
        });
        let raw = &self.bytes()[from..to];
        if !table_own || !raw.iter().all(u8::is_ascii_whitespace) {
            return Err(Bail::Foster);
        }
        self.append_text(from, to, false)
    }

    /// Text that goes to the current node without reconstruction (raw text,
    /// foreign content), minding `ignore_lf`.
    fn take_ignore_lf_text(&mut self, from: usize, to: usize, refs: bool) -> Result<(), Bail> {
        let mut from = from;
        if std::mem::take(&mut self.ignore_lf) {
            match &self.bytes()[from..to] {
                [b'\r', b'\n', ..] => from += 2,
                [b'\n' | b'\r', ..] => from += 1,
                [b'&', ..] if refs => return Err(Bail::CharRef),
                _ => {}
            }
        }
        self.append_text(from, to, refs)
    }

    fn append_text(&mut self, from: usize, to: usize, refs: bool) -> Result<(), Bail> {
        if self.open_anchors.is_empty() || from >= to || self.templates_open > 0 {
            // Nobody reads it: no anchor is open.
            return Ok(());
        }
        let raw = &self.src[from..to];
        if refs && raw.contains('&') {
            let decoded = decode(raw, false)?;
            self.text.push_str(&decoded);
        } else {
            self.text.push_str(raw);
        }
        Ok(())
    }

    // --------------------------------------------------------------- the tree

    fn before_body(&self) -> bool {
        matches!(
            self.mode,
            Mode::Initial | Mode::BeforeHtml | Mode::BeforeHead | Mode::InHead | Mode::AfterHead
        )
    }

    fn in_foreign(&self) -> bool {
        self.stack.last().is_some_and(|open| open.ns != Ns::Html)
    }

    /// Whether text goes by the foreign content rules (not at an SVG
    /// integration point, where it goes by the body's).
    fn in_foreign_for_characters(&self) -> bool {
        self.stack
            .last()
            .is_some_and(|open| open.ns == Ns::Svg && !is_svg_integration_point(open.name))
    }

    fn region(&self) -> Region {
        self.stack.last().map_or(Region::Other, |open| open.region)
    }

    /// Inserts an element as the current node's last child; pushes it unless
    /// `void`.
    fn insert(&mut self, name: Name, ns: Ns, attrs: &Attrs, void: bool) -> Result<u32, Bail> {
        let landmark = if ns == Ns::Html {
            landmark(name, attrs.role.as_deref())
        } else {
            Region::Other
        };
        let link = if name == Name::A {
            link_of(attrs)
        } else {
            None
        };
        if ns == Ns::Html && self.templates_open == 0 {
            self.read_head_element(name, attrs);
        }
        self.insert_made(name, ns, landmark, link, void)
    }

    fn insert_made(
        &mut self,
        name: Name,
        ns: Ns,
        landmark: Region,
        link: Option<Link>,
        void: bool,
    ) -> Result<u32, Bail> {
        if self.stack.len() + self.moved_levels >= MAX_FAST_DEPTH {
            return Err(Bail::Deep);
        }
        let region = if landmark == Region::Other {
            self.region()
        } else {
            landmark
        };
        let link = link.filter(|_| self.templates_open == 0);
        let anchor = link.is_some();
        let (cand_mark, text_mark) = (self.candidates.len(), self.text.len());
        if let Some((href, nofollow)) = link {
            if !void {
                self.open_anchors
                    .push((self.candidates.len(), self.text.len()));
            }
            self.candidates.push(Candidate {
                href,
                text: Arc::clone(&self.no_text),
                nofollow,
                region,
            });
        }
        let id = self.next_id;
        self.next_id += 1;
        if !void {
            if ns == Ns::Html && name == Name::TEMPLATE {
                self.templates_open += 1;
            }
            self.stack.push(Open {
                id,
                name,
                ns,
                region,
                anchor,
                cand_mark,
                text_mark,
            });
        }
        Ok(id)
    }

    /// `<base>`, `<link rel=canonical>` and `<meta property=og:url>`, read
    /// as `page::parse` reads them from the tree.
    fn read_head_element(&mut self, name: Name, attrs: &Attrs) {
        match name {
            Name::BASE if self.base_href.is_none() => {
                self.base_href = attrs.href.as_deref().map(str::to_owned);
            }
            Name::LINK if self.canonical.is_none() => {
                let is_canonical = attrs.rel.as_deref().is_some_and(|rel| {
                    rel.split_ascii_whitespace()
                        .any(|r| r.eq_ignore_ascii_case("canonical"))
                });
                if is_canonical {
                    self.canonical = attrs.href.as_deref().and_then(absolute_http);
                }
            }
            Name::META if self.og_url.is_none() && attrs.property.as_deref() == Some("og:url") => {
                self.og_url = attrs.content.as_deref().and_then(absolute_http);
            }
            _ => {}
        }
    }

    fn pop(&mut self) {
        if let Some(open) = self.stack.pop() {
            if open.anchor {
                self.close_anchor();
            }
            if open.is(Name::TEMPLATE) {
                self.templates_open -= 1;
            }
        }
    }

    fn pop_to(&mut self, len: usize) {
        while self.stack.len() > len {
            self.pop();
        }
    }

    fn close_anchor(&mut self) {
        if let Some((index, start)) = self.open_anchors.pop() {
            let folded = fold_whitespace(&self.text[start..]);
            if !folded.is_empty() {
                self.candidates[index].text = Arc::from(folded);
            }
            if self.open_anchors.is_empty() {
                self.text.clear();
            }
        }
    }

    fn current_is(&self, name: Name) -> bool {
        self.stack.last().is_some_and(|open| open.is(name))
    }

    fn in_scope(&self, scope: Scope, target: impl Fn(&Open) -> bool) -> bool {
        for open in self.stack.iter().rev() {
            if target(open) {
                return true;
            }
            if open.bounds_default_scope()
                || match scope {
                    Scope::Default => false,
                    Scope::ListItem => open.is(Name::OL) || open.is(Name::UL),
                    Scope::Button => open.is(Name::BUTTON),
                }
            {
                return false;
            }
        }
        false
    }

    fn in_scope_named(&self, scope: Scope, name: Name) -> bool {
        self.in_scope(scope, |open| open.is(name))
    }

    fn generate_implied_end(&mut self, except: Option<Name>) {
        while let Some(open) = self.stack.last() {
            if open.ns != Ns::Html || !open.name.is_implied_end() || Some(open.name) == except {
                return;
            }
            self.pop();
        }
    }

    /// Pops until an HTML element named `name` has been popped.
    fn pop_until_named(&mut self, name: Name) {
        while let Some(open) = self.stack.last() {
            let done = open.is(name);
            self.pop();
            if done {
                return;
            }
        }
    }

    fn close_p(&mut self) {
        self.generate_implied_end(Some(Name::P));
        self.pop_until_named(Name::P);
    }

    fn close_p_in_button_scope(&mut self) {
        if self.in_scope_named(Scope::Button, Name::P) {
            self.close_p();
        }
    }

    fn is_open(&self, id: u32) -> bool {
        self.stack.iter().rev().any(|open| open.id == id)
    }

    /// "Any other end tag" in body.
    fn end_tag_in_body_generic(&mut self, name: Name) {
        let mut found = None;
        for (index, open) in self.stack.iter().enumerate().rev() {
            if open.is(name) {
                found = Some(index);
                break;
            }
            if open.is_html_in(Name::is_special) {
                return;
            }
        }
        let Some(index) = found else {
            return;
        };
        self.generate_implied_end(Some(name));
        self.pop_to(index);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_this_path_does_not_follow_is_left_to_html5ever() {
        assert_eq!(
            parse("<table><tr><td><a href=/x></td><b><div>x</b>"),
            Err(Bail::Foster)
        );
        assert_eq!(parse("<frameset><frame>"), Err(Bail::Element));
        assert_eq!(parse("<template><tr> x"), Err(Bail::Foster));
        assert_eq!(parse("<table>text</table>"), Err(Bail::Foster));
        assert_eq!(parse("<math><mi>x</mi></math>"), Err(Bail::Element));
        assert_eq!(parse("<svg><div>"), Err(Bail::Foreign));
        assert_eq!(parse("a\0b"), Err(Bail::Input));
        assert_eq!(parse(&"<div>".repeat(500)), Err(Bail::Deep));
        assert_eq!(parse("<a href='x"), Err(Bail::Tokenizer));
    }

    #[test]
    fn a_page_the_wide_tag_scan_would_thin_is_left_to_html5ever_wherever_the_tag_is() {
        use crate::page::wide_tags::WIDE_TAG;
        let attrs = |n: usize| (0..n).map(|i| format!(" d{i}")).collect::<String>();
        let wide = format!("<i{}>", attrs(WIDE_TAG + 1));
        let page = |inside: &str| format!("<p><a href=/x>x</a>{inside}<a href=/y>y</a>");
        for inside in [
            wide.clone(),
            format!("<!-- {wide} -->"),
            format!("<script>var s = '{wide}';</script>"),
            format!("<title>{wide}</title>"),
            format!("<? {wide} ?>"),
            // The scan, put out of step by a quote in a script, meets it
            // after the script, where this path reads text.
            format!(
                "<script>s = '<b x=\"';</script>\"{}><a href=/z>z</a>",
                attrs(WIDE_TAG + 1)
            ),
        ] {
            assert_eq!(
                parse(&page(&inside)).map(|_| ()),
                Err(Bail::Input),
                "{inside}"
            );
        }
        // The scan reads an end tag's name as an attribute.
        let end_tag = format!("</i{}>", attrs(WIDE_TAG));
        assert_eq!(parse(&page(&end_tag)).map(|_| ()), Err(Bail::Input));
        let read = |html: &str| parse(html).map(|p| p.candidates.len());
        assert_eq!(read(&page(&format!("</i{}>", attrs(WIDE_TAG - 1)))), Ok(2));
        assert_eq!(read(&page(&format!("<i{}>", attrs(WIDE_TAG)))), Ok(2));
        // Out of step and nothing wide after: read here.
        assert_eq!(
            read(&page("<script>s = '<b x=\"';</script>\"<a href=/z>z</a>")),
            Ok(3)
        );
    }
}
