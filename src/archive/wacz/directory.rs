//! The ZIP's central directory read by the zip crate, and each entry
//! checked before anything of it is read.

use std::fs::File;
use std::io::BufReader;
use std::path::Path;

use super::model::{WaczEntry, WaczError};

/// The ZIP's file entries, each checked: a safe name, a way of storing
/// that is read, and data that lies inside the file.
pub(super) fn list_entries(
    path: &Path,
    file: File,
    file_len: u64,
) -> Result<Vec<WaczEntry>, WaczError> {
    let not_zip = |detail: String| WaczError::NotZip {
        path: path.to_owned(),
        detail,
    };
    let mut zip = zip::ZipArchive::new(BufReader::new(file)).map_err(|e| not_zip(e.to_string()))?;
    let mut entries = Vec::with_capacity(zip.len());
    for at in 0..zip.len() {
        // Reading an entry raw reads its local header, which gives where its
        // data starts: a directory that points outside the file fails here.
        let file = zip
            .by_index_raw(at)
            .map_err(|e| not_zip(format!("entry {at}: {e}")))?;
        let name = match file.name() {
            Ok(name) => name.into_owned(),
            Err(_) => String::from_utf8_lossy(file.name_raw()).into_owned(),
        };
        if unsafe_name(&name) {
            return Err(WaczError::UnsafeName {
                path: path.to_owned(),
                entry: name,
            });
        }
        if file.is_dir() {
            continue;
        }
        let unsupported = |how: String| WaczError::UnsupportedEntry {
            path: path.to_owned(),
            entry: name.clone(),
            how,
        };
        if file.encrypted() {
            return Err(unsupported("encrypted".to_owned()));
        }
        let stored = match file.compression() {
            zip::CompressionMethod::Stored => true,
            zip::CompressionMethod::Deflated => false,
            other => return Err(unsupported(format!("compressed with {other}"))),
        };
        let data_start = file
            .data_start()
            .ok_or_else(|| not_zip(format!("entry {name:?}: where its data starts is unknown")))?;
        let (compressed_size, size) = (file.compressed_size(), file.size());
        let end = data_start.checked_add(compressed_size);
        match end {
            Some(end) if end <= file_len => {}
            _ => {
                return Err(WaczError::EntryOutside {
                    path: path.to_owned(),
                    entry: name,
                    start: data_start,
                    end: end.unwrap_or(u64::MAX),
                    file_len,
                });
            }
        }
        if stored && size != compressed_size {
            return Err(WaczError::SizesLie {
                path: path.to_owned(),
                entry: name,
                detail: format!("stored, yet {size} bytes from {compressed_size}"),
            });
        }
        entries.push(WaczEntry {
            name,
            data_start,
            compressed_size,
            size,
            stored,
        });
    }
    entries.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(entries)
}

/// A name that could point outside the package when taken as a path: empty,
/// absolute, with a `..` part, a backslash (a Windows separator), a drive
/// letter, a NUL or other control byte.
fn unsafe_name(name: &str) -> bool {
    name.is_empty()
        || name.starts_with('/')
        || name.contains('\\')
        || name.chars().any(char::is_control)
        || name.split('/').any(|part| part == "..")
        || name.as_bytes().get(1) == Some(&b':')
}
