//! `corpus`: one or two settings over a folder or manifest of saved pages,
//! or over web archives; a shard of such a run (`--format partial`), and
//! `corpus merge` of the shards into the whole run's report.

use std::collections::HashSet;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

use super::args::{
    CorpusArgs, CorpusFormat, Format, MergeArgs, MergedFormat, ShardArg, TuningArgs,
};
use super::failure::Failure;
use super::output::{
    StatusLine, finish_writing, report_out, say, shared_report_out, stdout_is_terminal,
};
use super::setup::{side_a, side_b};
use crate::copy;
use crate::corpus::partial::{
    CappedLines, ListedUnit, MAX_UNIT_LINE, Merge, RunPlan, Shard, ShardRun, TargetsBytes,
    TargetsFile, Units, write_shard,
};
use crate::corpus::truth::{Lexicon, Suggest, Targets, TuneAsk, TuneProgress, TuneStop};
use crate::corpus::{CorpusRun, CorpusSource, PageRun, Sides};
use crate::fetch::local::{self, FileError, FileKind};
use crate::fetch::local_write;
use crate::report;

/// Runs `corpus`: never touches the network.
pub fn run_corpus(args: &CorpusArgs, config_dir: Option<&Path>) -> Result<(), Failure> {
    // The error names the path itself: no context that says it again.
    let source = crate::corpus::list_inputs(&args.corpus).map_err(usage)?;
    if args.list_units {
        // A scheduler lists before it starts anything: a missing or foreign
        // archive fails here, as the whole run would, not in a worker.
        if let CorpusSource::Archives(files) = &source {
            crate::corpus::check_archives(files).map_err(usage)?;
        }
        return list_units(&source);
    }
    let a = side_a(
        args.profile.as_deref(),
        args.settings.as_deref(),
        config_dir,
    )?;
    let b = side_b(&args.against, config_dir)?;
    let jobs = args
        .jobs
        .map_or_else(crate::corpus::default_jobs, |n| n as usize);
    let targets_file = match &args.targets {
        Some(path) => Some(TargetsFile {
            path: path.clone(),
            bytes: TargetsBytes::of(Targets::read_bytes(path).map_err(cannot_use_targets)?),
        }),
        None => None,
    };
    let targets = targets_file
        .as_ref()
        .map(|file| Targets::parse(file.bytes.as_bytes(), &file.path))
        .transpose()
        .map_err(cannot_use_targets)?;
    let format = match (args.format, &args.shard) {
        (CorpusFormat::Partial, _) => None,
        (_, Some(_)) => return Err(usage(anyhow::anyhow!(copy::SHARD_NEEDS_PARTIAL))),
        (CorpusFormat::Table, None) => Some(Format::Table),
        (CorpusFormat::Json, None) => Some(Format::Json),
        (CorpusFormat::Csv, None) => Some(Format::Csv),
    };
    if format.is_none() && (args.tuning.tune.is_some() || args.tuning.lexicon.is_some()) {
        return Err(usage(anyhow::anyhow!(copy::TUNE_IN_MERGE)));
    }
    let tuning = Tuning::plan(&args.tuning, targets.is_some())?;
    let status = StatusLine::on_stderr();
    let progress = |done: usize, total: usize| {
        status.show(&copy::corpus_read_progress(done, total));
    };
    let Some(format) = format else {
        let names = listed_names(&source);
        let plan = RunPlan {
            a,
            b,
            depth: args.depth,
            max_bytes: args.max_bytes,
            suggest: args.suggest,
            targets: targets_file,
            units: match &source {
                CorpusSource::Pages(pages) => Units::pages(pages.iter().map(|p| p.id.as_str())),
                CorpusSource::Archives(files) => Units::Archives {
                    files: files.clone(),
                },
            },
        };
        let shard = match &args.shard {
            None => Shard::All,
            Some(ShardArg::Every { index, of }) => Shard::Every {
                index: *index,
                of: *of,
            },
            Some(ShardArg::Stdin) => Shard::Listed(units_from_stdin(names.len())?),
        };
        let units = shard.units(&names).map_err(usage)?;
        let run = ShardRun {
            source: &source,
            plan: &plan,
            targets: targets.as_ref(),
            units: &units,
            jobs,
            progress: &progress,
        };
        let written = write_shard(run, &mut report_out());
        status.clear();
        // Even a closed pipe fails a shard: a scheduler must not take a cut
        // partial result for a whole one.
        return written.map_err(usage);
    };
    if let CorpusSource::Archives(files) = &source {
        crate::corpus::check_archives(files).map_err(usage)?;
    }
    let sides = crate::corpus::Sides {
        a: &a,
        b: b.as_ref(),
        depth: args.depth,
        targets: targets.as_ref(),
    };
    if let (Format::Json | Format::Csv, None, CorpusSource::Archives(files)) =
        (format, &targets, &source)
    {
        return stream_report(format, files, sides, args.max_bytes, jobs, &progress);
    }
    let cancel = AtomicBool::new(false);
    let run = crate::corpus::run_source(&source, sides, args.max_bytes, jobs, &cancel, &progress);
    let report = Report {
        targets: targets.as_ref(),
        suggest: args.suggest,
        jobs,
        max_bytes: args.max_bytes,
        format,
        tuning,
    };
    write_report(run, report)
}

/// Runs `corpus merge`: the shards' lines, from files or standard input.
pub fn run_merge(args: &MergeArgs) -> Result<(), Failure> {
    let status = StatusLine::on_stderr();
    let read = read_parts(&args.parts, status);
    // The progress line goes before an error, or the report's own lines.
    status.clear();
    let merged = read?
        .finish()
        .map_err(|e| usage(anyhow::Error::new(e).context(copy::CANNOT_MERGE)))?;
    let targets = merged
        .plan
        .targets
        .as_ref()
        .map(|file| Targets::parse(file.bytes.as_bytes(), &file.path))
        .transpose()
        .map_err(cannot_use_targets)?;
    let tuning = Tuning::plan(&args.tuning, targets.is_some())?;
    let report = Report {
        tuning,
        targets: targets.as_ref(),
        suggest: merged.plan.suggest,
        jobs: args
            .jobs
            .map_or_else(crate::corpus::default_jobs, |n| n as usize),
        max_bytes: merged.plan.max_bytes,
        format: match args.format {
            MergedFormat::Table => Format::Table,
            MergedFormat::Json => Format::Json,
            MergedFormat::Csv => Format::Csv,
        },
    };
    write_report(merged.run, report)
}

/// Every line of every part, from files or `-`.
fn read_parts(parts: &[PathBuf], status: StatusLine) -> Result<Merge, Failure> {
    let cannot_merge = |e: anyhow::Error| usage(e.context(copy::CANNOT_MERGE));
    // A set, not a search of the parts before each: 30,000 parts took 37 s.
    let mut given: HashSet<&PathBuf> = HashSet::with_capacity(parts.len());
    if let Some(twice) = parts.iter().find(|p| !given.insert(p)) {
        let name = twice.display().to_string();
        return Err(cannot_merge(anyhow::anyhow!(copy::part_given_twice(&name))));
    }
    let mut merge = Merge::default();
    let mut lines_read: usize = 0;
    for part in parts {
        let name = part.display().to_string();
        let cannot_read = |e: anyhow::Error| cannot_merge(e.context(copy::cannot_read_part(&name)));
        let reader: Box<dyn std::io::BufRead> = if name == "-" {
            Box::new(std::io::stdin().lock())
        } else {
            Box::new(std::io::BufReader::new(open_part(part, &name).map_err(
                |e| match e {
                    // Its words name the part already.
                    PartError::NotAFile(e) => cannot_merge(anyhow::Error::new(e)),
                    PartError::Io(e) => cannot_read(anyhow::Error::new(e)),
                },
            )?))
        };
        // Every line of a partial result is a JSON object.
        let mut lines = CappedLines::new(reader, merge.line_cap()).starting_with(b'{');
        while let Some((number, line)) = lines
            .next_line()
            .map_err(|e| cannot_read(anyhow::Error::new(e)))?
        {
            lines_read += 1;
            if lines_read.is_multiple_of(10_000) {
                status.show(&copy::merge_progress(lines_read));
            }
            let place = format!("{name} line {number}");
            merge
                .add_line(&place, line)
                .map_err(|e| cannot_merge(anyhow::Error::new(e)))?;
            lines.set_cap(merge.line_cap());
        }
    }
    Ok(merge)
}

/// Why a part cannot be opened.
enum PartError {
    NotAFile(FileError),
    Io(std::io::Error),
}

/// Opens a part that is a file, or a named pipe (`<(…)` is one), saying on
/// stderr that it waits for its writer; a device or a folder never ends, or
/// is no part, and is refused by its type before it is opened.
fn open_part(part: &Path, name: &str) -> Result<std::fs::File, PartError> {
    match local::check_regular(part) {
        Ok(()) => {}
        Err(FileError::NotAFile {
            kind: FileKind::Fifo,
            ..
        }) => say(&copy::waiting_for_part(name)),
        Err(e) => return Err(PartError::NotAFile(e)),
    }
    std::fs::File::open(part).map_err(PartError::Io)
}

/// What a whole run's report is made with, after its pages are judged.
struct Report<'a> {
    targets: Option<&'a Targets>,
    suggest: usize,
    jobs: usize,
    max_bytes: usize,
    format: Format,
    tuning: Tuning,
}

/// The lexicon and `--tune`, checked before the corpus is read.
struct Tuning {
    lexicon: std::borrow::Cow<'static, Lexicon>,
    ask: Option<TuneAsk>,
    out: Option<PathBuf>,
}

impl Tuning {
    fn plan(args: &TuningArgs, with_targets: bool) -> Result<Self, Failure> {
        let needs_tune = [
            (
                args.max_followed_per_page.is_some(),
                "--max-followed-per-page",
            ),
            (args.min_precision.is_some(), "--min-precision"),
            (args.tune_out.is_some(), "--tune-out"),
        ];
        if args.tune.is_none()
            && let Some((_, flag)) = needs_tune.iter().find(|(given, _)| *given)
        {
            return Err(usage(anyhow::anyhow!(copy::needs_tune(flag))));
        }
        if !with_targets && (args.tune.is_some() || args.lexicon.is_some()) {
            return Err(usage(anyhow::anyhow!(copy::TUNE_NEEDS_TARGETS)));
        }
        let lexicon = match &args.lexicon {
            Some(path) => std::borrow::Cow::Owned(
                Lexicon::read(path)
                    .map_err(|e| usage(anyhow::Error::new(e).context(copy::CANNOT_USE_LEXICON)))?,
            ),
            None => std::borrow::Cow::Borrowed(
                Lexicon::shipped()
                    .map_err(|e| usage(anyhow::anyhow!("{e}").context(copy::CANNOT_USE_LEXICON)))?,
            ),
        };
        if let Some(out) = &args.tune_out {
            // Refused before the corpus is read: a folder or a device is
            // never a settings file.
            local_write::check_destination(out, local_write::Streams::Refuse)
                .map_err(|e| usage(anyhow::Error::new(e).context(copy::cannot_write_tuned(out))))?;
        }
        Ok(Self {
            lexicon,
            ask: args.tune.map(|steps| TuneAsk {
                steps,
                max_followed_per_page: args.max_followed_per_page,
                min_precision: args.min_precision,
            }),
            out: args.tune_out.clone(),
        })
    }
}

/// Measures `run` against the targets, warns on stderr, prints the report.
fn write_report(mut run: CorpusRun, report: Report<'_>) -> Result<(), Failure> {
    let status = StatusLine::on_stderr();
    let cancel = AtomicBool::new(false);
    if let Some(targets) = report.targets {
        let progress = |done: usize, total: usize| {
            status.show(&copy::trying_suggestions(done, total));
        };
        let tune_progress = |p: TuneProgress| status.show(&copy::tuning_progress(p));
        let suggest = Suggest {
            keep: report.suggest,
            jobs: report.jobs,
            words: &copy::change_words,
            progress: &progress,
            lexicon: &report.tuning.lexicon,
            tune: report.tuning.ask,
            tune_progress: &tune_progress,
        };
        run.evaluation = Some(run.evaluate(targets, suggest, &cancel));
    }
    // The progress line goes before the warnings, which stay.
    status.clear();
    if let Some(evaluation) = &run.evaluation {
        for problem in &evaluation.problems {
            say(&format!("warning: {problem}"));
        }
        if evaluation.problems_not_listed > 0 {
            let more = copy::target_rows_not_listed(evaluation.problems_not_listed);
            say(&format!("warning: {more}"));
        }
        if evaluation.pages.is_empty() {
            say(&format!(
                "warning: {}",
                copy::nothing_labelled(run.read_pages().count())
            ));
        }
    }
    let truncated = run
        .pages
        .iter()
        .filter(|p| p.truncated)
        .map(|page| match &run.archives {
            Some(_) => page.id.clone(),
            None => page.path.display().to_string(),
        });
    warn_of_pages(&run, truncated, report.max_bytes);
    let tuned = run.evaluation.as_ref().and_then(|e| e.tuning.as_ref());
    if tuned.is_none()
        && let Some(out) = &report.tuning.out
    {
        // Nothing was labelled (said above): there are no tuned settings.
        return Err(usage(anyhow::anyhow!(copy::nothing_tuned(out))));
    }
    if let Some(tuning) = tuned {
        if tuning.stop != TuneStop::Steps {
            say(&format!("warning: {}", copy::tuning_stopped(tuning)));
        }
        if let Some(out) = &report.tuning.out {
            let json = crate::profiles::export_json(&tuning.settings) + "\n";
            local_write::write_file(out, local_write::Streams::Refuse, |w| {
                w.write_all(json.as_bytes())
            })
            .map_err(|e| usage(anyhow::Error::new(e).context(copy::cannot_write_tuned(out))))?;
            say(&copy::tuned_written(out, tuning.steps.len()));
        }
    }
    let mut stdout = report_out();
    let written = match report.format {
        Format::Json => report::write_corpus_json(&run, &mut stdout),
        Format::Csv => report::write_corpus_csv(&run, &mut stdout).map_err(report::csv_io),
        Format::Table => report::write_corpus_table(&run, &mut stdout),
    };
    finish_writing(written)
}

/// The pages cut at `--max-bytes` (`truncated`, named as the run names
/// them) and the records that were damaged or could not be read, on stderr.
fn warn_of_pages(run: &CorpusRun, truncated: impl Iterator<Item = String>, max_bytes: usize) {
    for name in truncated {
        say(&format!(
            "warning: {}",
            copy::truncated_page(&name, max_bytes)
        ));
    }
    if let Some(archives) = &run.archives {
        for problem in archives.damaged.iter().chain(&archives.unreadable) {
            say(&format!("warning: {}", copy::record_problem(problem)));
        }
    }
}

/// `--format json` or `csv` over web archives with no targets: the report
/// written as the run goes, each page as soon as it and every page before
/// it are judged, the same bytes as written at the end; the run keeps what
/// the pages add up to, not the pages (`corpus::Tally`). Keeping every page
/// took a 20,000-page run to 90-95 MB at its peak with one job; 52 MB now.
fn stream_report(
    format: Format,
    files: &[PathBuf],
    sides: Sides<'_>,
    max_bytes: usize,
    jobs: usize,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<(), Failure> {
    let status = StatusLine::on_stderr();
    // A report streamed to the terminal would be cut by the progress line
    // redrawn beside it.
    let to_terminal = stdout_is_terminal();
    let progress = |done: usize, found: usize| {
        if !to_terminal {
            progress(done, found);
        }
    };
    let cancel = AtomicBool::new(false);
    let out = shared_report_out();
    // The table is never streamed: its summary comes first.
    let started = if matches!(format, Format::Csv) {
        report::CorpusStream::csv(out)
    } else {
        report::CorpusStream::json(sides.a, sides.b, sides.depth, out)
    };
    let stream = match started {
        Ok(stream) => stream,
        Err(e) => return finish_writing(Err(e)),
    };
    // The stream, how writing went, and the pages cut at `--max-bytes`.
    let state = Mutex::new((stream, Ok(()), Vec::new()));
    let each = |page: &PageRun| {
        if let Ok(mut guard) = state.lock() {
            let (stream, written, truncated) = &mut *guard;
            if page.truncated {
                truncated.push(page.id.clone());
            }
            if written.is_ok() {
                *written = stream.page(page);
                // No one reads the rest (`| head`): the run stops.
                if written.is_err() {
                    cancel.store(true, Ordering::SeqCst);
                }
            }
        }
    };
    let run = crate::corpus::run_archives(
        files,
        sides,
        max_bytes,
        jobs,
        &cancel,
        &progress,
        Some(&each),
    );
    let (stream, written, truncated) = state
        .into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    status.clear();
    warn_of_pages(&run, truncated.into_iter(), max_bytes);
    finish_writing(written.and_then(|()| stream.finish(&run)))
}

/// The units' names as `--list-units` prints them and `--shard -` reads
/// them back: escaped as every line is (a name with a control character, a
/// tab or a line break stays one `J<TAB>NAME` line, and compares equal to
/// itself when it comes back).
fn listed_names(source: &CorpusSource) -> Vec<String> {
    source
        .unit_names()
        .into_iter()
        .map(|name| match report::escape(&name, false) {
            std::borrow::Cow::Borrowed(_) => name,
            escaped => escaped.into_owned(),
        })
        .collect()
}

/// `--list-units`: one `J<TAB>NAME` line per unit.
fn list_units(source: &CorpusSource) -> Result<(), Failure> {
    let mut out = report_out();
    let written = listed_names(source)
        .iter()
        .enumerate()
        .try_for_each(|(unit, name)| writeln!(out, "{unit}\t{name}"))
        .and_then(|()| out.flush());
    finish_writing(written)
}

/// `--shard -`: the units on standard input, each line capped. A list
/// longer than the corpus's `units` names one twice or one it does not
/// have, so it is read no further: [`Shard::units`] says which.
fn units_from_stdin(units: usize) -> Result<Vec<ListedUnit>, Failure> {
    let cannot_read = |e: anyhow::Error| usage(e.context(copy::CANNOT_READ_UNITS));
    let mut lines = CappedLines::new(std::io::stdin().lock(), MAX_UNIT_LINE);
    let mut listed = Vec::new();
    while listed.len() <= units
        && let Some((number, line)) = lines
            .next_line()
            .map_err(|e| cannot_read(anyhow::Error::new(e)))?
    {
        listed.extend(ListedUnit::parse(number, line).map_err(usage)?);
    }
    Ok(listed)
}

fn usage(err: impl Into<anyhow::Error>) -> Failure {
    Failure::Usage(err.into())
}

fn cannot_use_targets(err: crate::corpus::truth::TargetsError) -> Failure {
    Failure::Usage(anyhow::Error::new(err).context(copy::CANNOT_USE_TARGETS))
}
