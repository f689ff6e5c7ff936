//! `profiles`: list, show, import, export and delete settings profiles.

use std::io::Write as _;
use std::path::Path;

use anyhow::Context as _;

use super::args::ProfilesCommand;
use super::failure::Failure;
use super::output::{report_out, say, text_out};
use super::setup::open_store;
use crate::copy;
use crate::fetch::local;
use crate::profiles::{self, ProfileError};
use crate::report;

/// A listing or a profile's keys, escaped as every line of text is.
fn print(text: &str) {
    let mut out = text_out();
    let _ = out.write_all(text.as_bytes()).and_then(|()| out.flush());
}

/// Runs `profiles …`.
pub fn run_profiles(command: &ProfilesCommand, config_dir: Option<&Path>) -> Result<(), Failure> {
    let store = open_store(config_dir)?;
    let fail = |e: ProfileError| Failure::Usage(e.into());
    match command {
        ProfilesCommand::List => {
            let active = store.active().map_err(fail)?;
            let mut out = String::new();
            for name in store.list().map_err(fail)? {
                let mark = if name == active { "*" } else { " " };
                let builtin = if name == profiles::BUILT_IN {
                    copy::BUILT_IN_MARK
                } else {
                    ""
                };
                // A name from a file written before control characters were
                // refused is still shown escaped.
                let shown = report::escape(&name, false);
                out.push_str(&format!("{mark} {shown}{builtin}\n"));
            }
            print(&out);
        }
        ProfilesCommand::Show { name } => {
            let settings = store.load(name).map_err(fail)?;
            let changed = settings.changed_keys();
            let value = serde_json::to_value(&settings).map_err(|e| Failure::Usage(e.into()))?;
            let mut out = format!("{}\n", report::escape(name, false));
            for key in crate::policy::settings::STORAGE_KEYS {
                let mark = if changed.contains(&key) {
                    copy::CHANGED_MARK
                } else {
                    ""
                };
                out.push_str(&format!("  {key} = {}{mark}\n", value[key]));
            }
            print(&out);
        }
        ProfilesCommand::Export { name } => {
            let mut json = store.export(name).map_err(fail)?;
            json.push('\n');
            // JSON, exact: its strings are escaped by serde_json.
            let mut out = report_out();
            let _ = out.write_all(json.as_bytes()).and_then(|()| out.flush());
        }
        ProfilesCommand::Import {
            file,
            name,
            replace,
        } => {
            let text = if file.as_os_str() == "-" {
                local::read_text_from(std::io::stdin(), Path::new("stdin"))
            } else {
                local::read_text(file)
            }
            .context("cannot import")
            .map_err(Failure::Usage)?;
            let (stored, imported) = if *replace {
                store.import_replacing(name, &text)
            } else {
                store.import(name, &text)
            }
            .with_context(|| format!("cannot import {}", file.display()))
            .map_err(Failure::Usage)?;
            if !imported.ignored_keys.is_empty() {
                say(&copy::ignored_keys(&imported.ignored_keys));
            }
            if !imported.defaulted_keys.is_empty() {
                say(&copy::defaulted_keys(&imported.defaulted_keys));
            }
            say(&copy::imported_as(&stored));
        }
        ProfilesCommand::Delete { name } => {
            store.delete(name).map_err(fail)?;
            say(&copy::profile_deleted(name));
        }
    }
    Ok(())
}
