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
use crate::corpus::truth::{KeptPage, Targets, TargetsError};
use crate::corpus::{ArchiveStats, CorpusRun, PageRun, Sides, finish_run};
use crate::policy::{OverLimit, over_limits};

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
    #[error("{place}: a shard of another run than {first} (not the same {what})")]
    OtherRun {
        place: String,
        first: String,
        what: &'static str,
    },
    #[error("{place}: a line of another run than {first} (its plan's digest differs)")]
    OtherRunLine { place: String, first: String },
    #[error("{place}: the counts of {unit} are given twice (first at {first})")]
    CountsTwice {
        place: String,
        unit: String,
        first: String,
    },
    #[error("{place}: an archive's counts in a run of saved pages")]
    CountsOfPages { place: String },
    #[error("no partial result given: no header line in the input")]
    NoHeader,
    /// The plan's settings skip no limit that settings from the command
    /// line meet: the keyword automaton's build is what the limits bound.
    #[error("{place}: settings {side}")]
    OverLimit {
        place: String,
        side: &'static str,
        #[source]
        over: OverLimit,
    },
    /// The plan's targets file is held to the cap `--targets` has.
    #[error("{place}")]
    Targets {
        place: String,
        #[source]
        source: TargetsError,
    },
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
    #[error(
        "{unit}: page {at} is given twice ({first} and {second}): was a shard's partial result \
         given twice?"
    )]
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
    /// Each plan digest the other lines name, and where it was first.
    digests: BTreeMap<String, String>,
    pages: BTreeMap<(usize, usize), (PageLine, String)>,
    archives: BTreeMap<usize, (ArchiveLine, String)>,
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
                self.note_digest(&page.plan, place);
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
                self.note_digest(&archive.plan, place);
                if let Some((_, first)) = self.archives.get(&archive.unit) {
                    return Err(MergeError::CountsTwice {
                        place: place.to_owned(),
                        unit: format!("unit {}", archive.unit),
                        first: first.clone(),
                    });
                }
                self.archives
                    .insert(archive.unit, (archive, place.to_owned()));
                Ok(())
            }
            Line::End(end) => {
                self.note_digest(&end.plan, place);
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

    /// The longest line the next may be: the first header's plan says how
    /// large its pages are; before it, a shard writes only its header.
    pub fn line_cap(&self) -> usize {
        super::read::max_line_bytes(self.plan.as_ref().map(|(plan, _)| plan.max_bytes))
    }

    fn note_digest(&mut self, digest: &str, place: &str) {
        if !self.digests.contains_key(digest) {
            self.digests.insert(digest.to_owned(), place.to_owned());
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
        let sides = [("A", Some(&header.plan.a)), ("B", header.plan.b.as_ref())];
        for (side, settings) in sides {
            if let Some(over) = settings.and_then(|s| over_limits(s).into_iter().next()) {
                return Err(MergeError::OverLimit {
                    place: place.to_owned(),
                    side,
                    over,
                });
            }
        }
        if let Some(file) = &header.plan.targets {
            Targets::check_size(file.bytes.as_bytes(), &file.path).map_err(|source| {
                MergeError::Targets {
                    place: place.to_owned(),
                    source,
                }
            })?;
        }
        match &self.plan {
            Some((plan, first)) if *plan != header.plan => Err(MergeError::OtherRun {
                place: place.to_owned(),
                first: first.clone(),
                what: header.plan.difference(plan),
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
        let (plan, header_place) = self.plan.ok_or(MergeError::NoHeader)?;
        let digest = plan.digest();
        if let Some((_, place)) = self.digests.iter().find(|(d, _)| **d != digest) {
            return Err(MergeError::OtherRunLine {
                place: place.clone(),
                first: header_place,
            });
        }
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
        // No unit beyond the run ended, so the missing are counted without
        // listing them: a header may claim 10^18 units in a few bytes.
        let missing = units - self.ended.len();
        if missing > 0 {
            const NAMED: usize = 5;
            // At most as many steps as units ended, plus the ones named.
            let first: Vec<usize> = (0..units)
                .filter(|u| !self.ended.contains_key(u))
                .take(NAMED)
                .collect();
            let mut names: Vec<String> = first.into_iter().map(name).collect();
            if missing > NAMED {
                names.push("…".to_owned());
            }
            return Err(MergeError::Missing {
                missing,
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
        let counts_beyond = match plan.units {
            Units::Pages { .. } => self.archives.values().next(),
            Units::Archives { .. } => self.archives.range(units..).next().map(|(_, a)| a),
        };
        if let Some((archive, place)) = counts_beyond {
            return Err(match plan.units {
                Units::Pages { .. } => MergeError::CountsOfPages {
                    place: place.clone(),
                },
                Units::Archives { .. } => MergeError::NoSuchUnit {
                    place: place.clone(),
                    unit: archive.unit,
                    units,
                },
            });
        }
        let expected = |unit: usize| match plan.units {
            Units::Pages { .. } => Ok(1),
            Units::Archives { .. } => self
                .archives
                .get(&unit)
                .map(|(a, _)| a.pages)
                .ok_or_else(|| MergeError::NoCounts { unit: name(unit) }),
        };
        let mut found: BTreeMap<usize, usize> = BTreeMap::new();
        for &(unit, _) in self.pages.keys() {
            *found.entry(unit).or_default() += 1;
        }
        for unit in 0..units {
            let found = found.get(&unit).copied().unwrap_or(0);
            let expected = expected(unit)?;
            // Counts first: an archive line may claim any number of pages,
            // and only as many as were found are looked up.
            if found != expected || !(0..expected).all(|at| self.pages.contains_key(&(unit, at))) {
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
            for (archive, _) in self.archives.into_values() {
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

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::super::lines::{ArchiveLine, EndLine, Header, Line, PageLine, RunPlan, Units};
    use super::*;
    use crate::corpus::SkipKind;
    use crate::policy::Settings;

    fn plan(files: &[&str]) -> RunPlan {
        RunPlan {
            a: Settings::default(),
            b: None,
            depth: 2,
            max_bytes: 1000,
            suggest: 0,
            targets: None,
            units: Units::Archives {
                files: files.iter().map(PathBuf::from).collect(),
            },
        }
    }

    fn header(plan: &RunPlan) -> String {
        let header = Header {
            format: FORMAT.to_owned(),
            format_version: FORMAT_VERSION,
            inspector: env!("CARGO_PKG_VERSION").to_owned(),
            plan: plan.clone(),
        };
        serde_json::to_string(&Line::Header(header)).unwrap()
    }

    fn page(plan: &RunPlan, unit: usize, at: usize, url: &str) -> String {
        let path = PathBuf::from(format!("file{unit}"));
        let run = PageRun::unjudged(url.to_owned(), path, Some(url.to_owned()));
        let line = PageLine {
            plan: plan.digest(),
            unit,
            at,
            run,
            kept: None,
        };
        serde_json::to_string(&Line::Page(Box::new(line))).unwrap()
    }

    fn archive(plan: &RunPlan, unit: usize, pages: usize, records: usize) -> String {
        let stats = ArchiveStats {
            records,
            ..ArchiveStats::default()
        };
        let line = ArchiveLine {
            plan: plan.digest(),
            unit,
            pages,
            stats,
        };
        serde_json::to_string(&Line::Archive(line)).unwrap()
    }

    fn end(plan: &RunPlan, units: &[usize]) -> String {
        serde_json::to_string(&Line::End(EndLine {
            plan: plan.digest(),
            units: units.to_vec(),
        }))
        .unwrap()
    }

    fn merged(lines: &[String]) -> Result<Merged, MergeError> {
        let mut merge = Merge::default();
        for (i, line) in lines.iter().enumerate() {
            merge.add_line(&format!("line {}", i + 1), line)?;
        }
        merge.finish()
    }

    #[test]
    fn pages_come_back_in_unit_order_and_a_uri_of_an_earlier_file_is_a_duplicate() {
        let plan = plan(&["a.warc", "b.warc", "c.warc"]);
        // Shard 1 (unit 1) first, its lines out of order; shard 0 has 0 and 2.
        let lines = [
            page(&plan, 1, 1, "https://x.test/"),
            archive(&plan, 1, 2, 5),
            header(&plan),
            page(&plan, 1, 0, "https://b.test/"),
            end(&plan, &[1]),
            header(&plan),
            page(&plan, 2, 0, "https://c.test/"),
            page(&plan, 0, 0, "https://x.test/"),
            archive(&plan, 0, 1, 3),
            archive(&plan, 2, 1, 2),
            end(&plan, &[0, 2]),
        ];
        let merged = merged(&lines).unwrap();
        let ids: Vec<&str> = merged.run.pages.iter().map(|p| p.id.as_str()).collect();
        assert_eq!(
            ids,
            ["https://x.test/", "https://b.test/", "https://c.test/"]
        );
        let stats = merged.run.archives.unwrap();
        assert_eq!(stats.records, 10);
        assert_eq!(stats.skipped(SkipKind::Duplicate), 1);
        assert_eq!(stats.files.len(), 3);
    }

    #[test]
    fn a_missing_unit_a_doubled_one_and_another_run_are_named() {
        let ab = plan(&["a.warc", "b.warc"]);
        let missing = merged(&[header(&ab), archive(&ab, 0, 0, 1), end(&ab, &[0])]);
        let text = missing.err().unwrap().to_string();
        assert!(
            text.contains("1 of the run's 2 units") && text.contains("b.warc"),
            "{text}"
        );

        let twice = merged(&[header(&ab), end(&ab, &[0, 1]), end(&ab, &[1])]);
        let text = twice.err().unwrap().to_string();
        assert_eq!(text, "unit 1 is in two partial results: line 2 and line 3");

        let other = merged(&[header(&ab), header(&plan(&["a.warc"]))]);
        let text = other.err().unwrap().to_string();
        assert_eq!(
            text,
            "line 2: a shard of another run than line 1 (not the same inputs)"
        );

        // A line whose header is not given is still known by its plan's digest.
        let a = plan(&["a.warc"]);
        let foreign = merged(&[header(&ab), end(&ab, &[0, 1]), end(&a, &[])]);
        let text = foreign.err().unwrap().to_string();
        assert_eq!(
            text,
            "line 3: a line of another run than line 1 (its plan's digest differs)"
        );

        let counts_twice = merged(&[header(&ab), archive(&ab, 1, 0, 1), archive(&ab, 1, 0, 1)]);
        let text = counts_twice.err().unwrap().to_string();
        assert_eq!(
            text,
            "line 3: the counts of unit 1 are given twice (first at line 2)"
        );

        let no_counts = merged(&[header(&ab), archive(&ab, 0, 0, 1), end(&ab, &[0, 1])]);
        let text = no_counts.err().unwrap().to_string();
        assert_eq!(
            text,
            "unit 1 (b.warc): its counts of records are in no partial result"
        );

        let short = merged(&[header(&ab), archive(&ab, 0, 2, 1), archive(&ab, 1, 0, 1)]);
        let short = [short.err().unwrap().to_string()];
        assert!(short[0].contains("2 of the run's 2 units"), "{short:?}");
        let lost_page = merged(&[
            header(&ab),
            page(&ab, 0, 1, "https://a.test/"),
            archive(&ab, 0, 2, 1),
            archive(&ab, 1, 0, 1),
            end(&ab, &[0, 1]),
        ]);
        let text = lost_page.err().unwrap().to_string();
        assert_eq!(
            text,
            "unit 0 (a.warc): 1 of its 2 pages are in the partial results"
        );
    }

    #[test]
    fn a_line_of_something_else_is_named_by_its_place() {
        let mut merge = Merge::default();
        let err = merge
            .add_line("p.jsonl line 3", "{\"schema\": 1}")
            .unwrap_err();
        assert!(
            err.to_string()
                .starts_with("p.jsonl line 3: not a line of a partial result"),
            "{err}"
        );
        assert!(
            merge.add_line("p.jsonl line 4", "   ").is_ok(),
            "blank lines are skipped"
        );
        assert!(matches!(merge.finish(), Err(MergeError::NoHeader)));
    }

    #[test]
    fn a_header_that_claims_10_18_units_names_the_first_missing_without_listing_all() {
        let mut huge = plan(&[]);
        huge.units = Units::Pages {
            count: 1_000_000_000_000_000_000,
            ids: "sha1:x".to_owned(),
        };
        let started = std::time::Instant::now();
        let err = merged(&[header(&huge), end(&huge, &[0, 2])]).err().unwrap();
        assert!(started.elapsed() < std::time::Duration::from_secs(5));
        assert_eq!(
            err.to_string(),
            "999999999999999998 of the run's 1000000000000000000 units are in no partial \
             result (a shard that did not finish, or was not given): unit 1, unit 3, unit 4, \
             unit 5, unit 6, …"
        );
    }

    #[test]
    fn an_archive_that_claims_more_pages_than_given_is_incomplete_at_once() {
        let a = plan(&["a.warc"]);
        let lines = [
            header(&a),
            page(&a, 0, 0, "https://a.test/"),
            archive(&a, 0, usize::MAX, 1),
            end(&a, &[0]),
        ];
        let err = merged(&lines).err().unwrap();
        assert!(
            err.to_string()
                .contains("1 of its 18446744073709551615 pages"),
            "{err}"
        );
    }

    #[test]
    fn settings_of_a_plan_over_the_limits_are_refused_before_they_compile() {
        let mut over = plan(&["a.warc"]);
        over.b = Some(Settings {
            follow_keywords_white: vec!["k"; 80_000].join(","),
            ..Settings::default()
        });
        let err = merged(&[header(&over)]).err().unwrap();
        let text = format!("{:#}", anyhow::Error::new(err));
        assert_eq!(
            text,
            "line 1: settings B: `followKeywordsWhite` has 80000 items; at most 10000 are \
             supported"
        );
    }

    #[test]
    fn targets_of_a_plan_over_the_cap_of_a_targets_file_are_refused() {
        let mut over = plan(&["a.warc"]);
        over.targets = Some(super::super::lines::TargetsFile {
            path: PathBuf::from("t.tsv"),
            bytes: super::super::lines::TargetsBytes::Text(
                "x".repeat(crate::fetch::local::MAX_TEXT_FILE_BYTES + 1),
            ),
        });
        let err = merged(&[header(&over)]).err().unwrap();
        let text = format!("{:#}", anyhow::Error::new(err));
        assert_eq!(
            text,
            "line 1: t.tsv is larger than 4194304 bytes, the most read from such a file"
        );
    }
}
