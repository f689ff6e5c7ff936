//! From parsed arguments to what the commands run with: validated durations,
//! the fetching the options ask for, settings from a profile or a file, and
//! the load request (ripgrep's `hiargs` to the `lowargs` in `args`).

use std::path::Path;
use std::time::Duration;

use anyhow::{Context as _, anyhow};

use super::args::{AgainstArgs, FetchArgs, InspectArgs};
use super::failure::Failure;
use super::output::say;
use crate::copy;
use crate::fetch::local::{self, FileError};
use crate::fetch::{self, FetchOptions};
use crate::inspect::Limits;
use crate::load::{Fetching, FromCapture, LoadRequest};
use crate::policy::{ImportedSettings, Settings, over_limits};
use crate::profiles::ProfileStore;

fn seconds(name: &str, s: f64) -> anyhow::Result<Duration> {
    Duration::try_from_secs_f64(s)
        .ok()
        .filter(|d| !d.is_zero())
        .ok_or_else(|| anyhow!("--{name} must be a positive number of seconds"))
}

impl FetchArgs {
    pub fn options(&self) -> anyhow::Result<FetchOptions> {
        Ok(FetchOptions {
            user_agent: self
                .user_agent
                .clone()
                .unwrap_or_else(|| fetch::DEFAULT_USER_AGENT.to_owned()),
            connect_timeout: seconds("connect-timeout", self.connect_timeout)?,
            timeout: seconds("timeout", self.timeout)?,
            max_bytes: self.max_bytes,
            resolve: self.resolve.clone(),
            allow_private_network: self.allow_private_network,
        })
    }

    /// How URL targets are fetched: the HTTP client, or a browser (whose
    /// pages keep what they loaded when the capture is `saved`).
    fn fetching(&self, saved: bool) -> anyhow::Result<Fetching> {
        let fetch = self.options()?;
        if !self.render {
            return Ok(Fetching::Http(fetch));
        }
        Ok(Fetching::Rendered {
            browser: self.browser.clone(),
            wait: self.wait.into(),
            timeout: seconds("render-timeout", self.render_timeout)?,
            fetch,
            capture_all: self.capture_all,
            keep_resources: saved,
        })
    }
}

/// The crawl depth when none is given (SPEC 7).
pub const DEFAULT_DEPTH: u32 = 2;

/// What `inspect` (and each side of `diff`) loads, with side A's settings.
pub fn load_request(args: &InspectArgs, config_dir: Option<&Path>) -> Result<LoadRequest, Failure> {
    Ok(LoadRequest {
        target: args.target.clone(),
        base_url: args.base_url.clone(),
        limits: Limits {
            depth: args.depth.unwrap_or(DEFAULT_DEPTH),
            limit_override: args.limit,
        },
        settings: side_a(
            args.profile.as_deref(),
            args.settings.as_deref(),
            config_dir,
        )?,
        // Only a capture that is saved keeps what its pages loaded.
        fetching: args
            .fetch
            .fetching(args.save_warc.is_some())
            .map_err(Failure::Usage)?,
        parallelism: args.fetch.parallel.map(|n| n as usize),
        max_bytes: args.fetch.max_bytes,
        // SPEC 10: a reopened archive keeps its own unless told otherwise.
        from_capture: FromCapture {
            settings: args.profile.is_none() && args.settings.is_none(),
            depth: args.depth.is_none(),
            limit: args.limit.is_none(),
        },
    })
}

pub fn open_store(config_dir: Option<&Path>) -> Result<ProfileStore, Failure> {
    let store = ProfileStore::open(config_dir)
        .context("cannot open the settings profiles")
        .map_err(Failure::Usage)?;
    for notice in store.take_notices() {
        say(&format!("warning: {notice}"));
    }
    Ok(store)
}

/// Side A: a profile or a settings file; neither gives the defaults.
pub fn side_a(
    profile: Option<&str>,
    file: Option<&Path>,
    config_dir: Option<&Path>,
) -> Result<Settings, Failure> {
    load_settings(profile, file, "profile", config_dir)
}

/// Side B of `diff` and `corpus`, when one is given.
pub fn side_b(args: &AgainstArgs, config_dir: Option<&Path>) -> Result<Option<Settings>, Failure> {
    let (profile, file) = (args.against.as_deref(), args.against_settings.as_deref());
    if profile.is_none() && file.is_none() {
        return Ok(None);
    }
    load_settings(profile, file, "against", config_dir).map(Some)
}

/// Reads a profile or a settings file, reporting ignored keys on stderr;
/// neither gives the defaults. `profile_flag` names the profile's option in
/// errors.
fn load_settings(
    profile: Option<&str>,
    file: Option<&Path>,
    profile_flag: &str,
    config_dir: Option<&Path>,
) -> Result<Settings, Failure> {
    if let Some(name) = profile {
        let settings = open_store(config_dir)?
            .load(name)
            .with_context(|| format!("--{profile_flag} {name}"))
            .map_err(Failure::Usage)?;
        // A profile written by hand skips the import's limits: the same refusal.
        return match over_limits(&settings).into_iter().next() {
            Some(over) => Err(Failure::Usage(
                anyhow::Error::new(over).context(format!("--{profile_flag} {name}")),
            )),
            None => Ok(settings),
        };
    }
    let Some(path) = file else {
        return Ok(Settings::default());
    };
    let text = local::read_text(path).map_err(|e| {
        Failure::Usage(match e {
            FileError::Io { source, .. } => anyhow::Error::new(source)
                .context(format!("cannot read settings file {}", path.display())),
            other => anyhow::Error::new(other).context("settings file"),
        })
    })?;
    let imported = ImportedSettings::from_json(&text)
        .with_context(|| format!("invalid settings in {}", path.display()))
        .map_err(Failure::Usage)?;
    if !imported.ignored_keys.is_empty() {
        say(&format!(
            "note: {}",
            copy::settings_file_ignored_keys(&path.display().to_string(), &imported.ignored_keys)
        ));
    }
    Ok(imported.settings)
}
