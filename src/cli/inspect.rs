//! `inspect` and `diff`: load a target (under two settings for `diff`) and
//! print the report.

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use anyhow::anyhow;

use super::args::{DiffArgs, Format, InspectArgs};
use super::failure::Failure;
use super::output::{StatusLine, finish_writing, report_out, say};
use super::setup::{load_request, side_b};
use crate::archive;
use crate::copy;
use crate::crawl::Progress;
use crate::inspect::Inspection;
use crate::load::{self, LoadError, LoadedFrom};
use crate::report;

/// Runs `run` with the progress line shown while it goes, when stderr is a
/// terminal. Ctrl+C ends the process; a browser on its pipe ends with it.
fn with_progress<T>(run: impl FnOnce(&Arc<AtomicBool>, &(dyn Fn(Progress) + Sync)) -> T) -> T {
    let never = Arc::new(AtomicBool::new(false));
    let status = StatusLine::on_stderr();
    let progress = |p: Progress| {
        let last = p.last_url.as_deref().unwrap_or("");
        let last: String = last.chars().take(60).collect();
        status.show(&copy::crawl_progress(
            p.done,
            p.queued,
            p.bytes / 1024,
            &last,
        ));
    };
    let result = run(&never, &progress);
    status.clear();
    result
}

/// Runs `inspect` and prints the report on stdout.
pub fn run_inspect(args: &InspectArgs, config_dir: Option<&Path>) -> Result<(), Failure> {
    let request = load_request(args, config_dir)?;
    let loaded = with_progress(|cancel, progress| load::load(&request, cancel, progress))?;
    say_where_from(&loaded.from);
    let inspection = loaded.inspection;
    warn_about_reading(&inspection, args.fetch.max_bytes);
    let mut stdout = report_out();
    let written = match args.format {
        Format::Json => report::write_json(&inspection, &mut stdout),
        Format::Csv => report::write_csv(&inspection, &mut stdout).map_err(std::io::Error::from),
        Format::Table => report::write_table(&inspection, &mut stdout),
    };
    // After the report: a save that fails does not cost a long crawl's report.
    save_warc(args, &loaded.from, &inspection, None)?;
    // The process ends next: freeing half a million links one by one would
    // only cost time the operating system saves by taking the memory back.
    std::mem::forget(inspection);
    finish_writing(written)
}

/// Runs `diff`: one fetch per page for both sides.
pub fn run_diff(args: &DiffArgs, config_dir: Option<&Path>) -> Result<(), Failure> {
    let request = load_request(&args.inspect, config_dir)?;
    let b = side_b(&args.against, config_dir)?.ok_or_else(|| {
        Failure::Usage(anyhow!(
            "diff needs --against NAME or --against-settings FILE"
        ))
    })?;
    let (a, inspection_b) =
        with_progress(|cancel, progress| load::load_both(&request, &b, cancel, progress))?;
    say_where_from(&a.from);
    warn_about_reading(&a.inspection, args.inspect.fetch.max_bytes);
    let saved = save_warc(&args.inspect, &a.from, &a.inspection, Some(&inspection_b));
    let diff = crate::diff::Diff::new(a.inspection, inspection_b);
    let mut stdout = report_out();
    let written = match args.inspect.format {
        Format::Json => report::write_diff_json(&diff, &args.inspect.target, &mut stdout),
        Format::Csv => report::write_diff_csv(&diff, &mut stdout).map_err(std::io::Error::from),
        Format::Table => report::write_diff_table(&diff, &mut stdout),
    };
    saved?;
    finish_writing(written)
}

/// Says on stderr that the pages come from a web archive, when they were
/// captured, and what of it was damaged or odd: the report itself is the
/// live run's, byte for byte.
fn say_where_from(from: &LoadedFrom) {
    if let LoadedFrom::Archive { path, info } = from {
        let path = path.display().to_string();
        say(&copy::reading_archive(&path, info.captured.as_deref()));
        for damaged in &info.damaged {
            say(&format!(
                "warning: {}",
                copy::reopened_damaged_record(&path, damaged)
            ));
        }
        if info.damaged_not_listed > 0 {
            say(&format!(
                "warning: {}",
                copy::problems_not_listed(info.damaged_not_listed)
            ));
        }
        // Said after the crawl: a record's quirks are found as its body is
        // read. The report itself stays the live run's.
        for warning in info.read_warnings.listed() {
            say(&format!(
                "warning: {}",
                copy::reopened_record_warning(&path, &warning)
            ));
        }
        let not_listed = info.read_warnings.not_listed();
        if not_listed > 0 {
            say(&format!(
                "warning: {}",
                copy::problems_not_listed(not_listed)
            ));
        }
        if let Some(package) = &info.package {
            for warning in &package.warnings {
                say(&format!(
                    "warning: {}",
                    copy::package_warning(&path, warning)
                ));
            }
            if package.pages.len() > 1 {
                say(&copy::package_pages(package.pages.len()));
            }
        }
    }
}

/// Saves the inspection (and a diff's other side) with `--save-warc`.
fn save_warc(
    args: &InspectArgs,
    from: &LoadedFrom,
    inspection: &Inspection,
    other: Option<&Inspection>,
) -> Result<(), Failure> {
    let Some(path) = &args.save_warc else {
        return Ok(());
    };
    let reopened_profile = match from {
        LoadedFrom::Archive { info, .. } if args.settings.is_none() => info.profile.as_deref(),
        _ => None,
    };
    let request = archive::SaveRequest {
        inspection,
        other,
        profile: args.profile.as_deref().or(reopened_profile),
    };
    let saved = archive::save(path, &request).map_err(LoadError::from)?;
    say(&copy::saved_archive(
        &saved.path.display().to_string(),
        saved.pages,
        saved.records,
        saved.bytes,
    ));
    if inspection.pages.iter().any(|p| p.rendered().is_some()) {
        let left = saved.left_out;
        say(&copy::saved_resources(
            saved.resources,
            left.media,
            left.over_cap,
            left.unread,
        ));
    }
    Ok(())
}

/// Warns on stderr about pages read incompletely or with replaced bytes,
/// and says what a replay answered from the archive.
fn warn_about_reading(inspection: &Inspection, max_bytes: usize) {
    for page in &inspection.pages {
        if let Some(replay) = page.rendered().and_then(|r| r.replay.as_ref()) {
            let url = page.url.as_str();
            say(&copy::replayed_page(url, replay.answered, replay.missing));
            if replay.missing_scripts > 0 {
                say(&format!(
                    "warning: {}",
                    copy::replay_without_scripts(url, replay.missing_scripts)
                ));
            }
        }
        if page.fetch.as_ref().is_some_and(|f| f.truncated) {
            say(&format!(
                "warning: {}",
                copy::truncated_page(page.url.as_str(), max_bytes)
            ));
        }
        if let Some(read) = page.read().filter(|r| r.replaced_bytes) {
            say(&format!(
                "warning: {}: {}",
                page.url,
                copy::replaced_bytes(read.encoding)
            ));
        }
    }
}
