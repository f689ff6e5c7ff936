//! What the profiles file's reader tells the user: why a file or a profile
//! could not be read, keys it does not know, and where a damaged file is kept.
//! The store's own errors keep their messages on the error type.

use std::path::Path;

/// Why the profiles file could not be read as text.
pub const PROFILES_NOT_UTF8: &str = "it is not UTF-8 text";
/// When the TOML parser's message has no first line.
pub const PROFILES_BAD_TOML: &str = "bad TOML";
/// When a setting's error message has no first line.
pub const PROFILE_WRONG_VALUE: &str = "wrong value";

/// What failed on a file, before its path in a store error.
pub const CANNOT_CREATE: &str = "cannot create";
pub const CANNOT_OPEN: &str = "cannot open";
pub const CANNOT_LOCK: &str = "cannot lock";
pub const CANNOT_WRITE: &str = "cannot write";
pub const CANNOT_MOVE_ASIDE: &str = "cannot move aside";
pub const CANNOT_REPLACE: &str = "cannot replace";

/// The file's `active` key holds something other than a name.
pub fn active_not_a_name(type_name: &str) -> String {
    format!("“active” is a {type_name}, not a profile name (ignored)")
}

/// The file's `profiles` key holds something other than a table.
pub fn profiles_not_a_table(type_name: &str) -> String {
    format!("“profiles” is a {type_name}, not a table of profiles")
}

/// A profile's entry holds something other than a table.
pub fn profile_not_a_table(type_name: &str) -> String {
    format!("it is a {type_name}, not a table of settings")
}

/// A setting with a wrong value, and the first line of why.
pub fn wrong_setting(key: &str, why: &str) -> String {
    format!("{key}: {why}")
}

/// Keys a profile has that this version does not know.
pub fn profile_unknown_keys(profile: &str, keys: &[&str]) -> String {
    format!("“{profile}”: {}", keys.join(", "))
}

/// Top-level keys of the file that this version does not know.
pub fn file_unknown_keys(keys: &[&str]) -> String {
    format!("the file: {}", keys.join(", "))
}

/// Why the profiles file is there but cannot be read.
pub fn profiles_unreadable(error: &std::io::Error) -> String {
    format!("it cannot be read: {error}")
}

/// Unknown keys kept in the file, each entry as `profile_unknown_keys` or
/// `file_unknown_keys` words it.
pub fn unknown_keys_notice(file: &Path, entries: &[String]) -> String {
    format!(
        "The profiles file {} has keys this version does not know; they are \
         kept as they are and do nothing: {}.",
        file.display(),
        entries.join("; ")
    )
}

/// A damaged profile left out, the file as it was kept at `aside`.
pub fn damaged_profile_notice(profile: &str, why: &str, aside: &Path) -> String {
    format!(
        "The profile “{profile}” could not be read ({why}), so it was left out; the \
         other profiles loaded. The file as it was is kept in {}.",
        aside.display()
    )
}

/// The whole file moved aside to `aside`; the app starts from `built_in`.
pub fn file_moved_aside_notice(file: &Path, why: &str, aside: &Path, built_in: &str) -> String {
    format!(
        "The profiles file {} could not be read ({why}). It was moved to {} and \
         nothing in it was changed; starting from “{built_in}”.",
        file.display(),
        aside.display()
    )
}
