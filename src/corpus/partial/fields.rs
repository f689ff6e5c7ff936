//! How a partial result writes the fields of a page's side that JSON has no
//! direct form for: lint codes kept as `&'static str`, and keyword uses kept
//! by (list, keyword).

/// `SideRun::lints`: written as the codes' ids, read back through
/// [`LintCode`](crate::policy::LintCode) so an id is one the build knows.
pub mod lint_ids {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    use crate::policy::LintCode;

    pub fn serialize<S: Serializer>(ids: &[&'static str], s: S) -> Result<S::Ok, S::Error> {
        ids.serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<&'static str>, D::Error> {
        let codes = Vec::<LintCode>::deserialize(d)?;
        Ok(codes.into_iter().map(LintCode::id).collect())
    }
}

/// `SideRun::keywords`: a list of `[list, keyword, use]`, in key order.
pub mod keyword_uses {
    use std::collections::BTreeMap;

    use serde::{Deserialize, Deserializer, Serializer};

    use crate::corpus::KeywordUse;
    use crate::policy::ListName;

    type Uses = BTreeMap<(ListName, String), KeywordUse>;

    pub fn serialize<S: Serializer>(uses: &Uses, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(uses.iter().map(|((list, word), used)| (list, word, used)))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Uses, D::Error> {
        let entries = Vec::<(ListName, String, KeywordUse)>::deserialize(d)?;
        Ok(entries
            .into_iter()
            .map(|(list, word, used)| ((list, word), used))
            .collect())
    }
}

/// Paths, written as text: a path that is not UTF-8 is written as the
/// reports show it (`Path::display`), which is all a merge shows of it.
pub mod lossy_path {
    use std::path::{Path, PathBuf};

    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(path: &Path, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&path.to_string_lossy())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<PathBuf, D::Error> {
        String::deserialize(d).map(PathBuf::from)
    }
}

/// [`lossy_path`] for a list.
pub mod lossy_paths {
    use std::path::PathBuf;

    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(paths: &[PathBuf], s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(paths.iter().map(|p| p.to_string_lossy()))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<PathBuf>, D::Error> {
        Vec::<String>::deserialize(d).map(|paths| paths.into_iter().map(PathBuf::from).collect())
    }
}
