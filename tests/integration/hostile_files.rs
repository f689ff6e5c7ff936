//! Hostile local files: a page, settings file, profile import or manifest
//! that never ends (a FIFO, /dev/zero, a 2 GiB sparse file), a folder or a
//! symlink loop. Each run ends (a watchdog kills it after a generous minute)
//! with a one-line message or a page cut at the cap and marked so.

use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::hostile::{PEAK_LIMIT_KIB, run_measured};
use crate::temp_dir;

/// A run that must end: killed and failed after `WATCHDOG` (a FIFO hangs).
const WATCHDOG: Duration = Duration::from_secs(60);

pub(crate) fn run_bounded(args: &[&str]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_follow-inspector"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let started = Instant::now();
    loop {
        if child.try_wait().expect("waits").is_some() {
            return child.wait_with_output().expect("its output");
        }
        if started.elapsed() > WATCHDOG {
            let _ = child.kill();
            panic!("{args:?} did not end within {WATCHDOG:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

pub(crate) fn mkfifo(path: &Path) {
    let made = Command::new("mkfifo")
        .arg(path)
        .status()
        .expect("mkfifo runs");
    assert!(made.success());
}

/// A file of `len` bytes that takes no disk: all hole.
pub(crate) fn sparse(path: &Path, len: u64) {
    std::fs::File::create(path)
        .and_then(|f| f.set_len(len))
        .expect("a sparse file");
}

/// One `error:` line with `words`, and the exit code.
pub(crate) fn fails_in_one_line(out: &Output, code: i32, words: &[&str]) {
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(code), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(err.starts_with("error: "), "{err}");
    for w in words {
        assert!(err.contains(w), "{w:?} not in {err}");
    }
}

const REFUSED: &str = "a folder, a pipe or a device cannot be read";

#[test]
fn a_fifo_device_or_folder_as_the_page_is_refused_by_its_type() {
    let dir = temp_dir("page-types");
    let fifo = dir.join("pipe.html");
    mkfifo(&fifo);
    let fifo = fifo.to_string_lossy();
    let folder = dir.to_string_lossy();
    for (target, kind, advice) in [
        (&*fifo, "is a named pipe (FIFO), not a file", REFUSED),
        ("/dev/zero", "is a character device, not a file", REFUSED),
        (&*folder, "is a folder, not a file", "Check the path"),
    ] {
        let out = run_bounded(&["inspect", target, "--base-url", "https://acme.test/"]);
        fails_in_one_line(&out, 2, &["cannot read", kind, advice]);
    }
}

#[test]
fn a_symlink_loop_says_it_is_one() {
    let dir = temp_dir("loop");
    let link = dir.join("page.html");
    std::os::unix::fs::symlink(&link, &link).expect("a symlink");
    let out = run_bounded(&["inspect", &link.to_string_lossy()]);
    fails_in_one_line(&out, 2, &["is a symlink loop", "Fix or remove the link"]);
}

#[test]
fn a_2_gib_sparse_page_is_read_to_the_cap_marked_and_warned_about() {
    let dir = temp_dir("sparse-page");
    let page = dir.join("huge.html");
    sparse(&page, 2 << 30);
    let args: Vec<String> = [
        "inspect",
        &page.to_string_lossy(),
        "--base-url",
        "https://acme.test/",
        "--max-bytes",
        "1000000",
        "--format",
        "json",
    ]
    .map(str::to_owned)
    .to_vec();
    let m = run_measured(&args);
    assert!(m.status.success(), "{}", m.stderr);
    assert!(m.peak_kib < PEAK_LIMIT_KIB, "peak {} KiB", m.peak_kib);
    assert!(
        m.stderr.contains("was cut at 1000000 bytes (--max-bytes)"),
        "{}",
        m.stderr
    );
    let report: Value = serde_json::from_str(&m.stdout).expect("JSON");
    assert_eq!(report["pages"][0]["truncated"], true);
}

#[test]
fn a_settings_file_that_never_ends_is_refused() {
    let dir = temp_dir("settings");
    let page = crate::repo_path("tests/fixtures/no-canonical.html");
    let page = page.to_string_lossy();
    let fifo = dir.join("settings.json");
    mkfifo(&fifo);
    let big = dir.join("big.json");
    sparse(&big, 64 << 20);
    for (settings, words) in [
        (fifo.to_string_lossy(), &["named pipe", REFUSED][..]),
        ("/dev/zero".into(), &["character device", REFUSED][..]),
        (
            big.to_string_lossy(),
            &["is larger than 4194304 bytes", "a few KB"][..],
        ),
    ] {
        let out = run_bounded(&[
            "inspect",
            &page,
            "--base-url",
            "https://acme.test/",
            "--settings",
            &settings,
        ]);
        fails_in_one_line(&out, 2, words);
        assert!(out.stdout.is_empty());
    }
}

#[test]
fn a_profile_import_that_never_ends_is_refused() {
    let dir = temp_dir("import");
    let config = dir.join("config");
    let fifo = dir.join("export.json");
    mkfifo(&fifo);
    let big = dir.join("big.json");
    sparse(&big, 64 << 20);
    for (file, words) in [
        (fifo.to_string_lossy(), &["cannot import", "named pipe"][..]),
        (
            "/dev/zero".into(),
            &["cannot import", "character device"][..],
        ),
        (
            big.to_string_lossy(),
            &["cannot import", "is larger than"][..],
        ),
    ] {
        let out = run_bounded(&[
            "--config-dir",
            &config.to_string_lossy(),
            "profiles",
            "import",
            &file,
            "--name",
            "x",
        ]);
        fails_in_one_line(&out, 2, words);
    }
}

#[test]
fn settings_and_imports_with_a_byte_order_mark_are_read() {
    let dir = temp_dir("bom");
    let settings = dir.join("settings.json");
    std::fs::write(&settings, "\u{feff}{\"followSubdomain\": true}").expect("written");
    let page = crate::repo_path("tests/fixtures/no-canonical.html");
    let out = run_bounded(&[
        "inspect",
        &page.to_string_lossy(),
        "--base-url",
        "https://acme.test/",
        "--settings",
        &settings.to_string_lossy(),
        "--format",
        "json",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(report["settings"]["followSubdomain"], true);
    let out = run_bounded(&[
        "--config-dir",
        &dir.join("config").to_string_lossy(),
        "profiles",
        "import",
        &settings.to_string_lossy(),
        "--name",
        "bom",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn an_invalid_import_says_its_reason_once() {
    let dir = temp_dir("nested");
    let file = dir.join("nested.json");
    std::fs::write(&file, "{\"followSubdomain\": {\"deep\": [1]}}").expect("written");
    let out = run_bounded(&[
        "--config-dir",
        &dir.join("config").to_string_lossy(),
        "profiles",
        "import",
        &file.to_string_lossy(),
        "--name",
        "n",
    ]);
    fails_in_one_line(&out, 2, &["`followSubdomain` must be true or false"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.matches("must be true or false").count(), 1, "{err}");
}
