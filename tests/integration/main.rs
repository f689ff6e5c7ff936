//! One integration-test binary: drives the real `follow-inspector`
//! executable, and the window through egui_kittest. Where a test belongs:
//!
//! **The house**
//! - `architecture`: the house rules read from the source: layers, pure
//!   modules, import circles, the `ui/` rooms (panels, tasks, app), the one
//!   escaping writer.
//! - `docs`: README.md and `docs/`: every link stays in the repository, the
//!   README stays a front door with the two commands.
//!
//! **The command line on pages** (`inspect`, `diff`, `profiles`)
//! - `inspect_file`: `inspect FILE` on fixture pages: reports, flags, exit codes.
//! - `fetch_crawl`: `inspect URL`: fetching and the depth crawl against the
//!   local multi-host `server`.
//! - `rendered`: rendered mode in the real chromium-headless-shell (skipped
//!   without it).
//! - `advice`: what the command line says when a load fails, and its exit code.
//! - `profiles_cli`: `profiles …` and `inspect --profile`, in a temporary
//!   `--config-dir`.
//! - `tuning`: `diff`, the lints, allow-list suggestions, region and nofollow.
//! - `properties`: proptest properties of the reader and the policy.
//!
//! **Corpus runs** (`corpus`, sharding, ground truth)
//! - `corpus`: every page of `../shared/corpus` (read by path, never copied):
//!   no panic, valid JSON, the same output twice.
//! - `truth`: `corpus --targets`: metrics, missed targets, suggestions.
//! - `shards`: `--shard I/N` then `corpus merge` gives the unsharded bytes.
//! - `spark`: `scripts/spark-corpus` on Spark (skipped without Java and pyspark).
//! - `real_pages`: every real page of `../shared/corpus` and
//!   `../shared/homepages`: the bounded charset detection chooses what the
//!   whole page would; the reader's fast path reads what it accepts as
//!   html5ever does, and accepts nine pages in ten.
//!
//! **Web archives** (SPEC 10)
//! - `archive_roundtrip`: our own round trip: `--save-warc`, then reopened
//!   offline with the same report.
//! - `archive_interop`: other tools' archives (wget) and `warcio` on ours.
//! - `archive_corpus`: `corpus` over web archives.
//! - `archive_bad_input`: bad archives given to `corpus`.
//! - `archive_reopen_bad`: bad archives given to `inspect FILE.warc.gz`.
//! - `replay`: rendered captures keep what the page loaded, and
//!   `--render` over an archive renders it again offline (SPEC 12).
//! - `archive_shelf`: every capture of `../shared/archives` (other tools'
//!   files) read by the inspector and by warcio: the same pages.
//! - `archive_wacz`: WACZ packages (`wacz create`'s) wherever a WARC goes.
//! - `archive_wacz_save`: `--save-warc x.wacz`: `wacz validate` accepts it,
//!   `cdxj-indexer` indexes its WARC as we did, it reopens byte-identical.
//!
//! **Hostile input** (each case ends bounded, with a clear message)
//! - `hostile`: hostile servers and pages, peak memory measured.
//! - `hostile_files`: local files that never end, folders, symlink loops.
//! - `hostile_corpus`: manifests and corpus folders that climb out or never end.
//! - `hostile_merge`: partial results and unit lists past every limit.
//! - `hostile_reopen`: archives that decode to gigabytes or name what is not there.
//! - `hostile_resync`: reading on after damage costs about the bytes read.
//! - `hostile_settings`: huge keyword lists and tags (quadratic costs).
//! - `hostile_output`: what a terminal or a spreadsheet trusts: escaping, CSV.
//! - `hostile_terminal`: control characters from files reach the terminal escaped.
//! - `hostile_writes`: files the tool writes where something was planted first.
//! - `rendered_hostile`: rendered mode against hostile pages and browsers.
//!
//! **The window** (whole-app kittests, by label; a test of one panel alone
//! goes beside the panel in `src/ui/panels/`, through `test_support::harness`)
//! - `ui`: the inspector as a whole: loading, the table, selection, copying,
//!   profiles, compare, rendered, the Corpus view; and its shared helpers
//!   (`app_in`, `settle`, `type_into`, `fetch`, …).
//! - `ui_layout`: the layout home: what fits at each size and what comes into
//!   view (`sizes`, `at_1024`, `into_view`), and `walk`, the one test that
//!   opens every view and dialog at 800×600, 1024×700 and 1280×800 and
//!   fails when a control is cut or covered, the table shows under five
//!   rows, or a URL cell loses its host. A new view or dialog gets a scene
//!   there.
//! - `ui_advice`: the banner for every kind of failed load.
//! - `ui_archive`: Save for ticket… and reopened archives in the window.
//! - `ui_detail`: the detail pane, the status bar, the host mapping.
//! - `ui_profile_actions`: every profile action on an edited profile asks first.
//! - `ui_targets`: marking links as targets, in the window.
//! - `ui_unsaved`: no path in the window loses an unsaved edit: each keeps it
//!   or asks the unsaved-changes question (issue 30).
//! - `ui_workbench`: the Corpus view as a tuning workbench.
//!
//! **Helpers** (no tests of their own)
//! - this file: running the binary ([`run`], [`run_json`], …), [`repo_path`]
//!   and [`temp_dir`], the one temporary folder maker.
//! - `fonts`: the one fonts setup of every kittest (the library's panel
//!   harness includes the same file).
//! - `server`: a local HTTP server for fake host names; nothing reaches the internet.
//! - `warc_files`: WARC records, gzip members and HTTP responses as bytes.

// The house.
mod architecture;
mod docs;

// The command line on pages.
mod advice;
mod fetch_crawl;
mod inspect_file;
mod profiles_cli;
mod properties;
mod rendered;
mod tuning;

// Corpus runs.
mod corpus;
mod generalise;
mod real_pages;
mod shards;
mod spark;
mod truth;

// Web archives.
mod archive_bad_input;
mod archive_corpus;
mod archive_formats;
mod archive_interop;
mod archive_quirks;
mod archive_reopen_bad;
mod archive_roundtrip;
mod archive_shelf;
mod archive_wacz;
mod archive_wacz_save;
mod replay;

// Hostile input.
mod hostile;
mod hostile_corpus;
mod hostile_files;
mod hostile_merge;
mod hostile_output;
mod hostile_reopen;
mod hostile_resync;
mod hostile_settings;
mod hostile_terminal;
mod hostile_writes;
mod rendered_hostile;

// The window.
mod ui;
mod ui_advice;
mod ui_archive;
mod ui_detail;
mod ui_layout;
mod ui_profile_actions;
mod ui_targets;
mod ui_unsaved;
mod ui_workbench;

// Helpers.
mod fonts;
mod server;
mod warc_files;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};

pub fn repo_path(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)
}

/// A fresh, empty folder of one test's own in the system's temporary folder,
/// the one helper every test makes its folders with. Its name says which file
/// asked (`fi-ui_targets-NAME-PID-N`); the count makes it unique, so two tests
/// run in parallel that pick the same `name` never share a folder, and no test
/// touches the user's configuration.
#[track_caller]
pub fn temp_dir(name: &str) -> PathBuf {
    static MADE: AtomicUsize = AtomicUsize::new(0);
    let caller = Path::new(std::panic::Location::caller().file());
    let file = caller.file_stem().unwrap_or_default().to_string_lossy();
    let n = MADE.fetch_add(1, Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("fi-{file}-{name}-{}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    dir
}

pub fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_follow-inspector"))
        .args(args)
        .output()
        .expect("the binary runs")
}

pub fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).expect("stdout is UTF-8")
}

pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// [`run`] with a reader that goes away after the first `bytes` of standard
/// output, as `| head -c BYTES` does (stdin empty).
pub fn run_read_then_closed<S: AsRef<std::ffi::OsStr>>(args: &[S], bytes: usize) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_follow-inspector"))
        .args(args)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let mut out = child.stdout.take().expect("a stdout pipe");
    let mut first = vec![0_u8; bytes];
    std::io::Read::read_exact(&mut out, &mut first).expect("the output's first bytes");
    drop(out);
    child.wait_with_output().expect("its end")
}

/// [`run`] with owned arguments.
pub fn run_owned(args: &[String]) -> Output {
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    run(&refs)
}

/// The standard output of a run that must have exited 0.
pub fn ok_stdout(out: &Output) -> String {
    assert_eq!(out.status.code(), Some(0), "{}", stderr(out));
    stdout(out)
}

pub fn parse_json(text: &str) -> serde_json::Value {
    serde_json::from_str(text).expect("valid JSON")
}

/// Runs and parses `--format json`, asserting success.
pub fn run_json(args: &[&str]) -> serde_json::Value {
    let mut all = args.to_vec();
    all.extend(["--format", "json"]);
    let out = run(&all);
    assert!(out.status.success(), "{args:?} failed: {}", stderr(&out));
    serde_json::from_str(&stdout(&out)).expect("valid JSON")
}

/// The lint codes of a JSON report, in order.
pub fn lint_codes(report: &serde_json::Value) -> Vec<&str> {
    report["lints"]
        .as_array()
        .expect("lints is an array")
        .iter()
        .map(|l| l["code"].as_str().expect("a lint has a code"))
        .collect()
}
