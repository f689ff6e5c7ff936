//! The profiles file's TOML: parsed profile by profile, so a damaged profile
//! is left out alone and keys this version does not know are kept.

use std::collections::BTreeMap;

use crate::copy;
use crate::policy::{STORAGE_KEYS, Settings};

/// One stored profile: its settings and any keys this version does not know
/// (kept as they are, so a newer or hand-edited file loses nothing).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct StoredProfile {
    pub settings: Settings,
    pub unknown: toml::Table,
}

/// The file's contents.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ProfileFile {
    /// The profile the app opens with.
    pub active: String,
    /// User profiles by name (the built-in one is never stored).
    pub profiles: BTreeMap<String, StoredProfile>,
    /// Top-level keys this version does not know, kept as they are.
    pub unknown: toml::Table,
}

/// What reading the file's bytes found.
#[derive(Debug)]
pub(super) struct Reading {
    pub file: ProfileFile,
    /// Profiles that could not be read as settings, with the reason.
    pub damaged: Vec<(String, String)>,
    /// The whole file could not be read as profiles, and why.
    pub unreadable: Option<String>,
    /// `profile: key, key` for keys kept but not understood.
    pub unknown_keys: Vec<String>,
}

impl ProfileFile {
    /// Parses the file's bytes, profile by profile.
    pub(super) fn parse(bytes: &[u8]) -> Reading {
        let mut reading = Reading {
            file: ProfileFile::default(),
            damaged: Vec::new(),
            unreadable: None,
            unknown_keys: Vec::new(),
        };
        let text = match std::str::from_utf8(bytes) {
            Ok(text) => text,
            Err(_) => {
                reading.unreadable = Some(copy::PROFILES_NOT_UTF8.into());
                return reading;
            }
        };
        let mut table: toml::Table = match text.parse() {
            Ok(table) => table,
            Err(e) => {
                let why = e.to_string();
                reading.unreadable = Some(
                    why.lines()
                        .next()
                        .unwrap_or(copy::PROFILES_BAD_TOML)
                        .to_owned(),
                );
                return reading;
            }
        };
        match table.remove("active") {
            Some(toml::Value::String(active)) => reading.file.active = active,
            Some(other) => {
                reading
                    .unknown_keys
                    .push(copy::active_not_a_name(other.type_str()));
            }
            None => {}
        }
        match table.remove("profiles") {
            Some(toml::Value::Table(profiles)) => {
                for (name, value) in profiles {
                    match StoredProfile::parse(value) {
                        Ok(profile) => {
                            let unknown: Vec<&str> =
                                profile.unknown.keys().map(String::as_str).collect();
                            if !unknown.is_empty() {
                                reading
                                    .unknown_keys
                                    .push(copy::profile_unknown_keys(&name, &unknown));
                            }
                            reading.file.profiles.insert(name, profile);
                        }
                        Err(why) => reading.damaged.push((name, why)),
                    }
                }
            }
            Some(other) => {
                reading.unreadable = Some(copy::profiles_not_a_table(other.type_str()));
                return reading;
            }
            None => {}
        }
        if !table.is_empty() {
            let keys: Vec<&str> = table.keys().map(String::as_str).collect();
            reading.unknown_keys.push(copy::file_unknown_keys(&keys));
        }
        reading.file.unknown = table;
        reading
    }

    pub(super) fn to_toml(&self) -> Result<String, String> {
        let mut table = self.unknown.clone();
        table.insert("active".into(), toml::Value::String(self.active.clone()));
        let mut profiles = toml::Table::new();
        for (name, profile) in &self.profiles {
            let mut entry = profile.unknown.clone();
            let settings = toml::Table::try_from(&profile.settings).map_err(|e| e.to_string())?;
            entry.extend(settings);
            profiles.insert(name.clone(), toml::Value::Table(entry));
        }
        table.insert("profiles".into(), toml::Value::Table(profiles));
        toml::to_string(&table).map_err(|e| e.to_string())
    }
}

impl StoredProfile {
    fn parse(value: toml::Value) -> Result<Self, String> {
        let toml::Value::Table(mut table) = value else {
            return Err(copy::profile_not_a_table(value.type_str()));
        };
        let known: toml::Table = STORAGE_KEYS
            .iter()
            .filter_map(|key| table.remove(*key).map(|v| ((*key).to_owned(), v)))
            .collect();
        // Key by key, so the reason names the key that is wrong.
        let wrong: Vec<String> = known
            .iter()
            .filter_map(|(key, value)| {
                let alone = toml::Table::from_iter([(key.clone(), value.clone())]);
                alone.try_into::<Settings>().err().map(|e| {
                    let why = e.to_string();
                    copy::wrong_setting(
                        key,
                        why.lines().next().unwrap_or(copy::PROFILE_WRONG_VALUE),
                    )
                })
            })
            .collect();
        if !wrong.is_empty() {
            return Err(wrong.join("; "));
        }
        let settings = known.try_into::<Settings>().map_err(|e| e.to_string())?;
        Ok(Self {
            settings,
            unknown: table,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_damaged_profile_is_left_out_with_the_key_that_is_wrong() {
        let reading = ProfileFile::parse(
            b"active = \"good\"\n[profiles.good]\nfollowSubdomain = true\n\
              [profiles.typo]\nfollowSubdomain = \"yes\"\n[profiles.number]\n",
        );
        assert!(reading.unreadable.is_none());
        assert_eq!(reading.file.active, "good");
        assert_eq!(
            reading.file.profiles.keys().collect::<Vec<_>>(),
            ["good", "number"]
        );
        assert_eq!(reading.damaged.len(), 1);
        assert_eq!(reading.damaged[0].0, "typo");
        assert!(
            reading.damaged[0].1.starts_with("followSubdomain: "),
            "{}",
            reading.damaged[0].1
        );
    }

    #[test]
    fn unknown_keys_are_named_and_written_back() {
        let reading = ProfileFile::parse(
            b"theme = \"dark\"\nactive = 3\n[profiles.acme]\nfollowKeywordWhite = \"typo\"\n",
        );
        assert_eq!(
            reading.unknown_keys,
            [
                "“active” is a integer, not a profile name (ignored)",
                "“acme”: followKeywordWhite",
                "the file: theme"
            ]
        );
        let text = reading.file.to_toml().unwrap();
        assert!(text.contains("theme = \"dark\""), "{text}");
        assert!(text.contains("followKeywordWhite = \"typo\""), "{text}");
        assert_eq!(ProfileFile::parse(text.as_bytes()).file, reading.file);
    }

    #[test]
    fn a_file_that_is_not_profiles_is_unreadable() {
        let not_text = ProfileFile::parse(b"\xff\xfe");
        assert_eq!(not_text.unreadable.as_deref(), Some("it is not UTF-8 text"));
        let not_a_table = ProfileFile::parse(b"profiles = 5\n");
        assert_eq!(
            not_a_table.unreadable.as_deref(),
            Some("“profiles” is a integer, not a table of profiles")
        );
        assert!(ProfileFile::parse(b"= = [[").unreadable.is_some());
    }
}
