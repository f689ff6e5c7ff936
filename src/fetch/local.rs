//! Reading local files without trusting them: a page file is read with the
//! same cap as a fetched body, small text files (settings, profile imports,
//! manifests) with their own cap, and anything but a regular file (a FIFO, a
//! device, a folder) is refused by its type before it is opened, since
//! reading one may never end.

use std::io::Read as _;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The cap on a settings file, a profile import and a corpus manifest: the
/// largest real one is a few KB, so 4 MB only ever stops a mistake.
pub const MAX_TEXT_FILE_BYTES: usize = 4 * 1024 * 1024;

/// What a path names when it is not a regular file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileKind {
    Directory,
    Fifo,
    Socket,
    CharDevice,
    BlockDevice,
    Other,
}

impl FileKind {
    /// What a path that is not a regular file names.
    pub fn of(file_type: std::fs::FileType) -> Self {
        use std::os::unix::fs::FileTypeExt as _;
        if file_type.is_dir() {
            FileKind::Directory
        } else if file_type.is_fifo() {
            FileKind::Fifo
        } else if file_type.is_socket() {
            FileKind::Socket
        } else if file_type.is_char_device() {
            FileKind::CharDevice
        } else if file_type.is_block_device() {
            FileKind::BlockDevice
        } else {
            FileKind::Other
        }
    }

    fn name(self) -> &'static str {
        match self {
            FileKind::Directory => "a folder",
            FileKind::Fifo => "a named pipe (FIFO)",
            FileKind::Socket => "a socket",
            FileKind::CharDevice => "a character device",
            FileKind::BlockDevice => "a block device",
            FileKind::Other => "not a regular file",
        }
    }
}

impl std::fmt::Display for FileKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Why a local file could not be read.
#[derive(Debug, Clone, thiserror::Error)]
pub enum FileError {
    #[error("cannot read {}: it is {kind}, not a file", path.display())]
    NotAFile { path: PathBuf, kind: FileKind },
    #[error("{} is a symlink loop (a link that leads back to itself)", path.display())]
    SymlinkLoop { path: PathBuf },
    #[error("{} is larger than {limit} bytes, the most read from such a file", path.display())]
    TooLarge { path: PathBuf, limit: usize },
    #[error("{} is not UTF-8 text", path.display())]
    NotUtf8 { path: PathBuf },
    #[error("cannot read {}", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: Arc<std::io::Error>,
    },
}

impl FileError {
    pub fn path(&self) -> &Path {
        match self {
            FileError::NotAFile { path, .. }
            | FileError::SymlinkLoop { path }
            | FileError::TooLarge { path, .. }
            | FileError::NotUtf8 { path }
            | FileError::Io { path, .. } => path,
        }
    }

    fn io(path: &Path, source: std::io::Error) -> Self {
        if source.raw_os_error() == Some(libc::ELOOP) {
            return FileError::SymlinkLoop {
                path: path.to_owned(),
            };
        }
        FileError::Io {
            path: path.to_owned(),
            source: Arc::new(source),
        }
    }
}

/// Refuses anything but a regular file (symlinks followed), by its metadata,
/// before it is opened: opening a FIFO for reading blocks until a writer comes.
pub fn check_regular(path: &Path) -> Result<(), FileError> {
    let file_type = std::fs::metadata(path)
        .map_err(|e| FileError::io(path, e))?
        .file_type();
    if file_type.is_file() {
        return Ok(());
    }
    Err(FileError::NotAFile {
        path: path.to_owned(),
        kind: FileKind::of(file_type),
    })
}

/// At most `max` bytes of a regular file, and whether there was more.
pub fn read_capped(path: &Path, max: usize) -> Result<(Vec<u8>, bool), FileError> {
    check_regular(path)?;
    let file = std::fs::File::open(path).map_err(|e| FileError::io(path, e))?;
    let mut bytes = Vec::new();
    // One byte over the cap tells a file of exactly the cap from a longer one.
    let limit = u64::try_from(max).unwrap_or(u64::MAX).saturating_add(1);
    file.take(limit)
        .read_to_end(&mut bytes)
        .map_err(|e| FileError::io(path, e))?;
    let truncated = bytes.len() > max;
    bytes.truncate(max);
    Ok((bytes, truncated))
}

/// A page file: at most `max_bytes` (the fetch cap), and whether it was cut.
pub fn read_page(path: &Path, max_bytes: usize) -> Result<(Vec<u8>, bool), FileError> {
    read_capped(path, max_bytes)
}

/// A small text file (settings, an import, a manifest), whole, under
/// [`MAX_TEXT_FILE_BYTES`]; a leading UTF-8 byte order mark is dropped.
pub fn read_text(path: &Path) -> Result<String, FileError> {
    let (bytes, cut) = read_capped(path, MAX_TEXT_FILE_BYTES)?;
    if cut {
        return Err(FileError::TooLarge {
            path: path.to_owned(),
            limit: MAX_TEXT_FILE_BYTES,
        });
    }
    let text = String::from_utf8(bytes).map_err(|_| FileError::NotUtf8 {
        path: path.to_owned(),
    })?;
    Ok(strip_bom(&text).to_owned())
}

/// At most [`MAX_TEXT_FILE_BYTES`] of a stream (stdin), whole, as text.
pub fn read_text_from(mut reader: impl std::io::Read, name: &Path) -> Result<String, FileError> {
    let mut bytes = Vec::new();
    let limit = MAX_TEXT_FILE_BYTES as u64 + 1;
    reader
        .by_ref()
        .take(limit)
        .read_to_end(&mut bytes)
        .map_err(|e| FileError::io(name, e))?;
    if bytes.len() > MAX_TEXT_FILE_BYTES {
        return Err(FileError::TooLarge {
            path: name.to_owned(),
            limit: MAX_TEXT_FILE_BYTES,
        });
    }
    let text = String::from_utf8(bytes).map_err(|_| FileError::NotUtf8 {
        path: name.to_owned(),
    })?;
    Ok(strip_bom(&text).to_owned())
}

/// Text without a leading UTF-8 byte order mark (Windows editors write one).
pub fn strip_bom(text: &str) -> &str {
    text.strip_prefix('\u{feff}').unwrap_or(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("fi-local-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn devices_and_folders_are_refused_by_type() {
        let err = read_page(Path::new("/dev/zero"), 1024).unwrap_err();
        assert!(matches!(
            err,
            FileError::NotAFile {
                kind: FileKind::CharDevice,
                ..
            }
        ));
        let dir = temp("dir");
        assert!(matches!(
            read_text(&dir).unwrap_err(),
            FileError::NotAFile {
                kind: FileKind::Directory,
                ..
            }
        ));
    }

    #[test]
    fn a_fifo_is_refused_without_opening_it() {
        let dir = temp("fifo");
        let fifo = dir.join("pipe.html");
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap();
        assert!(made.success());
        // Opening it would block forever: the refusal must come first.
        let err = read_page(&fifo, 1024).unwrap_err();
        assert!(err.to_string().contains("named pipe"), "{err}");
    }

    #[test]
    fn a_symlink_loop_says_so() {
        let dir = temp("loop");
        let link = dir.join("a.html");
        std::os::unix::fs::symlink(&link, &link).unwrap();
        let err = read_page(&link, 1024).unwrap_err();
        assert!(matches!(err, FileError::SymlinkLoop { .. }), "{err}");
    }

    #[test]
    fn caps_and_the_byte_order_mark() {
        let dir = temp("cap");
        let page = dir.join("p.html");
        std::fs::write(&page, b"0123456789").unwrap();
        assert_eq!(
            read_page(&page, 10).unwrap(),
            (b"0123456789".to_vec(), false)
        );
        assert_eq!(read_page(&page, 4).unwrap(), (b"0123".to_vec(), true));
        let bom = dir.join("s.json");
        std::fs::write(&bom, "\u{feff}{}").unwrap();
        assert_eq!(read_text(&bom).unwrap(), "{}");
        let sparse = dir.join("big.json");
        std::fs::File::create(&sparse)
            .unwrap()
            .set_len(MAX_TEXT_FILE_BYTES as u64 + 1)
            .unwrap();
        assert!(matches!(
            read_text(&sparse).unwrap_err(),
            FileError::TooLarge { .. }
        ));
    }
}
