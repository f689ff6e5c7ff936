//! The words inside the window's panels: the results, the detail pane, the
//! dialogs, the top bar, the profiles bar, the settings and the corpus view.

// The results.
pub const NOTHING_SHOWN: &str = "Enter a URL or a saved page above, or open the demo page.";
pub const LINK_DETAIL_TITLE: &str = "Link detail";
pub const SELECT_A_ROW: &str =
    "Select a row to see, rule by rule, why the scraper follows it or not.";
pub const CRAWL_CANCELLED: &str = "(crawl cancelled: partial)";
pub const COLUMN_INDEX: &str = "#";
pub const COLUMN_VERDICT: &str = "Verdict";
pub const COLUMN_SCORE: &str = "Score";
pub const COLUMN_RANK: &str = "Rank";
pub const COLUMN_URL: &str = "URL";
pub const COLUMN_TEXT: &str = "Text";
pub const COLUMN_KEYWORD: &str = "Keyword";
pub const SORT_TOOLTIP: &str =
    "Sort by this column; click again to reverse, a third time for page order.";

pub fn page_failed(error: &str) -> String {
    format!("This page failed: {error}")
}

/// "Page 2 of 5: " in a crawl, "Page: " for one page.
pub fn page_heading(page: usize, pages: usize) -> String {
    if pages > 1 {
        format!("Page {} of {pages}: ", page + 1)
    } else {
        "Page: ".to_owned()
    }
}

pub fn page_facts(level: u32, limit: usize, links: usize) -> String {
    format!("— level {level}, N = {limit}, {links} links")
}

/// A line of the crawled-pages tree.
pub fn crawl_tree_line(
    depth: usize,
    via: &str,
    url: &str,
    status: Option<u16>,
    error: Option<&str>,
) -> String {
    let branch = if depth == 0 { "" } else { "↳ " };
    let status = status.map_or_else(|| "—".to_owned(), |s| s.to_string());
    let error = error.map(|e| format!("  ✖ {e}")).unwrap_or_default();
    format!("{branch}{via}{url}  {status}{error}")
}

/// A verdict chip's tooltip: what the verdict means and what a click does.
pub fn verdict_chip_tooltip(verdict: crate::policy::Verdict, shown: bool) -> String {
    format!(
        "{}\nClick to {} these links; double-click or right-click to show only them.",
        super::verdict_meaning(verdict),
        if shown { "hide" } else { "show" }
    )
}

/// The keyword cell: the deciding keyword, where it matched, and a warning
/// mark when it matched inside a word.
pub fn keyword_cell(keyword: &str, matched_in: &str, inside_word: bool) -> String {
    let inside = if inside_word { " ⚠" } else { "" };
    format!("{keyword} ({matched_in}){inside}")
}

/// Not decided by a keyword, but it would be blacklisted too.
pub fn also_blacklisted(keyword: &str) -> String {
    format!("also ⊘ {keyword}")
}

// The detail pane.
pub const URL_AS_MATCHED: &str = "URL as matched (decoded, lowercased)";
pub const TEXT_AS_MATCHED: &str = "Link text as matched";
pub const SAME_SITE_EXPLAINER: &str = "Same-site explainer";
pub const SITE_LINK_HOST: &str = "link host";
pub const SITE_LINK_ROOT: &str = "link root (naive)";
pub const SITE_PAGE_HOST: &str = "page host";
pub const SITE_PAGE_ROOT: &str = "page root (naive)";
pub const SITE_LINK_REGISTRABLE: &str = "link registrable (PSL)";
pub const SITE_PAGE_REGISTRABLE: &str = "page registrable (PSL)";
pub const SITE_ADMITTED_BY: &str = "admitted by";
pub const SITE_ADMITTED_BY_NOTHING: &str = "nothing: off-domain";
pub const LABEL_HREF: &str = "href";
pub const COPY_URL_SHORTCUT: &str = "Ctrl+C";
pub const COPY_EXPLANATION_SHORTCUT: &str = "Ctrl+Shift+C";
pub const TRACE_HEADING: &str = "Trace";
pub const WHAT_IF_HEADING: &str = "What if";

pub fn registrable_differs(psl: &str) -> String {
    format!("{psl}  (differs from the naive root)")
}

pub fn link_heading(index: usize) -> String {
    format!("Link #{index}")
}

pub fn what_if_line(answer: &str) -> String {
    format!("• {answer}")
}

// The dialogs.
pub const SAVE_AS_TITLE: &str = "Save the settings as a new profile";
pub const RENAME_TITLE: &str = "Rename the profile";
pub const DUPLICATE_TITLE: &str = "Duplicate the profile";
pub const IMPORT_TITLE: &str = "Import a user's settings";
pub const IMPORT_NOTE: &str = "A storage-data JSON object as the scraper stores it: the five \
    follow* keys or a whole settings export (other keys are ignored); lists as a comma string \
    or an array.";
pub const SETTINGS_PATH_HINT: &str = "/path/to/settings.json";
pub const EXPORT_NOTE: &str =
    "The five storage keys as the scraper stores them: paste into a user's storage-data.";
pub const LABEL_CLOSE: &str = "Close";

pub fn export_title(profile: &str) -> String {
    format!("Export the current settings (profile “{profile}”)")
}

// The top bar.
pub const LIMIT_FORMULA_TOOLTIP: &str =
    "SPEC section 4: N links with the best scores are followed from the start page.";
pub const LIMIT_OVERRIDE_HINT: &str = "N";
pub const LIMIT_OVERRIDE_TOOLTIP: &str =
    "Follow this many links on every page instead of (depth − 1) × 3.";
pub const WARNINGS_TOOLTIP: &str = "Show the warnings in the settings panel.";
pub const HIDE_PANEL: &str = "Hide this panel";
pub const SHOW_PANEL: &str = "Show this panel";

pub fn load_progress(done: usize, queued: usize, seconds: f32) -> String {
    format!("{done}/{queued} pages · {seconds:.1} s")
}

pub fn loading(target: &str) -> String {
    format!("Loading {target}")
}

// The profiles bar.
pub const PROFILE_DIRTY_TOOLTIP: &str = "Unsaved changes (●): Save keeps them in this profile.";
pub const PROFILE_TOOLTIP: &str = "The settings profile in use.";
pub const BUILT_IN_READ_ONLY: &str = "The built-in profile is read-only: use Save as…";
pub const NO_UNSAVED_CHANGES: &str = "No unsaved changes.";

/// The name Duplicate suggests.
pub fn copy_name(profile: &str) -> String {
    format!("{profile} copy")
}

// The settings panel.
pub const SETTINGS_HEADING: &str = "Settings";
pub const SETTINGS_NOTE: &str =
    "The scraper's storage-data keys. Changing any re-classifies the page at once.";
pub const REVERT_TOOLTIP: &str =
    "Changed from the scraper's defaults: click to put the default back.";
pub const EMPTY_LIST: &str = "(empty)";
pub const SAME_SITE_HEADING: &str = "Same-site test";
pub const KEYWORDS_SETTINGS_HEADING: &str = "Keywords";
pub const NO_WARNINGS: &str = "No warnings for these settings.";
pub const BLACK_KEYWORD_TOOLTIP: &str = "a link containing this is never followed";

/// A setting's plain words and its storage key.
pub fn setting_with_key(label: &str, key: &str) -> String {
    format!("{label} · {key}")
}

pub fn key_suffix(key: &str) -> String {
    format!("· {key}")
}

pub fn white_keyword_tooltip(score: usize) -> String {
    format!("score {score} (earlier keywords score higher)")
}

pub fn warnings_heading(n: usize) -> String {
    format!("Warnings ({n})")
}

/// The settings panel's last section: what belongs to the window, not the profile.
pub const ADVANCED_HEADING: &str = "Advanced";
/// A field's problem, under it.
pub fn error_line(error: &str) -> String {
    format!("✖ {error}")
}
pub const LABEL_HOST_MAPPING: &str = "Host mapping";
pub const HOST_MAPPING_HINT: &str = "acme.test:443:10.0.0.5";
pub const HOST_MAPPING_NOTE: &str = "HOST:PORT:ADDR sends requests for HOST to ADDR:PORT \
     instead of looking the host up: the command line's --resolve (curl's syntax), for a site \
     that routes by host name on a staging server. Several by commas or spaces. For fetched and \
     rendered pages alike, from the next Fetch; kept by the window between runs, not in the \
     profile.";

// The corpus view.
pub const CORPUS_COLUMN_PAGE: &str = "Page";
pub const CORPUS_COLUMN_LINKS: &str = "Links";
pub const CORPUS_COLUMN_FOLLOWED: &str = "Followed";
pub const CORPUS_COLUMN_FOLLOWED_A: &str = "Followed A";
pub const CORPUS_COLUMN_FOLLOWED_B: &str = "Followed B";
pub const CORPUS_COLUMN_RANKED_OUT: &str = "Ranked out";
pub const CORPUS_COLUMN_BLACKLISTED: &str = "Blacklisted";
pub const CORPUS_COLUMN_OFF_DOMAIN: &str = "Off-domain";
pub const CORPUS_COLUMN_CHANGED: &str = "Changed";
pub const CORPUS_COLUMN_LINTS: &str = "Lints";
pub const CORPUS_COLUMN_URL: &str = "URL";
/// The current profile's side and the compared one's.
pub const SIDE_A: &str = "A";
pub const SIDE_B: &str = "B";

/// A corpus page cut at the size cap, in its row's URL cell.
pub fn corpus_page_truncated(url: &str) -> String {
    format!("{url} (cut at the size cap)")
}

/// After the chips shown of a long list.
pub fn more_chips(n: usize) -> String {
    format!("… and {n} more")
}

/// In place of a list too large to edit in the window.
pub fn list_too_large_to_edit(items: usize, bytes: usize) -> String {
    format!(
        "{items} items, {} KB: too large to edit here (see the warning below). Clear it, \
         put the default back, or edit the exported settings.",
        bytes / 1024
    )
}

pub const LABEL_CLEAR_LIST: &str = "Clear list";
