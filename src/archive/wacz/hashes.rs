//! `datapackage.json`'s hashes checked: each listed file streamed through
//! sha256 and compared, with its size. A mismatch, a missing file or one
//! that cannot be read is a warning naming the file; the package still
//! opens (its WARCs may still hold every page).

use std::io::Read;

use serde::Deserialize;
use sha2::{Digest, Sha256};

use super::entry::Files;
use super::model::{DATAPACKAGE, WaczEntry, WaczWarning};

/// `datapackage.json` is read to this many bytes: it lists a package's
/// files, a few hundred bytes each.
const MAX_DATAPACKAGE: u64 = 16 * 1024 * 1024;
const IO_BUFFER: usize = 64 * 1024;

/// Which of the listed files to check.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HashScope {
    /// All but the WARCs: pages and indexes, small, checked when opening.
    Small,
    /// The WARCs only (`archive/…`), read whole.
    Warcs,
    All,
}

impl HashScope {
    fn takes(self, path: &str) -> bool {
        let warc = path.starts_with("archive/");
        match self {
            HashScope::Small => !warc,
            HashScope::Warcs => warc,
            HashScope::All => true,
        }
    }
}

#[derive(Deserialize)]
struct DataPackage {
    #[serde(default)]
    resources: Vec<Resource>,
}

#[derive(Deserialize)]
struct Resource {
    path: Option<String>,
    hash: Option<String>,
    bytes: Option<u64>,
}

pub(super) fn check(files: Files<'_>, scope: HashScope) -> Vec<WaczWarning> {
    let resources = match resources(files) {
        Ok(resources) => resources,
        Err(warning) => {
            // Said once, when opening.
            return if scope == HashScope::Warcs {
                Vec::new()
            } else {
                vec![warning]
            };
        }
    };
    let mut warnings = Vec::new();
    for resource in resources {
        let Some(path) = resource.path else {
            continue;
        };
        if !scope.takes(&path) {
            continue;
        }
        let Some(entry) = files.entry(&path) else {
            warnings.push(WaczWarning::Missing { file: path });
            continue;
        };
        if let Some(expected) = resource.bytes
            && expected != entry.size
        {
            warnings.push(WaczWarning::SizeMismatch {
                file: path.clone(),
                expected,
                found: entry.size,
            });
        }
        let Some(hash) = resource.hash else {
            continue;
        };
        let Some(expected) = hash.strip_prefix("sha256:").map(str::to_ascii_lowercase) else {
            warnings.push(WaczWarning::HashNotChecked { file: path, hash });
            continue;
        };
        match sha256_of(files, entry) {
            Ok(found) if found == expected => {}
            Ok(found) => warnings.push(WaczWarning::HashMismatch {
                file: path,
                expected,
                found,
            }),
            Err(e) => warnings.push(WaczWarning::Unreadable {
                file: path,
                detail: e.to_string(),
            }),
        }
    }
    warnings
}

fn resources(files: Files<'_>) -> Result<Vec<Resource>, WaczWarning> {
    let Some(entry) = files.entry(DATAPACKAGE) else {
        return Err(WaczWarning::NoDatapackage);
    };
    let bad = |detail: String| WaczWarning::BadDatapackage { detail };
    if entry.size > MAX_DATAPACKAGE {
        return Err(bad(format!(
            "it is {} bytes, over the {MAX_DATAPACKAGE} read",
            entry.size
        )));
    }
    let mut text = Vec::new();
    files
        .open(entry)
        .and_then(|input| input.take(MAX_DATAPACKAGE).read_to_end(&mut text))
        .map_err(|e| bad(e.to_string()))?;
    serde_json::from_slice::<DataPackage>(&text)
        .map(|package| package.resources)
        .map_err(|e| bad(e.to_string()))
}

fn sha256_of(files: Files<'_>, entry: &WaczEntry) -> std::io::Result<String> {
    let mut input = files.open(entry)?;
    let mut hasher = Sha256::new();
    let mut buf = vec![0u8; IO_BUFFER];
    loop {
        let got = input.read(&mut buf)?;
        if got == 0 {
            break;
        }
        hasher.update(&buf[..got]);
    }
    let digest = hasher.finalize();
    Ok(digest.iter().map(|b| format!("{b:02x}")).collect())
}
