//! What a copied explanation says besides the trace: the profile and
//! settings, the limits, the page and how it was had.

use super::*;

/// Where the shown page came from, for the copied explanation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PageOrigin<'a> {
    Fetched,
    /// A saved page read from this file.
    File(&'a str),
    /// The window's bundled demo page.
    Demo,
    /// A web archive reopened offline, and its capture date (`WARC-Date`).
    Archive {
        path: &'a str,
        captured: Option<&'a str>,
    },
}

/// What a support person needs besides the trace: under which profile and
/// settings, limits and page the link was decided.
#[derive(Clone, Copy, Debug)]
pub struct ExplanationContext<'a> {
    pub profile: &'a str,
    /// The profile has edits not saved yet (the settings below are the edited ones).
    pub unsaved: bool,
    pub depth: u32,
    /// The Override N field set N instead of the depth.
    pub limit_overridden: bool,
    /// The page's level in the crawl (1: the start page).
    pub level: u32,
    /// The page's position in the crawl and the pages in all.
    pub page: (usize, usize),
    pub origin: PageOrigin<'a>,
    /// The host mappings the page was fetched with.
    pub host_mapping: &'a [crate::fetch::Resolve],
    /// In rendered mode: how the page was rendered.
    pub rendered: Option<&'a crate::inspect::RenderedRead>,
    /// A script added the link (it is not in the HTML the server sent).
    pub added_by_script: bool,
    /// The web archive Save for ticket wrote of these pages: its file name
    /// and when (UTC).
    pub saved_archive: Option<(&'a str, &'a str)>,
}

/// The settings that differ from the scraper's defaults, as `key: value`
/// with the value as the storage-data JSON holds it.
pub fn changed_settings(settings: &crate::policy::Settings) -> Vec<String> {
    let stored = serde_json::to_value(settings).unwrap_or_default();
    settings
        .changed_keys()
        .into_iter()
        .map(|key| format!("{key}: {}", stored[key]))
        .collect()
}

pub(super) fn context_lines(
    page_url: &str,
    page: &crate::policy::PageDecision,
    settings: &crate::policy::Settings,
    context: &ExplanationContext<'_>,
) -> String {
    let unsaved = if context.unsaved {
        " (with unsaved edits)"
    } else {
        ""
    };
    let mut out = format!("Context:\n  profile: {}{unsaved}\n", context.profile);
    let changed = changed_settings(settings);
    if changed.is_empty() {
        out.push_str("  settings changed from the defaults: none\n");
    } else {
        out.push_str("  settings changed from the defaults:\n");
        for line in changed {
            out.push_str(&format!("    {line}\n"));
        }
    }
    let limit = if context.limit_overridden {
        "overridden in the window".to_owned()
    } else {
        format!("from the depth at level {}", context.level)
    };
    out.push_str(&format!(
        "  depth: {}, N = {} ({limit})\n",
        context.depth, page.limit
    ));
    let (index, pages) = context.page;
    let position = if pages > 1 {
        format!(" (page {} of {pages}, level {})", index + 1, context.level)
    } else {
        String::new()
    };
    out.push_str(&format!("  page: {page_url}{position}\n"));
    match context.origin {
        PageOrigin::Fetched => {}
        PageOrigin::File(path) => out.push_str(&format!("  file: {path}\n")),
        PageOrigin::Demo => out.push_str("  file: the window's bundled demo page\n"),
        PageOrigin::Archive { path, captured } => {
            out.push_str(&explanation_reopened_archive(path, captured));
        }
    }
    if let Some((name, at)) = context.saved_archive {
        out.push_str(&explanation_saved_archive(name, at));
    }
    if !context.host_mapping.is_empty() {
        let mappings: Vec<String> = context
            .host_mapping
            .iter()
            .map(|m| format!("{}:{}:{}", m.host, m.addr.port(), m.addr.ip()))
            .collect();
        // As the command line's --resolve takes them, to fetch the page again.
        out.push_str(&format!("  host mapping: {}\n", mappings.join(" ")));
    }
    match context.rendered {
        Some(r) => {
            let idle = if r.network_idle {
                "network idle"
            } else {
                "network not idle"
            };
            out.push_str(&format!(
                "  rendered: yes, in Chromium (wait {}, {idle}, {})\n",
                r.wait.id(),
                human_ms(r.render_ms)
            ));
        }
        None => out.push_str("  rendered: no (the HTML as the server sent it)\n"),
    }
    out
}
