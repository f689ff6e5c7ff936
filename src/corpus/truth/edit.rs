//! Marking a link as a target, or as not one, in the targets file's text.
//! Only the row of that link changes: every other row, column and cell
//! (unknown columns included) is kept byte for byte, so a file labelled by
//! hand survives being edited from the window.

use url::Url;

use super::TargetKind;
use crate::policy::url_key;

/// The header a new targets file starts with.
pub const NEW_TARGETS_HEADER: &str = "id\turl\tkind\tindex\ttext\tnote";

/// One link of one page, and what it should be.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mark {
    /// The page's id in the targets file.
    pub id: String,
    /// The link's URL as the page resolves it.
    pub url: String,
    /// The link's candidate index and text, for the `index` and `text`
    /// columns when the file has them.
    pub index: usize,
    pub text: String,
    /// `None`: not a target.
    pub kind: Option<TargetKind>,
}

/// What marking did to the file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Edit {
    Added(TargetKind),
    Changed {
        from: TargetKind,
        to: TargetKind,
    },
    Removed,
    /// The file already said so.
    Unchanged,
}

/// Why the text cannot be edited.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EditError {
    #[error("the link's url `{0}` does not parse")]
    BadUrl(String),
    #[error("the targets file's header has no `{0}` column (it needs id, url and kind)")]
    MissingColumn(&'static str),
}

/// The file's header, as found: where the columns are, and the line ending.
struct Layout {
    width: usize,
    id: usize,
    url: usize,
    kind: usize,
    index: Option<usize>,
    text: Option<usize>,
}

impl Layout {
    fn of(header: &str) -> Result<Self, EditError> {
        let columns: Vec<&str> = header.split('\t').map(str::trim).collect();
        let at = |name| columns.iter().position(|c| *c == name);
        let need = |name: &'static str| at(name).ok_or(EditError::MissingColumn(name));
        Ok(Self {
            width: columns.len(),
            id: need("id")?,
            url: need("url")?,
            kind: need("kind")?,
            index: at("index"),
            text: at("text"),
        })
    }
}

/// A cell's text: tabs and line breaks would split the row.
fn cell_text(text: &str) -> String {
    text.split(['\t', '\n', '\r'])
        .filter(|part| !part.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// `text` (a targets file, empty for a new one) with `mark` applied: a new
/// row after the page's last one (or at the end), the kind cell of its row
/// rewritten, or its rows removed. Rows that do not parse are kept as they are.
pub fn apply_mark(text: &str, mark: &Mark) -> Result<(String, Edit), EditError> {
    let parsed = Url::parse(&mark.url).map_err(|_| EditError::BadUrl(mark.url.clone()))?;
    let key = url_key(&parsed);
    let text = if text.trim().is_empty() {
        format!("{NEW_TARGETS_HEADER}\n")
    } else {
        text.to_owned()
    };
    let (bom, body) = match text.strip_prefix('\u{feff}') {
        Some(rest) => ("\u{feff}", rest),
        None => ("", text.as_str()),
    };
    let lines: Vec<&str> = body.split_inclusive('\n').collect();
    let header = lines.first().copied().unwrap_or_default();
    let eol = if header.ends_with("\r\n") {
        "\r\n"
    } else {
        "\n"
    };
    let layout = Layout::of(header.trim_end_matches(['\r', '\n']))?;

    let row_of = |line: &str| -> Option<(bool, Option<TargetKind>)> {
        let cells: Vec<&str> = line.trim_end_matches(['\r', '\n']).split('\t').collect();
        let cell = |i: usize| cells.get(i).map_or("", |c| c.trim());
        if cell(layout.id) != mark.id {
            return None;
        }
        let same = Url::parse(cell(layout.url)).is_ok_and(|u| url_key(&u) == key);
        Some((same, TargetKind::parse(cell(layout.kind))))
    };
    // The page's rows, and the ones of this link (the first decides, as
    // the parser keeps only the first of a page's url).
    let mut last_of_page = None;
    let mut of_link: Vec<usize> = Vec::new();
    for (i, line) in lines.iter().enumerate().skip(1) {
        if let Some((same, _)) = row_of(line) {
            last_of_page = Some(i);
            if same {
                of_link.push(i);
            }
        }
    }
    let first = of_link.first().copied();
    let current = first.and_then(|i| row_of(lines[i]).and_then(|(_, kind)| kind));
    let edit = match (current, mark.kind) {
        (Some(from), Some(to)) if from == to => return Ok((text, Edit::Unchanged)),
        (None, None) if of_link.is_empty() => return Ok((text, Edit::Unchanged)),
        (_, None) => Edit::Removed,
        (Some(from), Some(to)) => Edit::Changed { from, to },
        (None, Some(to)) => Edit::Added(to),
    };
    let mut out: Vec<String> = lines.iter().map(|l| (*l).to_owned()).collect();
    match (edit, first) {
        (Edit::Removed, _) => {
            for &i in of_link.iter().rev() {
                out.remove(i);
            }
        }
        // A row whose kind does not parse is rewritten like one that does.
        (Edit::Changed { to, .. } | Edit::Added(to), Some(i)) => {
            let line = lines[i];
            let ending = &line[line.trim_end_matches(['\r', '\n']).len()..];
            let mut cells: Vec<String> = line[..line.len() - ending.len()]
                .split('\t')
                .map(str::to_owned)
                .collect();
            if cells.len() <= layout.kind {
                cells.resize(layout.kind + 1, String::new());
            }
            cells[layout.kind] = to.id().to_owned();
            out[i] = cells.join("\t") + ending;
        }
        (Edit::Added(kind), None) => {
            let mut cells = vec![String::new(); layout.width];
            cells[layout.id] = cell_text(&mark.id);
            cells[layout.url] = cell_text(&mark.url);
            cells[layout.kind] = kind.id().to_owned();
            if let Some(at) = layout.index {
                cells[at] = mark.index.to_string();
            }
            if let Some(at) = layout.text {
                cells[at] = cell_text(&mark.text);
            }
            let row = cells.join("\t") + eol;
            let at = last_of_page.map_or(out.len(), |i| i + 1);
            // The line before the new row must end.
            if let Some(before) = out.get_mut(at - 1)
                && !before.ends_with('\n')
            {
                before.push_str(eol);
            }
            out.insert(at, row);
        }
        _ => {}
    }
    Ok((format!("{bom}{}", out.concat()), edit))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus::truth::Targets;
    use std::path::Path;

    fn mark(id: &str, url: &str, kind: Option<TargetKind>) -> Mark {
        Mark {
            id: id.into(),
            url: url.into(),
            index: 7,
            text: "Kontakt\tuns".into(),
            kind,
        }
    }

    const FILE: &str = "id\turl\tkind\tindex\ttext\tnote\textra\n\
        001\thttps://a.test/about\tabout\t3\tAbout\toffsite\tx\n\
        002\thttps://b.test/impressum\timprint\t9\tImpressum\t\ty\n\
        002\tnot a url\tcontact\t1\tbroken\t\t\n";

    fn edited(text: &str, m: &Mark) -> (String, Edit) {
        apply_mark(text, m).unwrap()
    }

    #[test]
    fn a_new_row_goes_after_the_pages_rows_with_index_and_text() {
        let (text, edit) = edited(
            FILE,
            &mark("001", "https://a.test/kontakt", Some(TargetKind::Contact)),
        );
        assert_eq!(edit, Edit::Added(TargetKind::Contact));
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines[2],
            "001\thttps://a.test/kontakt\tcontact\t7\tKontakt uns\t\t"
        );
        // Every other line is as it was.
        let mut others = lines.clone();
        others.remove(2);
        assert_eq!(others, FILE.lines().collect::<Vec<_>>());
        let parsed = Targets::parse(text.as_bytes(), Path::new("t.tsv")).unwrap();
        assert_eq!(parsed.pages["001"].len(), 2);
    }

    #[test]
    fn a_page_without_rows_gets_its_row_at_the_end() {
        let (text, _) = edited(
            FILE,
            &mark("003", "https://c.test/", Some(TargetKind::About)),
        );
        assert!(text.starts_with(FILE));
        assert_eq!(
            &text[FILE.len()..],
            "003\thttps://c.test/\tabout\t7\tKontakt uns\t\t\n"
        );
    }

    #[test]
    fn changing_a_kind_rewrites_only_that_cell_of_that_row() {
        // The fragment does not count: the key is the same.
        let (text, edit) = edited(
            FILE,
            &mark(
                "002",
                "https://b.test/impressum#top",
                Some(TargetKind::Contact),
            ),
        );
        assert_eq!(
            edit,
            Edit::Changed {
                from: TargetKind::Imprint,
                to: TargetKind::Contact
            }
        );
        assert_eq!(
            text,
            FILE.replace(
                "002\thttps://b.test/impressum\timprint",
                "002\thttps://b.test/impressum\tcontact"
            )
        );
    }

    #[test]
    fn not_a_target_removes_the_row_and_nothing_else() {
        let (text, edit) = edited(FILE, &mark("001", "https://a.test/about", None));
        assert_eq!(edit, Edit::Removed);
        assert_eq!(
            text,
            FILE.replace(
                "001\thttps://a.test/about\tabout\t3\tAbout\toffsite\tx\n",
                ""
            )
        );
        // Another page's row with the same url is not this page's.
        let (same, edit) = edited(FILE, &mark("009", "https://a.test/about", None));
        assert_eq!((same.as_str(), edit), (FILE, Edit::Unchanged));
    }

    #[test]
    fn marking_what_the_file_already_says_changes_nothing() {
        let (text, edit) = edited(
            FILE,
            &mark("001", "https://a.test/about", Some(TargetKind::About)),
        );
        assert_eq!((text.as_str(), edit), (FILE, Edit::Unchanged));
    }

    #[test]
    fn an_empty_file_gets_the_header_and_crlf_files_stay_crlf() {
        let (text, _) = edited("", &mark("p", "https://d.test/", Some(TargetKind::Imprint)));
        assert_eq!(
            text,
            format!("{NEW_TARGETS_HEADER}\np\thttps://d.test/\timprint\t7\tKontakt uns\t\n")
        );
        let crlf = "\u{feff}kind\tid\turl\r\nabout\tp\thttps://d.test/a\r\n";
        let (text, _) = edited(
            crlf,
            &mark("p", "https://d.test/b", Some(TargetKind::Contact)),
        );
        assert_eq!(text, format!("{crlf}contact\tp\thttps://d.test/b\r\n"));
        // A last row without a line break gets one before the new row.
        let (text, _) = edited(
            "id\turl\tkind\np\thttps://d.test/a\tabout",
            &mark("p", "https://d.test/b", Some(TargetKind::Contact)),
        );
        assert_eq!(
            text,
            "id\turl\tkind\np\thttps://d.test/a\tabout\np\thttps://d.test/b\tcontact\n"
        );
    }

    #[test]
    fn a_header_without_kind_or_a_bad_url_is_refused() {
        assert_eq!(
            apply_mark(
                "id\turl\n",
                &mark("p", "https://d.test/", Some(TargetKind::About))
            ),
            Err(EditError::MissingColumn("kind"))
        );
        assert_eq!(
            apply_mark(FILE, &mark("p", "nope", None)),
            Err(EditError::BadUrl("nope".into()))
        );
    }
}
