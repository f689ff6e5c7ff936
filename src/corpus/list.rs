//! Listing a corpus: a folder's `*.html` pages or a manifest's rows, each
//! bad row or path kept as a page with its problem, in order.

use std::path::{Path, PathBuf};

use crate::fetch::local::{self, FileError};

/// Why a corpus cannot be listed at all (a single bad page or manifest row
/// is reported with that page instead).
#[derive(Debug, thiserror::Error)]
pub enum CorpusError {
    #[error(transparent)]
    File(FileError),
    // The OS error is in the text (the window shows the text alone), so it is
    // not the source as well, which `{:#}` would show twice.
    #[error("cannot list {path}: {error}")]
    Io {
        path: PathBuf,
        error: std::io::Error,
    },
    #[error("{path}: the manifest's header has no `{column}` column")]
    MissingColumn { path: PathBuf, column: &'static str },
    #[error("{path}: the manifest's header is not UTF-8 text")]
    Header { path: PathBuf },
    #[error("{0}: no *.html pages in this folder")]
    Empty(PathBuf),
    #[error(transparent)]
    Archive(crate::archive::ArchiveError),
    #[error("{0}: the list names no archive (one path a line; # starts a comment)")]
    NoArchives(PathBuf),
    #[error("{0}: the list of archives is not UTF-8 text")]
    ListNotText(PathBuf),
    #[error("no corpus given")]
    NoInput,
    #[error(
        "{0} is not a web archive: several inputs must all be archives (.warc, .warc.gz, \
         folders of them, @LIST files)"
    )]
    NotAnArchive(PathBuf),
}

/// Why one manifest row or folder entry cannot be read as a page.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RowProblem {
    #[error("manifest line {line}: the id is empty")]
    EmptyId { line: usize },
    #[error(
        "manifest line {line}: the id `{id}` is not a plain file name (no `/`, `\\`, `..` \
         or control characters)"
    )]
    IdNotAName { line: usize, id: String },
    #[error("manifest line {line}: the id `{id}` is already used by an earlier row")]
    DuplicateId { line: usize, id: String },
    #[error("manifest line {line}: no original_url")]
    NoOriginalUrl { line: usize },
    #[error("manifest line {line}: not UTF-8 text")]
    NotUtf8 { line: usize },
    #[error("manifest line {line}: {detail}")]
    Malformed { line: usize, detail: String },
    #[error("{} leads outside the corpus folder, to {}", path.display(), resolved.display())]
    Outside { path: PathBuf, resolved: PathBuf },
}

/// One saved page of a corpus.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CorpusPage {
    /// The manifest's `id`, or the file name without `.html`.
    pub id: String,
    pub path: PathBuf,
    /// The manifest's `original_url`; for a folder, the page names its own.
    pub url: Option<String>,
    /// Why its manifest row or path cannot be read as a page: reported with
    /// the page, in manifest order, never dropped.
    pub problem: Option<RowProblem>,
}

/// The pages of a folder (`*.html`, by file name) or of a manifest TSV
/// (`id`, `original_url`; pages in `pages/<id>.html` beside it). A page whose
/// path leads outside its folder (a symlink included) carries a problem.
pub fn list_pages(path: &Path) -> Result<Vec<CorpusPage>, CorpusError> {
    if path.is_dir() {
        return list_folder(path);
    }
    let (bytes, cut) =
        local::read_capped(path, local::MAX_TEXT_FILE_BYTES).map_err(CorpusError::File)?;
    if cut {
        return Err(CorpusError::File(FileError::TooLarge {
            path: path.to_owned(),
            limit: local::MAX_TEXT_FILE_BYTES,
        }));
    }
    let bytes = bytes.strip_prefix(b"\xef\xbb\xbf").unwrap_or(&bytes);
    let mut reader = csv::ReaderBuilder::new()
        .delimiter(b'\t')
        .quoting(false)
        .flexible(true)
        .from_reader(bytes);
    let header = || CorpusError::Header {
        path: path.to_owned(),
    };
    let headers = reader.byte_headers().map_err(|_| header())?.clone();
    let headers: Vec<&str> = headers
        .iter()
        .map(std::str::from_utf8)
        .collect::<Result<_, _>>()
        .map_err(|_| header())?;
    let column = |name: &'static str| {
        headers
            .iter()
            .position(|h| h.trim() == name)
            .ok_or(CorpusError::MissingColumn {
                path: path.to_owned(),
                column: name,
            })
    };
    let (id_at, url_at) = (column("id")?, column("original_url")?);
    let dir = path.parent().unwrap_or(Path::new(".")).join("pages");
    let root = dir.canonicalize().ok();
    let mut seen = std::collections::HashSet::new();
    let mut pages = Vec::new();
    for (at, record) in reader.byte_records().enumerate() {
        // Line 1 is the header.
        let line = at + 2;
        let row = |id: String, problem: RowProblem| CorpusPage {
            path: dir.clone(),
            url: None,
            problem: Some(problem),
            id,
        };
        let unnamed = || format!("line {line}");
        let record = match record {
            Ok(record) => record,
            Err(e) => {
                let detail = e.to_string();
                pages.push(row(unnamed(), RowProblem::Malformed { line, detail }));
                continue;
            }
        };
        let field = |at: usize| {
            record
                .get(at)
                .map(|f| std::str::from_utf8(f).map(str::trim))
        };
        let id = match field(id_at) {
            Some(Ok(id)) => id.to_owned(),
            Some(Err(_)) => {
                pages.push(row(unnamed(), RowProblem::NotUtf8 { line }));
                continue;
            }
            None => String::new(),
        };
        if id.is_empty() {
            pages.push(row(unnamed(), RowProblem::EmptyId { line }));
            continue;
        }
        if !is_plain_name(&id) {
            let problem = RowProblem::IdNotAName {
                line,
                id: id.clone(),
            };
            pages.push(row(id, problem));
            continue;
        }
        if !seen.insert(id.clone()) {
            let problem = RowProblem::DuplicateId {
                line,
                id: id.clone(),
            };
            pages.push(row(id, problem));
            continue;
        }
        let url = match field(url_at) {
            Some(Ok(url)) if !url.is_empty() => url.to_owned(),
            Some(Err(_)) => {
                pages.push(row(id, RowProblem::NotUtf8 { line }));
                continue;
            }
            _ => {
                pages.push(row(id, RowProblem::NoOriginalUrl { line }));
                continue;
            }
        };
        let page_path = dir.join(format!("{id}.html"));
        pages.push(CorpusPage {
            problem: outside(&page_path, root.as_deref()),
            path: page_path,
            url: Some(url),
            id,
        });
    }
    Ok(pages)
}

/// A folder's `*.html` entries, by name; each is type-checked when read, so
/// a FIFO or a folder named `x.html` is reported, not skipped.
fn list_folder(path: &Path) -> Result<Vec<CorpusPage>, CorpusError> {
    let io = |error| CorpusError::Io {
        path: path.to_owned(),
        error,
    };
    let root = path.canonicalize().ok();
    let mut pages: Vec<CorpusPage> = std::fs::read_dir(path)
        .map_err(io)?
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .filter(|p| {
            p.extension()
                .is_some_and(|e| e.eq_ignore_ascii_case("html"))
        })
        .map(|p| CorpusPage {
            id: p
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default(),
            problem: outside(&p, root.as_deref()),
            path: p,
            url: None,
        })
        .collect();
    if pages.is_empty() {
        return Err(CorpusError::Empty(path.to_owned()));
    }
    pages.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(pages)
}

/// A manifest id must be a plain file name: it is joined to `pages/`.
fn is_plain_name(id: &str) -> bool {
    !(id.contains(['/', '\\'])
        || id.contains("..")
        || Path::new(id).is_absolute()
        || id.chars().any(char::is_control))
}

/// Refuses `page` when it resolves (symlinks followed) outside `root`; a
/// path that does not resolve is left to the read, which says why.
fn outside(page: &Path, root: Option<&Path>) -> Option<RowProblem> {
    let resolved = page.canonicalize().ok()?;
    match root {
        Some(root) if resolved.starts_with(root) => None,
        _ => Some(RowProblem::Outside {
            path: page.to_owned(),
            resolved,
        }),
    }
}
