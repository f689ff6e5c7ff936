//! The window's status lines, notices and errors about its own work.

pub const BACKGROUND_TASK_STOPPED: &str = "the background task stopped unexpectedly";
pub const CORPUS_THREAD_STOPPED: &str = "the corpus thread stopped unexpectedly";
pub const PROFILES_THREAD_STOPPED: &str = "the profiles thread stopped unexpectedly";

pub const FILE_DIALOG_OPEN_PAGE: &str = "Open a saved page or a web archive";
pub const FILE_DIALOG_IMPORT_SETTINGS: &str = "Import a user's settings";
pub const FILE_DIALOG_EXPORT_SETTINGS: &str = "Export the settings";
pub const FILE_DIALOG_CORPUS_FOLDER: &str = "A folder of saved pages";
pub const FILE_DIALOG_CORPUS_MANIFEST: &str = "A corpus manifest";
pub const FILE_FILTER_HTML: &str = "HTML page";
pub const FILE_FILTER_JSON: &str = "storage-data JSON";
pub const FILE_FILTER_MANIFEST: &str = "manifest";

pub const COPIED: &str = "Copied to the clipboard.";
pub const LIGHT_THEME: &str = "☀ Light theme";
pub const DARK_THEME: &str = "Dark theme";
pub const NOTHING_LOADED: &str = "Nothing loaded.";
pub const DEMO_SOURCE: &str = "Demo page (bundled, no network):";

pub fn cannot_open_file_dialog(error: &dyn std::fmt::Display) -> String {
    format!("cannot open a file dialog: {error}")
}

pub fn cannot_start_corpus_run(error: &dyn std::fmt::Display) -> String {
    format!("cannot start the corpus run: {error}")
}

pub fn cannot_start_background_task(error: &dyn std::fmt::Display) -> String {
    format!("cannot start the background task: {error}")
}

pub fn cannot_open_window(error: &dyn std::fmt::Display) -> String {
    format!("cannot open the window: {error}")
}

pub fn cannot_write(path: &str, error: &dyn std::fmt::Display) -> String {
    format!("cannot write {path}: {error}")
}

pub fn cannot_read(path: &str, error: &dyn std::fmt::Display) -> String {
    format!("cannot read {path}: {error}")
}

pub fn saved_profile(name: &str) -> String {
    format!("Saved “{name}”.")
}

/// After Duplicate: the copy is stored and is now the current profile.
pub fn duplicated_profile(from: &str, copy: &str) -> String {
    format!("Saved “{copy}”, a copy of “{from}”; it is now the current profile.")
}

pub fn deleted_profile(name: &str) -> String {
    format!("Deleted “{name}”.")
}

pub fn exported_to(path: &str) -> String {
    format!("Exported to {path}.")
}

/// Ctrl+Shift+C with no row selected.
pub const NO_ROW_TO_COPY: &str =
    "No link is selected: click a row (or press ↓), then Ctrl+Shift+C copies its explanation.";

/// After a copy button or shortcut: the link's URL, or its explanation.
pub fn copied_of_link(explanation: bool, index: usize) -> String {
    let noun = if explanation { "explanation" } else { "URL" };
    format!("Copied the {noun} of link #{index} to the clipboard.")
}

/// Measuring start-up (`scripts/measure-window` reads these on stderr).
pub fn first_frame_measured(ms: f64) -> String {
    format!("first frame built {ms:.1} ms after the window was asked for")
}

pub fn start_page_measured(links: usize, ms: f64) -> String {
    format!("start page shown ({links} links) {ms:.1} ms after the window was asked for")
}

/// The status bar's last message.
pub fn notice_line(notice: &str) -> String {
    format!("ℹ {notice}")
}

pub fn file_source(path: &str) -> String {
    format!("File {path} as")
}

pub fn redirects(n: usize) -> String {
    format!("← {n} redirect(s)")
}

pub fn http_status(status: u16) -> String {
    format!("HTTP {status}")
}

/// A size in B, KB or MB.
pub(crate) fn human_bytes(n: usize) -> String {
    if n >= 1024 * 1024 {
        format!("{:.1} MB", n as f64 / (1024.0 * 1024.0))
    } else if n >= 1024 {
        format!("{:.0} KB", n as f64 / 1024.0)
    } else {
        format!("{n} B")
    }
}

/// The page's size, and whether the size cap cut it.
pub fn page_size(bytes: usize, truncated: bool) -> String {
    let cut = if truncated {
        " (cut at the size cap)"
    } else {
        ""
    };
    format!("{}{cut}", human_bytes(bytes))
}

/// A time in ms, or in seconds from one second up.
pub(crate) fn human_ms(ms: u64) -> String {
    if ms >= 1000 {
        format!("{:.1} s", ms as f64 / 1000.0)
    } else {
        format!("{ms} ms")
    }
}

pub fn fetch_time(ms: u64) -> String {
    format!("fetched in {}", human_ms(ms))
}

pub fn render_time(ms: u64) -> String {
    format!("rendered in {}", human_ms(ms))
}

/// The links scripts added to the start page and removed from it.
pub fn script_changes(added: usize, removed: usize) -> String {
    format!("scripts added {added}, removed {removed}")
}

pub const SCRIPT_CHANGES_TOOLTIP: &str = "Links in the page after its scripts ran that the \
     server's HTML did not have (added), and links of the server's HTML the scripts took away \
     (removed), on the start page.";

/// Between two facts of the status bar.
pub const FACT_SEPARATOR: &str = "  |  ";

/// The host mappings in use, in the status bar.
pub fn host_mapping_mark(mappings: &[crate::fetch::Resolve]) -> String {
    match mappings {
        [one] => format!("⇄ {} → {}", one.host, one.addr),
        many => format!("⇄ {} hosts mapped", many.len()),
    }
}

pub fn host_mapping_tooltip(mappings: &[crate::fetch::Resolve]) -> String {
    let lines: Vec<String> = mappings
        .iter()
        .map(|m| format!("{} → {}", m.host, m.addr))
        .collect();
    format!(
        "Requests for these hosts go to these addresses, fetched or rendered (the command \
         line's --resolve):\n{}\nSet in Settings › Advanced.",
        lines.join("\n")
    )
}

pub const BAD_HOST_MAPPING_MARK: &str = "⚠ host mapping not valid";

/// A host mapping that does not parse: the status bar's hover and the banner
/// when Fetch is clicked.
pub fn bad_host_mapping(error: &str) -> String {
    format!("host mapping (Settings › Advanced): {error}; fix it or clear the field to fetch")
}

/// The encoding and where it was found.
pub fn charset_line(encoding: &str, source: &str) -> String {
    format!("{encoding} ({source})")
}

/// The error banner: the error in full, then what to do about it.
pub fn error_banner(error: &str, advice: Option<&str>) -> String {
    match advice {
        Some(advice) => format!("✖ {error}\n{advice}"),
        None => format!("✖ {error}"),
    }
}

pub fn profile_notice_banner(notice: &str) -> String {
    format!("⚠ {notice}")
}
