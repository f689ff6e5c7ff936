//! SPEC 11's suggestions: every candidate change decided again over the
//! labelled pages of `../shared/corpus` (68 of 80 pages), and over 1,000
//! pages (the corpus repeated, its targets with it). Prints how many
//! candidates each run tries, to turn the time into a time per 100.

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

use criterion::{Criterion, criterion_group, criterion_main};
use follow_inspector::corpus::truth::{Lexicon, Suggest, Targets, TuneAsk};
use follow_inspector::corpus::{self, CorpusRun, Sides};
use follow_inspector::policy::Settings;

const PAGES_AT_SCALE: usize = 1_000;

fn corpus_dir() -> Option<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus");
    dir.join("targets.tsv").is_file().then_some(dir)
}

/// The corpus read once under the defaults, its labelled pages kept.
fn read(manifest: &Path, targets: &Targets) -> CorpusRun {
    let source = corpus::list_corpus(manifest).expect("list the corpus");
    let a = Settings::default();
    let sides = Sides {
        a: &a,
        b: None,
        depth: 2,
        targets: Some(targets),
    };
    let cancel = AtomicBool::new(false);
    corpus::run_source(
        &source,
        sides,
        follow_inspector::fetch::DEFAULT_MAX_BYTES,
        corpus::default_jobs(),
        &cancel,
        &|_, _| {},
    )
}

/// `../shared/corpus` repeated up to `pages` pages (hard links), with its
/// targets repeated under the new ids.
fn repeated(dir: &Path, pages: usize) -> (PathBuf, Targets) {
    let out = std::env::temp_dir().join(format!("fi-bench-suggest-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    std::fs::create_dir_all(out.join("pages")).expect("temp folder");
    let manifest = std::fs::read_to_string(dir.join("manifest.tsv")).expect("manifest");
    let rows: Vec<(&str, &str)> = manifest
        .lines()
        .skip(1)
        .filter_map(|l| {
            let mut cells = l.split('\t');
            Some((cells.next()?, cells.next()?))
        })
        .collect();
    let targets = std::fs::read_to_string(dir.join("targets.tsv")).expect("targets");
    let mut new_manifest = String::from("id\toriginal_url\n");
    let mut new_targets = String::from("id\turl\tkind\n");
    for n in 0..pages {
        let (id, url) = rows[n % rows.len()];
        let copy = format!("r{}-{id}", n / rows.len());
        new_manifest.push_str(&format!("{copy}\t{url}\n"));
        std::fs::hard_link(
            dir.join("pages").join(format!("{id}.html")),
            out.join("pages").join(format!("{copy}.html")),
        )
        .expect("link a page");
        for line in targets.lines().skip(1) {
            let cells: Vec<&str> = line.split('\t').collect();
            if cells.first() == Some(&id) {
                new_targets.push_str(&format!("{copy}\t{}\t{}\n", cells[1], cells[2]));
            }
        }
    }
    std::fs::write(out.join("manifest.tsv"), new_manifest).expect("write manifest");
    let targets = Targets::parse(new_targets.as_bytes(), Path::new("targets.tsv")).expect("parse");
    (out.join("manifest.tsv"), targets)
}

fn suggest(keep: usize, jobs: usize) -> Suggest<'static> {
    Suggest {
        keep,
        jobs,
        words: &follow_inspector::copy::change_words,
        progress: &|_, _| {},
        lexicon: Lexicon::shipped().expect("the shipped lexicon"),
        tune: None,
        tune_progress: &|_| {},
    }
}

fn suggestions(c: &mut Criterion) {
    let Some(dir) = corpus_dir() else {
        eprintln!("SKIPPED: no ../shared/corpus/targets.tsv");
        return;
    };
    let targets = Targets::read(&dir.join("targets.tsv")).expect("read targets");
    let cancel = AtomicBool::new(false);
    let jobs = corpus::default_jobs();
    let run = read(&dir.join("manifest.tsv"), &targets);
    let all = suggest(usize::MAX, jobs);
    let tried = run.evaluate(&targets, all, &cancel).candidates_tried;
    eprintln!("corpus: {} pages, {tried} candidates", run.pages.len());
    let mut group = c.benchmark_group("suggest");
    group.sample_size(10);
    group.bench_function("corpus_80_pages", |b| {
        b.iter(|| run.evaluate(&targets, suggest(20, jobs), &cancel))
    });
    // `--tune 8` with its five-fold cross-validation, no suggestions listed.
    let tune = Suggest {
        tune: Some(TuneAsk {
            steps: 8,
            max_followed_per_page: None,
            min_precision: None,
        }),
        ..suggest(0, jobs)
    };
    group.bench_function("tune_8_corpus_80_pages", |b| {
        b.iter(|| run.evaluate(&targets, tune, &cancel))
    });
    let (manifest, many_targets) = repeated(&dir, PAGES_AT_SCALE);
    let many = read(&manifest, &many_targets);
    let tried = many.evaluate(&many_targets, all, &cancel).candidates_tried;
    eprintln!("repeated: {} pages, {tried} candidates", many.pages.len());
    group.bench_function("repeated_1000_pages", |b| {
        b.iter(|| many.evaluate(&many_targets, suggest(20, jobs), &cancel))
    });
    group.finish();
    let _ = std::fs::remove_dir_all(manifest.parent().unwrap_or(&manifest));
}

criterion_group!(benches, suggestions);
criterion_main!(benches);
