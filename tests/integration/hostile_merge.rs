//! Hostile partial results and unit lists (issue 28): a header that claims
//! 10^18 units, a part or a unit list that never ends a line (`/dev/zero`),
//! a device or a folder as a part, a plan whose settings or targets skip the
//! limits, 30,000 parts, a targets file of 85,000 rows for one page or of a
//! million bad rows. Each run ends within a generous bound, with its peak
//! memory measured, and says why in one line, exiting 2 when it cannot go on.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use crate::hostile_files::{fails_in_one_line, mkfifo};
use crate::{ok_stdout, stderr, temp_dir};

/// Every case here took seconds to minutes, or aborted; each must now end
/// well within this, even in a debug build on a loaded machine.
const BOUND: Duration = Duration::from_secs(20);
/// Peak resident memory allowed, KiB: a line is read up to its cap, 62 MB
/// before a header, 104 MB for the largest here, 4 MB for a unit list.
const PEAK_KIB: i64 = 400 * 1024;

fn binary() -> &'static str {
    env!("CARGO_BIN_EXE_follow-inspector")
}

/// Runs the binary under `/usr/bin/time -f %M` with `stdin` as its standard
/// input, checking it ends within [`BOUND`]; returns its output and peak KiB.
fn run_measured(args: &[String], stdin: Stdio) -> (Output, i64) {
    let report = temp_dir("peak").join("peak-kib");
    let started = Instant::now();
    let out = Command::new("/usr/bin/time")
        .arg("-f")
        .arg("%M")
        .arg("-o")
        .arg(&report)
        .arg(binary())
        .args(args)
        .stdin(stdin)
        .output()
        .expect("/usr/bin/time runs (Debian package `time`)");
    let took = started.elapsed();
    assert!(took < BOUND, "{args:?} took {took:?}");
    let peak = std::fs::read_to_string(&report).unwrap_or_default();
    // One folder per run: gone once read, so a suite run leaves none behind.
    if let Some(folder) = report.parent() {
        let _ = std::fs::remove_dir_all(folder);
    }
    let peak_kib = peak
        .lines()
        .last()
        .and_then(|l| l.trim().parse().ok())
        .unwrap_or_else(|| panic!("no peak memory from /usr/bin/time: {peak}"));
    assert!(peak_kib < PEAK_KIB, "{args:?} peaked at {peak_kib} KiB");
    (out, peak_kib)
}

fn strings(args: &[&str]) -> Vec<String> {
    args.iter().map(|a| (*a).to_owned()).collect()
}

fn path_arg(path: &Path) -> String {
    path.display().to_string()
}

/// A corpus of one saved page, labelled by `targets.tsv` (written by the
/// caller when needed).
fn one_page_corpus(dir: &Path) -> PathBuf {
    std::fs::create_dir_all(dir.join("pages")).expect("a pages folder");
    std::fs::write(
        dir.join("pages/p.html"),
        "<html><body><a href=\"/contact\">Contact</a> <a href=\"/about\">About</a></body></html>",
    )
    .expect("a page");
    let manifest = dir.join("manifest.tsv");
    std::fs::write(&manifest, "id\toriginal_url\np\thttps://acme.test/\n").expect("a manifest");
    manifest
}

/// The partial result of the whole one-page corpus, as its lines.
fn partial_lines(manifest: &Path) -> Vec<serde_json::Value> {
    let out = Command::new(binary())
        .args(["corpus", &path_arg(manifest), "--format", "partial"])
        .output()
        .expect("the binary runs");
    ok_stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect()
}

fn write_lines(path: &Path, lines: &[serde_json::Value]) {
    let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
    std::fs::write(path, text).expect("a partial result");
}

fn merge_args(parts: &[String]) -> Vec<String> {
    let mut args = strings(&["corpus", "merge"]);
    args.extend(parts.iter().cloned());
    args
}

#[test]
fn a_header_that_claims_10_18_units_is_named_short_without_allocating() {
    let dir = temp_dir("merge-units");
    let lines = partial_lines(&one_page_corpus(&dir));
    let mut header = lines[0].clone();
    header["header"]["plan"]["units"]["pages"]["count"] = 1_000_000_000_000_000_000u64.into();
    let part = dir.join("claims.partial");
    write_lines(&part, &[header]);
    assert!(
        std::fs::metadata(&part).unwrap().len() < 1024,
        "a small file"
    );
    let (out, _) = run_measured(&merge_args(&[path_arg(&part)]), Stdio::null());
    fails_in_one_line(
        &out,
        2,
        &[
            "cannot merge the partial results: 1000000000000000000 of the run's \
             1000000000000000000 units are in no partial result",
            "unit 0, unit 1, unit 2, unit 3, unit 4, …",
        ],
    );
}

#[test]
fn a_device_or_a_folder_as_a_part_is_refused_by_its_type() {
    let dir = temp_dir("merge-devices");
    for (part, kind) in [
        ("/dev/zero".to_owned(), "a character device"),
        (path_arg(&dir), "a folder"),
    ] {
        let (out, _) = run_measured(&merge_args(std::slice::from_ref(&part)), Stdio::null());
        fails_in_one_line(
            &out,
            2,
            &[&format!(
                "cannot merge the partial results: cannot read {part}: it is {kind}, not a file"
            )],
        );
    }
}

/// `sh -c SCRIPT`, whose output is to be a run's standard input; it is
/// killed when the run has ended.
fn endless(script: &str) -> std::process::Child {
    Command::new("sh")
        .args(["-c", script])
        .stdout(Stdio::piped())
        .spawn()
        .expect("sh runs")
}

fn merge_stdin_of(script: &str) -> (Output, i64) {
    let mut source = endless(script);
    let stdin = Stdio::from(source.stdout.take().expect("a pipe"));
    let measured = run_measured(&merge_args(&strings(&["-"])), stdin);
    let _ = source.kill();
    let _ = source.wait();
    measured
}

#[test]
fn a_part_on_stdin_that_is_no_partial_result_is_refused_at_its_first_byte() {
    let zero = std::fs::File::open("/dev/zero").expect("/dev/zero");
    let (out, peak) = run_measured(&merge_args(&strings(&["-"])), Stdio::from(zero));
    fails_in_one_line(
        &out,
        2,
        &["cannot merge the partial results: cannot read -: line 1 does not start with `{`"],
    );
    eprintln!("merge - < /dev/zero: peak {peak} KiB");
}

#[test]
fn a_line_that_never_ends_stops_at_the_header_cap_then_at_the_plans_page_cap() {
    let (out, peak) = merge_stdin_of("printf '{'; cat /dev/zero");
    fails_in_one_line(
        &out,
        2,
        &[
            "cannot merge the partial results: cannot read -: line 1 is longer than 62393984 \
             bytes, the longest such a line can be",
        ],
    );
    eprintln!("merge - < {{ and zeros: peak {peak} KiB");
    // After a header whose pages are read up to 3 MiB: 32 times that, and
    // both sides' keyword uses.
    let dir = temp_dir("merge-page-cap");
    let mut lines = partial_lines(&one_page_corpus(&dir));
    lines[0]["header"]["plan"]["max_bytes"] = (3 * 1024 * 1024).into();
    let part = dir.join("header.partial");
    write_lines(&part, &lines[..1]);
    let script = format!("cat '{}'; printf '{{'; cat /dev/zero", part.display());
    let (out, peak) = merge_stdin_of(&script);
    fails_in_one_line(
        &out,
        2,
        &["cannot read -: line 2 is longer than 104271488 bytes"],
    );
    eprintln!("merge - < a header, {{ and zeros: peak {peak} KiB");
}

#[test]
fn a_unit_list_that_never_ends_a_line_stops_at_the_unit_line_cap() {
    let dir = temp_dir("shard-zero");
    let manifest = one_page_corpus(&dir);
    let zero = std::fs::File::open("/dev/zero").expect("/dev/zero");
    let args = strings(&[
        "corpus",
        &path_arg(&manifest),
        "--format",
        "partial",
        "--shard",
        "-",
    ]);
    let (out, peak) = run_measured(&args, Stdio::from(zero));
    fails_in_one_line(
        &out,
        2,
        &["cannot read the list of units on standard input: line 1 is longer than 4194368 bytes"],
    );
    assert!(out.stdout.is_empty(), "no partial result is written");
    eprintln!("--shard - < /dev/zero: peak {peak} KiB");
}

#[test]
fn a_unit_list_longer_than_the_corpus_is_read_no_further() {
    let dir = temp_dir("shard-long-list");
    let manifest = one_page_corpus(&dir);
    // Four million lines: reading them all would keep 64 MB of units.
    let list = dir.join("units.txt");
    std::fs::write(&list, "0\n".repeat(4_000_000)).expect("a unit list");
    let args = strings(&[
        "corpus",
        &path_arg(&manifest),
        "--format",
        "partial",
        "--shard",
        "-",
    ]);
    let stdin = std::fs::File::open(&list).expect("the list");
    let (out, _) = run_measured(&args, Stdio::from(stdin));
    fails_in_one_line(&out, 2, &["unit 0 is listed twice"]);
}

#[test]
fn a_named_pipe_as_a_part_is_read_once_written_and_says_it_waits() {
    let dir = temp_dir("merge-fifo");
    let lines = partial_lines(&one_page_corpus(&dir));
    let file = dir.join("whole.partial");
    write_lines(&file, &lines);
    let direct = Command::new(binary())
        .args(merge_args(&[path_arg(&file)]))
        .output()
        .expect("the binary runs");
    let fifo = dir.join("part.fifo");
    mkfifo(&fifo);
    let child = Command::new(binary())
        .args(merge_args(&[path_arg(&fifo)]))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    // Opening the pipe to write waits for the merge to open it to read.
    let mut writer = std::fs::OpenOptions::new()
        .write(true)
        .open(&fifo)
        .expect("the pipe opens");
    writer
        .write_all(&std::fs::read(&file).expect("the lines"))
        .expect("the merge reads them");
    drop(writer);
    let out = child.wait_with_output().expect("the merge ends");
    assert_eq!(out.stdout, ok_stdout(&direct).into_bytes());
    assert_eq!(
        stderr(&out),
        format!(
            "waiting for {} (a named pipe) to be written …\n",
            fifo.display()
        )
    );
}

#[test]
fn settings_of_a_plan_over_the_limits_are_refused_as_the_command_line_refuses_them() {
    let dir = temp_dir("merge-over-limits");
    let lines = partial_lines(&one_page_corpus(&dir));
    // A million keywords: the merge once built them for minutes.
    for (side, count) in [("a", 80_000), ("b", 1_000_000)] {
        let mut lines = lines.clone();
        let keywords = vec!["k"; count].join(",");
        let plan = &mut lines[0]["header"]["plan"];
        if side == "b" {
            let a = plan["a"].clone();
            plan["b"] = a;
        }
        plan[side]["followKeywordsWhite"] = keywords.into();
        let part = dir.join(format!("over-{side}.partial"));
        write_lines(&part, &lines);
        let (out, _) = run_measured(&merge_args(&[path_arg(&part)]), Stdio::null());
        fails_in_one_line(
            &out,
            2,
            &[&format!(
                "error: cannot merge the partial results: {} line 1: settings {}: \
                 `followKeywordsWhite` has {count} items; at most 10000 are supported",
                part.display(),
                side.to_uppercase()
            )],
        );
    }
}

#[test]
fn targets_of_a_plan_over_the_cap_of_a_targets_file_are_refused() {
    let dir = temp_dir("merge-targets-cap");
    let lines = partial_lines(&one_page_corpus(&dir));
    let mut lines = lines.clone();
    let text = format!(
        "id\turl\tkind\n{}",
        "p\thttps://acme.test/contact\tcontact\n".repeat(4 * 1024 * 1024 / 36 + 1)
    );
    lines[0]["header"]["plan"]["targets"] = serde_json::json!({"path": "t.tsv", "bytes": text});
    let part = dir.join("big-targets.partial");
    write_lines(&part, &lines);
    let (out, _) = run_measured(&merge_args(&[path_arg(&part)]), Stdio::null());
    fails_in_one_line(
        &out,
        2,
        &[&format!(
            "error: cannot merge the partial results: {} line 1: t.tsv is larger than 4194304 \
             bytes, the most read from such a file",
            part.display()
        )],
    );
}

#[test]
fn thirty_thousand_parts_are_checked_for_a_doubled_one_at_once() {
    // Each part name was compared with every other: 30,000 took 37 s.
    let mut parts: Vec<String> = (0..30_000).map(|i| format!("/nonexistent/p{i}")).collect();
    parts.push("/nonexistent/p0".to_owned());
    let (out, _) = run_measured(&merge_args(&parts), Stdio::null());
    fails_in_one_line(
        &out,
        2,
        &["cannot merge the partial results: /nonexistent/p0 is given twice"],
    );
}

#[test]
fn a_page_with_85000_targets_is_measured_in_seconds() {
    let dir = temp_dir("targets-many");
    let manifest = one_page_corpus(&dir);
    let mut text = String::from("id\turl\tkind\n");
    for i in 0..85_000 {
        text.push_str(&format!("p\thttps://acme.test/{i}\tcontact\n"));
    }
    let targets = dir.join("targets.tsv");
    std::fs::write(&targets, text).expect("a targets file");
    let args = strings(&[
        "corpus",
        &path_arg(&manifest),
        "--targets",
        &path_arg(&targets),
        "--suggest",
        "0",
        "--format",
        "json",
    ]);
    let (out, _) = run_measured(&args, Stdio::null());
    let report = crate::parse_json(&ok_stdout(&out));
    assert_eq!(report["evaluation"]["problems"], serde_json::json!([]));
}

#[test]
fn a_million_bad_targets_rows_give_a_thousand_warnings_and_a_count() {
    let dir = temp_dir("targets-bad");
    let manifest = one_page_corpus(&dir);
    let targets = dir.join("targets.tsv");
    std::fs::write(
        &targets,
        format!("id\turl\tkind\n{}", "p\n".repeat(1_000_000)),
    )
    .expect("a targets file");
    let args = strings(&[
        "corpus",
        &path_arg(&manifest),
        "--targets",
        &path_arg(&targets),
    ]);
    let (out, _) = run_measured(&args, Stdio::null());
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let err = stderr(&out);
    let warnings: Vec<&str> = err.lines().collect();
    let skipped = warnings
        .iter()
        .filter(|l| l.starts_with("warning: targets line "))
        .count();
    assert_eq!(skipped, 1_000, "{}", &err[..err.len().min(2000)]);
    assert_eq!(warnings[0], "warning: targets line 2: no `url`");
    assert_eq!(
        warnings[1_000],
        "warning: … and 999000 more rows of the targets file not listed (only the first 1,000 \
         are)"
    );
    let table = ok_stdout(&out);
    assert!(
        table.contains("  … and 999000 more rows of the targets file not listed"),
        "the table says so too"
    );
}
