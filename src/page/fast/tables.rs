//! The table insertion modes (in table, table body, row, cell, caption,
//! column group) and the reset of the insertion mode, as html5ever's
//! rules write them; what would foster parent is refused.

use super::names::Name;
use super::{Attrs, Bail, Entry, Mode, Ns, Open, Reader, Step, Tag, Then};

impl Reader<'_> {
    /// Pops until the current node is `html`, `table` or `template`.
    pub(super) fn pop_to_table_context(&mut self, also: &[Name]) {
        while let Some(open) = self.stack.last() {
            if open.ns == Ns::Html
                && (matches!(open.name, Name::HTML | Name::TABLE | Name::TEMPLATE)
                    || also.contains(&open.name))
            {
                return;
            }
            self.pop();
        }
    }

    /// html5ever's `table_scope`: only `html`, `table` and `template` bound it.
    pub(super) fn in_table_scope(&self, target: impl Fn(&Open) -> bool) -> bool {
        for open in self.stack.iter().rev() {
            if target(open) {
                return true;
            }
            if open.ns == Ns::Html && matches!(open.name, Name::HTML | Name::TABLE | Name::TEMPLATE)
            {
                return false;
            }
        }
        false
    }

    pub(super) fn in_table_scope_named(&self, name: Name) -> bool {
        self.in_table_scope(|open| open.is(name))
    }

    /// The standard's "reset the insertion mode appropriately".
    pub(super) fn reset_mode(&mut self) -> Result<(), Bail> {
        for (index, open) in self.stack.iter().enumerate().rev() {
            if open.ns != Ns::Html {
                continue;
            }
            self.mode = match open.name {
                Name::TD | Name::TH if index > 0 => Mode::InCell,
                Name::TR => Mode::InRow,
                Name::TBODY | Name::THEAD | Name::TFOOT => Mode::InTableBody,
                Name::CAPTION => Mode::InCaption,
                Name::COLGROUP => Mode::InColumnGroup,
                Name::TABLE => Mode::InTable,
                Name::BODY => Mode::InBody,
                Name::TEMPLATE => *self.template_modes.last().ok_or(Bail::Element)?,
                Name::HEAD if index > 0 => Mode::InHead,
                // The head is made before any template can be: after it.
                Name::HTML => Mode::AfterHead,
                Name::FRAMESET => return Err(Bail::Element),
                _ => continue,
            };
            return Ok(());
        }
        self.mode = Mode::InBody;
        Ok(())
    }

    pub(super) fn close_cell(&mut self) {
        self.generate_implied_end(None);
        while let Some(open) = self.stack.last() {
            let done = open.is(Name::TD) || open.is(Name::TH);
            self.pop();
            if done {
                break;
            }
        }
        self.clear_active_to_marker();
    }

    /// A start tag in the body or a table, by the current mode.
    pub(super) fn start_tag_in_table_modes(&mut self, tag: &Tag) -> Result<Step, Bail> {
        let name = tag.name;
        let table_part = matches!(
            name,
            Name::CAPTION
                | Name::COL
                | Name::COLGROUP
                | Name::TBODY
                | Name::TD
                | Name::TFOOT
                | Name::TH
                | Name::THEAD
                | Name::TR
        );
        match self.mode {
            Mode::InTable => self.start_tag_in_table(tag),
            Mode::InTableBody => match name {
                Name::TR => {
                    self.pop_to_table_context(&[Name::TBODY, Name::TFOOT, Name::THEAD]);
                    self.insert(name, Ns::Html, &tag.attrs, false)?;
                    self.mode = Mode::InRow;
                    Ok(Step::Done(Then::Data))
                }
                Name::TH | Name::TD => {
                    self.pop_to_table_context(&[Name::TBODY, Name::TFOOT, Name::THEAD]);
                    self.insert(Name::TR, Ns::Html, &Attrs::default(), false)?;
                    self.mode = Mode::InRow;
                    Ok(Step::Again)
                }
                Name::CAPTION
                | Name::COL
                | Name::COLGROUP
                | Name::TBODY
                | Name::TFOOT
                | Name::THEAD => self.leave_table_body(),
                _ => self.start_tag_in_table(tag),
            },
            Mode::InRow => match name {
                Name::TH | Name::TD => {
                    self.pop_to_table_context(&[Name::TR]);
                    self.insert(name, Ns::Html, &tag.attrs, false)?;
                    self.mode = Mode::InCell;
                    self.active.push(Entry::Marker);
                    Ok(Step::Done(Then::Data))
                }
                _ if table_part => self.leave_row(),
                _ => self.start_tag_in_table(tag),
            },
            Mode::InCell => {
                if table_part {
                    if self.in_table_scope(|open| open.is(Name::TD) || open.is(Name::TH)) {
                        self.close_cell();
                        self.mode = Mode::InRow;
                        return Ok(Step::Again);
                    }
                    return Ok(Step::Done(Then::Data));
                }
                self.start_tag_in_body(tag).map(Step::Done)
            }
            Mode::InCaption => {
                if table_part {
                    return self.leave_caption(true);
                }
                self.start_tag_in_body(tag).map(Step::Done)
            }
            Mode::InColumnGroup => match name {
                Name::HTML => Ok(Step::Done(Then::Data)),
                Name::COL => {
                    self.insert(name, Ns::Html, &tag.attrs, true)?;
                    Ok(Step::Done(Then::Data))
                }
                Name::TEMPLATE => {
                    let then = self.in_head_element(tag)?.unwrap_or(Then::Data);
                    Ok(Step::Done(then))
                }
                _ => Ok(self.leave_column_group()),
            },
            _ => self.start_tag_in_body(tag).map(Step::Done),
        }
    }

    pub(super) fn start_tag_in_table(&mut self, tag: &Tag) -> Result<Step, Bail> {
        let name = tag.name;
        match name {
            Name::CAPTION => {
                self.pop_to_table_context(&[]);
                self.active.push(Entry::Marker);
                self.insert(name, Ns::Html, &tag.attrs, false)?;
                self.mode = Mode::InCaption;
            }
            Name::COLGROUP => {
                self.pop_to_table_context(&[]);
                self.insert(name, Ns::Html, &tag.attrs, false)?;
                self.mode = Mode::InColumnGroup;
            }
            Name::COL => {
                self.pop_to_table_context(&[]);
                self.insert(Name::COLGROUP, Ns::Html, &Attrs::default(), false)?;
                self.mode = Mode::InColumnGroup;
                return Ok(Step::Again);
            }
            Name::TBODY | Name::TFOOT | Name::THEAD => {
                self.pop_to_table_context(&[]);
                self.insert(name, Ns::Html, &tag.attrs, false)?;
                self.mode = Mode::InTableBody;
            }
            Name::TD | Name::TH | Name::TR => {
                self.pop_to_table_context(&[]);
                self.insert(Name::TBODY, Ns::Html, &Attrs::default(), false)?;
                self.mode = Mode::InTableBody;
                return Ok(Step::Again);
            }
            Name::TABLE => {
                if self.in_table_scope_named(Name::TABLE) {
                    self.pop_until_named(Name::TABLE);
                    self.reset_mode()?;
                    return Ok(Step::Again);
                }
            }
            Name::STYLE | Name::SCRIPT | Name::TEMPLATE => {
                let then = self.in_head_element(tag)?.unwrap_or(Then::Data);
                return Ok(Step::Done(then));
            }
            Name::INPUT if tag.attrs.hidden => {
                self.insert(name, Ns::Html, &tag.attrs, true)?;
            }
            Name::FORM => {
                if self.form.is_none() && self.templates_open == 0 {
                    let id = self.insert(name, Ns::Html, &tag.attrs, true)?;
                    self.form = Some(id);
                }
            }
            _ => return Err(Bail::Foster),
        }
        Ok(Step::Done(Then::Data))
    }

    /// In a table body, a token that closes it (if it is open) and is then
    /// processed in the table.
    pub(super) fn leave_table_body(&mut self) -> Result<Step, Bail> {
        if self.in_table_scope(|open| {
            open.is(Name::TABLE) || open.is(Name::TBODY) || open.is(Name::TFOOT)
        }) {
            self.pop_to_table_context(&[Name::TBODY, Name::TFOOT, Name::THEAD]);
            self.pop();
            self.mode = Mode::InTable;
            return Ok(Step::Again);
        }
        Ok(Step::Done(Then::Data))
    }

    /// In a row, a token that closes it (if it is open) and is then
    /// processed in the table body.
    pub(super) fn leave_row(&mut self) -> Result<Step, Bail> {
        if self.in_table_scope_named(Name::TR) {
            self.pop_to_table_context(&[Name::TR]);
            self.pop();
            self.mode = Mode::InTableBody;
            return Ok(Step::Again);
        }
        Ok(Step::Done(Then::Data))
    }

    /// In a caption, a token that closes it (if it is open); processed again
    /// in the table unless it was `</caption>`.
    pub(super) fn leave_caption(&mut self, again: bool) -> Result<Step, Bail> {
        if self.in_table_scope_named(Name::CAPTION) {
            self.generate_implied_end(None);
            self.pop_until_named(Name::CAPTION);
            self.clear_active_to_marker();
            self.mode = Mode::InTable;
            if again {
                return Ok(Step::Again);
            }
        }
        Ok(Step::Done(Then::Data))
    }

    /// In a column group, anything else closes it (if it is the current
    /// node) and is processed again in the table; else it is dropped.
    pub(super) fn leave_column_group(&mut self) -> Step {
        if self.current_is(Name::COLGROUP) {
            self.pop();
            self.mode = Mode::InTable;
            return Step::Again;
        }
        Step::Done(Then::Data)
    }

    pub(super) fn end_tag_in_table_modes(&mut self, name: Name) -> Result<Step, Bail> {
        let ignored_in_table = matches!(
            name,
            Name::BODY
                | Name::CAPTION
                | Name::COL
                | Name::COLGROUP
                | Name::HTML
                | Name::TBODY
                | Name::TD
                | Name::TFOOT
                | Name::TH
                | Name::THEAD
                | Name::TR
        );
        let done = Ok(Step::Done(Then::Data));
        match self.mode {
            Mode::InTable => self.end_tag_in_table(name),
            Mode::InTableBody => match name {
                Name::TBODY | Name::TFOOT | Name::THEAD => {
                    if self.in_table_scope_named(name) {
                        self.pop_to_table_context(&[Name::TBODY, Name::TFOOT, Name::THEAD]);
                        self.pop();
                        self.mode = Mode::InTable;
                    }
                    done
                }
                Name::TABLE => self.leave_table_body(),
                _ if ignored_in_table => done,
                _ => self.end_tag_in_table(name),
            },
            Mode::InRow => match name {
                Name::TR => {
                    if self.in_table_scope_named(Name::TR) {
                        self.pop_to_table_context(&[Name::TR]);
                        self.pop();
                        self.mode = Mode::InTableBody;
                    }
                    done
                }
                Name::TABLE => self.leave_row(),
                Name::TBODY | Name::TFOOT | Name::THEAD => {
                    if self.in_table_scope_named(name) {
                        return self.leave_row();
                    }
                    done
                }
                _ if ignored_in_table => done,
                _ => self.end_tag_in_table(name),
            },
            Mode::InCell => match name {
                Name::TD | Name::TH => {
                    if self.in_table_scope_named(name) {
                        self.generate_implied_end(None);
                        self.pop_until_named(name);
                        self.clear_active_to_marker();
                        self.mode = Mode::InRow;
                    }
                    done
                }
                Name::BODY | Name::CAPTION | Name::COL | Name::COLGROUP | Name::HTML => done,
                Name::TABLE | Name::TBODY | Name::TFOOT | Name::THEAD | Name::TR => {
                    if self.in_table_scope_named(name) {
                        self.close_cell();
                        self.mode = Mode::InRow;
                        return Ok(Step::Again);
                    }
                    done
                }
                _ => self.end_tag_in_body(name).map(|()| Step::Done(Then::Data)),
            },
            Mode::InCaption => match name {
                Name::TABLE => self.leave_caption(true),
                Name::CAPTION => self.leave_caption(false),
                _ if ignored_in_table => done,
                _ => self.end_tag_in_body(name).map(|()| Step::Done(Then::Data)),
            },
            Mode::InColumnGroup => match name {
                Name::COLGROUP => {
                    if self.current_is(Name::COLGROUP) {
                        self.pop();
                        self.mode = Mode::InTable;
                    }
                    done
                }
                Name::COL | Name::TEMPLATE => done,
                _ => Ok(self.leave_column_group()),
            },
            _ => self.end_tag_in_body(name).map(|()| Step::Done(Then::Data)),
        }
    }

    pub(super) fn end_tag_in_table(&mut self, name: Name) -> Result<Step, Bail> {
        match name {
            Name::TABLE => {
                if self.in_table_scope_named(Name::TABLE) {
                    self.pop_until_named(Name::TABLE);
                    self.reset_mode()?;
                }
            }
            Name::BODY
            | Name::CAPTION
            | Name::COL
            | Name::COLGROUP
            | Name::HTML
            | Name::TBODY
            | Name::TD
            | Name::TFOOT
            | Name::TH
            | Name::THEAD
            | Name::TR
            | Name::TEMPLATE => {}
            // Would insert an element, foster parented.
            Name::P | Name::BR => return Err(Bail::Foster),
            _ => self.end_tag_in_body(name)?,
        }
        Ok(Step::Done(Then::Data))
    }
}
