//! The lexicon (SPEC 11, "Suggestions that generalise" 4): the words sites
//! use to name contact, imprint and about pages, per language, each with
//! its public source. The tool ships one (`assets/lexicon.tsv`, made by
//! `scripts/build-lexicon` from the sources `assets/lexicon-sources.tsv`
//! names); `--lexicon FILE` replaces it. Every lexicon, shipped or given,
//! passes the same limits.

use std::collections::BTreeMap;
use std::io::Read;
use std::path::Path;
use std::sync::LazyLock;

use super::targets::TargetKind;

/// The shipped lexicon's text.
const SHIPPED: &str = include_str!("../../../assets/lexicon.tsv");

/// A lexicon file is read to at most this many bytes: the shipped one is
/// under 64 KB; 4 MiB holds a hundred times as many words.
pub const MAX_LEXICON_BYTES: u64 = 4 << 20;
/// More rows than this is no lexicon a suggestion run could try.
pub const MAX_LEXICON_ROWS: usize = 50_000;
/// A word longer than this (in characters) names no page.
pub const MAX_WORD_CHARS: usize = 64;

/// One word of the lexicon.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LexiconWord {
    /// A BCP 47 tag, lowercase (`de`, `zh-hant`).
    pub language: String,
    pub kind: TargetKind,
    /// Lowercase, as a keyword is matched.
    pub word: String,
    /// The id of its source (a row of `lexicon-sources.tsv`).
    pub source: String,
}

/// The words, in file order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Lexicon {
    pub words: Vec<LexiconWord>,
}

/// Why a lexicon cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum LexiconError {
    #[error("cannot read the lexicon {path}")]
    Io {
        path: String,
        #[source]
        source: std::io::Error,
    },
    #[error("the lexicon {path} is over {limit} bytes")]
    TooBig { path: String, limit: u64 },
    #[error("the lexicon {path} is not UTF-8 text")]
    NotUtf8 { path: String },
    #[error("the lexicon {path} has no `language, kind, word, source` header row")]
    NoHeader { path: String },
    #[error("the lexicon {path} has more than {limit} rows")]
    TooManyRows { path: String, limit: usize },
    #[error("the lexicon {path}, line {line}: {why}")]
    BadRow {
        path: String,
        line: usize,
        why: RowProblem,
    },
    #[error("the lexicon {path} has no words")]
    Empty { path: String },
}

/// What is wrong with one row.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RowProblem {
    #[error("it has {0} cells, not 4")]
    Cells(usize),
    #[error("`{0}` is no language tag (e.g. `de`, `zh-hant`)")]
    Language(String),
    #[error("`{0}` is no kind (contact, imprint or about)")]
    Kind(String),
    #[error(
        "the word is empty, has a comma, is not lowercase or is over {MAX_WORD_CHARS} characters"
    )]
    Word,
    #[error("the source is empty")]
    Source,
}

impl Lexicon {
    /// The lexicon shipped with the tool, parsed once.
    pub fn shipped() -> Result<&'static Lexicon, &'static LexiconError> {
        static SHIPPED_LEXICON: LazyLock<Result<Lexicon, LexiconError>> =
            LazyLock::new(|| Lexicon::parse(SHIPPED, "assets/lexicon.tsv (shipped)"));
        SHIPPED_LEXICON.as_ref()
    }

    /// A lexicon file, read to at most [`MAX_LEXICON_BYTES`].
    pub fn read(path: &Path) -> Result<Lexicon, LexiconError> {
        let name = path.display().to_string();
        let io = |source| LexiconError::Io {
            path: name.clone(),
            source,
        };
        let file = std::fs::File::open(path).map_err(io)?;
        let mut bytes = Vec::new();
        file.take(MAX_LEXICON_BYTES + 1)
            .read_to_end(&mut bytes)
            .map_err(io)?;
        if bytes.len() as u64 > MAX_LEXICON_BYTES {
            return Err(LexiconError::TooBig {
                path: name,
                limit: MAX_LEXICON_BYTES,
            });
        }
        let text =
            String::from_utf8(bytes).map_err(|_| LexiconError::NotUtf8 { path: name.clone() })?;
        Lexicon::parse(&text, &name)
    }

    /// Parses a lexicon's text: `#` lines are comments; the first other
    /// line is the header; every row must be whole.
    pub fn parse(text: &str, path: &str) -> Result<Lexicon, LexiconError> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let mut rows = text
            .lines()
            .enumerate()
            .map(|(i, line)| (i + 1, line.trim_end_matches('\r')))
            .filter(|(_, line)| !line.starts_with('#') && !line.trim().is_empty());
        let header: Vec<&str> = rows
            .next()
            .map(|(_, l)| l.split('\t').map(str::trim).collect())
            .unwrap_or_default();
        if header != ["language", "kind", "word", "source"] {
            return Err(LexiconError::NoHeader { path: path.into() });
        }
        let mut words = Vec::new();
        for (line, row) in rows {
            if words.len() == MAX_LEXICON_ROWS {
                return Err(LexiconError::TooManyRows {
                    path: path.into(),
                    limit: MAX_LEXICON_ROWS,
                });
            }
            let bad = |why| LexiconError::BadRow {
                path: path.into(),
                line,
                why,
            };
            words.push(parse_row(row).map_err(bad)?);
        }
        if words.is_empty() {
            return Err(LexiconError::Empty { path: path.into() });
        }
        Ok(Lexicon { words })
    }

    /// Each language's words, languages in order.
    pub fn by_language(&self) -> BTreeMap<&str, Vec<&LexiconWord>> {
        let mut out: BTreeMap<&str, Vec<&LexiconWord>> = BTreeMap::new();
        for word in &self.words {
            out.entry(word.language.as_str()).or_default().push(word);
        }
        out
    }
}

fn parse_row(row: &str) -> Result<LexiconWord, RowProblem> {
    let cells: Vec<&str> = row.split('\t').map(str::trim).collect();
    let [language, kind, word, source] = cells[..] else {
        return Err(RowProblem::Cells(cells.len()));
    };
    if !is_language_tag(language) {
        return Err(RowProblem::Language(language.into()));
    }
    let kind = TargetKind::parse(kind).ok_or_else(|| RowProblem::Kind(kind.into()))?;
    let chars = word.chars().count();
    if chars == 0 || chars > MAX_WORD_CHARS || word.contains(',') || word.to_lowercase() != word {
        return Err(RowProblem::Word);
    }
    if source.is_empty() {
        return Err(RowProblem::Source);
    }
    Ok(LexiconWord {
        language: language.into(),
        kind,
        word: word.into(),
        source: source.into(),
    })
}

/// `de`, `pt-br`, `zh-hant`, `sr-latn`: a primary tag of 2-3 letters and
/// subtags of 2-8 letters or digits, lowercase.
fn is_language_tag(tag: &str) -> bool {
    let mut parts = tag.split('-');
    let primary = parts.next().unwrap_or_default();
    let lower = |s: &str, alnum: bool| {
        s.chars()
            .all(|c| c.is_ascii_lowercase() || (alnum && c.is_ascii_digit()))
    };
    (2..=3).contains(&primary.len())
        && lower(primary, false)
        && parts.all(|p| (2..=8).contains(&p.len()) && lower(p, true))
        && tag.len() <= 16
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEADER: &str = "language\tkind\tword\tsource\n";

    #[test]
    fn the_shipped_lexicon_parses_and_has_forty_languages_of_each_kind() {
        let lexicon = Lexicon::shipped().unwrap();
        let languages = lexicon.by_language();
        assert!(languages.len() >= 40, "{} languages", languages.len());
        for kind in TargetKind::ALL {
            let with_kind = languages
                .values()
                .filter(|words| words.iter().any(|w| w.kind == kind))
                .count();
            assert!(with_kind >= 30, "{with_kind} languages name {kind:?}");
        }
    }

    #[test]
    fn rows_are_checked_and_comments_skipped() {
        let ok = format!(
            "# made by hand\n{HEADER}de\tcontact\tkontakt\todoo\r\n\nja\tabout\t会社概要\tx\n"
        );
        let lexicon = Lexicon::parse(&ok, "l.tsv").unwrap();
        assert_eq!(lexicon.words.len(), 2);
        assert_eq!(lexicon.words[1].word, "会社概要");
        for (row, why) in [
            ("de\tcontact\tkontakt", RowProblem::Cells(3)),
            ("DE\tcontact\tkontakt\to", RowProblem::Language("DE".into())),
            ("de\tcareers\tjobs\to", RowProblem::Kind("careers".into())),
            ("de\tcontact\tKontakt\to", RowProblem::Word),
            ("de\tcontact\ta,b\to", RowProblem::Word),
            ("de\tcontact\tkontakt\t", RowProblem::Source),
        ] {
            let err = Lexicon::parse(&format!("{HEADER}{row}\n"), "l.tsv").unwrap_err();
            match err {
                LexiconError::BadRow { line, why: got, .. } => {
                    assert_eq!((line, got), (2, why), "{row}")
                }
                other => panic!("{row}: {other}"),
            }
        }
        assert!(matches!(
            Lexicon::parse("word\tkind\n", "l.tsv"),
            Err(LexiconError::NoHeader { .. })
        ));
        assert!(matches!(
            Lexicon::parse(HEADER, "l.tsv"),
            Err(LexiconError::Empty { .. })
        ));
    }

    #[test]
    fn a_huge_lexicon_file_is_refused_by_its_size() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("huge.tsv");
        let file = std::fs::File::create(&path).unwrap();
        file.set_len(MAX_LEXICON_BYTES + 1).unwrap();
        assert!(matches!(
            Lexicon::read(&path),
            Err(LexiconError::TooBig { .. })
        ));
        let many = format!(
            "{HEADER}{}",
            "de\tcontact\tkontakt\to\n".repeat(MAX_LEXICON_ROWS + 1)
        );
        assert!(matches!(
            Lexicon::parse(&many, "l.tsv"),
            Err(LexiconError::TooManyRows { .. })
        ));
        std::fs::write(&path, b"language\tkind\tword\tsource\n\xff\n").unwrap();
        assert!(matches!(
            Lexicon::read(&path),
            Err(LexiconError::NotUtf8 { .. })
        ));
    }
}
