//! The scraper's `storage-data` follow settings (SPEC section 1) and their parsing.

use std::sync::{Arc, OnceLock};

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::keywords::{BlackAndWhite, KeywordList};
use super::limits::{OverLimit, list_over_limit};

/// Storage keys, in the order the scraper's settings page shows them.
pub const KEY_SUBDOMAIN: &str = "followSubdomain";
pub const KEY_WHITE: &str = "followKeywordsWhite";
pub const KEY_BLACK: &str = "followKeywordsBlack";
pub const KEY_SKIP_ASSETS: &str = "followSkipAssets";
pub const KEY_ALLOWED: &str = "followAllowedDomains";
pub const STORAGE_KEYS: [&str; 5] = [
    KEY_SUBDOMAIN,
    KEY_WHITE,
    KEY_BLACK,
    KEY_SKIP_ASSETS,
    KEY_ALLOWED,
];

pub const DEFAULT_WHITE: &str =
    "contact,about,team,impressum,imprint,company,联系,关于,kontakt,contato,nosotros";
pub const DEFAULT_BLACK: &str = "blog,news,login,cart,checkout,product,/p/,category,tag,archive";

/// The five settings exactly as the scraper stores them: lists stay comma strings,
/// so an export can be pasted back into the scraper unchanged.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    #[serde(rename = "followSubdomain")]
    pub follow_subdomain: bool,
    #[serde(rename = "followKeywordsWhite")]
    pub follow_keywords_white: String,
    #[serde(rename = "followKeywordsBlack")]
    pub follow_keywords_black: String,
    #[serde(rename = "followSkipAssets")]
    pub follow_skip_assets: bool,
    #[serde(rename = "followAllowedDomains")]
    pub follow_allowed_domains: String,
}

impl Default for Settings {
    fn default() -> Self {
        Self {
            follow_subdomain: false,
            follow_keywords_white: DEFAULT_WHITE.to_owned(),
            follow_keywords_black: DEFAULT_BLACK.to_owned(),
            follow_skip_assets: true,
            follow_allowed_domains: String::new(),
        }
    }
}

/// The parsed form the policy works with (the scraper's `FollowOpts`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FollowOptions {
    pub allow_subdomain: bool,
    /// The black and the white list.
    pub keywords: BlackAndWhite,
    pub skip_assets: bool,
    pub allowed_domains: Vec<String>,
}

/// Settings with their compiled form, compiled once and shared by every page
/// decided under them: a corpus run compiled both keyword automata three
/// times a page before (6% of its time on real homepages).
#[derive(Clone, Debug)]
pub struct CompiledSettings(Arc<Compiled>);

#[derive(Debug)]
struct Compiled {
    settings: Settings,
    options: FollowOptions,
    /// The lint of white keywords a black one shadows, which reads the
    /// settings alone: asked again for every page of a corpus run it was 2.3%
    /// of the run's instructions on real homepages. Computed when first
    /// asked, not here: past the limits it is never asked.
    /// (white keyword, the black keyword it contains) pairs.
    shadowed: OnceLock<Vec<(String, String)>>,
}

impl CompiledSettings {
    pub fn new(settings: Settings) -> Self {
        let options = settings.options();
        Self(Arc::new(Compiled {
            settings,
            options,
            shadowed: OnceLock::new(),
        }))
    }

    pub fn settings(&self) -> &Settings {
        &self.0.settings
    }

    pub fn options(&self) -> &FollowOptions {
        &self.0.options
    }

    /// The white keywords a black one shadows (`lints::shadowed_pairs`),
    /// computed once.
    pub(super) fn shadowed(
        &self,
        compute: impl FnOnce() -> Vec<(String, String)>,
    ) -> &[(String, String)] {
        self.0.shadowed.get_or_init(compute)
    }
}

impl From<Settings> for CompiledSettings {
    fn from(settings: Settings) -> Self {
        Self::new(settings)
    }
}

impl From<&Settings> for CompiledSettings {
    fn from(settings: &Settings) -> Self {
        Self::new(settings.clone())
    }
}

impl Settings {
    pub fn options(&self) -> FollowOptions {
        let white = KeywordList::new(parse_list(&self.follow_keywords_white));
        let black = KeywordList::new(parse_list(&self.follow_keywords_black));
        FollowOptions {
            allow_subdomain: self.follow_subdomain,
            keywords: BlackAndWhite::new(black, white),
            skip_assets: self.follow_skip_assets,
            allowed_domains: parse_list(&self.follow_allowed_domains),
        }
    }

    /// Storage keys whose value differs from the scraper's defaults.
    pub fn changed_keys(&self) -> Vec<&'static str> {
        let d = Settings::default();
        let mut out = Vec::new();
        if self.follow_subdomain != d.follow_subdomain {
            out.push(KEY_SUBDOMAIN);
        }
        if self.follow_keywords_white != d.follow_keywords_white {
            out.push(KEY_WHITE);
        }
        if self.follow_keywords_black != d.follow_keywords_black {
            out.push(KEY_BLACK);
        }
        if self.follow_skip_assets != d.follow_skip_assets {
            out.push(KEY_SKIP_ASSETS);
        }
        if self.follow_allowed_domains != d.follow_allowed_domains {
            out.push(KEY_ALLOWED);
        }
        out
    }
}

/// The lists over a limit of [`super::limits`], one finding per list at
/// most (too many items before a too long one), in storage-key order.
pub fn over_limits(settings: &Settings) -> Vec<OverLimit> {
    [
        (KEY_WHITE, &settings.follow_keywords_white),
        (KEY_BLACK, &settings.follow_keywords_black),
        (KEY_ALLOWED, &settings.follow_allowed_domains),
    ]
    .into_iter()
    .filter_map(|(key, stored)| list_over_limit(key, stored, parse_list))
    .collect()
}

/// Splits a stored list: ASCII comma only, trim (Unicode whitespace), lowercase,
/// drop empty items; order and duplicates are kept because order is the score.
pub fn parse_list(stored: &str) -> Vec<String> {
    stored
        .split(',')
        .map(str::trim)
        .filter(|item| !item.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// Settings read from a storage-data JSON object, with what the import passed over.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImportedSettings {
    pub settings: Settings,
    /// Keys present in the object that are not follow settings; ignored.
    pub ignored_keys: Vec<String>,
    /// Follow keys absent (or null) in the object; they took their defaults.
    pub defaulted_keys: Vec<&'static str>,
}

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum SettingsError {
    #[error("not valid JSON: {0}")]
    Json(String),
    #[error("expected a JSON object of storage-data keys, found {0}")]
    NotAnObject(&'static str),
    #[error("`{key}` must be {expected}, found {found}")]
    WrongType {
        key: &'static str,
        expected: &'static str,
        found: &'static str,
    },
    /// A list over one of [`super::limits`]' limits.
    #[error(transparent)]
    TooLarge(#[from] OverLimit),
}

impl ImportedSettings {
    /// Parses storage-data JSON text (see [`ImportedSettings::from_value`]).
    pub fn from_json(text: &str) -> Result<Self, SettingsError> {
        // Windows editors start UTF-8 files with a byte order mark.
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let value: Value =
            serde_json::from_str(text).map_err(|e| SettingsError::Json(e.to_string()))?;
        Self::from_value(&value)
    }

    /// Reads the five follow keys from a storage-data object. A list may be the
    /// stored comma string or an array of strings (joined with `,`, the stored form).
    /// Other keys are ignored and reported; missing keys take their defaults.
    /// A list over a limit of [`super::limits`] is refused.
    pub fn from_value(value: &Value) -> Result<Self, SettingsError> {
        let object = value
            .as_object()
            .ok_or_else(|| SettingsError::NotAnObject(json_type(value)))?;
        let mut settings = Settings::default();
        let mut defaulted_keys = Vec::new();
        for key in STORAGE_KEYS {
            match object.get(key) {
                None | Some(Value::Null) => defaulted_keys.push(key),
                Some(v) => match key {
                    KEY_SUBDOMAIN => settings.follow_subdomain = read_bool(key, v)?,
                    KEY_SKIP_ASSETS => settings.follow_skip_assets = read_bool(key, v)?,
                    KEY_WHITE => settings.follow_keywords_white = read_list(key, v)?,
                    KEY_BLACK => settings.follow_keywords_black = read_list(key, v)?,
                    _ => settings.follow_allowed_domains = read_list(key, v)?,
                },
            }
        }
        if let Some(over) = over_limits(&settings).into_iter().next() {
            return Err(over.into());
        }
        Ok(Self {
            settings,
            ignored_keys: ignored_keys(object),
            defaulted_keys,
        })
    }
}

fn ignored_keys(object: &Map<String, Value>) -> Vec<String> {
    object
        .keys()
        .filter(|k| !STORAGE_KEYS.contains(&k.as_str()))
        .cloned()
        .collect()
}

fn read_bool(key: &'static str, value: &Value) -> Result<bool, SettingsError> {
    value.as_bool().ok_or(SettingsError::WrongType {
        key,
        expected: "true or false",
        found: json_type(value),
    })
}

fn read_list(key: &'static str, value: &Value) -> Result<String, SettingsError> {
    let wrong = |found| SettingsError::WrongType {
        key,
        expected: "a comma-separated string or an array of strings",
        found,
    };
    match value {
        Value::String(s) => Ok(s.clone()),
        Value::Array(items) => {
            let parts = items
                .iter()
                .map(|item| item.as_str().ok_or_else(|| wrong(json_type(item))))
                .collect::<Result<Vec<_>, _>>()?;
            Ok(parts.join(","))
        }
        other => Err(wrong(json_type(other))),
    }
}

fn json_type(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn defaults_are_the_wiki_defaults() {
        let o = Settings::default().options();
        assert!(!o.allow_subdomain);
        assert!(o.skip_assets);
        assert!(o.allowed_domains.is_empty());
        assert_eq!(
            **o.keywords.white(),
            [
                "contact",
                "about",
                "team",
                "impressum",
                "imprint",
                "company",
                "联系",
                "关于",
                "kontakt",
                "contato",
                "nosotros"
            ]
        );
        assert_eq!(
            **o.keywords.black(),
            [
                "blog", "news", "login", "cart", "checkout", "product", "/p/", "category", "tag",
                "archive"
            ]
        );
    }

    #[test]
    fn list_parsing_trims_lowercases_drops_empty_keeps_order_and_duplicates() {
        assert_eq!(
            parse_list(" Contact ,,ABOUT,\u{3000}team\u{a0}, contact ,"),
            ["contact", "about", "team", "contact"]
        );
        assert!(parse_list("").is_empty());
        assert!(parse_list(" , ,").is_empty());
    }

    #[test]
    fn only_the_ascii_comma_separates() {
        assert_eq!(parse_list("联系，关于"), ["联系，关于"]);
        assert_eq!(parse_list("a、b;c"), ["a、b;c"]);
    }

    #[test]
    fn import_reads_strings_and_arrays_and_reports_keys() {
        let imported = ImportedSettings::from_value(&json!({
            "followSubdomain": true,
            "followKeywordsWhite": ["Kontakt", " about "],
            "followAllowedDomains": "acmecorp.io",
            "language": "de",
        }))
        .unwrap();
        let s = &imported.settings;
        assert!(s.follow_subdomain);
        assert_eq!(s.follow_keywords_white, "Kontakt, about ");
        assert_eq!(**s.options().keywords.white(), ["kontakt", "about"]);
        assert_eq!(s.follow_allowed_domains, "acmecorp.io");
        assert_eq!(s.follow_keywords_black, DEFAULT_BLACK);
        assert_eq!(imported.ignored_keys, ["language"]);
        assert_eq!(imported.defaulted_keys, [KEY_BLACK, KEY_SKIP_ASSETS]);
    }

    #[test]
    fn import_rejects_wrong_types_naming_the_key() {
        let err = ImportedSettings::from_value(&json!({"followSkipAssets": "yes"})).unwrap_err();
        assert_eq!(
            err.to_string(),
            "`followSkipAssets` must be true or false, found a string"
        );
        let err =
            ImportedSettings::from_value(&json!({"followKeywordsBlack": [1, "x"]})).unwrap_err();
        assert!(err.to_string().contains("followKeywordsBlack"));
        assert_eq!(
            ImportedSettings::from_value(&json!([])).unwrap_err(),
            SettingsError::NotAnObject("an array")
        );
        assert!(matches!(
            ImportedSettings::from_json("{ nope"),
            Err(SettingsError::Json(msg)) if msg.contains("line 1")
        ));
    }

    #[test]
    fn import_refuses_a_list_over_a_limit_naming_it() {
        use crate::policy::limits::MAX_ITEMS;
        let many = vec!["kw"; MAX_ITEMS + 1];
        let err =
            ImportedSettings::from_value(&json!({ "followKeywordsBlack": many })).unwrap_err();
        assert_eq!(
            err.to_string(),
            "`followKeywordsBlack` has 10001 items; at most 10000 are supported"
        );
        assert!(matches!(err, SettingsError::TooLarge(o) if o.key() == KEY_BLACK));
        let at_limit = vec!["kw"; MAX_ITEMS];
        assert!(ImportedSettings::from_value(&json!({ "followKeywordsBlack": at_limit })).is_ok());
    }

    #[test]
    fn serde_uses_storage_keys_and_defaults_missing_ones() {
        let s: Settings = serde_json::from_str(r#"{"followSubdomain": true}"#).unwrap();
        assert!(s.follow_subdomain);
        assert_eq!(s.follow_keywords_white, DEFAULT_WHITE);
        let out = serde_json::to_value(Settings::default()).unwrap();
        let keys: Vec<_> = out.as_object().unwrap().keys().cloned().collect();
        let mut expected: Vec<_> = STORAGE_KEYS.iter().map(|k| k.to_string()).collect();
        expected.sort();
        let mut keys_sorted = keys;
        keys_sorted.sort();
        assert_eq!(keys_sorted, expected);
    }

    #[test]
    fn changed_keys_lists_what_differs_from_defaults() {
        let mut s = Settings::default();
        assert!(s.changed_keys().is_empty());
        s.follow_subdomain = true;
        s.follow_allowed_domains = "acmecorp.test".into();
        assert_eq!(s.changed_keys(), [KEY_SUBDOMAIN, KEY_ALLOWED]);
    }
}
