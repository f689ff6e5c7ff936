//! The targets file of SPEC section 11: for each corpus page, the links that
//! lead to the organisation's contact, imprint or about page. A bad row is
//! reported and skipped; only a file that cannot be read, or a header
//! without `id`, `url` or `kind`, stops the run.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

use serde::Serialize;
use url::Url;

use crate::fetch::local::{self, FileError};
use crate::policy::url_key;

/// What a target link leads to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TargetKind {
    Contact,
    Imprint,
    About,
}

impl TargetKind {
    pub const ALL: [TargetKind; 3] = [TargetKind::Contact, TargetKind::Imprint, TargetKind::About];

    /// The file's and the report's identifier.
    pub fn id(self) -> &'static str {
        match self {
            TargetKind::Contact => "contact",
            TargetKind::Imprint => "imprint",
            TargetKind::About => "about",
        }
    }

    /// The kind a `kind` cell names (case and surrounding blanks ignored).
    pub fn parse(cell: &str) -> Option<Self> {
        let cell = cell.trim();
        Self::ALL
            .into_iter()
            .find(|k| k.id().eq_ignore_ascii_case(cell))
    }
}

/// One row of the targets file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Target {
    /// The URL as the file writes it.
    pub url: String,
    /// The URL without its fragment, after the WHATWG parse: what a
    /// candidate's key is compared with.
    pub key: String,
    pub kind: TargetKind,
    /// The file's line (the header is line 1).
    pub line: usize,
}

/// Why the targets file cannot be used at all.
#[derive(Debug, thiserror::Error)]
pub enum TargetsError {
    #[error(transparent)]
    File(FileError),
    #[error("{}: the targets file is empty (it needs a header naming id, url and kind)", .0.display())]
    Empty(PathBuf),
    #[error("{}: the targets file's header is not UTF-8 text", path.display())]
    Header { path: PathBuf },
    #[error("{}: the targets file's header has no `{column}` column (it needs id, url and kind)", path.display())]
    MissingColumn { path: PathBuf, column: &'static str },
}

/// A row of the targets file that was skipped, or a page it names that the
/// corpus does not have. The run goes on without it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TargetProblem {
    #[error("targets line {line}: not UTF-8 text")]
    NotUtf8 { line: usize },
    #[error("targets line {line}: no `{column}`")]
    MissingCell { line: usize, column: &'static str },
    #[error("targets line {line}: the url `{url}` does not parse: {why}")]
    BadUrl {
        line: usize,
        url: String,
        why: String,
    },
    #[error("targets line {line}: the kind `{kind}` is not contact, imprint or about")]
    UnknownKind { line: usize, kind: String },
    #[error(
        "targets line {line}: page {id} already has this url on line {first_line}{}",
        dropped.map_or(String::new(), |d| format!(" as {}; `{}` is not counted", kept.id(), d.id()))
    )]
    Duplicate {
        line: usize,
        id: String,
        first_line: usize,
        /// The first row's kind, and this row's when it differs.
        kept: TargetKind,
        dropped: Option<TargetKind>,
    },
    #[error("targets line {line}: the corpus has no page `{id}`")]
    UnknownPage { line: usize, id: String },
    #[error("targets line {line}: page {id} could not be read; its targets are not counted")]
    UnreadPage { line: usize, id: String },
}

/// The targets file, parsed: targets per page id, in file order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Targets {
    pub pages: BTreeMap<String, Vec<Target>>,
    /// The first [`LISTED_PROBLEMS`] rows skipped, in file order; the rest
    /// are counted: a 4 MB file can hold a million bad rows.
    pub problems: Vec<TargetProblem>,
    pub problems_not_listed: usize,
}

/// Problems listed at most, as of an archive's damaged records.
pub const LISTED_PROBLEMS: usize = crate::corpus::archive::LISTED_PROBLEMS;

impl Targets {
    /// Reads a targets file (at most `local::MAX_TEXT_FILE_BYTES`).
    pub fn read(path: &Path) -> Result<Self, TargetsError> {
        Self::parse(&Self::read_bytes(path)?, path)
    }

    /// The bytes of a targets file, as [`Targets::read`] reads them.
    pub fn read_bytes(path: &Path) -> Result<Vec<u8>, TargetsError> {
        let (bytes, cut) =
            local::read_capped(path, local::MAX_TEXT_FILE_BYTES).map_err(TargetsError::File)?;
        if cut {
            return Err(Self::too_large(path));
        }
        Ok(bytes)
    }

    /// Refuses targets bytes over the cap [`Targets::read_bytes`] keeps to:
    /// a merge's plan carries the file's bytes, written by anyone.
    pub fn check_size(bytes: &[u8], path: &Path) -> Result<(), TargetsError> {
        match bytes.len() > local::MAX_TEXT_FILE_BYTES {
            true => Err(Self::too_large(path)),
            false => Ok(()),
        }
    }

    fn too_large(path: &Path) -> TargetsError {
        TargetsError::File(FileError::TooLarge {
            path: path.to_owned(),
            limit: local::MAX_TEXT_FILE_BYTES,
        })
    }

    /// Parses the bytes of the targets file at `path` (named in errors).
    pub fn parse(bytes: &[u8], path: &Path) -> Result<Self, TargetsError> {
        let bytes = bytes.strip_prefix(b"\xef\xbb\xbf").unwrap_or(bytes);
        let mut lines = bytes.split(|&b| b == b'\n');
        let header = lines.next().unwrap_or_default();
        let header = header.strip_suffix(b"\r").unwrap_or(header);
        if header.iter().all(u8::is_ascii_whitespace) {
            return Err(TargetsError::Empty(path.to_owned()));
        }
        let header = std::str::from_utf8(header).map_err(|_| TargetsError::Header {
            path: path.to_owned(),
        })?;
        let columns: Vec<&str> = header.split('\t').map(str::trim).collect();
        let column = |name: &'static str| {
            columns
                .iter()
                .position(|c| c.eq_ignore_ascii_case(name))
                .ok_or(TargetsError::MissingColumn {
                    path: path.to_owned(),
                    column: name,
                })
        };
        let at = Columns {
            id: column("id")?,
            url: column("url")?,
            kind: column("kind")?,
        };
        let mut targets = Targets::default();
        // Each (page, key) kept, and where in its page's list: a page may
        // have 85,000 rows, and a search of its list per row took 32 s.
        let mut kept: HashMap<(String, String), usize> = HashMap::new();
        for (number, line) in lines.enumerate() {
            let line_no = number + 2;
            let line = line.strip_suffix(b"\r").unwrap_or(line);
            if line.iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            match std::str::from_utf8(line) {
                Ok(text) => targets.add_row(text, line_no, at, &mut kept),
                Err(_) => targets.note(TargetProblem::NotUtf8 { line: line_no }),
            }
        }
        Ok(targets)
    }

    /// The targets of the page with this id; `None` when it has none.
    pub fn for_page(&self, id: &str) -> Option<&[Target]> {
        self.pages
            .get(id)
            .map(Vec::as_slice)
            .filter(|list| !list.is_empty())
    }

    /// How many targets there are, over every page.
    pub fn target_count(&self) -> usize {
        self.pages.values().map(Vec::len).sum()
    }

    /// Problems in all, listed or not.
    pub fn problem_count(&self) -> usize {
        self.problems.len() + self.problems_not_listed
    }

    fn note(&mut self, problem: TargetProblem) {
        if self.problems.len() < LISTED_PROBLEMS {
            self.problems.push(problem);
        } else {
            self.problems_not_listed += 1;
        }
    }

    fn add_row(
        &mut self,
        text: &str,
        line: usize,
        at: Columns,
        kept: &mut HashMap<(String, String), usize>,
    ) {
        let cells: Vec<&str> = text.split('\t').collect();
        let cell = |index: usize, column: &'static str| {
            cells
                .get(index)
                .map(|c| c.trim())
                .filter(|c| !c.is_empty())
                .ok_or(TargetProblem::MissingCell { line, column })
        };
        let row = (|| {
            let id = cell(at.id, "id")?;
            let url = cell(at.url, "url")?;
            let kind_cell = cell(at.kind, "kind")?;
            let kind = TargetKind::parse(kind_cell).ok_or_else(|| TargetProblem::UnknownKind {
                line,
                kind: kind_cell.to_owned(),
            })?;
            let parsed = Url::parse(url).map_err(|e| TargetProblem::BadUrl {
                line,
                url: url.to_owned(),
                why: e.to_string(),
            })?;
            Ok((id, url, kind, url_key(&parsed)))
        })();
        let (id, url, kind, key) = match row {
            Ok(row) => row,
            Err(problem) => {
                self.note(problem);
                return;
            }
        };
        // An archive page's id is its URL: written any way, it is the
        // URL's serialisation (`https://Acme.test` is `https://acme.test/`).
        let id = match Url::parse(id) {
            Ok(url) if url.has_host() => url.to_string(),
            _ => id.to_owned(),
        };
        let page = self.pages.entry(id.clone()).or_default();
        let at = page.len();
        let first = *kept.entry((id.clone(), key.clone())).or_insert(at);
        if let Some(first) = page.get(first) {
            let problem = TargetProblem::Duplicate {
                line,
                first_line: first.line,
                kept: first.kind,
                dropped: (first.kind != kind).then_some(kind),
                id,
            };
            self.note(problem);
            return;
        }
        page.push(Target {
            url: url.to_owned(),
            key,
            kind,
            line,
        });
    }
}

/// Where the three needed columns are.
#[derive(Clone, Copy)]
struct Columns {
    id: usize,
    url: usize,
    kind: usize,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Targets {
        Targets::parse(text.as_bytes(), Path::new("t.tsv")).unwrap()
    }

    #[test]
    fn rows_are_kept_by_page_with_their_key() {
        let t = parse(
            "id\turl\tkind\ttext\n\
             001\thttps://a.com/contact#form\tcontact\tContact\n\
             001\thttps://A.com/impressum\tImprint\n\
             002\thttps://b.com/about\tabout\n",
        );
        assert!(t.problems.is_empty(), "{:?}", t.problems);
        assert_eq!(t.pages.values().map(Vec::len).sum::<usize>(), 3);
        let first = &t.pages["001"];
        assert_eq!(first[0].key, "https://a.com/contact");
        assert_eq!(first[1].key, "https://a.com/impressum");
        assert_eq!(first[1].kind, TargetKind::Imprint);
        assert_eq!(first[1].line, 3);
    }

    #[test]
    fn a_page_url_id_matches_however_it_is_written() {
        let t = parse(
            "\u{feff}ID\tUrl\tKIND\r\n\
             http://Acme.test\thttp://acme.test/contact\tcontact\r\n\
             \t \r\n\
             http://acme.test/\thttp://acme.test/about\tabout\r\n\
             http://acme.test/\thttp://acme.test/contact\timprint\r\n",
        );
        assert_eq!(t.for_page("http://acme.test/").map(<[_]>::len), Some(2));
        assert!(t.for_page("http://other.test/").is_none());
        assert_eq!(
            t.problems
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>(),
            [
                "targets line 5: page http://acme.test/ already has this url on line 2 as contact; \
              `imprint` is not counted"
            ]
        );
    }

    #[test]
    fn columns_may_come_in_any_order() {
        let t = parse("kind\tnote\tid\turl\r\nabout\tx\t7\thttp://c.org/\r\n");
        assert_eq!(t.pages["7"][0].kind, TargetKind::About);
    }

    #[test]
    fn bad_rows_are_reported_and_skipped() {
        let t = parse(
            "id\turl\tkind\n\
             001\thttps://a.com/x\tcontact\n\
             001\thttps://a.com/x#top\tabout\n\
             001\tnot a url\tcontact\n\
             001\thttps://a.com/y\tcareers\n\
             001\thttps://a.com/z\n\
             \n",
        );
        assert_eq!(t.pages["001"].len(), 1);
        assert_eq!(
            t.problems,
            vec![
                TargetProblem::Duplicate {
                    line: 3,
                    id: "001".into(),
                    first_line: 2,
                    kept: TargetKind::Contact,
                    dropped: Some(TargetKind::About),
                },
                TargetProblem::BadUrl {
                    line: 4,
                    url: "not a url".into(),
                    why: "relative URL without a base".into()
                },
                TargetProblem::UnknownKind {
                    line: 5,
                    kind: "careers".into()
                },
                TargetProblem::MissingCell {
                    line: 6,
                    column: "kind"
                },
            ]
        );
    }

    #[test]
    fn a_header_without_kind_is_refused() {
        let err = Targets::parse(b"id\turl\n1\thttp://a.com/\n", Path::new("t.tsv")).unwrap_err();
        assert_eq!(
            err.to_string(),
            "t.tsv: the targets file's header has no `kind` column (it needs id, url and kind)"
        );
    }

    #[test]
    fn many_targets_of_one_page_are_checked_for_duplicates_by_lookup() {
        // 85,000 targets of one page took 32 s when each row searched the
        // page's list; a lookup takes well under a second.
        let mut text = String::from("id\turl\tkind\n");
        for i in 0..85_000 {
            text.push_str(&format!("p\thttps://a.test/{i}\tcontact\n"));
        }
        text.push_str("p\thttps://a.test/7#x\tabout\n");
        let started = std::time::Instant::now();
        let t = parse(&text);
        assert!(started.elapsed() < std::time::Duration::from_secs(10));
        assert_eq!(t.pages["p"].len(), 85_000);
        assert_eq!(
            t.problems,
            [TargetProblem::Duplicate {
                line: 85_002,
                id: "p".into(),
                first_line: 9,
                kept: TargetKind::Contact,
                dropped: Some(TargetKind::About),
            }]
        );
    }

    #[test]
    fn bad_rows_past_the_first_thousand_are_counted_not_listed() {
        let mut text = String::from("id\turl\tkind\n");
        for _ in 0..2_500 {
            text.push_str("p\n");
        }
        let t = parse(&text);
        assert_eq!(t.problems.len(), LISTED_PROBLEMS);
        assert_eq!(t.problems_not_listed, 1_500);
        assert_eq!(t.problem_count(), 2_500);
        assert_eq!(
            t.problems.last(),
            Some(&TargetProblem::MissingCell {
                line: 1_001,
                column: "url"
            })
        );
    }
}
