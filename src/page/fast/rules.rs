//! The tree rules for tags, as html5ever's insertion modes give them:
//! start and end tags from before the html element to after the body (the
//! table modes are in `tables.rs`, the active formatting elements in
//! `formatting.rs`), and in SVG. `mod.rs` keeps the reader's state, the
//! stack of open elements and its scopes, and the text.

use super::names::{Name, is_svg_integration_point};
use super::{Attrs, Bail, Doctype, Entry, Mode, Ns, Reader, Scope, Step, Tag, Then};

impl Reader<'_> {
    /// Creates the html, head and body elements a document lacks, up to the
    /// body.
    pub(super) fn open_body(&mut self) -> Result<(), Bail> {
        while self.before_body() {
            self.advance_one_mode()?;
        }
        Ok(())
    }

    /// The head's own elements, by the "in head" rules.
    pub(super) fn in_head_element(&mut self, tag: &Tag) -> Result<Option<Then>, Bail> {
        Ok(Some(match tag.name {
            Name::BASE | Name::BASEFONT | Name::BGSOUND | Name::LINK | Name::META => {
                self.insert(tag.name, Ns::Html, &tag.attrs, true)?;
                Then::Data
            }
            Name::TITLE => {
                self.insert(tag.name, Ns::Html, &tag.attrs, false)?;
                Then::RcData
            }
            Name::NOFRAMES | Name::STYLE | Name::NOSCRIPT => {
                self.insert(tag.name, Ns::Html, &tag.attrs, false)?;
                Then::RawText
            }
            Name::SCRIPT => {
                self.insert(tag.name, Ns::Html, &tag.attrs, false)?;
                Then::ScriptData
            }
            Name::TEMPLATE => {
                self.insert(tag.name, Ns::Html, &tag.attrs, false)?;
                self.active.push(Entry::Marker);
                self.mode = Mode::InTemplate;
                self.template_modes.push(Mode::InTemplate);
                Then::Data
            }
            _ => return Ok(None),
        }))
    }

    pub(super) fn start_tag(&mut self, tag: Tag) -> Result<Then, Bail> {
        self.ignore_lf = false;
        if !self.before_body() && self.in_foreign() {
            return self.foreign_start_tag(tag);
        }
        loop {
            match self.mode {
                Mode::Initial => self.mode = Mode::BeforeHtml,
                Mode::BeforeHtml => {
                    if tag.name == Name::HTML {
                        self.insert(Name::HTML, Ns::Html, &tag.attrs, false)?;
                        self.mode = Mode::BeforeHead;
                        return Ok(Then::Data);
                    }
                    self.insert(Name::HTML, Ns::Html, &Attrs::default(), false)?;
                    self.mode = Mode::BeforeHead;
                }
                Mode::BeforeHead => match tag.name {
                    Name::HTML => return Ok(Then::Data),
                    Name::HEAD => {
                        self.insert(Name::HEAD, Ns::Html, &tag.attrs, false)?;
                        self.mode = Mode::InHead;
                        return Ok(Then::Data);
                    }
                    _ => {
                        self.insert(Name::HEAD, Ns::Html, &Attrs::default(), false)?;
                        self.mode = Mode::InHead;
                    }
                },
                Mode::InHead => match tag.name {
                    Name::HTML | Name::HEAD => return Ok(Then::Data),
                    _ => {
                        if let Some(then) = self.in_head_element(&tag)? {
                            return Ok(then);
                        }
                        self.pop();
                        self.mode = Mode::AfterHead;
                    }
                },
                Mode::AfterHead => match tag.name {
                    Name::HTML | Name::HEAD => return Ok(Then::Data),
                    Name::BODY => {
                        self.insert(Name::BODY, Ns::Html, &tag.attrs, false)?;
                        self.mode = Mode::InBody;
                        return Ok(Then::Data);
                    }
                    Name::FRAMESET => return Err(Bail::Element),
                    _ if tag.name.goes_by_in_head_rules() => {
                        // Goes into the head, which is not an ancestor of
                        // anything read: the stack is as if it were not there.
                        let then = self.in_head_element(&tag)?;
                        return Ok(then.unwrap_or(Then::Data));
                    }
                    _ => {
                        self.insert(Name::BODY, Ns::Html, &Attrs::default(), false)?;
                        self.mode = Mode::InBody;
                    }
                },
                Mode::InTemplate => {
                    let mode = match tag.name {
                        _ if tag.name.goes_by_in_head_rules() => {
                            return Ok(self.in_head_element(&tag)?.unwrap_or(Then::Data));
                        }
                        Name::CAPTION
                        | Name::COLGROUP
                        | Name::TBODY
                        | Name::TFOOT
                        | Name::THEAD => Mode::InTable,
                        Name::COL => Mode::InColumnGroup,
                        Name::TR => Mode::InTableBody,
                        Name::TD | Name::TH => Mode::InRow,
                        _ => Mode::InBody,
                    };
                    self.template_modes.pop();
                    self.template_modes.push(mode);
                    self.mode = mode;
                }
                _ => {
                    if let Step::Done(then) = self.start_tag_in_table_modes(&tag)? {
                        return Ok(then);
                    }
                }
            }
        }
    }

    pub(super) fn start_tag_in_body(&mut self, tag: &Tag) -> Result<Then, Bail> {
        let name = tag.name;
        match name {
            Name::HTML | Name::BODY => {}
            _ if name.goes_by_in_head_rules() => {
                return Ok(self.in_head_element(tag)?.unwrap_or(Then::Data));
            }
            Name::FRAMESET | Name::PLAINTEXT | Name::MATH => {
                return Err(Bail::Element);
            }
            Name::TABLE => {
                if self.in_scope_named(Scope::Button, Name::P) {
                    let quirks = match &self.doctype {
                        Doctype::Html => false,
                        Doctype::Missing => true,
                        Doctype::Other(at) => {
                            crate::page::dom::parse_document(&self.src[at.clone()]).quirks_mode()
                                == html5ever::interface::QuirksMode::Quirks
                        }
                    };
                    if !quirks {
                        self.close_p();
                    }
                }
                self.insert(name, Ns::Html, &tag.attrs, false)?;
                self.mode = Mode::InTable;
            }
            Name::ADDRESS
            | Name::ARTICLE
            | Name::ASIDE
            | Name::BLOCKQUOTE
            | Name::CENTER
            | Name::DETAILS
            | Name::DIALOG
            | Name::DIR
            | Name::DIV
            | Name::DL
            | Name::FIELDSET
            | Name::FIGCAPTION
            | Name::FIGURE
            | Name::FOOTER
            | Name::HEADER
            | Name::HGROUP
            | Name::MAIN
            | Name::NAV
            | Name::OL
            | Name::P
            | Name::SEARCH
            | Name::SECTION
            | Name::SUMMARY
            | Name::UL
            | Name::MENU => {
                self.close_p_in_button_scope();
                self.insert(name, Ns::Html, &tag.attrs, false)?;
            }
            _ if name.is_heading() => {
                self.close_p_in_button_scope();
                if self
                    .stack
                    .last()
                    .is_some_and(|open| open.is_html_in(Name::is_heading))
                {
                    self.pop();
                }
                self.insert(name, Ns::Html, &tag.attrs, false)?;
            }
            Name::PRE | Name::LISTING => {
                self.close_p_in_button_scope();
                self.insert(name, Ns::Html, &tag.attrs, false)?;
                self.ignore_lf = true;
            }
            Name::FORM => {
                if self.form.is_none() || self.templates_open > 0 {
                    self.close_p_in_button_scope();
                    let id = self.insert(name, Ns::Html, &tag.attrs, false)?;
                    if self.templates_open == 0 {
                        self.form = Some(id);
                    }
                }
            }
            Name::LI | Name::DD | Name::DT => {
                let closes = |n: Name| {
                    if name == Name::LI {
                        n == Name::LI
                    } else {
                        n == Name::DD || n == Name::DT
                    }
                };
                let mut to_close = None;
                for open in self.stack.iter().rev() {
                    if open.ns == Ns::Html && closes(open.name) {
                        to_close = Some(open.name);
                        break;
                    }
                    if open.ns == Ns::Html
                        && open.name.is_special()
                        && !matches!(open.name, Name::ADDRESS | Name::DIV | Name::P)
                    {
                        break;
                    }
                }
                if let Some(close) = to_close {
                    self.generate_implied_end(Some(close));
                    self.pop_until_named(close);
                }
                self.close_p_in_button_scope();
                self.insert(name, Ns::Html, &tag.attrs, false)?;
            }
            Name::BUTTON => {
                if self.in_scope_named(Scope::Default, Name::BUTTON) {
                    self.generate_implied_end(None);
                    self.pop_until_named(Name::BUTTON);
                }
                self.reconstruct()?;
                self.insert(name, Ns::Html, &tag.attrs, false)?;
            }
            Name::A => {
                if let Some((_, id)) = self.formatting_named(Name::A) {
                    self.adoption_agency(Name::A)?;
                    if let Some(index) = self
                        .active
                        .iter()
                        .position(|e| matches!(e, Entry::Element(f) if f.id == id))
                    {
                        self.active.remove(index);
                    }
                    if self.is_open(id) {
                        return Err(Bail::Misnested);
                    }
                }
                self.reconstruct()?;
                self.push_formatting(name, &tag.attrs)?;
            }
            _ if name.is_formatting() => {
                self.reconstruct()?;
                self.push_formatting(name, &tag.attrs)?;
            }
            Name::NOBR => {
                self.reconstruct()?;
                if self.in_scope_named(Scope::Default, Name::NOBR) {
                    self.adoption_agency(Name::NOBR)?;
                    self.reconstruct()?;
                }
                self.push_formatting(name, &tag.attrs)?;
            }
            Name::APPLET | Name::MARQUEE | Name::OBJECT => {
                self.reconstruct()?;
                self.insert(name, Ns::Html, &tag.attrs, false)?;
                self.active.push(Entry::Marker);
            }
            Name::AREA | Name::BR | Name::EMBED | Name::IMG | Name::KEYGEN | Name::WBR => {
                self.reconstruct()?;
                self.insert(name, Ns::Html, &tag.attrs, true)?;
            }
            Name::IMAGE => {
                self.reconstruct()?;
                self.insert(Name::IMG, Ns::Html, &tag.attrs, true)?;
            }
            Name::INPUT => {
                if self.in_scope_named(Scope::Default, Name::SELECT) {
                    self.pop_until_named(Name::SELECT);
                }
                self.reconstruct()?;
                self.insert(name, Ns::Html, &tag.attrs, true)?;
            }
            Name::PARAM | Name::SOURCE | Name::TRACK => {
                self.insert(name, Ns::Html, &tag.attrs, true)?;
            }
            Name::HR => {
                self.close_p_in_button_scope();
                if self.in_scope_named(Scope::Default, Name::SELECT) {
                    self.generate_implied_end(None);
                }
                self.insert(name, Ns::Html, &tag.attrs, true)?;
            }
            Name::TEXTAREA => {
                self.insert(name, Ns::Html, &tag.attrs, false)?;
                self.ignore_lf = true;
                return Ok(Then::RcData);
            }
            Name::XMP => {
                self.close_p_in_button_scope();
                self.reconstruct()?;
                self.insert(name, Ns::Html, &tag.attrs, false)?;
                return Ok(Then::RawText);
            }
            Name::IFRAME | Name::NOEMBED | Name::NOSCRIPT => {
                self.insert(name, Ns::Html, &tag.attrs, false)?;
                return Ok(Then::RawText);
            }
            Name::SELECT if self.in_scope_named(Scope::Default, Name::SELECT) => {
                self.pop_until_named(Name::SELECT);
            }
            Name::SELECT => {
                self.reconstruct()?;
                self.insert(name, Ns::Html, &tag.attrs, false)?;
            }
            Name::OPTION | Name::OPTGROUP => {
                if self.in_scope_named(Scope::Default, Name::SELECT) {
                    let except = (name == Name::OPTION).then_some(Name::OPTGROUP);
                    self.generate_implied_end(except);
                } else if self.current_is(Name::OPTION) {
                    self.pop();
                }
                self.reconstruct()?;
                self.insert(name, Ns::Html, &tag.attrs, false)?;
            }
            Name::RB | Name::RTC | Name::RP | Name::RT => {
                if self.in_scope_named(Scope::Default, Name::RUBY) {
                    let except = matches!(name, Name::RP | Name::RT).then_some(Name::RTC);
                    self.generate_implied_end(except);
                }
                self.insert(name, Ns::Html, &tag.attrs, false)?;
            }
            Name::SVG => {
                self.reconstruct()?;
                self.insert(name, Ns::Svg, &tag.attrs, tag.self_closing)?;
            }
            Name::CAPTION
            | Name::COL
            | Name::COLGROUP
            | Name::FRAME
            | Name::HEAD
            | Name::TBODY
            | Name::TD
            | Name::TFOOT
            | Name::TH
            | Name::THEAD
            | Name::TR => {}
            _ => {
                self.reconstruct()?;
                self.insert(name, Ns::Html, &tag.attrs, false)?;
            }
        }
        Ok(Then::Data)
    }

    pub(super) fn foreign_start_tag(&mut self, tag: Tag) -> Result<Then, Bail> {
        let at_integration_point = self
            .stack
            .last()
            .is_some_and(|open| is_svg_integration_point(open.name));
        if at_integration_point
            || tag.name.breaks_out_of_foreign()
            || (tag.name == Name::FONT && tag.attrs.font_styling)
        {
            return Err(Bail::Foreign);
        }
        self.insert(tag.name, Ns::Svg, &tag.attrs, tag.self_closing)?;
        Ok(Then::Data)
    }

    pub(super) fn end_tag(&mut self, tag: Tag) -> Result<(), Bail> {
        self.ignore_lf = false;
        if !self.before_body() && self.in_foreign() {
            return self.foreign_end_tag(tag.name);
        }
        let name = tag.name;
        loop {
            let is_anything_else = matches!(name, Name::HEAD | Name::BODY | Name::HTML | Name::BR);
            match self.mode {
                Mode::InHead | Mode::AfterHead | Mode::InTemplate if name == Name::TEMPLATE => {
                    return self.end_template();
                }
                Mode::InTemplate => return Ok(()),
                Mode::Initial => self.mode = Mode::BeforeHtml,
                Mode::BeforeHtml | Mode::BeforeHead | Mode::AfterHead => {
                    if !is_anything_else || (self.mode == Mode::AfterHead && name == Name::HEAD) {
                        return Ok(());
                    }
                    self.advance_one_mode()?;
                }
                Mode::InHead => {
                    if name == Name::HEAD {
                        self.pop();
                        self.mode = Mode::AfterHead;
                        return Ok(());
                    }
                    if !is_anything_else {
                        return Ok(());
                    }
                    self.pop();
                    self.mode = Mode::AfterHead;
                }
                _ => return self.end_tag_after_head(name),
            }
        }
    }

    /// An end tag in the body or a table, by the current mode.
    pub(super) fn end_tag_after_head(&mut self, name: Name) -> Result<(), Bail> {
        // Every one of these modes takes `</template>` by the in-head rules.
        if name == Name::TEMPLATE {
            return self.end_template();
        }
        while let Step::Again = self.end_tag_in_table_modes(name)? {}
        Ok(())
    }

    /// `</template>` by the in-head rules.
    pub(super) fn end_template(&mut self) -> Result<(), Bail> {
        if self.templates_open == 0 {
            return Ok(());
        }
        while let Some(open) = self.stack.last() {
            if open.ns != Ns::Html || !open.name.is_thorough_implied_end() {
                break;
            }
            self.pop();
        }
        self.pop_until_named(Name::TEMPLATE);
        self.clear_active_to_marker();
        self.template_modes.pop();
        self.reset_mode()
    }

    /// What "anything else" does in a mode before the body: the element the
    /// document lacks is made, and the next mode entered.
    pub(super) fn advance_one_mode(&mut self) -> Result<(), Bail> {
        let none = Attrs::default();
        match self.mode {
            Mode::Initial => self.mode = Mode::BeforeHtml,
            Mode::BeforeHtml => {
                self.insert(Name::HTML, Ns::Html, &none, false)?;
                self.mode = Mode::BeforeHead;
            }
            Mode::BeforeHead => {
                self.insert(Name::HEAD, Ns::Html, &none, false)?;
                self.mode = Mode::InHead;
            }
            Mode::InHead => {
                self.pop();
                self.mode = Mode::AfterHead;
            }
            Mode::AfterHead => {
                self.insert(Name::BODY, Ns::Html, &none, false)?;
                self.mode = Mode::InBody;
            }
            _ => {}
        }
        Ok(())
    }

    pub(super) fn end_tag_in_body(&mut self, name: Name) -> Result<(), Bail> {
        match name {
            Name::BODY | Name::HTML | Name::TEMPLATE => {}
            Name::ADDRESS
            | Name::ARTICLE
            | Name::ASIDE
            | Name::BLOCKQUOTE
            | Name::BUTTON
            | Name::CENTER
            | Name::DETAILS
            | Name::DIALOG
            | Name::DIR
            | Name::DIV
            | Name::DL
            | Name::FIELDSET
            | Name::FIGCAPTION
            | Name::FIGURE
            | Name::FOOTER
            | Name::HEADER
            | Name::HGROUP
            | Name::LISTING
            | Name::MAIN
            | Name::MENU
            | Name::NAV
            | Name::OL
            | Name::PRE
            | Name::SEARCH
            | Name::SECTION
            | Name::SELECT
            | Name::SUMMARY
            | Name::UL => {
                if self.in_scope_named(Scope::Default, name) {
                    self.generate_implied_end(None);
                    self.pop_until_named(name);
                }
            }
            Name::FORM if self.templates_open > 0 => {
                if self.in_scope_named(Scope::Default, Name::FORM) {
                    self.generate_implied_end(None);
                    self.pop_until_named(Name::FORM);
                }
            }
            Name::FORM => {
                let Some(id) = self.form.take() else {
                    return Ok(());
                };
                if !self.in_scope(Scope::Default, |open| open.id == id) {
                    return Ok(());
                }
                self.generate_implied_end(None);
                if self.stack.last().map(|open| open.id) != Some(id) {
                    return Err(Bail::Misnested);
                }
                self.pop();
            }
            Name::P => {
                if self.in_scope_named(Scope::Button, Name::P) {
                    self.close_p();
                }
                // Else an empty `<p>` is inserted and closed: nothing read.
            }
            Name::LI | Name::DD | Name::DT => {
                let scope = if name == Name::LI {
                    Scope::ListItem
                } else {
                    Scope::Default
                };
                if self.in_scope_named(scope, name) {
                    self.generate_implied_end(Some(name));
                    self.pop_until_named(name);
                }
            }
            _ if name.is_heading() => {
                if self.in_scope(Scope::Default, |open| open.is_html_in(Name::is_heading)) {
                    self.generate_implied_end(None);
                    while let Some(open) = self.stack.last() {
                        let done = open.is_html_in(Name::is_heading);
                        self.pop();
                        if done {
                            break;
                        }
                    }
                }
            }
            Name::A | Name::NOBR => self.adoption_agency(name)?,
            _ if name.is_formatting() => self.adoption_agency(name)?,
            Name::APPLET | Name::MARQUEE | Name::OBJECT => {
                if self.in_scope_named(Scope::Default, name) {
                    self.generate_implied_end(None);
                    self.pop_until_named(name);
                    self.clear_active_to_marker();
                }
            }
            Name::BR => {
                self.reconstruct()?;
                self.insert(Name::BR, Ns::Html, &Attrs::default(), true)?;
            }
            _ => self.end_tag_in_body_generic(name),
        }
        Ok(())
    }

    pub(super) fn foreign_end_tag(&mut self, name: Name) -> Result<(), Bail> {
        if matches!(name, Name::BR | Name::P) {
            return Err(Bail::Foreign);
        }
        let mut index = self.stack.len() - 1;
        let mut first = true;
        loop {
            if index == 0 {
                return Ok(());
            }
            let open = self.stack[index];
            if !first && open.ns == Ns::Html {
                return self.end_tag_after_head(name);
            }
            if open.name == name {
                self.pop_to(index);
                return Ok(());
            }
            first = false;
            index -= 1;
        }
    }
}
