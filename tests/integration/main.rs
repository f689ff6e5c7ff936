//! One integration-test binary: drives the real `follow-inspector` executable.

mod advice;
mod architecture;
mod archive_bad_input;
mod archive_corpus;
mod archive_interop;
mod archive_reopen_bad;
mod archive_roundtrip;
mod corpus;
mod fetch_crawl;
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
mod inspect_file;
mod profiles_cli;
mod properties;
mod rendered;
mod rendered_hostile;
mod server;
mod shards;
mod spark;
mod truth;
mod tuning;
mod ui;
mod ui_advice;
mod ui_archive;
mod ui_detail;
mod ui_layout;
mod ui_profile_actions;
mod ui_targets;
mod ui_walk;
mod ui_window_layout;
mod ui_workbench;
mod warc_files;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

pub fn repo_path(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)
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
