//! A WACZ package's WARCs as parts (filled in with the WACZ reader).

use std::path::Path;

use super::ArchiveError;
use super::parts::Part;

pub(super) fn parts(path: &Path) -> Result<Vec<Part>, ArchiveError> {
    Err(ArchiveError::ZipNotWarc {
        path: path.to_owned(),
    })
}
