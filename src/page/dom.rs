//! The document tree as html5ever builds it, kept only as far as the reader
//! needs it: every node's place in the tree, element names, the attributes of
//! `a`, `base`, `link` and `meta`, and text. It differs from a general DOM in
//! what a browser also does differently from the bare tree-construction
//! algorithm, so the candidates are what `querySelectorAll('a[href]')` finds:
//!
//! - `<template>` contents go to a separate fragment, outside the document;
//! - an element that would sit deeper than [`MAX_DEPTH`] levels is attached to
//!   its parent's parent, as Chromium does;
//! - the tree builder's stack of open elements is kept bounded (see
//!   [`Bounded`]), so a page of deeply nested elements parses in linear time;
//! - a tag of a great many attributes is thinned first (`wide_tags`), so it
//!   too parses in linear time.

use std::borrow::Cow;
use std::cell::{Cell, Ref, RefCell};
use std::collections::HashMap;

use html5ever::interface::{ElementFlags, NodeOrText, QuirksMode, TreeSink};
use html5ever::tendril::StrTendril;
use html5ever::tokenizer::{
    BufferQueue, TagKind, Token, TokenSink, TokenSinkResult, Tokenizer, TokenizerOpts,
};
use html5ever::tree_builder::{TreeBuilder, TreeBuilderOpts};
use html5ever::{Attribute, LocalName, QualName, local_name, ns};

use crate::policy::Region;

/// Chromium's `kMaximumHTMLParserDOMTreeDepth`.
pub const MAX_DEPTH: u32 = 512;

/// Past this depth the tree builder is no longer given the start tags of
/// plain containers (see [`Bounded`]); their content goes to the element
/// above, where the depth rule would have put it anyway.
const STACK_BOUND: u32 = 2 * MAX_DEPTH;

pub type NodeId = u32;
const NONE: NodeId = NodeId::MAX;
const DOCUMENT: NodeId = 0;

#[derive(Debug)]
pub enum NodeData {
    Document,
    /// `attrs` are kept only for the elements the reader looks at.
    Element {
        name: QualName,
        attrs: Box<[Attribute]>,
    },
    Text(StrTendril),
    /// Comments, processing instructions, template contents.
    Other,
}

#[derive(Debug)]
pub struct Node {
    pub parent: NodeId,
    pub first_child: NodeId,
    last_child: NodeId,
    prev_sibling: NodeId,
    pub next_sibling: NodeId,
    /// Levels below the document, after the depth rule.
    depth: u32,
    /// Levels below the document in the tree builder's own tree, before the
    /// depth rule: how deep its stack of open elements is.
    built_depth: u32,
    /// The landmark this element is (`Other` for none).
    pub landmark: Region,
    pub data: NodeData,
}

impl Node {
    fn new(data: NodeData) -> Self {
        Self {
            parent: NONE,
            first_child: NONE,
            last_child: NONE,
            prev_sibling: NONE,
            next_sibling: NONE,
            depth: 0,
            built_depth: 0,
            landmark: Region::Other,
            data,
        }
    }
}

/// Whether the reader needs this element's attributes.
fn keeps_attrs(name: &QualName) -> bool {
    name.local == local_name!("a")
        || (name.ns == ns!(html)
            && matches!(
                name.local,
                local_name!("base") | local_name!("link") | local_name!("meta")
            ))
}

/// The landmark an element is: its ARIA role when that names one, else its
/// tag (HTML-AAM's implicit roles, without their context rules).
fn landmark(name: &QualName, attrs: &[Attribute]) -> Region {
    if name.ns != ns!(html) {
        return Region::Other;
    }
    let role = attrs
        .iter()
        .find(|a| a.name.ns == ns!() && a.name.local == local_name!("role"))
        .and_then(|a| a.value.split_ascii_whitespace().next())
        .map(str::to_ascii_lowercase);
    let by_role = match role.as_deref() {
        Some("navigation") => Region::Nav,
        Some("banner") => Region::Header,
        Some("main") => Region::Main,
        Some("complementary") => Region::Aside,
        Some("contentinfo") => Region::Footer,
        _ => Region::Other,
    };
    if by_role != Region::Other {
        return by_role;
    }
    match name.local {
        local_name!("nav") => Region::Nav,
        local_name!("header") => Region::Header,
        local_name!("main") => Region::Main,
        local_name!("aside") => Region::Aside,
        local_name!("footer") => Region::Footer,
        _ => Region::Other,
    }
}

/// The tree html5ever builds into.
pub struct Dom {
    nodes: RefCell<Vec<Node>>,
    /// Template element → its contents fragment.
    templates: RefCell<HashMap<NodeId, NodeId>>,
    /// The built depth of the element inserted last: the tree builder's stack
    /// depth, as far as [`Bounded`] needs to know it.
    open_depth: Cell<u32>,
    /// What the tree builder made of the doctype.
    quirks: Cell<QuirksMode>,
}

impl Dom {
    /// A tree with room for `nodes` nodes, so a large page's tree is not
    /// copied as it grows.
    fn with_capacity(nodes: usize) -> Self {
        let mut all = SPARE_NODES.take();
        all.reserve(nodes.max(1));
        all.push(Node::new(NodeData::Document));
        Self {
            nodes: RefCell::new(all),
            templates: RefCell::new(HashMap::new()),
            open_depth: Cell::new(0),
            quirks: Cell::new(QuirksMode::NoQuirks),
        }
    }

    /// The document's quirks mode, as the tree builder set it.
    pub fn quirks_mode(&self) -> QuirksMode {
        self.quirks.get()
    }

    /// The nodes, the document first.
    pub fn nodes(&self) -> Ref<'_, Vec<Node>> {
        self.nodes.borrow()
    }

    fn push(&self, node: Node) -> NodeId {
        let mut nodes = self.nodes.borrow_mut();
        let id = NodeId::try_from(nodes.len()).unwrap_or(NONE - 1);
        nodes.push(node);
        id
    }

    fn detach(nodes: &mut [Node], id: NodeId) {
        let (parent, prev, next) = {
            let n = &nodes[id as usize];
            (n.parent, n.prev_sibling, n.next_sibling)
        };
        if parent == NONE {
            return;
        }
        match prev {
            NONE => nodes[parent as usize].first_child = next,
            p => nodes[p as usize].next_sibling = next,
        }
        match next {
            NONE => nodes[parent as usize].last_child = prev,
            n => nodes[n as usize].prev_sibling = prev,
        }
        let n = &mut nodes[id as usize];
        n.parent = NONE;
        n.prev_sibling = NONE;
        n.next_sibling = NONE;
    }

    /// Inserts `child` under `parent`, before `before` (or last).
    fn link(nodes: &mut [Node], parent: NodeId, child: NodeId, before: NodeId) {
        Self::detach(nodes, child);
        let prev = match before {
            NONE => nodes[parent as usize].last_child,
            b => nodes[b as usize].prev_sibling,
        };
        let depth = nodes[parent as usize].depth + 1;
        let c = &mut nodes[child as usize];
        c.parent = parent;
        c.prev_sibling = prev;
        c.next_sibling = before;
        c.depth = depth;
        match prev {
            NONE => nodes[parent as usize].first_child = child,
            p => nodes[p as usize].next_sibling = child,
        }
        match before {
            NONE => nodes[parent as usize].last_child = child,
            b => nodes[b as usize].prev_sibling = child,
        }
    }

    /// Where a new child of `parent` goes: an element that would sit deeper
    /// than `MAX_DEPTH` goes to `parent`'s parent (Chromium).
    fn place(nodes: &[Node], parent: NodeId, is_element: bool) -> NodeId {
        let p = &nodes[parent as usize];
        if is_element && p.depth >= MAX_DEPTH && p.parent != NONE {
            p.parent
        } else {
            parent
        }
    }

    fn insert(&self, parent: NodeId, before: NodeId, child: NodeOrText<NodeId>) {
        let mut nodes = self.nodes.borrow_mut();
        match child {
            NodeOrText::AppendNode(id) => {
                let built = nodes[parent as usize].built_depth + 1;
                let is_element = matches!(nodes[id as usize].data, NodeData::Element { .. });
                // Not moved by the depth rule when it goes before a sibling:
                // that sibling is already where the rule allows.
                let target = if before == NONE {
                    Self::place(&nodes, parent, is_element)
                } else {
                    parent
                };
                Self::link(&mut nodes, target, id, before);
                nodes[id as usize].built_depth = built;
                if is_element {
                    self.open_depth.set(built);
                }
            }
            NodeOrText::AppendText(text) => {
                // Adjacent text joins the text node before it, as in a DOM.
                let prev = match before {
                    NONE => nodes[parent as usize].last_child,
                    b => nodes[b as usize].prev_sibling,
                };
                if prev != NONE
                    && let NodeData::Text(existing) = &mut nodes[prev as usize].data
                {
                    existing.push_tendril(&text);
                    return;
                }
                drop(nodes);
                let id = self.push(Node::new(NodeData::Text(text)));
                let mut nodes = self.nodes.borrow_mut();
                Self::link(&mut nodes, parent, id, before);
            }
        }
    }

    fn parent_of(&self, id: NodeId) -> NodeId {
        self.nodes.borrow()[id as usize].parent
    }
}

thread_local! {
    /// The node array of the tree this thread built last, emptied: the next
    /// page's tree is built into it. On a corpus run of 2,000 real homepages
    /// a fresh array a page cost about half the minor page faults (7,700–8,600
    /// → 3,800–7,100) and 20 MB of peak memory (75 → 54–69 MB).
    static SPARE_NODES: Cell<Vec<Node>> = const { Cell::new(Vec::new()) };
}

/// A node array larger than this is let go rather than kept for the next
/// page: one huge page must not hold a thread's memory for the rest of a run.
const MAX_SPARE_NODES: usize = 64 * 1024;

impl Drop for Dom {
    fn drop(&mut self) {
        let mut nodes = std::mem::take(self.nodes.get_mut());
        if nodes.capacity() <= MAX_SPARE_NODES {
            nodes.clear();
            SPARE_NODES.set(nodes);
        }
    }
}

impl TreeSink for Dom {
    type Handle = NodeId;
    type Output = Self;
    type ElemName<'a> = Ref<'a, QualName>;

    fn finish(self) -> Self {
        self
    }

    fn parse_error(&self, _msg: Cow<'static, str>) {}

    fn get_document(&self) -> NodeId {
        DOCUMENT
    }

    fn elem_name<'a>(&'a self, target: &'a NodeId) -> Ref<'a, QualName> {
        Ref::map(self.nodes.borrow(), |nodes| {
            match &nodes[*target as usize].data {
                NodeData::Element { name, .. } => name,
                // The tree builder asks only for elements' names.
                _ => &PLACEHOLDER_NAME,
            }
        })
    }

    fn create_element(&self, name: QualName, attrs: Vec<Attribute>, flags: ElementFlags) -> NodeId {
        let landmark = landmark(&name, &attrs);
        let attrs = if keeps_attrs(&name) {
            attrs.into_boxed_slice()
        } else {
            Box::default()
        };
        let id = self.push(Node {
            landmark,
            ..Node::new(NodeData::Element { name, attrs })
        });
        if flags.template {
            let contents = self.push(Node::new(NodeData::Other));
            self.templates.borrow_mut().insert(id, contents);
        }
        id
    }

    fn create_comment(&self, _text: StrTendril) -> NodeId {
        self.push(Node::new(NodeData::Other))
    }

    fn create_pi(&self, _target: StrTendril, _data: StrTendril) -> NodeId {
        self.push(Node::new(NodeData::Other))
    }

    fn append(&self, parent: &NodeId, child: NodeOrText<NodeId>) {
        self.insert(*parent, NONE, child);
    }

    fn append_based_on_parent_node(
        &self,
        element: &NodeId,
        prev_element: &NodeId,
        child: NodeOrText<NodeId>,
    ) {
        if self.parent_of(*element) == NONE {
            self.append(prev_element, child);
        } else {
            self.append_before_sibling(element, child);
        }
    }

    fn append_doctype_to_document(&self, _: StrTendril, _: StrTendril, _: StrTendril) {}

    fn get_template_contents(&self, target: &NodeId) -> NodeId {
        if let Some(contents) = self.templates.borrow().get(target) {
            return *contents;
        }
        // Only templates are asked; anything else keeps its own children.
        *target
    }

    fn pop(&self, node: &NodeId) {
        let built = self.nodes.borrow()[*node as usize].built_depth;
        self.open_depth.set(built.saturating_sub(1));
    }

    fn same_node(&self, x: &NodeId, y: &NodeId) -> bool {
        x == y
    }

    fn set_quirks_mode(&self, mode: QuirksMode) {
        self.quirks.set(mode);
    }

    fn append_before_sibling(&self, sibling: &NodeId, new_node: NodeOrText<NodeId>) {
        let parent = self.parent_of(*sibling);
        if parent != NONE {
            self.insert(parent, *sibling, new_node);
        }
    }

    fn add_attrs_if_missing(&self, target: &NodeId, attrs: Vec<Attribute>) {
        let mut nodes = self.nodes.borrow_mut();
        if let NodeData::Element { name, attrs: have } = &mut nodes[*target as usize].data
            && keeps_attrs(name)
        {
            let mut all = std::mem::take(have).into_vec();
            for attr in attrs {
                if !all.iter().any(|a| a.name == attr.name) {
                    all.push(attr);
                }
            }
            *have = all.into_boxed_slice();
        }
    }

    fn remove_from_parent(&self, target: &NodeId) {
        Self::detach(&mut self.nodes.borrow_mut(), *target);
    }

    fn reparent_children(&self, node: &NodeId, new_parent: &NodeId) {
        let mut nodes = self.nodes.borrow_mut();
        let mut child = nodes[*node as usize].first_child;
        while child != NONE {
            let next = nodes[child as usize].next_sibling;
            Self::link(&mut nodes, *new_parent, child, NONE);
            child = next;
        }
    }
}

static PLACEHOLDER_NAME: std::sync::LazyLock<QualName> =
    std::sync::LazyLock::new(|| QualName::new(None, ns!(), local_name!("")));

/// Plain containers: their start and end tags only group content, so leaving
/// them out past [`STACK_BOUND`] changes no link or link text. Elements that
/// change how what follows is parsed (tables, forms, scripts, foreign
/// content, formatting elements, `a`) are always passed on.
fn is_plain_container(name: &LocalName) -> bool {
    matches!(
        *name,
        local_name!("div")
            | local_name!("span")
            | local_name!("section")
            | local_name!("article")
            | local_name!("nav")
            | local_name!("header")
            | local_name!("footer")
            | local_name!("main")
            | local_name!("aside")
            | local_name!("ul")
            | local_name!("ol")
            | local_name!("dl")
            | local_name!("center")
            | local_name!("blockquote")
            | local_name!("figure")
            | local_name!("figcaption")
            | local_name!("details")
            | local_name!("summary")
            | local_name!("address")
            | local_name!("hgroup")
            | local_name!("fieldset")
            | local_name!("label")
            | local_name!("abbr")
            | local_name!("cite")
            | local_name!("q")
            | local_name!("sub")
            | local_name!("sup")
            | local_name!("mark")
            | local_name!("time")
            | local_name!("bdi")
            | local_name!("bdo")
            | local_name!("var")
            | local_name!("kbd")
            | local_name!("samp")
            | local_name!("ins")
            | local_name!("del")
            | local_name!("dfn")
    )
}

/// Sits between the tokenizer and the tree builder. html5ever checks scopes
/// by walking its stack of open elements, so a page of n nested elements costs
/// n² steps. Past [`STACK_BOUND`] levels, the start tags of plain containers
/// (and as many of their end tags) are not passed on: the stack stays bounded
/// and parsing linear. A browser flattens that deep anyway (see `MAX_DEPTH`).
struct Bounded {
    builder: TreeBuilder<NodeId, Dom>,
    /// Start tags left out, by name, whose end tags are to be left out too.
    skipped: RefCell<HashMap<LocalName, usize>>,
}

impl TokenSink for Bounded {
    type Handle = NodeId;

    fn process_token(&self, token: Token, line_number: u64) -> TokenSinkResult<NodeId> {
        if let Token::TagToken(tag) = &token
            && is_plain_container(&tag.name)
        {
            let mut skipped = self.skipped.borrow_mut();
            match tag.kind {
                TagKind::StartTag if self.builder.sink.open_depth.get() >= STACK_BOUND => {
                    *skipped.entry(tag.name.clone()).or_default() += 1;
                    return TokenSinkResult::Continue;
                }
                TagKind::EndTag => {
                    if let Some(count) = skipped.get_mut(&tag.name)
                        && *count > 0
                    {
                        *count -= 1;
                        return TokenSinkResult::Continue;
                    }
                }
                TagKind::StartTag => {}
            }
        }
        self.builder.process_token(token, line_number)
    }

    fn end(&self) {
        self.builder.end();
    }

    fn adjusted_current_node_present_but_not_in_html_namespace(&self) -> bool {
        self.builder
            .adjusted_current_node_present_but_not_in_html_namespace()
    }
}

/// Builds the tree of a whole document, as a browser with scripting on does
/// (so `<noscript>` content is text).
pub fn parse_document(html: &str) -> Dom {
    let html = super::wide_tags::thin_wide_tags(html);
    // About one node per `<`: a start tag, or the text before an end tag.
    let nodes = memchr::memchr_iter(b'<', html.as_bytes()).count() + 16;
    let builder = TreeBuilder::new(Dom::with_capacity(nodes), TreeBuilderOpts::default());
    let bounded = Bounded {
        builder,
        skipped: RefCell::new(HashMap::new()),
    };
    // `page::decode` drops a byte order mark as a browser's decoder does; a
    // U+FEFF after that is text. html5ever's `discard_bom` would drop one
    // each time `feed` resumes (after `</script>`, after `<meta charset>`).
    let opts = TokenizerOpts {
        discard_bom: false,
        ..TokenizerOpts::default()
    };
    let tokenizer = Tokenizer::new(bounded, opts);
    let input = BufferQueue::default();
    input.push_back(StrTendril::from_slice(&html));
    while !matches!(tokenizer.feed(&input), html5ever::TokenizerResult::Done) {}
    tokenizer.end();
    let Bounded { builder, .. } = tokenizer.sink;
    builder.sink
}
