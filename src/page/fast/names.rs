//! The tag names html5ever's rules name, and the sets its rules use:
//! `special`, implied end tags, formatting elements, the start tags that
//! leave foreign content; and the landmark an element is.

use crate::policy::Region;

macro_rules! names {
    ($($id:ident = $s:literal),* $(,)?) => {
        #[allow(non_camel_case_types, clippy::upper_case_acronyms, dead_code)]
        #[repr(u16)]
        enum Ids { $($id),*, COUNT }
        impl Name {
            $(pub(super) const $id: Name = Name(Ids::$id as u16);)*
            pub(super) const FIRST_UNKNOWN: u16 = Ids::COUNT as u16;
        }
        /// The id of a tag name html5ever's rules name.
        pub(super) fn known(name: &[u8]) -> Option<Name> {
            match name {
                $($s => Some(Name::$id),)*
                _ => None,
            }
        }
    };
}

/// A lowercased tag name: the names the rules mention have fixed ids, any
/// other is numbered as first seen on the page.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Name(pub(super) u16);

names! {
    A = b"a", ADDRESS = b"address", APPLET = b"applet", AREA = b"area",
    ARTICLE = b"article", ASIDE = b"aside", B = b"b", BASE = b"base",
    BASEFONT = b"basefont", BGSOUND = b"bgsound", BIG = b"big",
    BLOCKQUOTE = b"blockquote", BODY = b"body", BR = b"br", BUTTON = b"button",
    CAPTION = b"caption", CENTER = b"center", CODE = b"code", COL = b"col",
    COLGROUP = b"colgroup", DD = b"dd", DESC = b"desc", DETAILS = b"details",
    DIALOG = b"dialog", DIR = b"dir", DIV = b"div", DL = b"dl", DT = b"dt",
    EM = b"em", EMBED = b"embed", FIELDSET = b"fieldset",
    FIGCAPTION = b"figcaption", FIGURE = b"figure", FONT = b"font",
    FOOTER = b"footer", FOREIGNOBJECT = b"foreignobject", FORM = b"form",
    FRAME = b"frame", FRAMESET = b"frameset", H1 = b"h1", H2 = b"h2",
    H3 = b"h3", H4 = b"h4", H5 = b"h5", H6 = b"h6", HEAD = b"head",
    HEADER = b"header", HGROUP = b"hgroup", HR = b"hr", HTML = b"html",
    I = b"i", IFRAME = b"iframe", IMAGE = b"image", IMG = b"img",
    INPUT = b"input", ISINDEX = b"isindex", KEYGEN = b"keygen", LI = b"li",
    LINK = b"link", LISTING = b"listing", MAIN = b"main", MARQUEE = b"marquee",
    MATH = b"math", MENU = b"menu", META = b"meta", NAV = b"nav", NOBR = b"nobr",
    NOEMBED = b"noembed", NOFRAMES = b"noframes", NOSCRIPT = b"noscript",
    OBJECT = b"object", OL = b"ol", OPTGROUP = b"optgroup", OPTION = b"option",
    P = b"p", PARAM = b"param", PLAINTEXT = b"plaintext", PRE = b"pre",
    RB = b"rb", RP = b"rp", RT = b"rt", RTC = b"rtc", RUBY = b"ruby", S = b"s",
    SCRIPT = b"script", SEARCH = b"search", SECTION = b"section",
    SELECT = b"select", SMALL = b"small", SOURCE = b"source", SPAN = b"span",
    STRIKE = b"strike", STRONG = b"strong", STYLE = b"style", SUB = b"sub",
    SUMMARY = b"summary", SUP = b"sup", SVG = b"svg", TABLE = b"table",
    TBODY = b"tbody", TD = b"td", TEMPLATE = b"template", TEXTAREA = b"textarea",
    TFOOT = b"tfoot", TH = b"th", THEAD = b"thead", TITLE = b"title", TR = b"tr",
    TRACK = b"track", TT = b"tt", U = b"u", UL = b"ul", VAR = b"var", WBR = b"wbr",
    XMP = b"xmp",
}

impl Name {
    pub(super) fn is_heading(self) -> bool {
        matches!(
            self,
            Name::H1 | Name::H2 | Name::H3 | Name::H4 | Name::H5 | Name::H6
        )
    }

    /// html5ever's `special_tag` (HTML elements only).
    pub(super) fn is_special(self) -> bool {
        matches!(
            self,
            Name::ADDRESS
                | Name::APPLET
                | Name::AREA
                | Name::ARTICLE
                | Name::ASIDE
                | Name::BASE
                | Name::BASEFONT
                | Name::BGSOUND
                | Name::BLOCKQUOTE
                | Name::BODY
                | Name::BR
                | Name::BUTTON
                | Name::CAPTION
                | Name::CENTER
                | Name::COL
                | Name::COLGROUP
                | Name::DD
                | Name::DETAILS
                | Name::DIR
                | Name::DIV
                | Name::DL
                | Name::DT
                | Name::EMBED
                | Name::FIELDSET
                | Name::FIGCAPTION
                | Name::FIGURE
                | Name::FOOTER
                | Name::FORM
                | Name::FRAME
                | Name::FRAMESET
                | Name::H1
                | Name::H2
                | Name::H3
                | Name::H4
                | Name::H5
                | Name::H6
                | Name::HEAD
                | Name::HEADER
                | Name::HGROUP
                | Name::HR
                | Name::HTML
                | Name::IFRAME
                | Name::IMG
                | Name::INPUT
                | Name::ISINDEX
                | Name::LI
                | Name::LINK
                | Name::LISTING
                | Name::MAIN
                | Name::MARQUEE
                | Name::MENU
                | Name::META
                | Name::NAV
                | Name::NOEMBED
                | Name::NOFRAMES
                | Name::NOSCRIPT
                | Name::OBJECT
                | Name::OL
                | Name::P
                | Name::PARAM
                | Name::PLAINTEXT
                | Name::PRE
                | Name::SCRIPT
                | Name::SECTION
                | Name::SELECT
                | Name::SOURCE
                | Name::STYLE
                | Name::SUMMARY
                | Name::TABLE
                | Name::TBODY
                | Name::TD
                | Name::TEMPLATE
                | Name::TEXTAREA
                | Name::TFOOT
                | Name::TH
                | Name::THEAD
                | Name::TITLE
                | Name::TR
                | Name::TRACK
                | Name::UL
                | Name::WBR
                | Name::XMP
        )
    }

    /// html5ever's `cursory_implied_end`.
    pub(super) fn is_implied_end(self) -> bool {
        matches!(
            self,
            Name::DD
                | Name::DT
                | Name::LI
                | Name::OPTION
                | Name::OPTGROUP
                | Name::P
                | Name::RB
                | Name::RP
                | Name::RT
                | Name::RTC
        )
    }

    /// Start tags the body, after-head and in-template modes give to the
    /// in-head rules.
    pub(super) fn goes_by_in_head_rules(self) -> bool {
        matches!(
            self,
            Name::BASE
                | Name::BASEFONT
                | Name::BGSOUND
                | Name::LINK
                | Name::META
                | Name::NOFRAMES
                | Name::SCRIPT
                | Name::STYLE
                | Name::TEMPLATE
                | Name::TITLE
        )
    }

    /// html5ever's `thorough_implied_end`.
    pub(super) fn is_thorough_implied_end(self) -> bool {
        self.is_implied_end()
            || matches!(
                self,
                Name::CAPTION
                    | Name::COLGROUP
                    | Name::TBODY
                    | Name::TD
                    | Name::TFOOT
                    | Name::TH
                    | Name::THEAD
                    | Name::TR
            )
    }

    pub(super) fn is_formatting(self) -> bool {
        matches!(
            self,
            Name::B
                | Name::BIG
                | Name::CODE
                | Name::EM
                | Name::FONT
                | Name::I
                | Name::S
                | Name::SMALL
                | Name::STRIKE
                | Name::STRONG
                | Name::TT
                | Name::U
        )
    }

    /// Where html5ever's `appropriate_place_for_insertion` may foster parent
    /// (or, for a template, insert into its contents).
    pub(super) fn is_foster_target(self) -> bool {
        matches!(
            self,
            Name::TABLE | Name::TBODY | Name::TFOOT | Name::THEAD | Name::TR | Name::TEMPLATE
        )
    }

    /// Start tags that leave foreign content (`font` is asked apart).
    pub(super) fn breaks_out_of_foreign(self) -> bool {
        matches!(
            self,
            Name::B
                | Name::BIG
                | Name::BLOCKQUOTE
                | Name::BODY
                | Name::BR
                | Name::CENTER
                | Name::CODE
                | Name::DD
                | Name::DIV
                | Name::DL
                | Name::DT
                | Name::EM
                | Name::EMBED
                | Name::H1
                | Name::H2
                | Name::H3
                | Name::H4
                | Name::H5
                | Name::H6
                | Name::HEAD
                | Name::HR
                | Name::I
                | Name::IMG
                | Name::LI
                | Name::LISTING
                | Name::MENU
                | Name::META
                | Name::NOBR
                | Name::OL
                | Name::P
                | Name::PRE
                | Name::RUBY
                | Name::S
                | Name::SMALL
                | Name::SPAN
                | Name::STRONG
                | Name::STRIKE
                | Name::SUB
                | Name::SUP
                | Name::TABLE
                | Name::TT
                | Name::U
                | Name::UL
                | Name::VAR
        )
    }
}

pub(super) fn is_svg_integration_point(name: Name) -> bool {
    matches!(name, Name::FOREIGNOBJECT | Name::DESC | Name::TITLE)
}

/// The landmark an HTML element is (as `dom::landmark`).
pub(super) fn landmark(name: Name, role: Option<&str>) -> Region {
    let first = role.and_then(|r| r.split_ascii_whitespace().next());
    let by_role = [
        ("navigation", Region::Nav),
        ("banner", Region::Header),
        ("main", Region::Main),
        ("complementary", Region::Aside),
        ("contentinfo", Region::Footer),
    ]
    .into_iter()
    .find(|(word, _)| first.is_some_and(|f| f.eq_ignore_ascii_case(word)))
    .map_or(Region::Other, |(_, region)| region);
    if by_role != Region::Other {
        return by_role;
    }
    match name {
        Name::NAV => Region::Nav,
        Name::HEADER => Region::Header,
        Name::MAIN => Region::Main,
        Name::ASIDE => Region::Aside,
        Name::FOOTER => Region::Footer,
        _ => Region::Other,
    }
}
