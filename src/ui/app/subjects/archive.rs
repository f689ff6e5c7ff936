//! Save for ticket's state; changed by `app/archive.rs`.

/// Save for ticket: which pages the running save holds, the last archive written.
#[derive(Default)]
pub struct ArchiveState {
    /// Which pages the running save holds (see `pages_identity`).
    pub saving_pages: Option<usize>,
    /// Where the shown inspection was last saved for a ticket, and when.
    pub saved: Option<SavedArchive>,
    /// The notice that a save finished (it names the file) and the file's
    /// whole path, shown on hover while that notice is.
    pub saved_notice: Option<(String, String)>,
}

/// An archive Save for ticket wrote of the shown inspection.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SavedArchive {
    /// The copied explanation names the file, as attached to the ticket.
    pub file_name: String,
    /// UTC, `YYYY-MM-DD HH:MM`.
    pub at: String,
}
