//! The selected link: what the detail pane shows of it (cached what-ifs and
//! sibling roots, the compared side), and copying it.

use super::InspectorApp;
use crate::copy::{ExplanationContext, PageOrigin};
use crate::inspect::{InspectedPage, LinkSource};
use crate::policy::explain::{PageInput, WhatIf, what_if};
use crate::policy::{LinkDecision, Settings, SiblingRoot, sibling_roots};
use crate::ui::command::SelectionCommand;
use crate::ui::panels::detail;
use crate::ui::state::{CopyWhat, Source};

impl InspectorApp {
    pub(super) fn carry_out_selection(&mut self, command: SelectionCommand, ctx: &egui::Context) {
        match command {
            SelectionCommand::SelectPage(page) => {
                self.selection.page = page;
                self.selection.selected = None;
            }
            SelectionCommand::SelectLink(link) => self.selection.selected = link,
            SelectionCommand::CopySelected(what) => self.copy_selected(what, ctx),
        }
    }

    /// The selected link, its page and the settings they were decided with.
    pub(super) fn selected_link(&self) -> Option<(&InspectedPage, &LinkDecision, &Settings)> {
        let inspection = self.load.inspection.as_ref()?;
        let page = inspection.pages.get(self.selection.page)?;
        Some((
            page,
            page.decision.links.get(self.selection.selected?)?,
            inspection.settings(),
        ))
    }

    /// Puts the selected link's URL or explanation on the clipboard: one place
    /// for the detail pane's buttons and the keyboard shortcuts.
    pub(super) fn copy_selected(&mut self, what: CopyWhat, ctx: &egui::Context) {
        let what_ifs = self.what_ifs();
        let Some((page, link, settings)) = self.selected_link() else {
            self.notice = Some(crate::copy::NO_ROW_TO_COPY.into());
            return;
        };
        let text = match what {
            CopyWhat::Url => link
                .url
                .as_ref()
                .map_or_else(|| link.href.to_string(), |u| u.to_string()),
            CopyWhat::Explanation => crate::copy::link_explanation(
                page.url.as_str(),
                link,
                &page.decision,
                settings,
                &what_ifs,
                &self.explanation_context(page, link),
            ),
        };
        ctx.copy_text(text);
        let explanation = what == CopyWhat::Explanation;
        self.notice = Some(crate::copy::copied_of_link(explanation, link.index));
    }

    /// What the copied explanation says besides the trace: the profile, the
    /// limits, the page and how it was had.
    fn explanation_context<'a>(
        &'a self,
        page: &'a InspectedPage,
        link: &LinkDecision,
    ) -> ExplanationContext<'a> {
        let pages = self.load.inspection.as_ref().map_or(1, |i| i.pages.len());
        let origin = match &self.load.source {
            Source::File(path) => PageOrigin::File(path),
            Source::Demo => PageOrigin::Demo,
            Source::Archive { path, info } => PageOrigin::Archive {
                path,
                captured: info.captured.as_deref(),
            },
            Source::Url | Source::Nothing => PageOrigin::Fetched,
        };
        ExplanationContext {
            profile: &self.profiles.name,
            // Of the settings the explanation lists, the ones the page was
            // decided under: edits past the limits are not applied to it.
            unsaved: self
                .load
                .inspection
                .as_ref()
                .map_or_else(|| self.is_dirty(), |i| *i.settings() != self.profiles.saved),
            depth: self
                .load
                .inspection
                .as_ref()
                .map_or(self.top.depth, |i| i.depth()),
            limit_overridden: self
                .load
                .inspection
                .as_ref()
                .is_some_and(|i| i.limit_override().is_some()),
            level: page.level,
            page: (self.selection.page, pages),
            origin,
            host_mapping: &self.load.host_mapping,
            rendered: page.rendered(),
            added_by_script: page.source(link) == Some(LinkSource::RenderedOnly),
            saved_archive: self
                .archive
                .saved
                .as_ref()
                .map(|saved| (saved.file_name.as_str(), saved.at.as_str())),
        }
    }

    /// The selected link under the compared profile.
    pub(super) fn other_side(&self) -> Option<detail::OtherSide<'_>> {
        let comparison = self.comparison.as_ref()?;
        let selected = self.selection.selected?;
        let decision = comparison.decisions.get(self.selection.page)?;
        let because = comparison
            .changes
            .get(self.selection.page)
            .and_then(|changes| changes.iter().find(|c| c.index == selected))
            .map(|c| &c.because);
        Some(detail::OtherSide {
            name: &comparison.name,
            decision,
            link: decision.links.get(selected)?,
            settings: &comparison.settings,
            because,
        })
    }

    /// The shown page's sibling roots, found again only when the page or its
    /// decisions change (not on every frame).
    pub(super) fn sibling_roots(&mut self) -> Vec<SiblingRoot> {
        let key = (self.load.generation, self.selection.page);
        if let Some((cached, roots)) = &self.selection.sibling_roots
            && *cached == key
        {
            return roots.clone();
        }
        let roots = self
            .load
            .inspection
            .as_ref()
            .and_then(|i| i.pages.get(self.selection.page))
            .map(|p| sibling_roots(&p.decision.page_host, &p.decision.links))
            .unwrap_or_default();
        self.selection.sibling_roots = Some((key, roots.clone()));
        roots
    }

    pub(super) fn what_ifs(&mut self) -> Vec<WhatIf> {
        let Some(selected) = self.selection.selected else {
            return Vec::new();
        };
        let key = (self.load.generation, self.selection.page, selected);
        if let Some((cached, answers)) = &self.selection.what_ifs
            && *cached == key
        {
            return answers.clone();
        }
        let answers = self
            .selected_link()
            .and_then(|(page, link, settings)| {
                let read = page.read()?;
                let input = PageInput {
                    candidates: &read.candidates,
                    page_url: &page.url,
                    base_url: &read.base_url,
                    limit: page.decision.limit,
                };
                Some(what_if(input, settings, link))
            })
            .unwrap_or_default();
        self.selection.what_ifs = Some((key, answers.clone()));
        answers
    }
}
