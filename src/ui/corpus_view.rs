//! The corpus view: a folder or manifest of saved pages run under the current
//! profile (A) and the compared one (B): per-page table (click a page to open
//! it in the inspector), the keyword table, a chart of pages decided per
//! keyword for A and B, and the changed links grouped by cause.

use egui::{RichText, Sense, Ui};
use egui_extras::{Column, TableBuilder};
use egui_plot::{AxisHints, Bar, BarChart, Legend, Plot};

use crate::copy;
use crate::corpus::{CorpusRun, KeywordStats, PageRun};
use crate::policy::Verdict;
use crate::policy::compare::ListName;
use crate::ui::command::Command;
use crate::ui::state::FilePurpose;
use crate::ui::{palette, widgets};

/// What the corpus view keeps between frames.
#[derive(Default)]
pub struct CorpusState {
    /// The folder or manifest typed or chosen.
    pub path: String,
    /// The last run, kept while the next one runs.
    pub run: Option<CorpusRun>,
    pub error: Option<String>,
}

/// What the view shows besides its own state.
pub struct CorpusView<'a> {
    /// (pages done, pages in all) while a run is going.
    pub running: Option<(usize, usize)>,
    pub profile: &'a str,
    pub compared: Option<&'a str>,
    pub depth: u32,
    pub browsing: bool,
}

fn controls(ui: &mut Ui, state: &mut CorpusState, view: &CorpusView<'_>) -> Vec<Command> {
    let mut commands = Vec::new();
    ui.horizontal_wrapped(|ui| {
        let field = widgets::labelled_field(
            ui,
            copy::LABEL_CORPUS_PATH,
            &mut state.path,
            "corpus_path",
            copy::CORPUS_PATH_HINT,
            360.0,
        );
        let enter = field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
        for (label, purpose) in [
            (copy::LABEL_CHOOSE_FOLDER, FilePurpose::CorpusFolder),
            (copy::LABEL_CHOOSE_MANIFEST, FilePurpose::CorpusManifest),
            (copy::LABEL_CHOOSE_ARCHIVE, FilePurpose::CorpusArchive),
        ] {
            if ui
                .add_enabled(!view.browsing, egui::Button::new(label))
                .clicked()
            {
                commands.push(Command::BrowseFile(purpose));
            }
        }
        if view.running.is_some() {
            if ui.button(copy::LABEL_CANCEL).clicked() {
                commands.push(Command::CancelCorpus);
            }
        } else if (ui
            .add_enabled(
                !state.path.trim().is_empty(),
                egui::Button::new(copy::LABEL_RUN_CORPUS),
            )
            .clicked()
            || enter)
            && !state.path.trim().is_empty()
        {
            commands.push(Command::RunCorpus);
        }
    });
    widgets::note(
        ui,
        &copy::corpus_sides(view.profile, view.compared, view.depth),
    );
    if let Some((done, total)) = view.running {
        let fraction = if total == 0 {
            0.0
        } else {
            done as f32 / total as f32
        };
        ui.add(
            egui::ProgressBar::new(fraction)
                .text(copy::corpus_progress(done, total))
                .animate(true),
        );
    }
    if let Some(error) = &state.error {
        ui.colored_label(palette::error(ui.visuals().dark_mode), error);
    }
    commands
}

fn pages_table(ui: &mut Ui, run: &CorpusRun, height: f32) -> Option<Command> {
    let mut command = None;
    let compare = run.b.is_some();
    let row_height = ui.text_style_height(&egui::TextStyle::Body) + 6.0;
    let headers: &[&str] = if compare {
        &[
            copy::CORPUS_COLUMN_PAGE,
            copy::CORPUS_COLUMN_LINKS,
            copy::CORPUS_COLUMN_FOLLOWED_A_B,
            copy::CORPUS_COLUMN_RANKED_OUT,
            copy::CORPUS_COLUMN_BLACKLISTED,
            copy::CORPUS_COLUMN_OFF_DOMAIN,
            copy::CORPUS_COLUMN_CHANGED,
            copy::CORPUS_COLUMN_LINTS,
            copy::CORPUS_COLUMN_URL,
        ]
    } else {
        &[
            copy::CORPUS_COLUMN_PAGE,
            copy::CORPUS_COLUMN_LINKS,
            copy::CORPUS_COLUMN_FOLLOWED,
            copy::CORPUS_COLUMN_RANKED_OUT,
            copy::CORPUS_COLUMN_BLACKLISTED,
            copy::CORPUS_COLUMN_OFF_DOMAIN,
            copy::CORPUS_COLUMN_LINTS,
            copy::CORPUS_COLUMN_URL,
        ]
    };
    let mut table = TableBuilder::new(ui)
        .id_salt("corpus_pages")
        .striped(true)
        .sense(Sense::click())
        .max_scroll_height(height)
        .cell_layout(egui::Layout::left_to_right(egui::Align::Center));
    for (i, _) in headers.iter().enumerate() {
        table = table.column(if i + 1 == headers.len() {
            Column::remainder().at_least(120.0).clip(true)
        } else if *headers.get(i).unwrap_or(&"") == copy::CORPUS_COLUMN_LINTS {
            Column::exact(150.0).clip(true)
        } else {
            Column::auto().at_least(48.0)
        });
    }
    table
        .header(row_height, |mut header| {
            for title in headers {
                header.col(|ui| {
                    ui.label(RichText::new(*title).strong());
                });
            }
        })
        .body(|body| {
            body.rows(row_height, run.pages.len(), |mut row| {
                let Some(page) = run.pages.get(row.index()) else {
                    return;
                };
                let cells = page_cells(page, compare);
                for cell in &cells {
                    row.col(|ui| {
                        ui.add(egui::Label::new(cell.as_str()).truncate().selectable(false));
                    });
                }
                let response = row.response().on_hover_text(copy::OPEN_CORPUS_PAGE);
                // A row that could not be read has no page to open.
                if response.clicked()
                    && page.error.is_none()
                    && let Some(url) = &page.url
                {
                    command = Some(Command::OpenCorpusPage {
                        path: page.path.display().to_string(),
                        url: url.clone(),
                    });
                }
            });
        });
    command
}

/// A page's row: counts under A (followed under A and B when comparing).
fn page_cells(page: &PageRun, compare: bool) -> Vec<String> {
    if let Some(error) = &page.error {
        let mut cells = vec![page.id.clone()];
        cells.extend(std::iter::repeat_n(
            String::new(),
            if compare { 6 } else { 5 },
        ));
        cells.push(copy::corpus_page_error(error));
        return cells;
    }
    let a = &page.a;
    let followed = match &page.b {
        Some(b) => format!(
            "{} → {}",
            a.count(Verdict::Followed),
            b.count(Verdict::Followed)
        ),
        None => a.count(Verdict::Followed).to_string(),
    };
    let mut cells = vec![
        page.id.clone(),
        a.links().to_string(),
        followed,
        a.count(Verdict::RankedOut).to_string(),
        a.count(Verdict::Blacklisted).to_string(),
        a.count(Verdict::OffDomain).to_string(),
    ];
    if compare {
        cells.push(page.changes.len().to_string());
    }
    cells.push(a.lints.join(" "));
    let url = page.url.clone().unwrap_or_default();
    cells.push(if page.truncated {
        copy::corpus_page_truncated(&url)
    } else {
        url
    });
    cells
}

fn keyword_grid(ui: &mut Ui, run: &CorpusRun) {
    let b_pages = |k: &KeywordStats| {
        run.keywords_b.as_ref().and_then(|stats| {
            stats
                .iter()
                .find(|s| s.list == k.list && s.keyword == k.keyword)
                .map(|s| s.pages)
        })
    };
    egui::Grid::new("corpus_keywords")
        .striped(true)
        .num_columns(8)
        .show(ui, |ui| {
            for title in copy::KEYWORD_TABLE_HEADERS {
                ui.label(RichText::new(title).strong());
            }
            ui.end_row();
            for k in &run.keywords_a {
                ui.label(&k.keyword);
                ui.label(k.list.id());
                ui.label(k.pages.to_string());
                ui.label(k.used.links.to_string());
                ui.label(k.used.in_url.to_string());
                ui.label(k.used.in_text.to_string());
                ui.label(k.used.inside_word.to_string());
                ui.label(b_pages(k).map_or_else(|| "—".to_owned(), |n| n.to_string()));
                ui.end_row();
            }
        });
}

/// Pages decided per keyword, A and B side by side. Keywords are A's, then
/// any only B has.
fn keyword_chart(ui: &mut Ui, run: &CorpusRun) {
    let dark = ui.visuals().dark_mode;
    let mut names: Vec<(ListName, String)> = run
        .keywords_a
        .iter()
        .map(|k| (k.list, k.keyword.clone()))
        .collect();
    for k in run.keywords_b.iter().flatten() {
        if !names.contains(&(k.list, k.keyword.clone())) {
            names.push((k.list, k.keyword.clone()));
        }
    }
    let pages = |stats: &[KeywordStats], name: &(ListName, String)| {
        stats
            .iter()
            .find(|k| k.list == name.0 && k.keyword == name.1)
            .map_or(0.0, |k| k.pages as f64)
    };
    let offset = if run.b.is_some() { 0.2 } else { 0.0 };
    let bars = |stats: &[KeywordStats], shift: f64| -> Vec<Bar> {
        names
            .iter()
            .enumerate()
            .map(|(i, name)| {
                Bar::new(i as f64 + shift, pages(stats, name))
                    .width(0.38)
                    .name(&name.1)
            })
            .collect()
    };
    // Keywords down the side, first at the top: every name has room.
    let labels = names.clone();
    let last = names.len().saturating_sub(1) as f64;
    let flip = |bars: Vec<Bar>| -> Vec<Bar> {
        bars.into_iter()
            .map(|b| {
                Bar::new(last - b.argument, b.value)
                    .width(0.38)
                    .name(&b.name)
            })
            .collect()
    };
    let keyword_axis = AxisHints::new_y()
        .min_thickness(90.0)
        // Rows are 24 points apart: every keyword gets its label.
        .label_spacing(12.0..=16.0)
        .formatter(move |mark, _| {
            let i = (last - mark.value).round();
            if (last - mark.value - i).abs() > 1e-6 || i < 0.0 {
                return String::new();
            }
            labels
                .get(i as usize)
                .map(|(_, k)| k.clone())
                .unwrap_or_default()
        });
    Plot::new("keyword_chart")
        .legend(Legend::default())
        .height((names.len() as f32 * 24.0 + 50.0).clamp(160.0, 800.0))
        .allow_zoom(false)
        .allow_scroll(false)
        .allow_drag(false)
        .include_x(0.0)
        .custom_y_axes(vec![keyword_axis])
        .y_grid_spacer(egui_plot::uniform_grid_spacer(|_| [1.0, 5.0, 10.0]))
        .show(ui, |plot| {
            plot.bar_chart(
                BarChart::new(copy::CHART_SIDE_A, flip(bars(&run.keywords_a, offset)))
                    .color(palette::side_a(dark))
                    .horizontal(),
            );
            if let Some(stats) = &run.keywords_b {
                plot.bar_chart(
                    BarChart::new(copy::CHART_SIDE_B, flip(bars(stats, -offset)))
                        .color(palette::side_b(dark))
                        .horizontal(),
                );
            }
        });
}

fn causes(ui: &mut Ui, run: &CorpusRun) {
    if run.causes.is_empty() {
        ui.label(RichText::new(copy::NO_CHANGED_LINKS).weak());
    }
    for cause in &run.causes {
        ui.label(copy::cause_line(
            &copy::because(&cause.because),
            cause.links,
            cause.pages,
            cause.gained,
            cause.lost,
        ));
    }
}

/// What the archives held besides pages: the skipped kinds, then each
/// damaged or unreadable record (at most a few, the rest counted).
fn archive_lines(ui: &mut Ui, stats: &crate::corpus::ArchiveStats, pages: usize) {
    const SHOWN: usize = 5;
    ui.label(copy::archive_summary(stats, pages));
    let dark = ui.visuals().dark_mode;
    let damaged = stats
        .damaged
        .iter()
        .map(|p| (copy::damaged_record_line(p), true));
    let unreadable = stats
        .unreadable
        .iter()
        .map(|p| (copy::unreadable_record_line(p), false));
    // Only the lines shown are worded: the lists can be long.
    let shown: Vec<(String, bool)> = damaged.chain(unreadable).take(SHOWN).collect();
    for (line, is_damage) in &shown {
        if *is_damage {
            ui.colored_label(palette::error(dark), line);
        } else {
            ui.label(line);
        }
    }
    let total = stats.problem_count();
    if total > shown.len() {
        ui.label(copy::more_chips(total - shown.len()));
    }
}

/// Draws the corpus view.
pub fn show(ui: &mut Ui, state: &mut CorpusState, view: &CorpusView<'_>) -> Vec<Command> {
    let mut commands = controls(ui, state, view);
    let Some(run) = &state.run else {
        ui.add_space(12.0);
        ui.label(RichText::new(copy::CORPUS_EMPTY).italics());
        return commands;
    };
    ui.separator();
    ui.label(RichText::new(copy::corpus_summary(run)).strong());
    if let Some(stats) = &run.archives {
        archive_lines(ui, stats, run.pages.len());
    }
    let height = (ui.available_height() * 0.45).max(120.0);
    if let Some(command) = pages_table(ui, run, height) {
        commands.push(command);
    }
    ui.separator();
    egui::ScrollArea::vertical()
        .id_salt("corpus_below")
        .show(ui, |ui| {
            ui.label(copy::nothing_followed_line(
                copy::SIDE_A,
                &run.nothing_followed(false),
            ));
            if run.b.is_some() {
                ui.label(copy::nothing_followed_line(
                    copy::SIDE_B,
                    &run.nothing_followed(true),
                ));
            }
            egui::CollapsingHeader::new(copy::KEYWORDS_HEADING)
                .id_salt("corpus_keywords_section")
                .default_open(true)
                .show(ui, |ui| {
                    keyword_chart(ui, run);
                    keyword_grid(ui, run);
                });
            if run.b.is_some() {
                egui::CollapsingHeader::new(copy::CAUSES_HEADING)
                    .id_salt("corpus_causes")
                    .default_open(true)
                    .show(ui, |ui| causes(ui, run));
            }
        });
    commands
}
