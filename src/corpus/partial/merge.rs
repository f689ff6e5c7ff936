//! Merging partial results: lines from any number of shards, in any order,
//! give back the run one process would have made — the same pages in the
//! same order, the same counts, the same keyword totals and causes.
//!
//! Archives are split by file, so a URI that two files hold is taken as a
//! page by each file's shard; the merge keeps the first in run order and
//! counts the other as the duplicate the whole run would have skipped.

use std::collections::{BTreeMap, HashSet};
use std::sync::Arc;

use super::lines::{ArchiveLine, FORMAT, FORMAT_VERSION, Header, Line, PageLine, RunPlan, Units};
use crate::corpus::truth::KeptPage;
use crate::corpus::{ArchiveStats, CorpusRun, PageRun, Sides, finish_run};

/// Why partial results do not merge.
#[derive(Debug, thiserror::Error)]
pub enum MergeError {
    #[error("{place}: not a line of a partial result ({detail})")]
    NotALine { place: String, detail: String },
    #[error(
        "{place}: written by another build ({found}); this is follow-inspector {ours}, format \
         {FORMAT_VERSION}: run every shard with the same binary"
    )]
    OtherBuild {
        place: String,
        found: String,
        ours: &'static str,
    },
    #[error(
        "{place}: a shard of another run than {first} (other settings, depth, inputs or \
         targets)"
    )]
    OtherRun { place: String, first: String },
    #[error("no partial result given: no header line in the input")]
    NoHeader,
    #[error("{unit} is in two partial results: {first} and {second}")]
    UnitTwice {
        unit: String,
        first: String,
        second: String,
    },
    #[error("{place}: names unit {unit}, but the run has {units} units")]
    NoSuchUnit {
        place: String,
        unit: usize,
        units: usize,
    },
    #[error(
        "{missing} of the run's {units} units are in no partial result (a shard that did not \
         finish, or was not given): {names}"
    )]
    Missing {
        missing: usize,
        units: usize,
        names: String,
    },
    #[error("{unit}: page {at} is given twice ({first} and {second})")]
    PageTwice {
        unit: String,
        at: usize,
        first: String,
        second: String,
    },
    #[error("{unit}: its counts of records are in no partial result")]
    NoCounts { unit: String },
    #[error("{unit}: {found} of its {expected} pages are in the partial results")]
    Incomplete {
        unit: String,
        found: usize,
        expected: usize,
    },
}

/// The merged run, and the plan its shards shared.
pub struct Merged {
    pub plan: RunPlan,
    pub run: CorpusRun,
}

/// Partial results read so far.
#[derive(Default)]
pub struct Merge {
    /// The first header's plan, and where it was.
    plan: Option<(RunPlan, String)>,
    pages: BTreeMap<(usize, usize), (PageLine, String)>,
    archives: BTreeMap<usize, ArchiveLine>,
    /// Each unit a shard ended with, and where.
    ended: BTreeMap<usize, String>,
}

impl Merge {
    /// Adds one line; `place` names it in errors ("part-3.jsonl line 12").
    /// Blank lines are skipped.
    pub fn add_line(&mut self, place: &str, text: &str) -> Result<(), MergeError> {
        if text.trim().is_empty() {
            return Ok(());
        }
        let line: Line = serde_json::from_str(text).map_err(|e| MergeError::NotALine {
            place: place.to_owned(),
            detail: e.to_string(),
        })?;
        match line {
            Line::Header(header) => self.add_header(place, header),
            Line::Page(page) => {
                let key = (page.unit, page.at);
                if let Some((_, first)) = self.pages.get(&key) {
                    return Err(MergeError::PageTwice {
                        unit: format!("unit {}", page.unit),
                        at: page.at,
                        first: first.clone(),
                        second: place.to_owned(),
                    });
                }
                self.pages.insert(key, (*page, place.to_owned()));
                Ok(())
            }
            Line::Archive(archive) => {
                self.archives.insert(archive.unit, archive);
                Ok(())
            }
            Line::End(end) => {
                for unit in end.units {
                    if let Some(first) = self.ended.insert(unit, place.to_owned()) {
                        return Err(MergeError::UnitTwice {
                            unit: format!("unit {unit}"),
                            first,
                            second: place.to_owned(),
                        });
                    }
                }
                Ok(())
            }
        }
    }

    fn add_header(&mut self, place: &str, header: Header) -> Result<(), MergeError> {
        let ours = env!("CARGO_PKG_VERSION");
        if header.format != FORMAT
            || header.format_version != FORMAT_VERSION
            || header.inspector != ours
        {
            return Err(MergeError::OtherBuild {
                place: place.to_owned(),
                found: format!(
                    "follow-inspector {}, format {}",
                    header.inspector, header.format_version
                ),
                ours,
            });
        }
        match &self.plan {
            Some((plan, first)) if *plan != header.plan => Err(MergeError::OtherRun {
                place: place.to_owned(),
                first: first.clone(),
            }),
            Some(_) => Ok(()),
            None => {
                self.plan = Some((header.plan, place.to_owned()));
                Ok(())
            }
        }
    }

    /// The run the shards add up to, once every unit is in.
    pub fn finish(self) -> Result<Merged, MergeError> {
        let (plan, _) = self.plan.ok_or(MergeError::NoHeader)?;
        let units = plan.units.count();
        let name = |unit: usize| match &plan.units {
            Units::Archives { files } => match files.get(unit) {
                Some(file) => format!("unit {unit} ({})", file.display()),
                None => format!("unit {unit}"),
            },
            Units::Pages { .. } => format!("unit {unit}"),
        };
        if let Some((&unit, place)) = self.ended.range(units..).next() {
            return Err(MergeError::NoSuchUnit {
                place: place.clone(),
                unit,
                units,
            });
        }
        let missing: Vec<usize> = (0..units).filter(|u| !self.ended.contains_key(u)).collect();
        if !missing.is_empty() {
            const NAMED: usize = 5;
            let mut names: Vec<String> = missing.iter().take(NAMED).map(|&u| name(u)).collect();
            if missing.len() > NAMED {
                names.push("…".to_owned());
            }
            return Err(MergeError::Missing {
                missing: missing.len(),
                units,
                names: names.join(", "),
            });
        }
        // Every unit ended, so no page line may be beyond the run's units.
        if let Some((&(unit, _), (_, place))) = self.pages.range((units, 0)..).next() {
            return Err(MergeError::NoSuchUnit {
                place: place.clone(),
                unit,
                units,
            });
        }
        let expected = |unit: usize| match plan.units {
            Units::Pages { .. } => Ok(1),
            Units::Archives { .. } => self
                .archives
                .get(&unit)
                .map(|a| a.pages)
                .ok_or_else(|| MergeError::NoCounts { unit: name(unit) }),
        };
        let mut found: BTreeMap<usize, usize> = BTreeMap::new();
        for &(unit, _) in self.pages.keys() {
            *found.entry(unit).or_default() += 1;
        }
        for unit in 0..units {
            let found = found.get(&unit).copied().unwrap_or(0);
            let expected = expected(unit)?;
            let in_order = (0..expected).all(|at| self.pages.contains_key(&(unit, at)));
            if found != expected || !in_order {
                return Err(MergeError::Incomplete {
                    unit: name(unit),
                    found,
                    expected,
                });
            }
        }
        let a_options = plan.a.options();
        let mut runs: Vec<PageRun> = Vec::with_capacity(self.pages.len());
        let mut stats = match &plan.units {
            Units::Archives { files } => Some(ArchiveStats {
                files: files.clone(),
                ..ArchiveStats::default()
            }),
            Units::Pages { .. } => None,
        };
        if let Some(stats) = &mut stats {
            // In unit order, so that the problems listed are the first ones.
            for archive in self.archives.into_values() {
                stats.absorb(archive.stats);
            }
        }
        let mut seen: HashSet<String> = HashSet::new();
        for (page, _) in self.pages.into_values() {
            if let Some(stats) = &mut stats
                && !seen.insert(page.run.id.clone())
            {
                stats.count_duplicate();
                continue;
            }
            let mut run = page.run;
            run.kept = page
                .kept
                .map(|links| Arc::new(KeptPage::of_links(links, &a_options)));
            runs.push(run);
        }
        let sides = Sides {
            a: &plan.a,
            b: plan.b.as_ref(),
            depth: plan.depth,
            targets: None,
        };
        let mut run = finish_run(sides, runs, false);
        run.archives = stats;
        Ok(Merged { plan, run })
    }
}
