//! The page table: one row per corpus page, sortable by its headers, kept
//! to the filter's pages; a click opens the page in the inspector.

use egui::{Key, RichText, Sense, Ui};
use egui_extras::{Column, TableBuilder};

use super::filter::kept_pages;
use super::sort;
use super::state::{CorpusState, PageColumn};
use crate::copy;
use crate::corpus::truth::PageTruth;
use crate::corpus::{CorpusRun, PageRun};
use crate::policy::Verdict;
use crate::ui::command::{Command, CorpusCommand};

/// The table's columns, in order: the title and, when it sorts, its column.
fn headers(compare: bool, truth: bool) -> Vec<(&'static str, Option<PageColumn>)> {
    let mut out = vec![
        (copy::CORPUS_COLUMN_PAGE, Some(PageColumn::Page)),
        (copy::CORPUS_COLUMN_LINKS, Some(PageColumn::Links)),
    ];
    if compare {
        out.push((copy::CORPUS_COLUMN_FOLLOWED_A, Some(PageColumn::FollowedA)));
        out.push((copy::CORPUS_COLUMN_FOLLOWED_B, Some(PageColumn::FollowedB)));
    } else {
        out.push((copy::CORPUS_COLUMN_FOLLOWED, Some(PageColumn::FollowedA)));
    }
    if truth {
        out.push((copy::CORPUS_COLUMN_FOUND_A, Some(PageColumn::FoundA)));
        if compare {
            out.push((copy::CORPUS_COLUMN_FOUND_B, Some(PageColumn::FoundB)));
        }
        out.push((copy::CORPUS_COLUMN_TARGETS, Some(PageColumn::Targets)));
    }
    out.extend([
        (copy::CORPUS_COLUMN_RANKED_OUT, None),
        (copy::CORPUS_COLUMN_BLACKLISTED, None),
        (copy::CORPUS_COLUMN_OFF_DOMAIN, None),
    ]);
    if compare {
        out.push((copy::CORPUS_COLUMN_CHANGED, None));
    }
    out.extend([
        (copy::CORPUS_COLUMN_LINTS, None),
        (copy::CORPUS_COLUMN_URL, None),
    ]);
    out
}

/// A page and what the targets file says of it.
struct Row<'r> {
    /// Corpus order.
    index: usize,
    page: &'r PageRun,
    truth: Option<&'r PageTruth>,
}

impl Row<'_> {
    fn followed(&self, b: bool) -> usize {
        let side = if b {
            self.page.b.as_ref()
        } else {
            Some(&self.page.a)
        };
        side.map_or(0, |s| s.count(Verdict::Followed))
    }

    fn key(&self, column: PageColumn) -> (usize, usize) {
        let found = |b: bool| self.truth.map_or(0, |t| 1 + usize::from(t.found(b)));
        let value = match column {
            PageColumn::Page => 0,
            PageColumn::Links => self.page.a.links(),
            PageColumn::FollowedA => self.followed(false),
            PageColumn::FollowedB => self.followed(true),
            PageColumn::FoundA => found(false),
            PageColumn::FoundB => found(true),
            PageColumn::Targets => self.truth.map_or(0, |t| t.targets.len()),
        };
        (value, self.index)
    }

    fn found_cell(&self, b: bool) -> String {
        match self.truth {
            None => String::new(),
            Some(t) if t.found(b) => copy::FOUND_MARK.to_owned(),
            Some(_) => copy::NOT_FOUND_MARK.to_owned(),
        }
    }

    /// The row's cells, in the order of [`headers`].
    fn cells(&self, compare: bool, truth: bool) -> Vec<String> {
        let page = self.page;
        let count = |v: Verdict| page.a.count(v).to_string();
        let mut cells = vec![page.id.clone()];
        if let Some(error) = &page.error {
            let blanks = headers(compare, truth).len().saturating_sub(2);
            cells.extend(std::iter::repeat_n(String::new(), blanks));
            cells.push(copy::corpus_page_error(error));
            return cells;
        }
        cells.push(page.a.links().to_string());
        cells.push(self.followed(false).to_string());
        if compare {
            cells.push(self.followed(true).to_string());
        }
        if truth {
            cells.push(self.found_cell(false));
            if compare {
                cells.push(self.found_cell(true));
            }
            cells.push(
                self.truth
                    .map_or_else(String::new, |t| t.targets.len().to_string()),
            );
        }
        cells.extend([
            count(Verdict::RankedOut),
            count(Verdict::Blacklisted),
            count(Verdict::OffDomain),
        ]);
        if compare {
            cells.push(page.changes.len().to_string());
        }
        cells.push(page.a.lints.join(" "));
        let url = page.url.clone().unwrap_or_default();
        cells.push(if page.truncated {
            copy::corpus_page_truncated(&url)
        } else {
            url
        });
        cells
    }
}

/// The rows shown: the filter's pages, in the chosen order.
fn rows<'r>(run: &'r CorpusRun, state: &CorpusState) -> Vec<Row<'r>> {
    let kept = kept_pages(run, state.filter.as_ref());
    let mut rows: Vec<Row<'r>> = run
        .pages
        .iter()
        .enumerate()
        .filter(|(_, p)| kept.as_ref().is_none_or(|k| k.contains(p.id.as_str())))
        .map(|(index, page)| Row {
            index,
            page,
            truth: run.evaluation.as_ref().and_then(|e| e.page(&page.id)),
        })
        .collect();
    let sort = state.page_sort;
    rows.sort_by(|x, y| sort.apply(x.key(sort.column).cmp(&y.key(sort.column))));
    rows
}

/// ↑ ↓ Home End move the selected row among the shown `rows`; from none,
/// a move starts at the top. Returns the row's position when it moved.
fn moved_selection(ui: &Ui, rows: &[Row<'_>], state: &mut CorpusState) -> Option<usize> {
    let last = rows.len().checked_sub(1)?;
    let at = state
        .selected_page
        .and_then(|s| rows.iter().position(|r| r.index == s));
    let pressed = |key| ui.input(|i| i.key_pressed(key));
    let next = if pressed(Key::ArrowDown) {
        at.map_or(0, |p| (p + 1).min(last))
    } else if pressed(Key::ArrowUp) {
        at.map_or(0, |p| p.saturating_sub(1))
    } else if pressed(Key::Home) {
        0
    } else if pressed(Key::End) {
        last
    } else {
        return None;
    };
    state.selected_page = rows.get(next).map(|r| r.index);
    Some(next)
}

/// `keyboard`: the view's keys apply (no dialog, no text field being typed
/// in): ↑ ↓ Home End choose a row, Enter opens it.
pub fn table(
    ui: &mut Ui,
    run: &CorpusRun,
    state: &mut CorpusState,
    height: f32,
    keyboard: bool,
) -> Option<Command> {
    let mut command = None;
    let compare = run.b.is_some();
    let truth = run.evaluation.is_some();
    let rows = rows(run, state);
    let moved = if keyboard {
        moved_selection(ui, &rows, state)
    } else {
        None
    };
    let selected = state.selected_page;
    if keyboard
        && ui.input(|i| i.key_pressed(Key::Enter))
        && let Some(row) = rows.iter().find(|r| Some(r.index) == selected)
    {
        command = open(row.page, None);
    }
    // Too narrow a panel for the columns scrolls sideways (shift+wheel).
    egui::ScrollArea::horizontal()
        .id_salt("corpus_pages_sideways")
        .show(ui, |ui| {
            let opened = draw(ui, &rows, state, (compare, truth), height, moved);
            command = command.take().or(opened);
        });
    command
}

/// The table itself: returns the page a click opened.
fn draw(
    ui: &mut Ui,
    rows: &[Row<'_>],
    state: &mut CorpusState,
    (compare, truth): (bool, bool),
    height: f32,
    moved: Option<usize>,
) -> Option<Command> {
    let mut command = None;
    let headers = headers(compare, truth);
    let selected = state.selected_page;
    let mut clicked = None;
    let row_height = ui.text_style_height(&egui::TextStyle::Body) + 6.0;
    let mut table = TableBuilder::new(ui)
        .id_salt("corpus_pages")
        .striped(true)
        .sense(Sense::click())
        .max_scroll_height(height)
        .cell_layout(egui::Layout::left_to_right(egui::Align::Center));
    if let Some(at) = moved {
        table = table.scroll_to_row(at, None);
    }
    for (i, (title, _)) in headers.iter().enumerate() {
        // The URL takes what is left, cut with … in its cell; the Lints
        // (mostly empty) are narrow until dragged wider.
        table = table.column(if i + 1 == headers.len() {
            Column::remainder().at_least(90.0).clip(true)
        } else if *title == copy::CORPUS_COLUMN_LINTS {
            Column::initial(64.0)
                .at_least(40.0)
                .clip(true)
                .resizable(true)
        } else {
            Column::auto().at_least(48.0)
        });
    }
    let sort = &mut state.page_sort;
    table
        .header(row_height, |mut header| {
            for (title, column) in &headers {
                header.col(|ui| match column {
                    Some(column) => sort::header(ui, title, *column, sort),
                    None => {
                        ui.label(RichText::new(*title).strong());
                    }
                });
            }
        })
        .body(|body| {
            body.rows(row_height, rows.len(), |mut row| {
                let Some(shown) = rows.get(row.index()) else {
                    return;
                };
                row.set_selected(selected == Some(shown.index));
                for cell in shown.cells(compare, truth) {
                    row.col(|ui| {
                        ui.add(egui::Label::new(cell).truncate().selectable(false));
                    });
                }
                let response = row.response().on_hover_text(copy::OPEN_CORPUS_PAGE);
                if response.clicked() {
                    clicked = Some(shown.index);
                }
                command = command
                    .take()
                    .or_else(|| open_page(&response, shown.page, None));
            });
        });
    if clicked.is_some() {
        state.selected_page = clicked;
    }
    command
}

/// A click on a readable page's row opens it, with `link` (a candidate
/// index) selected (a row that could not be read has no page to open).
pub fn open_page(
    response: &egui::Response,
    page: &PageRun,
    link: Option<usize>,
) -> Option<Command> {
    if !response.clicked() {
        return None;
    }
    open(page, link)
}

fn open(page: &PageRun, link: Option<usize>) -> Option<Command> {
    if page.error.is_some() {
        return None;
    }
    let url = page.url.as_ref()?;
    Some(
        CorpusCommand::OpenCorpusPage {
            path: page.path.display().to_string(),
            url: url.clone(),
            link,
        }
        .into(),
    )
}

#[cfg(test)]
mod tests {
    use std::cmp::Ordering;

    use super::*;
    use crate::ui::panels::corpus::state::Sort;

    #[test]
    fn a_click_sorts_by_a_column_and_a_second_click_turns_it_round() {
        let mut sort: Sort<PageColumn> = Sort::default();
        sort.click(PageColumn::Links);
        assert_eq!((sort.column, sort.descending), (PageColumn::Links, false));
        sort.click(PageColumn::Links);
        assert!(sort.descending);
        assert_eq!(sort.apply(Ordering::Less), Ordering::Greater);
        sort.click(PageColumn::Page);
        assert_eq!((sort.column, sort.descending), (PageColumn::Page, false));
    }
}
