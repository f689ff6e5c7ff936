//! The window's status lines, notices and errors about its own work.

pub const BACKGROUND_TASK_STOPPED: &str = "the background task stopped unexpectedly";
pub const CORPUS_THREAD_STOPPED: &str = "the corpus thread stopped unexpectedly";
pub const PROFILES_THREAD_STOPPED: &str = "the profiles thread stopped unexpectedly";

pub const FILE_DIALOG_OPEN_PAGE: &str = "Open a saved page";
pub const FILE_DIALOG_IMPORT_SETTINGS: &str = "Import a user's settings";
pub const FILE_DIALOG_EXPORT_SETTINGS: &str = "Export the settings";
pub const FILE_DIALOG_CORPUS_FOLDER: &str = "A folder of saved pages";
pub const FILE_DIALOG_CORPUS_MANIFEST: &str = "A corpus manifest";
pub const FILE_FILTER_HTML: &str = "HTML page";
pub const FILE_FILTER_JSON: &str = "storage-data JSON";
pub const FILE_FILTER_MANIFEST: &str = "manifest";
