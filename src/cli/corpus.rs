//! `corpus`: one or two settings over a folder or manifest of saved pages,
//! or over web archives.

use std::io::IsTerminal as _;
use std::path::Path;
use std::sync::atomic::AtomicBool;

use super::args::{CorpusArgs, Format};
use super::failure::Failure;
use super::output::{finish_writing, report_out};
use super::setup::{side_a, side_b};
use crate::copy;
use crate::report;

/// Runs `corpus`: never touches the network.
pub fn run_corpus(args: &CorpusArgs, config_dir: Option<&Path>) -> Result<(), Failure> {
    let a = side_a(
        args.profile.as_deref(),
        args.settings.as_deref(),
        config_dir,
    )?;
    let b = side_b(&args.against, config_dir)?;
    // The error names the path itself: no context that says it again.
    let source = crate::corpus::list_corpus(&args.corpus)
        .map_err(|e| Failure::Usage(anyhow::Error::new(e)))?;
    let jobs = args
        .jobs
        .map_or_else(crate::corpus::default_jobs, |n| n as usize);
    let interactive = std::io::stderr().is_terminal();
    let progress = |done: usize, total: usize| {
        if interactive {
            eprint!("\r\x1b[2K{}", copy::corpus_read_progress(done, total));
        }
    };
    let cancel = AtomicBool::new(false);
    let targets = match &args.targets {
        Some(path) => Some(crate::corpus::truth::Targets::read(path).map_err(|e| {
            Failure::Usage(anyhow::Error::new(e).context(copy::CANNOT_USE_TARGETS))
        })?),
        None => None,
    };
    let sides = crate::corpus::Sides {
        a: &a,
        b: b.as_ref(),
        depth: args.depth,
        targets: targets.as_ref(),
    };
    let mut run =
        crate::corpus::run_source(&source, sides, args.max_bytes, jobs, &cancel, &progress);
    if let Some(targets) = &targets {
        let progress = |done: usize, total: usize| {
            if interactive {
                eprint!("\r\x1b[2K{}", copy::trying_suggestions(done, total));
            }
        };
        let suggest = crate::corpus::truth::Suggest {
            keep: args.suggest,
            jobs,
            words: &copy::change_words,
            progress: &progress,
        };
        run.evaluation = Some(run.evaluate(targets, suggest, &cancel));
    }
    // The progress line goes before the warnings, which stay.
    if interactive {
        eprint!("\r\x1b[2K");
    }
    if let Some(evaluation) = &run.evaluation {
        for problem in &evaluation.problems {
            eprintln!("warning: {problem}");
        }
        if evaluation.pages.is_empty() {
            eprintln!(
                "warning: {}",
                copy::nothing_labelled(run.read_pages().count())
            );
        }
    }
    for page in run.pages.iter().filter(|p| p.truncated) {
        let name = match &run.archives {
            Some(_) => page.id.clone(),
            None => page.path.display().to_string(),
        };
        eprintln!("warning: {}", copy::truncated_page(&name, args.max_bytes));
    }
    if let Some(archives) = &run.archives {
        for problem in archives.damaged.iter().chain(&archives.unreadable) {
            eprintln!("warning: {}", copy::record_problem(problem));
        }
    }
    let mut stdout = report_out();
    let written = match args.format {
        Format::Json => report::write_corpus_json(&run, &mut stdout),
        Format::Csv => report::write_corpus_csv(&run, &mut stdout).map_err(std::io::Error::from),
        Format::Table => report::write_corpus_table(&run, &mut stdout),
    };
    finish_writing(written)
}
