//! Writing local files without trusting what is at the path: every file the
//! tool writes (a saved archive, the targets file, the profiles file) is
//! written whole to a new file beside it, created exclusively under a short
//! random name (`O_CREAT|O_EXCL`, so a planted name or symlink is never
//! opened), and renamed over the path only when complete. What is at the path
//! decides:
//! - nothing, or a regular file: replaced by the rename (a regular file keeps
//!   its permission bits; a new one gets `0666` less the umask, as
//!   `File::create` gives);
//! - a named pipe or a character device (`>(gzip …)`, `/dev/null`,
//!   `/dev/stdout` on a terminal or a pipe), when the caller allows streams:
//!   written into, never replaced; a pipe nobody reads is refused, not waited
//!   on;
//! - a symbolic link to anything else: refused, not followed. Following it by
//!   resolving it here would bypass the kernel's `protected_symlinks` check
//!   (a link planted in `/tmp` would send root's save over any file), and
//!   renaming over it would replace the user's link with a file;
//! - a folder, a block device, a socket: refused.

use std::fs::{File, OpenOptions, Permissions};
use std::io::{self, BufWriter, Write};
use std::os::unix::fs::{FileTypeExt as _, OpenOptionsExt as _, PermissionsExt as _};
use std::path::{Path, PathBuf};

use super::local::FileKind;

/// Whether a named pipe or a character device at the path is written into
/// (an archive saved into `>(gzip)` or `/dev/null`) or refused (a file that
/// is read back, such as the targets file).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Streams {
    WriteInto,
    Refuse,
}

/// Why nothing, or not all, was written. Each says the reason after the path
/// the caller names ("cannot write PATH: …"); an I/O error's text is part of
/// the message, not a source, so `{:#}` does not print it twice.
#[derive(Debug, thiserror::Error)]
pub enum WriteError {
    #[error("it is {kind}, not a file")]
    NotAFile { kind: FileKind },
    #[error("it is a symbolic link (to {}), which is not followed", to.display())]
    Symlink { to: PathBuf },
    #[error("it is a named pipe (FIFO) that no program is reading")]
    NoReader,
    #[error("creating a temporary file in {}: {source}", folder.display())]
    CreateTemp { folder: PathBuf, source: io::Error },
    #[error("writing {}: {source}", temp.display())]
    Temp { temp: PathBuf, source: io::Error },
    #[error("renaming {} over it: {source}", temp.display())]
    Rename { temp: PathBuf, source: io::Error },
    #[error("{0}")]
    Stream(io::Error),
}

/// What was written: the writer's own result and the bytes.
#[derive(Debug)]
pub struct Written<T> {
    pub value: T,
    pub bytes: u64,
}

/// The temporary file's name: short, so that it fits beside a name of 250
/// bytes (a `NAME.partial` did not: 255 is the most a name may have).
const TEMP_PREFIX: &str = ".follow-inspector-";
const TEMP_SUFFIX: &str = ".partial";

/// What is at the path, and so how it is written.
enum Destination {
    /// Nothing, or a regular file with these permission bits.
    Replace(Option<u32>),
    Stream,
}

fn is_stream(file_type: std::fs::FileType) -> bool {
    file_type.is_fifo() || file_type.is_char_device()
}

/// Whether [`write_file`] could write at `path` as things are now: checked
/// before long work whose result goes there.
pub fn check_destination(path: &Path, streams: Streams) -> Result<(), WriteError> {
    destination(path, streams).map(|_| ())
}

/// Reads what is at `path` (not following a link at its last part).
fn destination(path: &Path, streams: Streams) -> Result<Destination, WriteError> {
    // Nothing there, or not readable (no such folder, no permission):
    // creating the temporary file says why, if it cannot be made.
    let Ok(meta) = path.symlink_metadata() else {
        return Ok(Destination::Replace(None));
    };
    let file_type = meta.file_type();
    if file_type.is_file() {
        return Ok(Destination::Replace(Some(
            meta.permissions().mode() & 0o777,
        )));
    }
    let wanted = streams == Streams::WriteInto;
    if file_type.is_symlink() {
        let leads_to_stream = std::fs::metadata(path).is_ok_and(|m| is_stream(m.file_type()));
        if wanted && leads_to_stream {
            return Ok(Destination::Stream);
        }
        let to = std::fs::read_link(path).unwrap_or_default();
        return Err(WriteError::Symlink { to });
    }
    if wanted && is_stream(file_type) {
        return Ok(Destination::Stream);
    }
    Err(WriteError::NotAFile {
        kind: FileKind::of(file_type),
    })
}

/// Counts the bytes that pass.
struct Counting<W> {
    inner: W,
    bytes: u64,
}

impl<W: Write> Write for Counting<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.bytes += n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

/// Runs `write` on a buffered writer and flushes it; the bytes written.
fn write_through<T>(
    file: &mut File,
    write: impl FnOnce(&mut dyn Write) -> io::Result<T>,
) -> io::Result<(T, u64)> {
    let mut out = Counting {
        inner: BufWriter::with_capacity(64 * 1024, file),
        bytes: 0,
    };
    let value = write(&mut out)?;
    out.flush()?;
    Ok((value, out.bytes))
}

/// Writes a file at `path` with `write` (buffered), as the module says: a
/// failure leaves the path as it was and no temporary file behind.
pub fn write_file<T>(
    path: &Path,
    streams: Streams,
    write: impl FnOnce(&mut dyn Write) -> io::Result<T>,
) -> Result<Written<T>, WriteError> {
    match destination(path, streams)? {
        Destination::Stream => write_stream(path, write),
        Destination::Replace(mode) => replace(path, mode, streams, write),
    }
}

fn replace<T>(
    path: &Path,
    mode: Option<u32>,
    streams: Streams,
    write: impl FnOnce(&mut dyn Write) -> io::Result<T>,
) -> Result<Written<T>, WriteError> {
    let folder = match path.parent() {
        Some(folder) if !folder.as_os_str().is_empty() => folder,
        _ => Path::new("."),
    };
    // Asked for with the mode, the kernel takes the umask off, as for
    // `File::create` (the crate's own default is 0600).
    let mut temp = tempfile::Builder::new()
        .prefix(TEMP_PREFIX)
        .suffix(TEMP_SUFFIX)
        .permissions(Permissions::from_mode(mode.unwrap_or(0o666)))
        .tempfile_in(folder)
        .map_err(|source| WriteError::CreateTemp {
            folder: folder.to_owned(),
            source,
        })?;
    let temp_error = |temp: &Path| {
        let temp = temp.to_owned();
        move |source| WriteError::Temp { temp, source }
    };
    let temp_path = temp.path().to_owned();
    if let Some(mode) = mode {
        // A file replaced keeps its bits exactly, whatever the umask.
        temp.as_file()
            .set_permissions(Permissions::from_mode(mode))
            .map_err(temp_error(&temp_path))?;
    }
    let (value, bytes) =
        write_through(temp.as_file_mut(), write).map_err(temp_error(&temp_path))?;
    temp.as_file().sync_all().map_err(temp_error(&temp_path))?;
    // What is at the path may have changed while the file was written.
    if let Destination::Stream = destination(path, streams)? {
        return Err(WriteError::NotAFile {
            kind: path
                .metadata()
                .map_or(FileKind::Other, |m| FileKind::of(m.file_type())),
        });
    }
    // On failure the temporary file is dropped, and so removed.
    temp.persist(path).map_err(|e| WriteError::Rename {
        temp: temp_path,
        source: e.error,
    })?;
    Ok(Written { value, bytes })
}

/// Writes into a named pipe or a character device. Opened without waiting:
/// a pipe that no program reads fails at once (`ENXIO`) instead of hanging.
fn write_stream<T>(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> io::Result<T>,
) -> Result<Written<T>, WriteError> {
    let mut file = OpenOptions::new()
        .write(true)
        .custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY)
        .open(path)
        .map_err(|e| match e.raw_os_error() {
            Some(libc::ENXIO) => WriteError::NoReader,
            _ => WriteError::Stream(e),
        })?;
    // Swapped for a file or a folder after it was looked at: not written in place.
    let file_type = file.metadata().map_err(WriteError::Stream)?.file_type();
    if !is_stream(file_type) {
        return Err(WriteError::NotAFile {
            kind: FileKind::of(file_type),
        });
    }
    blocking(&file).map_err(WriteError::Stream)?;
    let (value, bytes) = write_through(&mut file, write).map_err(WriteError::Stream)?;
    Ok(Written { value, bytes })
}

/// Clears `O_NONBLOCK`, so writes wait for a slow reader as usual.
fn blocking(file: &File) -> io::Result<()> {
    use std::os::fd::AsRawFd as _;
    let fd = file.as_raw_fd();
    // SAFETY: `fd` is open for as long as `file` is borrowed; F_GETFL and
    // F_SETFL only read and set the descriptor's status flags.
    let flags = unsafe { libc::fcntl(fd, libc::F_GETFL) };
    if flags < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: as above.
    if unsafe { libc::fcntl(fd, libc::F_SETFL, flags & !libc::O_NONBLOCK) } < 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("fi-write-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn names(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    fn text(bytes: &'static [u8]) -> impl FnOnce(&mut dyn Write) -> io::Result<()> {
        move |out| out.write_all(bytes)
    }

    fn umask() -> u32 {
        let out = std::process::Command::new("sh")
            .args(["-c", "umask"])
            .output()
            .unwrap();
        u32::from_str_radix(String::from_utf8_lossy(&out.stdout).trim(), 8).unwrap()
    }

    #[test]
    fn a_new_file_has_the_umasks_mode_and_a_replaced_one_keeps_its_own() {
        let dir = temp("modes");
        let new = dir.join("new.warc");
        let written = write_file(&new, Streams::Refuse, text(b"hello")).unwrap();
        assert_eq!(written.bytes, 5);
        assert_eq!(std::fs::read(&new).unwrap(), b"hello");
        let mode = new.metadata().unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o666 & !umask());

        let kept = dir.join("kept.tsv");
        std::fs::write(&kept, "old").unwrap();
        std::fs::set_permissions(&kept, Permissions::from_mode(0o640)).unwrap();
        write_file(&kept, Streams::Refuse, text(b"new")).unwrap();
        assert_eq!(std::fs::read(&kept).unwrap(), b"new");
        assert_eq!(kept.metadata().unwrap().permissions().mode() & 0o777, 0o640);
        assert_eq!(names(&dir), ["kept.tsv", "new.warc"]);
    }

    #[test]
    fn a_planted_symlink_is_neither_followed_nor_replaced() {
        let dir = temp("symlink");
        let elsewhere = dir.join("elsewhere");
        std::fs::write(&elsewhere, "precious").unwrap();
        let link = dir.join("out.warc");
        std::os::unix::fs::symlink(&elsewhere, &link).unwrap();
        let err = write_file(&link, Streams::WriteInto, text(b"x")).unwrap_err();
        assert!(matches!(err, WriteError::Symlink { .. }), "{err}");
        assert_eq!(
            err.to_string(),
            format!(
                "it is a symbolic link (to {}), which is not followed",
                elsewhere.display()
            )
        );
        assert_eq!(std::fs::read(&elsewhere).unwrap(), b"precious");
        assert!(link.symlink_metadata().unwrap().file_type().is_symlink());
        assert_eq!(names(&dir), ["elsewhere", "out.warc"]);
    }

    #[test]
    fn a_failed_write_leaves_the_file_as_it_was_and_no_temporary_file() {
        let dir = temp("failed");
        let path = dir.join("profiles.toml");
        std::fs::write(&path, "before").unwrap();
        let err = write_file(&path, Streams::Refuse, |out| {
            out.write_all(b"half")?;
            Err::<(), _>(io::Error::other("the disk went away"))
        })
        .unwrap_err();
        let WriteError::Temp { temp, .. } = &err else {
            panic!("{err}");
        };
        let name = temp.file_name().unwrap().to_string_lossy();
        assert!(name.starts_with(TEMP_PREFIX) && name.ends_with(TEMP_SUFFIX));
        assert!(err.to_string().ends_with(": the disk went away"), "{err}");
        assert_eq!(std::fs::read(&path).unwrap(), b"before");
        assert_eq!(names(&dir), ["profiles.toml"]);
    }

    #[test]
    fn a_folder_a_pipe_when_refused_and_a_pipe_nobody_reads_are_not_written() {
        let dir = temp("kinds");
        let err = write_file(&dir, Streams::WriteInto, text(b"x")).unwrap_err();
        assert_eq!(err.to_string(), "it is a folder, not a file");
        let fifo = dir.join("pipe");
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap();
        assert!(made.success());
        let err = write_file(&fifo, Streams::Refuse, text(b"x")).unwrap_err();
        assert_eq!(err.to_string(), "it is a named pipe (FIFO), not a file");
        // Nobody reads it: refused at once, not waited on.
        let err = write_file(&fifo, Streams::WriteInto, text(b"x")).unwrap_err();
        assert!(matches!(err, WriteError::NoReader), "{err}");
        assert!(fifo.symlink_metadata().unwrap().file_type().is_fifo());
        assert_eq!(names(&dir), ["pipe"]);
    }

    #[test]
    fn a_character_device_is_written_into_and_stays_one() {
        // A link to it, as `/dev/stdout` is: a regression replaces the link
        // in the test's folder, never the system's node.
        let dir = temp("device");
        let null = dir.join("null");
        std::os::unix::fs::symlink("/dev/null", &null).unwrap();
        let written = write_file(&null, Streams::WriteInto, text(b"12345")).unwrap();
        assert_eq!(written.bytes, 5);
        assert!(null.symlink_metadata().unwrap().file_type().is_symlink());
        assert!(null.metadata().unwrap().file_type().is_char_device());
        let err = write_file(&null, Streams::Refuse, text(b"x")).unwrap_err();
        assert_eq!(
            err.to_string(),
            "it is a symbolic link (to /dev/null), which is not followed"
        );
        assert_eq!(names(&dir), ["null"]);
    }

    #[test]
    fn a_name_of_250_bytes_has_room_for_the_temporary_one() {
        let dir = temp("long");
        let path = dir.join(format!("{}.warc", "n".repeat(245)));
        assert_eq!(path.file_name().unwrap().len(), 250);
        write_file(&path, Streams::Refuse, text(b"long")).unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"long");
        assert_eq!(names(&dir).len(), 1);
    }
}
