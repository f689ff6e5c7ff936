//! Files the tool writes, where a customer or another user may have put
//! something first (issue 28): `--save-warc` and the profiles file write a new
//! file beside the name, created exclusively under a short random name, and
//! rename it over the name; a planted `NAME.partial` link is never followed,
//! a link, folder or device at the name is never replaced, a named pipe or a
//! character device is written into, and nothing is left behind on failure.
//! Each run ends within its watchdog, in well under 20 s.

use std::fs::OpenOptions;
use std::io::Read as _;
use std::os::unix::fs::{FileTypeExt as _, OpenOptionsExt as _, PermissionsExt as _};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use crate::hostile::{PEAK_LIMIT_KIB, run_measured};
use crate::hostile_files::{mkfifo, run_bounded};
use crate::temp_dir;
use crate::warc_files::{captured_page, warcinfo, write};

const BINARY: &str = env!("CARGO_BIN_EXE_follow-inspector");
/// A save of one page takes well under a second; a debug build on a busy
/// machine gets twenty.
const QUICK: Duration = Duration::from_secs(20);

/// A folder with a one-page archive to save again; its other names are the
/// test's own.
fn folder_with_archive(name: &str) -> (PathBuf, PathBuf) {
    let dir = temp_dir(&format!("writes-{name}"));
    let mut records = vec![warcinfo()];
    records.extend(captured_page(
        "https://www.acme.test/",
        "<a href=/about>About</a>",
    ));
    let archive = write(&dir, "ticket.warc", &records.concat());
    (dir, archive)
}

/// `inspect ARCHIVE --save-warc DEST`, bounded.
fn save(archive: &Path, dest: &Path) -> Output {
    let started = Instant::now();
    let out = run_bounded(&[
        "inspect",
        archive.to_str().unwrap(),
        "--save-warc",
        dest.to_str().unwrap(),
    ]);
    assert!(started.elapsed() < QUICK, "took {:?}", started.elapsed());
    out
}

/// The names in `dir`, hidden ones too, sorted: nothing left behind but
/// what is listed.
pub fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// Exit 2 and one `error:` line, the last, with `words` (the line before it
/// says which archive is read).
fn refused(out: &Output, words: &[&str]) {
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    let errors: Vec<&str> = err.lines().filter(|l| l.starts_with("error: ")).collect();
    assert_eq!(errors.len(), 1, "{err}");
    assert_eq!(err.lines().last(), Some(errors[0]), "{err}");
    for w in words {
        assert!(errors[0].contains(w), "{w:?} not in {err}");
    }
}

fn is_warc(path: &Path) -> bool {
    std::fs::read(path).is_ok_and(|bytes| bytes.starts_with(b"WARC/1.1\r\n"))
}

fn saved_line(out: &Output, dest: &Path) {
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(
        err.contains(&format!("to {}", dest.display())),
        "no saved line for {}: {err}",
        dest.display()
    );
}

#[test]
fn a_planted_partial_link_is_not_followed_and_the_save_lands_at_its_name() {
    let (dir, archive) = folder_with_archive("planted-partial");
    let outside = temp_dir("writes-outside");
    let victim = write(&outside, "victim.txt", b"precious");
    let dest = dir.join("out.warc");
    // What the old `File::create(NAME.partial)` opened and overwrote.
    std::os::unix::fs::symlink(&victim, dir.join("out.warc.partial")).unwrap();
    let measured = run_measured(&[
        "inspect".into(),
        archive.display().to_string(),
        "--save-warc".into(),
        dest.display().to_string(),
    ]);
    assert_eq!(measured.status.code(), Some(0), "{}", measured.stderr);
    assert!(
        measured.peak_kib < PEAK_LIMIT_KIB,
        "{} KiB",
        measured.peak_kib
    );
    assert!(
        measured.stderr.contains(&format!("to {}", dest.display())),
        "{}",
        measured.stderr
    );
    assert_eq!(std::fs::read(&victim).unwrap(), b"precious");
    assert!(is_warc(&dest));
    assert!(dest.symlink_metadata().unwrap().file_type().is_file());
    assert!(
        dir.join("out.warc.partial")
            .symlink_metadata()
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(names(&dir), ["out.warc", "out.warc.partial", "ticket.warc"]);
    assert_eq!(names(&outside), ["victim.txt"]);
}

#[test]
fn a_link_or_a_folder_at_the_name_is_refused_in_one_line_and_left_as_it_was() {
    let (dir, archive) = folder_with_archive("link-at-name");
    let outside = temp_dir("writes-link-target");
    let victim = write(&outside, "victim.warc", b"precious");
    let link = dir.join("out.warc");
    std::os::unix::fs::symlink(&victim, &link).unwrap();
    let out = save(&archive, &link);
    refused(
        &out,
        &[
            &format!(
                "cannot write {}: it is a symbolic link (to {}), which is not followed",
                link.display(),
                victim.display()
            ),
            "a link is not followed",
        ],
    );
    assert_eq!(std::fs::read(&victim).unwrap(), b"precious");
    assert_eq!(std::fs::read_link(&link).unwrap(), victim);
    assert_eq!(names(&dir), ["out.warc", "ticket.warc"]);

    let folder = dir.join("a-folder");
    std::fs::create_dir(&folder).unwrap();
    let out = save(&archive, &folder);
    refused(
        &out,
        &[&format!(
            "cannot write {}: it is a folder, not a file",
            folder.display()
        )],
    );
    assert!(names(&folder).is_empty());
    assert_eq!(names(&dir), ["a-folder", "out.warc", "ticket.warc"]);
}

/// A character device in `dir` (`/dev/null`'s numbers) when this user may
/// make one (root), and a link to `/dev/null` as `/dev/stdout` is one: never
/// the system's own node, which a regression would replace.
fn devices(dir: &Path) -> Vec<PathBuf> {
    let node = dir.join("null");
    let made = Command::new("mknod")
        .args(["-m", "666"])
        .arg(&node)
        .args(["c", "1", "3"])
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    let link = dir.join("stdout-like");
    std::os::unix::fs::symlink("/dev/null", &link).unwrap();
    if made { vec![node, link] } else { vec![link] }
}

#[test]
fn a_character_device_is_written_into_and_stays_the_device() {
    let (dir, archive) = folder_with_archive("devices");
    let devices = devices(&dir);
    for device in &devices {
        let before = device.symlink_metadata().unwrap().file_type();
        let out = save(&archive, device);
        saved_line(&out, device);
        let after = device.symlink_metadata().unwrap().file_type();
        assert_eq!(after, before, "{}", device.display());
        assert!(device.metadata().unwrap().file_type().is_char_device());
    }
    let mut expected: Vec<String> = devices
        .iter()
        .map(|d| d.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    expected.push("ticket.warc".into());
    expected.sort();
    assert_eq!(names(&dir), expected);
}

#[test]
fn a_named_pipe_is_streamed_into_when_read_and_refused_when_nobody_reads() {
    let (dir, archive) = folder_with_archive("fifo");
    let fifo = dir.join("out.warc");
    mkfifo(&fifo);

    let out = save(&archive, &fifo);
    refused(
        &out,
        &[
            &format!(
                "cannot write {}: it is a named pipe (FIFO) that no program is reading",
                fifo.display()
            ),
            "Start the program that reads the pipe first",
        ],
    );

    // A reader, opened without waiting for the writer: `>(gzip > x)`.
    let mut reader = OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(&fifo)
        .unwrap();
    let started = Instant::now();
    let mut child = Command::new(BINARY)
        .args(["inspect", archive.to_str().unwrap(), "--save-warc"])
        .arg(&fifo)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut streamed = Vec::new();
    let mut buf = [0u8; 65536];
    loop {
        let exited = child.try_wait().unwrap().is_some();
        match reader.read(&mut buf) {
            Ok(0) if exited => break,
            Ok(n) if n > 0 => streamed.extend_from_slice(&buf[..n]),
            Ok(_) => std::thread::sleep(Duration::from_millis(5)),
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                std::thread::sleep(Duration::from_millis(5));
            }
            Err(e) => panic!("{e}"),
        }
        assert!(started.elapsed() < QUICK, "took {:?}", started.elapsed());
    }
    let out = child.wait_with_output().unwrap();
    saved_line(&out, &fifo);
    assert!(
        streamed.starts_with(b"WARC/1.1\r\n"),
        "{} bytes",
        streamed.len()
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains(&format!("{} bytes", streamed.len())), "{err}");
    assert!(fifo.symlink_metadata().unwrap().file_type().is_fifo());
    assert_eq!(names(&dir), ["out.warc", "ticket.warc"]);
}

#[test]
fn a_name_of_250_characters_is_saved_under_that_name() {
    let (dir, archive) = folder_with_archive("long-name");
    let name = format!("{}.warc.gz", "ticket-4411-".repeat(21).get(..242).unwrap());
    assert_eq!(name.len(), 250);
    let dest = dir.join(&name);
    let out = save(&archive, &dest);
    saved_line(&out, &dest);
    assert!(std::fs::read(&dest).unwrap().starts_with(&[0x1f, 0x8b]));
    assert_eq!(names(&dir), [name.as_str(), "ticket.warc"]);
}

#[test]
fn a_saved_archive_has_the_mode_the_umask_gives() {
    let (dir, archive) = folder_with_archive("umask");
    let dest = dir.join("out.warc");
    let started = Instant::now();
    let out = Command::new("sh")
        .args(["-c", "umask 027 && exec \"$0\" \"$@\""])
        .arg(BINARY)
        .args(["inspect", archive.to_str().unwrap(), "--save-warc"])
        .arg(&dest)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(started.elapsed() < QUICK, "took {:?}", started.elapsed());
    saved_line(&out, &dest);
    let mode = dest.metadata().unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o640, "{mode:o}");
    // Saved again over it: the file keeps the bits it has.
    std::fs::set_permissions(&dest, std::fs::Permissions::from_mode(0o604)).unwrap();
    saved_line(&save(&archive, &dest), &dest);
    let mode = dest.metadata().unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o604, "{mode:o}");
    assert_eq!(names(&dir), ["out.warc", "ticket.warc"]);
}

#[test]
fn a_profiles_file_that_is_a_link_is_not_written_through_or_replaced() {
    let dir = temp_dir("writes-profiles");
    let outside = temp_dir("writes-profiles-target");
    let victim = write(&outside, "profiles.toml", b"");
    let link = dir.join("profiles.toml");
    std::os::unix::fs::symlink(&victim, &link).unwrap();
    let export = crate::repo_path("tests/fixtures/settings-export.json");
    let started = Instant::now();
    let out = run_bounded(&[
        "--config-dir",
        dir.to_str().unwrap(),
        "profiles",
        "import",
        export.to_str().unwrap(),
        "--name",
        "ACME",
    ]);
    assert!(started.elapsed() < QUICK, "took {:?}", started.elapsed());
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains(&format!(
            "cannot write {}: it is a symbolic link (to {}), which is not followed",
            link.display(),
            victim.display()
        )),
        "{err}"
    );
    assert_eq!(std::fs::read(&victim).unwrap(), b"");
    assert_eq!(std::fs::read_link(&link).unwrap(), victim);
    // The lock file is the store's own; no temporary file stays.
    assert_eq!(names(&dir), [".profiles.lock", "profiles.toml"]);
}
