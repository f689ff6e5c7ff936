//! The command line's own words: warnings on stderr and the profiles listing.

/// A crawl's progress line: pages fetched of those known, KB read, the last URL.
pub fn crawl_progress(done: usize, queued: usize, kb: usize, last_url: &str) -> String {
    format!("fetched {done}/{queued} pages, {kb} KB  {last_url}")
}

/// A corpus run's progress line.
pub fn corpus_read_progress(done: usize, total: usize) -> String {
    format!("read {done}/{total} pages")
}

/// A `--shard` that does not parse.
pub fn not_a_shard(text: &str) -> String {
    format!(
        "`{text}` is not a shard: give I/N with 0 ≤ I < N (0/4 … 3/4), or - to read the units \
         from standard input"
    )
}

/// `--shard` with a report format.
pub const SHARD_NEEDS_PARTIAL: &str = "--shard judges only part of the corpus, so it writes a \
    partial result: give --format partial, and `corpus merge` the shards into the report";

/// `corpus merge`'s progress line.
pub fn merge_progress(lines: usize) -> String {
    format!("read {lines} lines of partial results")
}

/// A partial result that cannot be read.
pub fn cannot_read_part(name: &str) -> String {
    format!("cannot read {name}")
}

/// A part that is a named pipe, before it is read: its writer may not have
/// started.
pub fn waiting_for_part(name: &str) -> String {
    format!("waiting for {name} (a named pipe) to be written …")
}

/// The same partial result given twice to `corpus merge`.
pub fn part_given_twice(name: &str) -> String {
    format!("{name} is given twice")
}

/// `--shard -` whose standard input cannot be read.
pub const CANNOT_READ_UNITS: &str = "cannot read the list of units on standard input";

/// A partial result that `corpus merge` cannot read.
pub const CANNOT_MERGE: &str = "cannot merge the partial results";

/// A page cut at `--max-bytes`.
pub fn truncated_page(url: &str, max_bytes: usize) -> String {
    format!("{url} was cut at {max_bytes} bytes (--max-bytes); links after the cut are missing")
}

/// A settings file with keys that are not follow settings.
pub fn settings_file_ignored_keys(path: &str, keys: &[String]) -> String {
    format!(
        "{path} has keys that are not follow settings, ignored: {}",
        keys.join(", ")
    )
}

/// After the built-in profile's name in `profiles list`.
pub const BUILT_IN_MARK: &str = "  (built in, read-only)";
/// After a changed key in `profiles show`.
pub const CHANGED_MARK: &str = "  (changed from the defaults)";

pub fn ignored_keys(keys: &[String]) -> String {
    format!("ignored keys (not follow settings): {}", keys.join(", "))
}

pub fn defaulted_keys(keys: &[&str]) -> String {
    format!("missing keys, given the defaults: {}", keys.join(", "))
}

pub fn imported_as(name: &str) -> String {
    format!("imported as profile “{name}”")
}

/// `profiles delete`, on stderr.
pub fn profile_deleted(name: &str) -> String {
    format!("deleted profile “{name}”")
}

/// After the table's rendered line: what was done to the page to read it.
pub fn rendered_marks(
    dialogs: usize,
    scripts_stopped: bool,
    dom_read: bool,
    blocked: usize,
) -> String {
    let mut out = format!(", dialogs: {dialogs}");
    if scripts_stopped {
        out.push_str(", scripts stopped at the deadline");
    }
    if !dom_read {
        out.push_str(" (the page never answered: links read from the served HTML)");
    }
    if blocked > 0 {
        out.push_str(&format!(
            ", {} to private addresses blocked",
            super::plural(blocked, "request", "requests")
        ));
    }
    out
}

/// A reopened web archive, on stderr before the report.
pub fn reading_archive(path: &str, captured: Option<&str>) -> String {
    match captured {
        Some(date) => format!("reading {path} offline: the pages as captured on {date}"),
        None => format!("reading {path} offline: the pages as captured"),
    }
}

/// A damaged record of a reopened archive, worded as a corpus run words it:
/// the intact records are read, this one passed over.
pub fn reopened_damaged_record(path: &str, damaged: &crate::archive::Damaged) -> String {
    format!(
        "{path} at offset {}: {} (passed over; the intact records are read)",
        damaged.offset, damaged.detail
    )
}

/// Something odd about a WACZ package that still opens.
pub fn package_warning(path: &str, warning: &crate::archive::wacz::WaczWarning) -> String {
    format!("{path}: {warning}")
}

/// A package names several pages: the first is read, and how to pick another.
pub fn package_pages(count: usize) -> String {
    format!(
        "the package names {count} pages: inspect starts at the first unless --base-url URL \
         names another"
    )
}

/// A record of a reopened archive the crawl read past what was odd about it
/// (SPEC 12): each quirk, in the order met.
pub fn reopened_record_warning(path: &str, warning: &crate::archive::ReadWarning) -> String {
    let quirks: Vec<String> = warning.quirks.iter().map(ToString::to_string).collect();
    format!(
        "{path} at offset {} ({}): {}",
        warning.offset,
        warning.url,
        quirks.join("; ")
    )
}

/// `--save-warc` done.
pub fn saved_archive(path: &str, pages: usize, records: usize, bytes: u64) -> String {
    let pages = if pages == 1 {
        "1 page".to_owned()
    } else {
        format!("{pages} pages")
    };
    format!("saved {pages} ({records} records, {bytes} bytes) to {path}")
}

/// After a rendered capture is saved: what of the pages' other responses
/// it keeps, so that it replays (SPEC 12), and what it left out.
pub fn saved_resources(kept: usize, media: usize, over_cap: usize, unread: usize) -> String {
    let mut text = format!(
        "kept {} the pages loaded (scripts, stylesheets, frames, XHR and fetch calls), so that \
         the capture renders again offline",
        super::plural(kept, "response", "responses")
    );
    if media > 0 {
        text.push_str(&format!(
            "; {} left out (--capture-all keeps them)",
            super::plural(
                media,
                "image, media or font response",
                "image, media or font responses"
            )
        ));
    }
    if over_cap > 0 {
        text.push_str(&format!(
            "; {over_cap} left out past the cap of {}× --max-bytes a page",
            crate::render::KEEP_FACTOR
        ));
    }
    if unread > 0 {
        text.push_str(&format!(
            "; {unread} whose body was not had (the browser no longer held it, or not within \
             {} s of reading the page)",
            crate::render::READ_GRACE.as_secs()
        ));
    }
    text
}

/// A page rendered from an archive, on stderr (the report has the counts).
pub fn replayed_page(url: &str, answered: usize, missing: usize) -> String {
    format!(
        "{url}: {}",
        super::window::replay_summary(answered, missing)
    )
}

/// A replayed page whose scripts the archive lacks.
pub fn replay_without_scripts(url: &str, scripts: usize) -> String {
    let (is, they) = if scripts == 1 {
        ("is", "it")
    } else {
        ("are", "they")
    };
    format!(
        "{url}: {scripts} of the scripts the page asked for {is} not in the archive (answered \
         404), so links {they} would build are missing: the capture was made without them (a \
         static capture, or a tool that kept only the page), or the page asked for other URLs \
         than when it was captured (a cache-busting parameter); the report's replay.missing_urls \
         lists them"
    )
}

/// While suggestions are tried, after the pages are read.
pub fn trying_suggestions(done: usize, total: usize) -> String {
    format!("trying suggested changes over the labelled pages: {done}/{total}")
}
