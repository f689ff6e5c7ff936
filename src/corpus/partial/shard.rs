//! A shard of a corpus run: the units it takes, judged, written as a
//! partial result. Saved pages are judged as one batch on every job;
//! archives one after the other, each written as soon as it is judged, so a
//! shard holds one archive's pages at a time.

use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

use super::lines::{ArchiveLine, EndLine, FORMAT, FORMAT_VERSION, Header, Line, PageLine, RunPlan};
use crate::corpus::truth::Targets;
use crate::corpus::{
    CorpusError, CorpusPage, CorpusSource, PageRun, Sides, check_archives, run_archives, run_capped,
};

/// Which units a shard judges.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Shard {
    /// Every unit.
    All,
    /// Units u with u mod `of` = `index`.
    Every { index: usize, of: usize },
    /// Units named one by one, as `--list-units` prints them.
    Listed(Vec<ListedUnit>),
}

/// A unit named in a list: its number, and its name when the line has one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ListedUnit {
    pub unit: usize,
    pub name: Option<String>,
}

/// Why a shard cannot run.
#[derive(Debug, thiserror::Error)]
pub enum ShardError {
    #[error(
        "unit list line {line}: `{text}` is not a unit (a line is `J` or `J<TAB>NAME`, as \
         --list-units prints it)"
    )]
    NotAUnit { line: usize, text: String },
    #[error("unit {unit} is not in the corpus, which has {units} units (0 to {last})", last = units.saturating_sub(1))]
    NoSuchUnit { unit: usize, units: usize },
    #[error(
        "unit {unit} is `{listed}` in this corpus, not `{given}`: the list was made from other \
         inputs"
    )]
    OtherName {
        unit: usize,
        listed: String,
        given: String,
    },
    #[error("unit {0} is listed twice")]
    Twice(usize),
    #[error(transparent)]
    Corpus(CorpusError),
    // The OS error is the source, not in the text too: `{:#}` showed it twice
    // ("Broken pipe (os error 32): Broken pipe (os error 32)").
    #[error("cannot write the partial result")]
    Write(#[from] std::io::Error),
}

impl ListedUnit {
    /// One line of a unit list (`line` counts from 1); `None` for a blank one.
    pub fn parse(line: usize, text: &str) -> Result<Option<Self>, ShardError> {
        let text = text.strip_suffix('\r').unwrap_or(text);
        if text.trim().is_empty() {
            return Ok(None);
        }
        let (number, name) = match text.split_once('\t') {
            Some((number, name)) => (number, Some(name.to_owned())),
            None => (text, None),
        };
        let unit = number.trim().parse().map_err(|_| ShardError::NotAUnit {
            line,
            text: text.to_owned(),
        })?;
        Ok(Some(Self { unit, name }))
    }
}

impl Shard {
    /// The units taken, in order, checked against the corpus's unit names.
    pub fn units(&self, names: &[String]) -> Result<Vec<usize>, ShardError> {
        match self {
            Shard::All => Ok((0..names.len()).collect()),
            Shard::Every { index, of } => Ok((0..names.len())
                .filter(|u| u % of.max(&1) == *index)
                .collect()),
            Shard::Listed(listed) => {
                let mut units: Vec<usize> = Vec::with_capacity(listed.len());
                for item in listed {
                    let Some(listed_name) = names.get(item.unit) else {
                        return Err(ShardError::NoSuchUnit {
                            unit: item.unit,
                            units: names.len(),
                        });
                    };
                    if let Some(given) = item.name.as_ref().filter(|n| *n != listed_name) {
                        return Err(ShardError::OtherName {
                            unit: item.unit,
                            listed: listed_name.clone(),
                            given: given.clone(),
                        });
                    }
                    units.push(item.unit);
                }
                units.sort_unstable();
                if let Some(pair) = units.windows(2).find(|w| w[0] == w[1]) {
                    return Err(ShardError::Twice(pair[0]));
                }
                Ok(units)
            }
        }
    }
}

/// What a shard runs: the corpus as listed, the plan every shard shares,
/// and the units this one takes.
pub struct ShardRun<'a> {
    pub source: &'a CorpusSource,
    pub plan: &'a RunPlan,
    pub targets: Option<&'a Targets>,
    pub units: &'a [usize],
    pub jobs: usize,
    /// (pages done, pages known so far)
    pub progress: &'a (dyn Fn(usize, usize) + Sync),
}

/// Judges the shard's units and writes its partial result to `out`. Every
/// archive it takes is opened first, so a bad one fails before any line.
pub fn write_shard(shard: ShardRun<'_>, out: &mut dyn Write) -> Result<(), ShardError> {
    let plan = shard.plan;
    // A shard runs to its end or fails: it is never cancelled half-way.
    let cancel = AtomicBool::new(false);
    let sides = Sides {
        a: &plan.a,
        b: plan.b.as_ref(),
        depth: plan.depth,
        targets: shard.targets,
    };
    let digest = plan.digest();
    let header = Header {
        format: FORMAT.to_owned(),
        format_version: FORMAT_VERSION,
        inspector: env!("CARGO_PKG_VERSION").to_owned(),
        plan: plan.clone(),
    };
    match shard.source {
        CorpusSource::Pages(pages) => {
            write_line(out, &Line::Header(header))?;
            let taken: Vec<CorpusPage> = taken(pages, shard.units)?;
            let total = taken.len();
            let done = |done: usize| (shard.progress)(done, total);
            let run = run_capped(&taken, sides, plan.max_bytes, shard.jobs, &cancel, &done);
            for (&unit, page) in shard.units.iter().zip(run.pages) {
                write_page(out, &digest, (unit, 0), page)?;
            }
        }
        CorpusSource::Archives(files) => {
            let taken: Vec<PathBuf> = taken(files, shard.units)?;
            check_archives(&taken).map_err(ShardError::Corpus)?;
            write_line(out, &Line::Header(header))?;
            for (&unit, file) in shard.units.iter().zip(&taken) {
                let run = run_archives(
                    std::slice::from_ref(file),
                    sides,
                    plan.max_bytes,
                    shard.jobs,
                    &cancel,
                    shard.progress,
                    None,
                );
                let pages = run.pages.len();
                for (at, page) in run.pages.into_iter().enumerate() {
                    write_page(out, &digest, (unit, at), page)?;
                }
                let archive = ArchiveLine {
                    plan: digest.clone(),
                    unit,
                    pages,
                    stats: run.archives.unwrap_or_default(),
                };
                write_line(out, &Line::Archive(archive))?;
            }
        }
    }
    let end = EndLine {
        plan: digest,
        units: shard.units.to_vec(),
    };
    write_line(out, &Line::End(end))?;
    out.flush()?;
    Ok(())
}

/// The items of `units`.
fn taken<T: Clone>(items: &[T], units: &[usize]) -> Result<Vec<T>, ShardError> {
    units
        .iter()
        .map(|&unit| {
            items.get(unit).cloned().ok_or(ShardError::NoSuchUnit {
                unit,
                units: items.len(),
            })
        })
        .collect()
}

/// The page `at` of `unit`.
fn write_page(
    out: &mut dyn Write,
    plan: &str,
    (unit, at): (usize, usize),
    mut run: PageRun,
) -> std::io::Result<()> {
    let kept = run.kept.take().map(|page| page.links());
    let page = PageLine {
        plan: plan.to_owned(),
        unit,
        at,
        run,
        kept,
    };
    write_line(out, &Line::Page(Box::new(page)))
}

fn write_line(out: &mut dyn Write, line: &Line) -> std::io::Result<()> {
    serde_json::to_writer(&mut *out, line)?;
    out.write_all(b"\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names() -> Vec<String> {
        ["a.warc.gz", "b.warc", "c.warc.gz", "d.warc"]
            .iter()
            .map(|n| (*n).to_owned())
            .collect()
    }

    fn listed(lines: &[&str]) -> Result<Vec<usize>, ShardError> {
        let mut units = Vec::new();
        for (i, line) in lines.iter().enumerate() {
            units.extend(ListedUnit::parse(i + 1, line)?);
        }
        Shard::Listed(units).units(&names())
    }

    #[test]
    fn every_nth_unit_from_i_is_shard_i_of_n() {
        let every = |index, of| Shard::Every { index, of }.units(&names()).unwrap();
        assert_eq!(every(0, 3), [0, 3]);
        assert_eq!(every(1, 3), [1]);
        assert_eq!(every(0, 1), [0, 1, 2, 3]);
        assert!(every(5, 7).is_empty());
        assert_eq!(Shard::All.units(&names()).unwrap(), [0, 1, 2, 3]);
    }

    #[test]
    fn listed_units_are_numbers_with_their_names_checked() {
        assert_eq!(
            listed(&["3\td.warc", "", "1", "0\ta.warc.gz\r"]).unwrap(),
            [0, 1, 3]
        );
        let err = |lines: &[&str]| listed(lines).unwrap_err().to_string();
        assert_eq!(
            err(&["1\tb.warc", "x\ty"]),
            "unit list line 2: `x\ty` is not a unit (a line is `J` or `J<TAB>NAME`, as \
             --list-units prints it)"
        );
        assert_eq!(
            err(&["7"]),
            "unit 7 is not in the corpus, which has 4 units (0 to 3)"
        );
        assert_eq!(
            err(&["2\tother.warc"]),
            "unit 2 is `c.warc.gz` in this corpus, not `other.warc`: the list was made from \
             other inputs"
        );
        assert_eq!(err(&["2", "2\tc.warc.gz"]), "unit 2 is listed twice");
    }
}
