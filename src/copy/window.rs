//! The window's labels, tooltips and status lines.

use super::*;

pub const APP_TITLE: &str = "Follow Inspector";

/// Verdict badge words: the UI must read without colour vision.
pub fn verdict_badge(verdict: crate::policy::Verdict) -> &'static str {
    use crate::policy::Verdict::*;
    match verdict {
        Followed => "✔ followed",
        RankedOut => "▽ ranked out",
        NoKeyword => "○ no keyword",
        Blacklisted => "⊘ blacklisted",
        OffDomain => "↗ off-domain",
        Asset => "▣ asset",
        Duplicate => "= duplicate",
        SelfLink => "↺ self",
        NotHttp => "✉ not http",
        Invalid => "✖ invalid",
    }
}

/// What a verdict means, for tooltips and the detail panel.
pub fn verdict_meaning(verdict: crate::policy::Verdict) -> &'static str {
    use crate::policy::Verdict::*;
    match verdict {
        Followed => "Eligible and within the top N by score: the scraper follows it.",
        RankedOut => "Eligible, but below the top N by score.",
        NoKeyword => {
            "Same-site, but no white keyword in its URL or text (the white list is match-only)."
        }
        Blacklisted => "A black keyword is in its URL or text (checked before the white list).",
        OffDomain => "Not same-site: neither the host test nor the allowed domains admit it.",
        Asset => "Its URL path ends in an asset extension (Skip assets is on).",
        Duplicate => "The same URL (without #fragment) appeared earlier on the page.",
        SelfLink => "Points to the page itself (#fragment, empty href, or its own URL).",
        NotHttp => "Not an http(s) link (mailto:, tel:, javascript:, …).",
        Invalid => "The href does not parse as a URL.",
    }
}

pub const LABEL_SUBDOMAIN: &str = "Allow subdomains";
pub const LABEL_ALLOWED: &str = "Allowed domains";
pub const LABEL_WHITE: &str = "White keywords";
pub const LABEL_BLACK: &str = "Black keywords";
pub const LABEL_SKIP_ASSETS: &str = "Skip assets";
pub const LABEL_RESET: &str = "Reset to defaults";
pub const LABEL_FETCH: &str = "Fetch";
pub const LABEL_CANCEL: &str = "Cancel";
pub const CANCEL_TOOLTIP: &str = "Stop loading (Esc); the table keeps what it showed before.";
pub const CANCELLED: &str = "Cancelled: the table shows what it showed before.";
pub const LABEL_DEMO: &str = "Demo page";
pub const LABEL_DEPTH: &str = "Depth";
pub const LABEL_LIMIT_OVERRIDE: &str = "Override N";
pub const LABEL_TARGET: &str = "Page";
pub const LABEL_URL_HINT: &str = "URL, host name or saved .html file — Enter fetches";
/// The page field's hint while the bundled demo is shown.
pub const DEMO_SHOWN_HINT: &str = "Demo page shown — type a URL, host name or saved .html file";
pub const LABEL_BASE_URL: &str = "Base URL";
pub const LABEL_BASE_URL_HINT: &str = "the page's original URL";
pub const BASE_URL_TOOLTIP: &str = "The URL this saved page was served from; links are judged \
    against it. Empty: the page's canonical or og:url. Enter fetches. It is cleared when the \
    page field changes.";
pub const LABEL_SEARCH: &str = "Search";
pub const LABEL_SEARCH_HINT: &str = "URL or text (Ctrl+F)";
pub const LABEL_CLEAR_SEARCH: &str = "Clear search";

/// Under the search field while it filters: "Filtered by “kontakt” — 3 of 40 links".
pub fn search_note(search: &str, shown: usize, all: usize) -> String {
    format!("Filtered by “{search}” — {shown} of {all} links")
}
/// The More menu's Compare entry while comparing: "Compare with…: tuned".
pub fn compare_menu_title(name: &str) -> String {
    format!("{LABEL_COMPARE_WITH}: {name}")
}
/// The top bar's menu for the controls a narrow window folds away.
pub const LABEL_MORE: &str = "More ▾";
pub const MORE_TOOLTIP: &str =
    "Override N, Rendered, Demo page, Save for ticket… and Compare with…";
pub const LABEL_COPY_URL: &str = "Copy URL";
pub const LABEL_COPY_EXPLANATION: &str = "Copy explanation";
pub const LABEL_PROFILE: &str = "Profile";
pub const LABEL_PROFILE_MENU: &str = "Profile actions";
pub const LABEL_SAVE: &str = "Save";
pub const LABEL_SAVE_AS: &str = "Save as…";
pub const LABEL_RENAME: &str = "Rename…";
pub const LABEL_DUPLICATE: &str = "Duplicate…";
pub const LABEL_DELETE: &str = "Delete…";
pub const LABEL_IMPORT: &str = "Import…";
pub const LABEL_EXPORT: &str = "Export…";
pub const LABEL_NAME: &str = "Name";
pub const LABEL_OK: &str = "OK";
pub const LABEL_DISCARD: &str = "Discard changes";
pub const LABEL_SAVE_CHANGES: &str = "Save changes";
pub const LABEL_KEEP_EDITING: &str = "Keep editing";
pub const LABEL_PASTE: &str = "Paste the storage-data JSON here";
pub const LABEL_FROM_FILE: &str = "or read it from a file";
pub const LABEL_COPY_JSON: &str = "Copy to clipboard";
pub const LABEL_SAVE_TO_FILE: &str = "Save to file";
pub const LABEL_REVERT: &str = "↺ default";
pub const LABEL_BROWSE: &str = "Browse…";
pub const BROWSE_TOOLTIP: &str = "Choose the file in a file dialog (or type its path).";
pub const LABEL_OPEN_FILE: &str = "Open…";
pub const OPEN_FILE_TOOLTIP: &str =
    "Open a saved .html page or a web archive (.warc, .warc.gz) in a file dialog.";
pub const NOTHING_TO_LOAD: &str = "Enter a URL or the path of a saved .html file first.";
/// After "⚠ Profiles: " when the profiles file cannot be opened at all.
pub fn profiles_unavailable(error: &str) -> String {
    format!("unavailable, the built-in profile is used: {error}")
}
pub const PROFILES_BUSY: &str = "Reading or writing the profiles file…";
pub const PROFILES_NOT_SAVED: &str = "unavailable: nothing can be saved (see above).";
pub const BYTES_REPLACED: &str = "⚠ bytes replaced";
/// A page had bytes that are not valid in its encoding.
pub fn replaced_bytes(encoding: &str) -> String {
    format!("some bytes are not valid {encoding} and were read as \u{FFFD}")
}
pub const LABEL_RENDERED: &str = "Rendered";
pub const RENDERED_TOOLTIP: &str = "Load URLs in headless Chromium and read the links from its DOM \
     after the page's scripts ran, as the scraper does; rows added by scripts are marked and \
     links scripts removed are listed under the table.";
pub const ADDED_BY_SCRIPT: &str = "added by script";
pub const ADDED_BY_SCRIPT_TOOLTIP: &str = "Not in the HTML the server sent: a script inserted \
     it. The static view misses this link; the scraper sees it.";
pub fn added_by_script_chip(n: usize) -> String {
    format!("＋ {ADDED_BY_SCRIPT} {n}")
}
pub fn removed_by_scripts(n: usize) -> String {
    format!("Removed by scripts ({n}): in the served HTML only, the scraper never sees them")
}
pub const NO_BROWSER: &str = "rendered mode needs Chromium: apt install chromium-headless-shell \
     (or give --browser PATH / FOLLOW_INSPECTOR_BROWSER)";
/// A rendered page in the status bar (the summary is on hover).
pub fn rendered_status(wait: &str, network_idle: bool) -> String {
    let idle = if network_idle { "idle" } else { "not idle" };
    format!("Rendered ({wait}, network {idle})")
}

/// A rendered page's line in the table, and the status bar's hover text.
pub fn rendered_summary(wait: &str, network_idle: bool, render_ms: u64) -> String {
    let idle = if network_idle {
        "the network went idle"
    } else {
        "the network never went idle (read at the deadline)"
    };
    format!("rendered in Chromium, wait {wait}: {idle}, {render_ms} ms")
}
/// A page rendered from a capture (SPEC 12): the table's line, and the
/// window's page header.
pub fn replay_summary(answered: usize, missing: usize) -> String {
    let requests = if answered == 1 { "request" } else { "requests" };
    format!("rendered from the archive: {answered} {requests} answered, {missing} not in it")
}
/// The page header's hover over [`replay_summary`]: what the archive lacked.
pub fn replay_missing(missing: usize, listed: &[String], scripts: usize) -> String {
    if missing == 0 {
        return "Every request the page made was answered from the archive; none reached the \
                network."
            .to_owned();
    }
    let mut text = format!(
        "Not in the archive, answered 404 (nothing reached the network){}:",
        if scripts > 0 {
            format!("; {scripts} of them scripts, so links those scripts build are missing")
        } else {
            String::new()
        }
    );
    for url in listed {
        text.push('\n');
        text.push_str(url);
    }
    if missing > listed.len() {
        text.push_str(&format!("\n… and {} more", missing - listed.len()));
    }
    text
}
pub const NO_FILE_CHOSEN: &str =
    "No file chosen. If no file dialog appeared, type the path instead.";
pub const LABEL_OPEN_IN_BROWSER: &str = "Open in browser ↗";
pub const LABEL_DISMISS: &str = "Close";
pub const DISMISS_TOOLTIP: &str = "Close this message";
pub const LABEL_CRAWL_AGAIN: &str = "Crawl again";
pub const LABEL_SETTINGS_PANEL: &str = "◧ Settings";
pub const LABEL_DETAIL_PANEL: &str = "Detail ◨";
/// The panel switches in a narrow window: their symbols, the name on hover.
pub const SETTINGS_PANEL_SYMBOL: &str = "◧";
pub const DETAIL_PANEL_SYMBOL: &str = "◨";
pub fn folded_panel_tooltip(panel: &str, what: &str) -> String {
    format!("{panel}: {what}")
}
pub const LABEL_SHOW_ONLY: &str = "Show only this";
pub const LABEL_SHOW_ALL: &str = "Show all";
pub const STALE_CRAWL: &str = "Out of date: this crawl was made with other settings or another \
    depth. Every page shown is judged again with the current ones, but which pages were crawled \
    is what the old ones followed.";
pub const PREVIOUS_RESULT: &str = "Previous result: the last load failed (see above).";
pub const KEYBOARD_HELP: &str = "↑ ↓ Home End PageUp PageDown move the selection; \
    Ctrl+C copies its URL, Ctrl+Shift+C its explanation; Ctrl+F searches.";

/// "Warnings (n)" in the top bar.
pub fn warnings_button(n: usize) -> String {
    if n == 1 {
        "⚠ 1 warning".to_owned()
    } else {
        format!("⚠ {n} warnings")
    }
}

/// The page header of a saved page judged against a base URL that differs from
/// the URL the page names for itself.
pub fn judged_as(judged: &str, says: &str) -> String {
    format!("Judged as {judged}, the page says {says} (base URL field).")
}

/// A notice about the profiles file (kept aside, unreadable, …).
pub fn profile_notice(notice: &str) -> String {
    format!("Profiles: {notice}")
}

/// Crawled pages, failed ones and error pages, for the status bar.
pub fn crawl_summary(pages: usize, failed: usize, http_errors: usize) -> String {
    let mut text = format!("{pages} pages crawled, {failed} failed");
    if http_errors > 0 {
        text.push_str(&format!(", {http_errors} answered HTTP 4xx/5xx"));
    }
    text
}

/// What an empty table says.
pub fn no_links(status: Option<u16>) -> String {
    match status {
        Some(s) if s >= 400 => format!(
            "No links: the server answered HTTP {s}, an error page. The scraper gets the same page."
        ),
        _ => "No links on this page.".to_owned(),
    }
}
pub const UNSAVED_MARK: &str = "●";

/// The unsaved-changes question: `doing` is the action waiting for the answer
/// (`QUITTING`, `switching_to`, …).
pub fn unsaved_question(doing: &str, profile: &str, save_in_place: bool) -> String {
    if save_in_place {
        format!("{doing}: save your changes to “{profile}” first?")
    } else {
        format!("{doing}: save your changes to “{profile}” as a new profile first?")
    }
}

pub const QUITTING: &str = "Quitting";

/// The archive banner's button replaces the settings on screen.
pub const USING_ARCHIVE_SETTINGS: &str = "Using the archive's settings";

pub fn switching_to(profile: &str) -> String {
    format!("Switching to “{profile}”")
}

pub fn importing(profile: &str) -> String {
    format!("Importing “{profile}”")
}

pub fn renaming_to(profile: &str) -> String {
    format!("Renaming to “{profile}”")
}

pub fn duplicating(from: &str, to: &str) -> String {
    format!("Duplicating “{from}” as “{to}”")
}

pub fn deleting(profile: &str) -> String {
    format!("Deleting “{profile}”")
}

/// The unsaved-changes question before a delete: the changes can only go to
/// a new profile, since the one they were made in is going.
pub fn delete_unsaved_question(profile: &str) -> String {
    format!(
        "Deleting “{profile}” also deletes its unsaved changes: keep them in a new profile first?"
    )
}

pub fn delete_question(profile: &str) -> String {
    format!("Delete the profile “{profile}”? This cannot be undone.")
}

pub fn import_report(name: &str, ignored: &[String], defaulted: &[&str]) -> String {
    let mut out = format!("Imported as “{name}”.");
    if !ignored.is_empty() {
        out.push_str(&format!(
            " Ignored (not follow settings): {}.",
            ignored.join(", ")
        ));
    }
    if !defaulted.is_empty() {
        out.push_str(&format!(
            " Missing, given the defaults: {}.",
            defaulted.join(", ")
        ));
    }
    out
}

/// The "how the options combine" text, shown in the settings panel itself.
pub const HOW_DOMAINS_STACK: &str = "Same-site: the two domain options stack. A link is \
    same-site if either admits it: subdomain mode (same root domain) OR an allowed-domain \
    entry. Both on is the widest setting. With both off, only the page's exact host counts.";
pub const HOW_KEYWORDS_WORK: &str = "The black list is checked first: a black keyword anywhere \
    in the URL or link text rejects the link, whatever the white list says. The white list is \
    match-only: a link without a white keyword is never followed, so an empty white list \
    follows nothing. Earlier white keywords score higher; the top N by score are followed.";
pub const HOW_ASSETS_WORK: &str = "Assets are judged by the URL path suffix only (the query \
    and the Content-Type do not count).";
pub const ROOT_DOMAIN_NOTE: &str = "Root domain = the last two labels of the host \
    (naive: acme.co.uk → co.uk).";

pub fn subdomain_tooltip() -> String {
    "followSubdomain: off = the link's host must equal the page's host; on = the same root \
     domain (last two labels) is enough, e.g. shop.acme.com ↔ acme.com."
        .to_owned()
}

pub fn skip_assets_tooltip() -> String {
    format!(
        "followSkipAssets: skip links whose URL path ends in .{}",
        crate::policy::ASSET_EXTENSIONS.join(" .")
    )
}

pub fn limit_formula(depth: u32, n: usize) -> String {
    format!("N = (depth − 1) × 3 = ({depth} − 1) × 3 = {n}")
}
pub const SIBLING_ROOTS_HEADING: &str = "Other roots of this site on this page (click to allow):";
pub const SIBLING_ROOTS_TOOLTIP: &str = "The page links to the same name under another suffix. \
    Those links are off-domain now; adding a root to the allowed domains admits them. \
    Nothing is added unless you click.";

/// A suggested sibling root's button: "+ acme.de (2 links)".
pub fn add_sibling_root(domain: &str, links: usize) -> String {
    format!("+ {domain} ({})", plural(links, "link", "links"))
}

pub const LABEL_COMPARE_WITH: &str = "Compare with…";
pub const LABEL_COMPARE_NONE: &str = "(nobody)";
pub const COMPARE_TOOLTIP: &str = "Decide the same pages under a second profile (B) as \
    well: the table gains B's verdict, changed rows are marked, and the detail pane shows \
    both traces. The corpus view runs both profiles too.";
pub const LABEL_ONLY_CHANGED: &str = "Δ changed";
pub const ONLY_CHANGED_TOOLTIP: &str = "Show only the links whose verdict, rank or deciding \
    keyword differs under the compared profile.";

/// The compared profile's column header: "B: tuned".
pub fn compared_column(name: &str) -> String {
    format!("B: {name}")
}

/// The summary of a comparison, with the profile it is against.
pub fn comparison_line(name: &str, summary: &crate::policy::compare::ChangeSummary) -> String {
    format!("Against “{name}”: {}", change_summary(summary))
}

/// The crawled pages' heading.
pub fn crawled_pages_title(n: usize, stale: bool) -> String {
    if stale {
        format!("Crawled pages ({n}, out of date)")
    } else {
        format!("Crawled pages ({n})")
    }
}

/// How a crawled page was reached, before its URL in the tree: "#3 “Kontakt” → ".
pub fn crawl_tree_via(link: usize, text: &str) -> String {
    if text.is_empty() {
        format!("#{link} → ")
    } else {
        format!("#{link} “{text}” → ")
    }
}

pub const LABEL_REGION: &str = "Region";
pub const LABEL_ALL_REGIONS: &str = "all";
pub const REGION_TOOLTIP: &str = "The part of the page a link sits in: its nearest <nav>, \
    <header>, <main>, <aside> or <footer> (or the ARIA role of one). It never changes a \
    verdict; it explains one (\"the Impressum link is only in the footer\").";
pub const NOFOLLOW_MARK: &str = "nofollow";
pub const NOFOLLOW_TOOLTIP: &str = "The link has rel=nofollow. The scraper does not look at \
    rel: it follows such a link like any other.";
pub const INSIDE_WORD_TOOLTIP: &str = "The keyword matched inside a longer word (`tag` in \
    `heritage`, `team` in `steam`). Keywords match as plain substrings, so it still counts.";
pub const SAME_UNDER_B: &str = "The same verdict, rank and keyword under the compared profile.";

pub const LABEL_INSPECTOR_VIEW: &str = "Inspector";
pub const LABEL_CORPUS_VIEW: &str = "Corpus";
pub const CORPUS_VIEW_TOOLTIP: &str = "Run the settings over a folder of saved pages or a \
    corpus manifest: counts per page and per keyword, and every link a change gains or loses.";
pub const LABEL_CORPUS_PATH: &str = "Folder or manifest";
pub const CORPUS_PATH_HINT: &str =
    "a folder of *.html or of *.warc.gz, manifest.tsv, FILE.warc.gz, or @LIST of archives";
pub const LABEL_CHOOSE_FOLDER: &str = "Folder…";
pub const LABEL_CHOOSE_MANIFEST: &str = "Manifest…";
pub const LABEL_RUN_CORPUS: &str = "▶ Run";
pub const OPEN_CORPUS_PAGE: &str = "Click to open this page in the inspector, under both profiles.";
pub const CORPUS_EMPTY: &str = "Choose a folder of saved pages (each naming its URL with \
    <link rel=canonical> or og:url) or a manifest.tsv (columns id and original_url, pages in \
    pages/<id>.html), then Run. Nothing is fetched.";
pub const KEYWORDS_HEADING: &str = "Keywords: pages and links each one decided";
pub const KEYWORD_TABLE_HEADERS: [&str; 8] = [
    "Keyword",
    "List",
    "Pages (A)",
    "Links (A)",
    "In URL",
    "In text",
    "Inside a word",
    "Pages (B)",
];
pub const CHART_SIDE_A: &str = "A: pages decided";
pub const CHART_SIDE_B: &str = "B: pages decided";
pub const CAUSES_HEADING: &str = "Changed links by cause";
pub const NO_CHANGED_LINKS: &str = "No link changes between A and B.";
pub const TRACE_A: &str = "A: current";

/// Over the two traces of a changed link.
pub fn changed_because(name: &str, because: &str) -> String {
    format!("Under “{name}” this link changes: {because}.")
}

/// After a suggested root was added to the allowed domains.
pub fn added_allowed_domain(domain: &str) -> String {
    format!("Added {domain} to the allowed domains (not saved yet).")
}

/// Where the link sits and whether it says nofollow, in the detail pane.
pub fn link_annotations(region: &str, nofollow: bool) -> String {
    let nofollow = if nofollow {
        " · rel=nofollow (the scraper follows it anyway)"
    } else {
        ""
    };
    format!("Page region: {region}{nofollow}")
}
