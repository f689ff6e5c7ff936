//! The profiles file on disk: every change a read-modify-write under an
//! exclusive lock, written to a temporary file and renamed over the old one;
//! a damaged file is kept byte for byte under a timestamped name before
//! anything is written.

use std::collections::BTreeSet;
use std::fs::{self, File};
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{SystemTime, UNIX_EPOCH};

use super::file::{ProfileFile, Reading, StoredProfile};
use super::{APP_NAME, BUILT_IN, CONFIG_NAME, ProfileError, export_json};
use crate::copy;
use crate::fetch::local_write::{self, Streams};
use crate::policy::{ImportedSettings, Settings};

fn io(action: &'static str, path: &Path) -> impl FnOnce(std::io::Error) -> ProfileError {
    let path = path.to_path_buf();
    move |error| ProfileError::Io {
        action,
        path,
        error,
    }
}

/// The profiles of this OS user (or of a folder given with `--config-dir`).
pub struct ProfileStore {
    path: PathBuf,
    /// What happened that the user must be told (a damaged file set aside).
    notices: Mutex<Vec<String>>,
    /// Notices already given, so reading the same file again does not repeat them.
    told: Mutex<BTreeSet<String>>,
}

/// UTC `YYYYMMDDTHHMMSSZ`, for the name a damaged file is kept under.
fn timestamp(now: SystemTime) -> String {
    let secs = now.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let (days, rest) = (secs / 86_400, secs % 86_400);
    // Howard Hinnant's civil-from-days.
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}{month:02}{day:02}T{:02}{:02}{:02}Z",
        rest / 3600,
        rest % 3600 / 60,
        rest % 60
    )
}

/// A name is printed in listings and menus: a newline or an escape sequence
/// in it would forge lines or drive the terminal.
fn no_control_characters(name: &str) -> Result<(), ProfileError> {
    if name.chars().any(char::is_control) {
        return Err(ProfileError::ControlCharacters(
            name.escape_debug().to_string(),
        ));
    }
    Ok(())
}

/// Checks a new profile name against the existing ones: trimmed, not empty,
/// unique ignoring case (the built-in name included).
pub fn validate_name<'a>(
    name: &str,
    existing: impl IntoIterator<Item = &'a str>,
) -> Result<String, ProfileError> {
    let name = name.trim();
    if name.is_empty() {
        return Err(ProfileError::EmptyName);
    }
    no_control_characters(name)?;
    let lower = name.to_lowercase();
    if lower == BUILT_IN.to_lowercase() || existing.into_iter().any(|e| e.to_lowercase() == lower) {
        return Err(ProfileError::NameTaken(name.to_owned()));
    }
    Ok(name.to_owned())
}

impl ProfileStore {
    /// The store in `config_dir`, or in confy's standard place for this app.
    pub fn open(config_dir: Option<&Path>) -> Result<Self, ProfileError> {
        let path = match config_dir {
            Some(dir) => dir.join(format!("{CONFIG_NAME}.toml")),
            None => confy::get_configuration_file_path(APP_NAME, CONFIG_NAME)
                .map_err(|e| ProfileError::NoConfigDir(e.to_string()))?,
        };
        let store = Self {
            path,
            notices: Mutex::new(Vec::new()),
            told: Mutex::new(BTreeSet::new()),
        };
        // Reading once sets a damaged file aside now, so the user hears of it.
        store.read()?;
        Ok(store)
    }

    /// Messages for the user since the last call (e.g. a damaged file set aside).
    pub fn take_notices(&self) -> Vec<String> {
        self.notices
            .lock()
            .map(|mut n| std::mem::take(&mut *n))
            .unwrap_or_default()
    }

    /// Queues `message` unless this store already gave it.
    fn notice(&self, message: String) {
        let new = self
            .told
            .lock()
            .map(|mut told| told.insert(message.clone()))
            .unwrap_or(true);
        if new && let Ok(mut n) = self.notices.lock() {
            n.push(message);
        }
    }

    /// The file as read: `Ok(None)` when there is no file yet, `Err` with the
    /// reason when it is there but cannot be read (it is then set aside).
    fn bytes(&self) -> Result<Option<Vec<u8>>, String> {
        match fs::read(&self.path) {
            Ok(bytes) => Ok(Some(bytes)),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(copy::profiles_unreadable(&e)),
        }
    }

    /// Takes the exclusive lock every writer holds; released when the file is dropped.
    fn lock(&self) -> Result<File, ProfileError> {
        let dir = self.path.parent().unwrap_or(Path::new("."));
        fs::create_dir_all(dir).map_err(io(copy::CANNOT_CREATE, dir))?;
        let lock_path = self.path.with_file_name(format!(".{CONFIG_NAME}.lock"));
        let lock = File::options()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&lock_path)
            .map_err(io(copy::CANNOT_OPEN, &lock_path))?;
        lock.lock().map_err(io(copy::CANNOT_LOCK, &lock_path))?;
        Ok(lock)
    }

    /// The file as it is on disk now; a missing file is empty. Reading takes no
    /// lock; only when something must be set aside is the file read again under
    /// the lock, so a file another process just replaced is judged as it is now.
    fn read(&self) -> Result<ProfileFile, ProfileError> {
        if let Ok(bytes) = self.bytes() {
            let Some(bytes) = bytes else {
                return Ok(ProfileFile::default());
            };
            let reading = ProfileFile::parse(&bytes);
            self.tell_unknown_keys(&reading);
            if reading.unreadable.is_none() && reading.damaged.is_empty() {
                return Ok(reading.file);
            }
        }
        let _lock = self.lock()?;
        self.read_locked()
    }

    fn tell_unknown_keys(&self, reading: &Reading) {
        if !reading.unknown_keys.is_empty() {
            self.notice(copy::unknown_keys_notice(&self.path, &reading.unknown_keys));
        }
    }

    /// Reads the file while holding the lock; damaged parts are set aside here.
    fn read_locked(&self) -> Result<ProfileFile, ProfileError> {
        let bytes = match self.bytes() {
            Ok(None) => return Ok(ProfileFile::default()),
            Ok(Some(bytes)) => bytes,
            Err(why) => return self.move_aside(&why),
        };
        let reading = ProfileFile::parse(&bytes);
        self.tell_unknown_keys(&reading);
        if let Some(why) = &reading.unreadable {
            return self.move_aside(why);
        }
        if reading.damaged.is_empty() {
            return Ok(reading.file);
        }
        // Keep the file exactly as it was before writing it without the damaged profiles.
        let aside = self.aside_path();
        let mut copy = File::options()
            .write(true)
            .create_new(true)
            .open(&aside)
            .map_err(io(copy::CANNOT_CREATE, &aside))?;
        copy.write_all(&bytes)
            .and_then(|()| copy.sync_all())
            .map_err(io(copy::CANNOT_WRITE, &aside))?;
        let mut file = reading.file;
        if reading.damaged.iter().any(|(name, _)| *name == file.active) {
            file.active = BUILT_IN.to_owned();
        }
        self.write(&file)?;
        for (name, why) in &reading.damaged {
            self.notice(copy::damaged_profile_notice(name, why, &aside));
        }
        Ok(file)
    }

    /// Moves the whole file aside (a rename keeps it byte for byte) and starts
    /// from the built-in profile. Called with the lock held.
    fn move_aside(&self, why: &str) -> Result<ProfileFile, ProfileError> {
        let aside = self.aside_path();
        fs::rename(&self.path, &aside).map_err(io(copy::CANNOT_MOVE_ASIDE, &self.path))?;
        self.notice(copy::file_moved_aside_notice(
            &self.path, why, &aside, BUILT_IN,
        ));
        Ok(ProfileFile::default())
    }

    /// `profiles.corrupt-<UTC>.toml`, with `-2`, `-3`… when that name is taken.
    fn aside_path(&self) -> PathBuf {
        let stamp = timestamp(SystemTime::now());
        (1..)
            .map(|n| {
                let suffix = if n == 1 {
                    String::new()
                } else {
                    format!("-{n}")
                };
                self.path
                    .with_file_name(format!("{CONFIG_NAME}.corrupt-{stamp}{suffix}.toml"))
            })
            .find(|candidate| !candidate.exists())
            .unwrap_or_else(|| self.path.with_extension("corrupt"))
    }

    /// Writes to a temporary file beside the real one, then renames it over
    /// ([`local_write`]: a link or device put at the path is not written).
    fn write(&self, file: &ProfileFile) -> Result<(), ProfileError> {
        let failed = |detail: String| ProfileError::Write {
            path: self.path.clone(),
            detail,
        };
        let text = file.to_toml().map_err(failed)?;
        local_write::write_file(&self.path, Streams::Refuse, |out| {
            out.write_all(text.as_bytes())
        })
        .map_err(|e| failed(e.to_string()))?;
        Ok(())
    }

    /// Read-modify-write under an exclusive lock, so concurrent writers merge.
    fn modify<T>(
        &self,
        change: impl FnOnce(&mut ProfileFile) -> Result<T, ProfileError>,
    ) -> Result<T, ProfileError> {
        let _lock = self.lock()?;
        let mut file = self.read_locked()?;
        let out = change(&mut file)?;
        self.write(&file)?;
        Ok(out)
    }

    /// All profile names: the built-in one first, then the user's, sorted.
    pub fn list(&self) -> Result<Vec<String>, ProfileError> {
        let file = self.read()?;
        Ok(std::iter::once(BUILT_IN.to_owned())
            .chain(file.profiles.into_keys())
            .collect())
    }

    /// A profile's settings.
    pub fn load(&self, name: &str) -> Result<Settings, ProfileError> {
        if name == BUILT_IN {
            return Ok(Settings::default());
        }
        self.read()?
            .profiles
            .remove(name)
            .map(|profile| profile.settings)
            .ok_or_else(|| ProfileError::NotFound(name.to_owned()))
    }

    /// The active profile's name (the built-in one when unset or gone).
    pub fn active(&self) -> Result<String, ProfileError> {
        let file = self.read()?;
        Ok(if file.profiles.contains_key(&file.active) {
            file.active
        } else {
            BUILT_IN.to_owned()
        })
    }

    pub fn set_active(&self, name: &str) -> Result<(), ProfileError> {
        self.modify(|f| {
            if name != BUILT_IN && !f.profiles.contains_key(name) {
                return Err(ProfileError::NotFound(name.to_owned()));
            }
            f.active = name.to_owned();
            Ok(())
        })
    }

    /// Saves an existing user profile; other profiles on disk are kept as they are.
    pub fn save(&self, name: &str, settings: &Settings) -> Result<(), ProfileError> {
        if name == BUILT_IN {
            return Err(ProfileError::BuiltInReadOnly);
        }
        self.modify(|f| match f.profiles.get_mut(name) {
            Some(slot) => {
                slot.settings = settings.clone();
                Ok(())
            }
            None => Err(ProfileError::NotFound(name.to_owned())),
        })
    }

    /// Saves `settings` under a new name; returns the name as stored (trimmed).
    pub fn save_as(&self, name: &str, settings: &Settings) -> Result<String, ProfileError> {
        self.modify(|f| {
            let name = validate_name(name, f.profiles.keys().map(String::as_str))?;
            f.profiles.insert(
                name.clone(),
                StoredProfile {
                    settings: settings.clone(),
                    unknown: toml::Table::new(),
                },
            );
            Ok(name)
        })
    }

    pub fn rename(&self, from: &str, to: &str) -> Result<String, ProfileError> {
        if from == BUILT_IN {
            return Err(ProfileError::BuiltInReadOnly);
        }
        self.modify(|f| {
            let others = f.profiles.keys().filter(|k| *k != from).map(String::as_str);
            let to = validate_name(to, others)?;
            let profile = f
                .profiles
                .remove(from)
                .ok_or_else(|| ProfileError::NotFound(from.to_owned()))?;
            f.profiles.insert(to.clone(), profile);
            if f.active == from {
                f.active = to.clone();
            }
            Ok(to)
        })
    }

    pub fn duplicate(&self, from: &str, to: &str) -> Result<String, ProfileError> {
        let settings = self.load(from)?;
        self.save_as(to, &settings)
    }

    pub fn delete(&self, name: &str) -> Result<(), ProfileError> {
        if name == BUILT_IN {
            return Err(ProfileError::BuiltInReadOnly);
        }
        self.modify(|f| {
            f.profiles
                .remove(name)
                .ok_or_else(|| ProfileError::NotFound(name.to_owned()))?;
            if f.active == name {
                f.active = BUILT_IN.to_owned();
            }
            Ok(())
        })
    }

    /// Puts a user profile back to the scraper's defaults.
    pub fn reset(&self, name: &str) -> Result<(), ProfileError> {
        self.save(name, &Settings::default())
    }

    /// Imports a storage-data JSON object (as the scraper stores it) as a new
    /// profile; returns what was read, with the ignored and defaulted keys.
    pub fn import(
        &self,
        name: &str,
        json: &str,
    ) -> Result<(String, ImportedSettings), ProfileError> {
        let imported = ImportedSettings::from_json(json)?;
        let name = self.save_as(name, &imported.settings)?;
        Ok((name, imported))
    }

    /// Replaces (or creates) a user profile with an imported one. A profile
    /// whose name differs only in case is the one replaced, so names stay
    /// unique ignoring case; it takes the new spelling.
    pub fn import_replacing(
        &self,
        name: &str,
        json: &str,
    ) -> Result<(String, ImportedSettings), ProfileError> {
        let imported = ImportedSettings::from_json(json)?;
        let name = name.trim().to_owned();
        if name.is_empty() {
            return Err(ProfileError::EmptyName);
        }
        no_control_characters(&name)?;
        if name.to_lowercase() == BUILT_IN.to_lowercase() {
            return Err(ProfileError::BuiltInReadOnly);
        }
        self.modify(|f| {
            let lower = name.to_lowercase();
            let same: Vec<String> = f
                .profiles
                .keys()
                .filter(|k| k.to_lowercase() == lower)
                .cloned()
                .collect();
            let mut unknown = toml::Table::new();
            for old in same {
                if let Some(profile) = f.profiles.remove(&old) {
                    unknown.extend(profile.unknown);
                }
                if f.active == old {
                    f.active = name.clone();
                }
            }
            f.profiles.insert(
                name.clone(),
                StoredProfile {
                    settings: imported.settings.clone(),
                    unknown,
                },
            );
            Ok(())
        })?;
        Ok((name, imported))
    }

    /// A profile as the JSON the scraper stores (the five storage keys).
    pub fn export(&self, name: &str) -> Result<String, ProfileError> {
        Ok(export_json(&self.load(name)?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!(
            "follow-inspector-test-{name}-{}-{:?}",
            std::process::id(),
            std::thread::current().id()
        ));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn custom() -> Settings {
        Settings {
            follow_subdomain: true,
            follow_allowed_domains: "acmecorp.io".into(),
            ..Settings::default()
        }
    }

    #[test]
    fn timestamps_are_utc_calendar_dates() {
        let t = UNIX_EPOCH + std::time::Duration::from_secs(1_796_000_000);
        assert_eq!(timestamp(t), "20261130T005320Z");
        assert_eq!(timestamp(UNIX_EPOCH), "19700101T000000Z");
    }

    #[test]
    fn a_new_store_has_only_the_built_in_profile() {
        let dir = temp_dir("new");
        let store = ProfileStore::open(Some(&dir)).unwrap();
        assert_eq!(store.list().unwrap(), [BUILT_IN]);
        assert_eq!(store.load(BUILT_IN).unwrap(), Settings::default());
        assert_eq!(store.active().unwrap(), BUILT_IN);
        assert!(matches!(
            store.save(BUILT_IN, &custom()),
            Err(ProfileError::BuiltInReadOnly)
        ));
        assert!(matches!(
            store.delete(BUILT_IN),
            Err(ProfileError::BuiltInReadOnly)
        ));
    }

    #[test]
    fn save_load_rename_duplicate_delete_round_trip() {
        let dir = temp_dir("roundtrip");
        let store = ProfileStore::open(Some(&dir)).unwrap();
        assert_eq!(
            store.save_as("  ACME ticket 4411 ", &custom()).unwrap(),
            "ACME ticket 4411"
        );
        store.set_active("ACME ticket 4411").unwrap();
        // A second store on the same folder (a restart) sees it.
        let again = ProfileStore::open(Some(&dir)).unwrap();
        assert_eq!(again.load("ACME ticket 4411").unwrap(), custom());
        assert_eq!(again.active().unwrap(), "ACME ticket 4411");

        assert!(matches!(
            store.save_as("acme TICKET 4411", &custom()),
            Err(ProfileError::NameTaken(_))
        ));
        assert!(matches!(
            store.save_as("scraper DEFAULTS", &custom()),
            Err(ProfileError::NameTaken(_))
        ));
        assert!(matches!(
            store.save_as("  ", &custom()),
            Err(ProfileError::EmptyName)
        ));

        assert_eq!(
            store.rename("ACME ticket 4411", "ACME 4411").unwrap(),
            "ACME 4411"
        );
        assert_eq!(store.active().unwrap(), "ACME 4411");
        store.duplicate("ACME 4411", "ACME copy").unwrap();
        assert_eq!(store.list().unwrap(), [BUILT_IN, "ACME 4411", "ACME copy"]);
        store.reset("ACME copy").unwrap();
        assert_eq!(store.load("ACME copy").unwrap(), Settings::default());
        store.delete("ACME 4411").unwrap();
        assert_eq!(store.active().unwrap(), BUILT_IN);
        assert_eq!(store.list().unwrap(), [BUILT_IN, "ACME copy"]);
        assert!(matches!(
            store.load("ACME 4411"),
            Err(ProfileError::NotFound(_))
        ));
    }

    #[test]
    fn renaming_to_the_same_name_in_another_case_is_allowed() {
        let dir = temp_dir("recase");
        let store = ProfileStore::open(Some(&dir)).unwrap();
        store.save_as("acme", &custom()).unwrap();
        assert_eq!(store.rename("acme", "ACME").unwrap(), "ACME");
        assert_eq!(store.list().unwrap(), [BUILT_IN, "ACME"]);
    }

    #[test]
    fn import_accepts_both_shapes_and_export_re_imports_the_same() {
        let dir = temp_dir("import");
        let store = ProfileStore::open(Some(&dir)).unwrap();
        let (_, keys_only) = store
            .import(
                "keys only",
                r#"{"followSubdomain": true, "followKeywordsWhite": "kontakt,impressum",
                    "followKeywordsBlack": "blog", "followSkipAssets": false,
                    "followAllowedDomains": "acme-blog.io"}"#,
            )
            .unwrap();
        assert!(keys_only.ignored_keys.is_empty() && keys_only.defaulted_keys.is_empty());
        let (_, whole) = store
            .import(
                "whole export",
                r#"{"apiKey": "x", "language": "de", "followKeywordsWhite": ["kontakt", "impressum"]}"#,
            )
            .unwrap();
        assert_eq!(whole.ignored_keys, ["apiKey", "language"]);
        assert_eq!(whole.defaulted_keys.len(), 4);
        assert_eq!(
            store.load("whole export").unwrap().follow_keywords_white,
            "kontakt,impressum"
        );

        let exported = store.export("keys only").unwrap();
        let value: serde_json::Value = serde_json::from_str(&exported).unwrap();
        assert_eq!(value.as_object().unwrap().len(), 5);
        assert_eq!(value["followKeywordsWhite"], "kontakt,impressum");
        let (_, back) = store.import("re-imported", &exported).unwrap();
        assert_eq!(back.settings, store.load("keys only").unwrap());
    }

    #[test]
    fn a_corrupted_file_is_moved_aside_never_overwritten() {
        let dir = temp_dir("corrupt");
        let path = dir.join("profiles.toml");
        let garbage = "this is = = not toml [[[";
        fs::write(&path, garbage).unwrap();
        let store = ProfileStore::open(Some(&dir)).unwrap();
        let notices = store.take_notices();
        assert_eq!(notices.len(), 1, "{notices:?}");
        assert!(notices[0].contains("moved to"), "{}", notices[0]);
        assert_eq!(store.list().unwrap(), [BUILT_IN]);
        let aside = kept_aside(&dir);
        assert_eq!(aside.len(), 1);
        assert_eq!(fs::read_to_string(&aside[0]).unwrap(), garbage);
        // Saving afterwards writes a fresh file; the copy aside stays untouched.
        store.save_as("after", &custom()).unwrap();
        assert_eq!(fs::read_to_string(&aside[0]).unwrap(), garbage);
        assert_eq!(store.list().unwrap(), [BUILT_IN, "after"]);
    }

    #[test]
    fn a_file_that_is_not_utf8_is_set_aside_byte_for_byte_and_never_over_an_earlier_one() {
        let dir = temp_dir("not-utf8");
        let path = dir.join("profiles.toml");
        let bytes = b"[profiles.\xff\xfe]\nfollowSubdomain = true\n".to_vec();
        // Twice within the same second: two files aside, neither overwritten.
        for round in 1..=2 {
            fs::write(&path, &bytes).unwrap();
            let store = ProfileStore::open(Some(&dir)).unwrap();
            let notices = store.take_notices();
            assert_eq!(notices.len(), 1, "{notices:?}");
            assert!(notices[0].contains("not UTF-8"), "{}", notices[0]);
            assert_eq!(store.list().unwrap(), [BUILT_IN]);
            assert_eq!(kept_aside(&dir).len(), round);
        }
        for file in kept_aside(&dir) {
            assert_eq!(fs::read(&file).unwrap(), bytes);
        }
    }

    fn kept_aside(dir: &Path) -> Vec<PathBuf> {
        let mut found: Vec<PathBuf> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.to_string_lossy().contains("profiles.corrupt-"))
            .collect();
        found.sort();
        found
    }

    #[test]
    fn one_damaged_profile_is_left_out_and_the_others_load() {
        let dir = temp_dir("one-bad");
        let path = dir.join("profiles.toml");
        let original = "active = \"typo\"\n\n\
                        [profiles.good]\nfollowSubdomain = true\n\n\
                        [profiles.typo]\nfollowSubdomain = \"yes\"\n\n\
                        [profiles.also-good]\nfollowKeywordsWhite = \"kontakt\"\n";
        fs::write(&path, original).unwrap();
        let store = ProfileStore::open(Some(&dir)).unwrap();
        let notices = store.take_notices();
        assert_eq!(notices.len(), 1, "{notices:?}");
        assert!(notices[0].contains("“typo”"), "{}", notices[0]);
        assert!(notices[0].contains("followSubdomain"), "{}", notices[0]);
        assert_eq!(store.list().unwrap(), [BUILT_IN, "also-good", "good"]);
        assert!(store.load("good").unwrap().follow_subdomain);
        // The active profile was the damaged one: the built-in one is active now.
        assert_eq!(store.active().unwrap(), BUILT_IN);
        let aside = kept_aside(&dir);
        assert_eq!(aside.len(), 1);
        assert_eq!(fs::read_to_string(&aside[0]).unwrap(), original);
        assert!(notices[0].contains(&aside[0].display().to_string()));
        // Reading again finds nothing more to set aside or tell.
        let again = ProfileStore::open(Some(&dir)).unwrap();
        assert!(again.take_notices().is_empty());
        assert_eq!(kept_aside(&dir).len(), 1);
    }

    #[test]
    fn a_profile_that_is_not_a_table_is_left_out() {
        let dir = temp_dir("not-a-table");
        fs::write(
            dir.join("profiles.toml"),
            "[profiles]\nbroken = 5\n[profiles.fine]\nfollowSkipAssets = false\n",
        )
        .unwrap();
        let store = ProfileStore::open(Some(&dir)).unwrap();
        let notices = store.take_notices();
        assert!(notices[0].contains("“broken”") && notices[0].contains("integer"));
        assert_eq!(store.list().unwrap(), [BUILT_IN, "fine"]);
    }

    #[test]
    fn unknown_keys_are_reported_once_and_kept_through_saves() {
        let dir = temp_dir("unknown");
        let path = dir.join("profiles.toml");
        fs::write(
            &path,
            "theme = \"dark\"\n[profiles.acme]\nfollowKeywordWhite = \"typo\"\n",
        )
        .unwrap();
        let store = ProfileStore::open(Some(&dir)).unwrap();
        let notices = store.take_notices();
        assert_eq!(notices.len(), 1, "{notices:?}");
        assert!(
            notices[0].contains("“acme”: followKeywordWhite"),
            "{}",
            notices[0]
        );
        assert!(notices[0].contains("theme"), "{}", notices[0]);
        store.list().unwrap();
        assert!(store.take_notices().is_empty(), "told only once");
        store.save("acme", &custom()).unwrap();
        store.save_as("other", &custom()).unwrap();
        let text = fs::read_to_string(&path).unwrap();
        assert!(text.contains("followKeywordWhite = \"typo\""), "{text}");
        assert!(text.contains("theme = \"dark\""), "{text}");
        assert!(kept_aside(&dir).is_empty());
    }

    #[test]
    fn a_damaged_file_another_process_just_replaced_is_not_set_aside() {
        let dir = temp_dir("replaced");
        let path = dir.join("profiles.toml");
        fs::write(&path, "not = = toml").unwrap();
        // Another writer holds the lock while it replaces the file.
        let other = ProfileStore::open(Some(&temp_dir("replaced-other"))).unwrap();
        let writer = ProfileStore {
            path: path.clone(),
            notices: Mutex::new(Vec::new()),
            told: Mutex::new(BTreeSet::new()),
        };
        let lock = writer.lock().unwrap();
        let reader = std::thread::spawn({
            let dir = dir.clone();
            move || {
                let store = ProfileStore::open(Some(&dir)).unwrap();
                (store.list().unwrap(), store.take_notices())
            }
        });
        // Give the reader time to read the damaged bytes and wait for the lock.
        std::thread::sleep(std::time::Duration::from_millis(300));
        drop(other);
        let mut replaced = ProfileFile::default();
        replaced.profiles.insert(
            "fresh".into(),
            StoredProfile {
                settings: custom(),
                unknown: toml::Table::new(),
            },
        );
        writer.write(&replaced).unwrap();
        drop(lock);
        let (names, notices) = reader.join().unwrap();
        assert_eq!(names, [BUILT_IN, "fresh"]);
        assert!(notices.is_empty(), "{notices:?}");
        assert!(kept_aside(&dir).is_empty());
    }

    #[test]
    fn a_file_that_cannot_be_read_is_moved_aside_and_the_built_in_profile_used() {
        let dir = temp_dir("unreadable");
        // A directory in its place cannot be read as a file, even by root.
        fs::create_dir(dir.join("profiles.toml")).unwrap();
        let store = ProfileStore::open(Some(&dir)).unwrap();
        let notices = store.take_notices();
        assert_eq!(notices.len(), 1, "{notices:?}");
        assert!(notices[0].contains("it cannot be read"), "{}", notices[0]);
        assert_eq!(store.list().unwrap(), [BUILT_IN]);
        assert!(kept_aside(&dir)[0].is_dir());
        store.save_as("fresh", &custom()).unwrap();
        assert_eq!(store.list().unwrap(), [BUILT_IN, "fresh"]);
    }

    #[test]
    fn import_replacing_keeps_names_unique_ignoring_case() {
        let dir = temp_dir("replace-case");
        let store = ProfileStore::open(Some(&dir)).unwrap();
        store.save_as("acme", &Settings::default()).unwrap();
        store.set_active("acme").unwrap();
        let (name, _) = store
            .import_replacing("ACME", r#"{"followSubdomain": true}"#)
            .unwrap();
        assert_eq!(name, "ACME");
        assert_eq!(store.list().unwrap(), [BUILT_IN, "ACME"]);
        assert!(store.load("ACME").unwrap().follow_subdomain);
        assert_eq!(store.active().unwrap(), "ACME");
    }

    #[test]
    fn older_files_with_missing_keys_still_load() {
        let dir = temp_dir("old");
        fs::write(
            dir.join("profiles.toml"),
            "[profiles.old]\nfollowSubdomain = true\n",
        )
        .unwrap();
        let store = ProfileStore::open(Some(&dir)).unwrap();
        let old = store.load("old").unwrap();
        assert!(old.follow_subdomain);
        assert_eq!(
            old.follow_keywords_white,
            Settings::default().follow_keywords_white
        );
    }

    #[test]
    fn two_stores_saving_different_profiles_at_once_lose_nothing() {
        let dir = temp_dir("concurrent");
        std::thread::scope(|s| {
            for writer in ["a", "b"] {
                let dir = &dir;
                s.spawn(move || {
                    let store = ProfileStore::open(Some(dir)).unwrap();
                    for i in 0..25 {
                        store.save_as(&format!("{writer}-{i}"), &custom()).unwrap();
                    }
                });
            }
        });
        let store = ProfileStore::open(Some(&dir)).unwrap();
        assert_eq!(store.list().unwrap().len(), 51);
        // No temporary file is left behind.
        let leftovers = fs::read_dir(&dir)
            .unwrap()
            .filter(|e| {
                e.as_ref()
                    .unwrap()
                    .file_name()
                    .to_string_lossy()
                    .contains(".tmp-")
            })
            .count();
        assert_eq!(leftovers, 0);
    }
}
