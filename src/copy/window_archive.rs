//! The window's words about web archives: Save for ticket…, an inspection
//! reopened from an archive, and the settings it was judged under.

use crate::archive::SaveFormat;

pub const LABEL_SAVE_FOR_TICKET: &str = "Save for ticket…";
pub const SAVE_FOR_TICKET_TOOLTIP: &str = "Save the pages exactly as fetched in a web archive \
     (.warc.gz or .wacz) to attach to a ticket: anyone can reopen it offline and see these verdicts.";
pub const NOTHING_FETCHED_TO_SAVE: &str =
    "Nothing fetched to save: fetch a page (or reopen an archive) first.";
pub const DEMO_NOT_SAVED: &str =
    "The demo page was not fetched, so there is nothing to archive: fetch a page first.";
pub const SAVED_PAGE_NOT_SAVED: &str = "A saved .html file holds no HTTP exchange to archive: \
     attach the file itself, or fetch the page and save that.";
pub const WAIT_FOR_THE_LOAD: &str = "Wait for the load to finish (or cancel it).";
pub const SAVING_ARCHIVE: &str = "Saving the archive…";
pub const SAVE_FOR_TICKET_TITLE: &str = "Save for ticket";
pub const SAVE_FOR_TICKET_NOTE: &str = "Every page of this inspection as it was fetched (each \
     HTTP request and response; in rendered mode the DOM and what the page loaded: scripts, \
     stylesheets, XHR and fetch answers) and the settings, depth and profile it was judged \
     under, as one web archive. Open it with Open… or drop it on the window, offline; with \
     Rendered on, it is rendered again from the archive alone.";
pub const LABEL_ARCHIVE_FILE: &str = "Archive file";
pub const LABEL_ARCHIVE_FORMAT: &str = "Format";
pub const LABEL_FORMAT_WARC: &str = "WARC (.warc.gz)";
pub const LABEL_FORMAT_WACZ: &str = "WACZ (.wacz)";
pub const FORMAT_WARC_TOOLTIP: &str = "One web archive file: reopens here offline, and any WARC \
     tool reads it (warcio, pywb, wget's own).";
pub const FORMAT_WACZ_TOOLTIP: &str = "The same web archive packaged with its index and list of \
     pages: reopens here offline, and ReplayWeb.page shows the pages as they were captured.";
pub const ARCHIVE_PATH_HINT: &str = "/path/to/acme.com-2026-12-01.warc.gz";
pub const FILE_DIALOG_SAVE_ARCHIVE: &str = "Save the inspection as a web archive";
pub const FILE_FILTER_PAGE_OR_ARCHIVE: &str = "HTML page or web archive";
pub const LABEL_REPLACE: &str = "Replace";
pub const JUDGE_UNDER_ARCHIVE: &str = "Use the archive's settings";

/// A `WARC-Date` as people read it: `2026-12-01T15:37:24Z` is
/// `2026-12-01 15:37:24 UTC`; any other form is shown as written.
fn capture_date(warc_date: &str) -> String {
    match warc_date.strip_suffix('Z').and_then(|d| d.split_once('T')) {
        Some((day, time)) if day.len() == 10 => format!("{day} {time} UTC"),
        _ => warc_date.to_owned(),
    }
}

/// The file name Save for ticket suggests: the host and the day, ending
/// as the format chosen does.
pub fn ticket_archive_name(host: &str, date: &str, format: SaveFormat) -> String {
    let host: String = host
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '.' || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect();
    let host = if host.is_empty() { "page" } else { &host };
    format!("{host}-{date}{}", format.extension())
}

pub fn overwrite_question(path: &str) -> String {
    format!("{path} exists. Replace it with this inspection's archive?")
}

/// The status line after Save for ticket; `name` first, where the bar
/// keeps it in view.
pub fn saved_for_ticket(name: &str, pages: usize, bytes: u64) -> String {
    format!(
        "Saved {name} for the ticket ({}, {}).",
        super::plural(pages, "page", "pages"),
        super::human_bytes(bytes as usize)
    )
}

/// The status bar's words before the page URL of a reopened archive.
pub fn archive_source(name: &str, captured: Option<&str>) -> String {
    match captured {
        Some(when) => format!(
            "From an archive, captured {}: {name} as",
            capture_date(when)
        ),
        None => format!("From an archive: {name} as"),
    }
}

/// The page header's line about a reopened archive, with the damaged
/// records it passed over and the records it read past something odd.
pub fn archive_header(name: &str, captured: Option<&str>, damaged: usize, warned: usize) -> String {
    let mut line = match captured {
        Some(when) => format!(
            "From the web archive {name}, captured {} (offline)",
            capture_date(when)
        ),
        None => format!("From the web archive {name} (offline)"),
    };
    if damaged > 0 {
        line.push_str(&format!(
            "; {} passed over, the intact pages read",
            super::plural(damaged, "damaged record", "damaged records")
        ));
    }
    if warned > 0 {
        line.push_str(&format!(
            "; {} read past something odd (inspect on the command line names them)",
            super::plural(warned, "record", "records")
        ));
    }
    line
}

/// Who judged the capture and when, for the settings banner.
fn capture_of(profile: Option<&str>, captured: Option<&str>) -> String {
    let profile = match profile {
        Some(name) => format!("profile “{name}”"),
        None => "edited settings".to_owned(),
    };
    match captured {
        Some(when) => format!("{profile}, captured {}", capture_date(when)),
        None => profile,
    }
}

/// The banner while the archive's own settings judge its pages.
pub fn archive_settings_banner(
    profile: Option<&str>,
    captured: Option<&str>,
    current: &str,
) -> String {
    format!(
        "Settings from the archive ({}): these are the verdicts it was saved with. They show \
         as unsaved edits over your profile “{current}”; nothing is fetched either way.",
        capture_of(profile, captured)
    )
}

/// The banner while the archive's own settings judge its pages and they are
/// the current profile's as saved.
pub fn archive_settings_are_profile(
    profile: Option<&str>,
    captured: Option<&str>,
    current: &str,
) -> String {
    format!(
        "Settings from the archive ({}): these are the verdicts it was saved with, and they \
         are your profile “{current}” as saved; nothing is fetched.",
        capture_of(profile, captured)
    )
}

/// The banner once the archive's pages are judged under other settings.
pub fn judged_not_as_archived(profile: Option<&str>, captured: Option<&str>) -> String {
    format!(
        "Judged under your settings, not the archive's ({}).",
        capture_of(profile, captured)
    )
}

pub fn judge_under_profile(profile: &str) -> String {
    format!("Judge under “{profile}”")
}

/// The copied explanation's line for an archive saved from the window.
pub fn explanation_saved_archive(name: &str, saved: &str) -> String {
    format!("  archive: {name} (saved {saved} UTC)\n")
}

/// The copied explanation's line for an inspection reopened from an archive.
pub fn explanation_reopened_archive(path: &str, captured: Option<&str>) -> String {
    match captured {
        Some(when) => format!(
            "  archive: {path} (reopened offline, captured {})\n",
            capture_date(when)
        ),
        None => format!("  archive: {path} (reopened offline)\n"),
    }
}

/// The label of the list of a WACZ package's pages, in the page header.
pub const LABEL_PACKAGE_PAGE: &str = "Start at";

/// Its tooltip.
pub const PACKAGE_PAGE_TOOLTIP: &str =
    "The pages the package names (its pages.jsonl): choose one to crawl the package from it";

/// One page of a package in the list: its title, else its URL.
pub fn package_page(title: Option<&str>, url: &str) -> String {
    match title.filter(|t| !t.trim().is_empty() && *t != url) {
        Some(title) => format!("{title} — {url}"),
        None => url.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_archive_header_counts_damaged_and_odd_records() {
        assert_eq!(
            archive_header("a.warc", None, 0, 0),
            "From the web archive a.warc (offline)"
        );
        assert_eq!(
            archive_header("a.warc", None, 2, 1),
            "From the web archive a.warc (offline); 2 damaged records passed over, the intact \
             pages read; 1 record read past something odd (inspect on the command line names \
             them)"
        );
    }

    #[test]
    fn the_suggested_name_is_the_host_and_the_day() {
        assert_eq!(
            ticket_archive_name("acme.test", "2026-12-01", SaveFormat::Warc),
            "acme.test-2026-12-01.warc.gz"
        );
        assert_eq!(
            ticket_archive_name("acme.test", "2026-12-01", SaveFormat::Wacz),
            "acme.test-2026-12-01.wacz"
        );
        assert_eq!(
            ticket_archive_name("[::1]", "2026-12-01", SaveFormat::Warc),
            "___1_-2026-12-01.warc.gz"
        );
        assert_eq!(
            ticket_archive_name("", "2026-12-01", SaveFormat::Warc),
            "page-2026-12-01.warc.gz"
        );
    }
}
