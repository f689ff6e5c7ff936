//! The two forms an inspection is saved in, told by the file's name as
//! [`super::save`] tells them: a WARC (`.warc.gz`) or a WACZ package
//! (`.wacz`).

/// What Save for ticket writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SaveFormat {
    /// `.warc.gz`: one gzip member per record (SPEC 10).
    Warc,
    /// `.wacz`: that WARC in a WACZ package, with its index and pages
    /// (SPEC 12), which replay tools open.
    Wacz,
}

/// The names that end a saved archive, longest first: the one a path ends
/// with is the part [`SaveFormat::name`] swaps.
const ENDINGS: [&str; 3] = [".warc.gz", ".wacz", ".warc"];

impl SaveFormat {
    /// The end of its file names.
    pub fn extension(self) -> &'static str {
        match self {
            SaveFormat::Warc => ".warc.gz",
            SaveFormat::Wacz => ".wacz",
        }
    }

    /// The format a path names by its end (any case; a plain `.warc` is a
    /// WARC too); `None` for a name that is neither (it is written as a
    /// plain WARC, but the name does not say so).
    pub fn of_path(path: &str) -> Option<Self> {
        let lower = path.trim().to_ascii_lowercase();
        if lower.ends_with(".wacz") {
            Some(SaveFormat::Wacz)
        } else if lower.ends_with(".warc.gz") || lower.ends_with(".warc") {
            Some(SaveFormat::Warc)
        } else {
            None
        }
    }

    /// `path` named for this format: an archive's ending swapped for this
    /// one's, else this one's added.
    pub fn name(self, path: &str) -> String {
        let path = path.trim();
        let lower = path.to_ascii_lowercase();
        let stem = ENDINGS
            .iter()
            .find(|end| lower.ends_with(*end))
            .map_or(path, |end| &path[..path.len() - end.len()]);
        format!("{stem}{}", self.extension())
    }
}

#[cfg(test)]
mod tests {
    use super::SaveFormat::{Wacz, Warc};
    use super::*;

    #[test]
    fn a_name_swaps_its_archive_ending_for_the_format_chosen() {
        assert_eq!(
            Wacz.name("/home/ana/acme.test-2026-12-01.warc.gz"),
            "/home/ana/acme.test-2026-12-01.wacz"
        );
        assert_eq!(Warc.name("ticket.WACZ"), "ticket.warc.gz");
        assert_eq!(Wacz.name("ticket.warc"), "ticket.wacz");
        assert_eq!(Warc.name("ticket.warc.gz"), "ticket.warc.gz");
        assert_eq!(Wacz.name("ticket"), "ticket.wacz");
        assert_eq!(Wacz.name("ticket.txt"), "ticket.txt.wacz");
    }

    #[test]
    fn a_path_names_its_format_by_its_end_in_any_case() {
        assert_eq!(SaveFormat::of_path("a.WACZ"), Some(Wacz));
        assert_eq!(SaveFormat::of_path("a.warc.gz"), Some(Warc));
        assert_eq!(SaveFormat::of_path("a.warc"), Some(Warc));
        assert_eq!(SaveFormat::of_path("a.gz"), None);
        assert_eq!(SaveFormat::of_path(""), None);
    }
}
