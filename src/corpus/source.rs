//! What a corpus path names: saved pages (a folder of `*.html`, a manifest)
//! or web archives (a `.warc[.gz]` file, a folder of them, or `@LIST`, a
//! file naming them one per line).

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

use super::{CorpusError, CorpusPage, CorpusRun, Sides, list_pages, run_archives, run_capped};
use crate::archive::{self, kind};
use crate::fetch::local;

/// The pages of a corpus, or the archives that hold them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CorpusSource {
    Pages(Vec<CorpusPage>),
    /// Read in this order; each was opened once and starts as WARC.
    Archives(Vec<PathBuf>),
}

/// Tells what `path` names and lists it. An archive is told by its name or
/// its first bytes; a folder with any archive in it is a folder of archives.
/// Every archive is opened once, so that a bad one stops the run before it starts.
pub fn list_corpus(path: &Path) -> Result<CorpusSource, CorpusError> {
    let source = list_inputs(std::slice::from_ref(&path.to_owned()))?;
    if let CorpusSource::Archives(files) = &source {
        check_archives(files)?;
    }
    Ok(source)
}

/// Lists one input, or several web archives (files, folders, `@LIST`s) read
/// one after the other; opens no archive.
pub fn list_inputs(paths: &[PathBuf]) -> Result<CorpusSource, CorpusError> {
    let [first, rest @ ..] = paths else {
        return Err(CorpusError::NoInput);
    };
    if rest.is_empty() {
        return list_one(first);
    }
    let mut all = Vec::new();
    for path in paths {
        match list_one(path)? {
            CorpusSource::Archives(files) => all.extend(files),
            CorpusSource::Pages(_) => return Err(CorpusError::NotAnArchive(path.clone())),
        }
    }
    Ok(CorpusSource::Archives(all))
}

/// Opens each archive once: a file that is not one (or cannot be read) is
/// an error before anything runs.
pub fn check_archives(files: &[PathBuf]) -> Result<(), CorpusError> {
    for file in files {
        let capture = archive::open_capture(file).map_err(CorpusError::Archive)?;
        for part in &capture.parts {
            part.reader().map_err(CorpusError::Archive)?;
        }
    }
    Ok(())
}

fn list_one(path: &Path) -> Result<CorpusSource, CorpusError> {
    let files = if let Some(list) = path.to_str().and_then(|p| p.strip_prefix('@')) {
        archive_list(Path::new(list))?
    } else if path.is_dir() {
        let files = folder_archives(path)?;
        if files.is_empty() {
            return list_pages(path).map(CorpusSource::Pages);
        }
        files
    } else if kind::is_archive_file(path) {
        vec![path.to_owned()]
    } else {
        return list_pages(path).map(CorpusSource::Pages);
    };
    Ok(CorpusSource::Archives(files))
}

impl CorpusSource {
    /// The units a sharded run splits the corpus in, by name: each page's
    /// id, or each archive's path.
    pub fn unit_names(&self) -> Vec<String> {
        match self {
            CorpusSource::Pages(pages) => pages.iter().map(|p| p.id.clone()).collect(),
            CorpusSource::Archives(files) => {
                files.iter().map(|f| f.display().to_string()).collect()
            }
        }
    }
}

/// Runs the sides over the source; `progress` gets (pages done, pages in
/// all or, for archives, found so far).
pub fn run_source(
    source: &CorpusSource,
    sides: Sides<'_>,
    max_bytes: usize,
    jobs: usize,
    cancel: &AtomicBool,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> CorpusRun {
    match source {
        CorpusSource::Pages(pages) => {
            let total = pages.len();
            let done = |done: usize| progress(done, total);
            run_capped(pages, sides, max_bytes, jobs, cancel, &done)
        }
        CorpusSource::Archives(files) => {
            run_archives(files, sides, max_bytes, jobs, cancel, progress, None)
        }
    }
}

/// The web archives of a folder (WARC, ARC, WACZ), told from their first
/// bytes, in name order.
fn folder_archives(path: &Path) -> Result<Vec<PathBuf>, CorpusError> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(path)
        .map_err(|error| CorpusError::Io {
            path: path.to_owned(),
            error,
        })?
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        // A stray gzip of something else (a `.tar.gz`) is no archive here.
        .filter(|p| {
            kind::sniff(p).is_ok_and(|kind| kind.is_archive() && kind != kind::FileKind::OtherGzip)
        })
        .collect();
    files.sort();
    Ok(files)
}

/// The archives a list file names, one per line, relative to its folder;
/// blank lines and `#` comments are skipped.
fn archive_list(list: &Path) -> Result<Vec<PathBuf>, CorpusError> {
    let (bytes, cut) =
        local::read_capped(list, local::MAX_TEXT_FILE_BYTES).map_err(CorpusError::File)?;
    if cut {
        return Err(CorpusError::File(local::FileError::TooLarge {
            path: list.to_owned(),
            limit: local::MAX_TEXT_FILE_BYTES,
        }));
    }
    let text = String::from_utf8(bytes).map_err(|_| CorpusError::ListNotText(list.to_owned()))?;
    let folder = list.parent().unwrap_or(Path::new("."));
    let files: Vec<PathBuf> = text
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .map(|line| folder.join(line))
        .collect();
    if files.is_empty() {
        return Err(CorpusError::NoArchives(list.to_owned()));
    }
    Ok(files)
}
