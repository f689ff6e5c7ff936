//! Profile reads and writes in the background, so a slow disk, a lock held by
//! another instance or an fsync never stalls a frame. Requests run in the order
//! they were sent; each reply carries the profile names as they are now and
//! whatever the user must be told. Dropping the worker waits for the queued
//! requests, so a save asked for just before quitting is not lost.

use std::path::PathBuf;

use crate::policy::{ImportedSettings, Settings};
use crate::profiles::{BUILT_IN, ProfileError, ProfileStore};
use crate::ui::state::{AfterUnsaved, NameAction};
use crate::ui::tasks::request_worker::RequestWorker;

/// Something to do with the profiles.
#[derive(Debug)]
pub enum Request {
    Open(Option<PathBuf>),
    Export {
        path: String,
        json: String,
    },
    /// Needs the opened store.
    Store(StoreRequest),
}

#[derive(Debug)]
pub enum StoreRequest {
    Switch(String),
    /// Read a profile without making it active (for Compare).
    Peek(String),
    Save {
        name: String,
        settings: Settings,
        then: Option<AfterUnsaved>,
    },
    /// `settings` are what Save as stores; for every action, the settings on
    /// screen the stored ones may replace (see `Outcome::Named::replaces`).
    Named {
        action: NameAction,
        name: String,
        current: String,
        settings: Settings,
        then: Option<AfterUnsaved>,
    },
    Delete(String),
    /// Store `settings` under the new `name`, leaving the active profile as it is.
    SaveCopy {
        name: String,
        settings: Settings,
    },
    /// `json`, or the file at `path` when it is not empty.
    Import {
        name: String,
        json: String,
        path: String,
    },
}

/// What a request came to.
#[derive(Debug)]
pub enum Outcome {
    /// The store opened; the active profile's name and settings.
    Opened {
        active: String,
        settings: Settings,
    },
    /// The store or its active profile could not be opened: the built-in
    /// profile is used, and the message stays on screen.
    OpenFailed(String),
    Switched {
        name: String,
        settings: Settings,
    },
    Peeked {
        name: String,
        settings: Settings,
    },
    Saved {
        name: String,
        settings: Settings,
        then: Option<AfterUnsaved>,
    },
    Named {
        stored: String,
        /// The new profile's settings as saved.
        saved: Settings,
        /// The settings on screen this may replace, as they were when the
        /// unsaved-changes question was answered: edits made since are kept.
        replaces: Settings,
        /// The profile a Duplicate copied, to say that the copy exists.
        copy_of: Option<String>,
        then: Option<AfterUnsaved>,
    },
    Deleted(String),
    /// A copy was stored under its name as stored.
    SavedCopy {
        name: String,
        settings: Settings,
    },
    Imported {
        stored: String,
        imported: ImportedSettings,
    },
    Exported(String),
    /// The request failed; shown in the open dialog when there is one.
    Failed(String),
}

#[derive(Debug)]
pub struct Reply {
    pub outcome: Outcome,
    /// All profile names after the request (`None` when there is no store).
    pub names: Option<Vec<String>>,
    /// What happened to the profiles file, for the notices that stay on screen.
    pub notices: Vec<String>,
}

/// The profiles thread: requests in, one reply per request out.
pub type ProfileWorker = RequestWorker<Request, Reply>;

fn run(request: Request, store: &mut Option<ProfileStore>) -> Outcome {
    match request {
        Request::Open(config_dir) => match ProfileStore::open(config_dir.as_deref()) {
            Ok(opened) => {
                let active = opened.active().unwrap_or_else(|_| BUILT_IN.to_owned());
                let outcome = match opened.load(&active) {
                    Ok(settings) => Outcome::Opened { active, settings },
                    Err(e) => Outcome::OpenFailed(format!("{e:#}")),
                };
                *store = Some(opened);
                outcome
            }
            Err(e) => Outcome::OpenFailed(crate::copy::profiles_unavailable(&format!("{e:#}"))),
        },
        Request::Export { path, json } => {
            let path = path.trim().to_owned();
            match std::fs::write(&path, json + "\n") {
                Ok(()) => Outcome::Exported(path),
                Err(e) => Outcome::Failed(crate::copy::cannot_write(&path, &e)),
            }
        }
        Request::Store(request) => match store.as_ref() {
            Some(store) => run_on(store, request).unwrap_or_else(Outcome::Failed),
            None => Outcome::Failed(crate::copy::PROFILES_NOT_SAVED.into()),
        },
    }
}

fn run_on(store: &ProfileStore, request: StoreRequest) -> Result<Outcome, String> {
    let failed = |e: ProfileError| format!("{e:#}");
    match request {
        StoreRequest::Switch(name) => {
            let settings = store.load(&name).map_err(failed)?;
            store.set_active(&name).map_err(failed)?;
            Ok(Outcome::Switched { name, settings })
        }
        StoreRequest::Peek(name) => {
            let settings = store.load(&name).map_err(failed)?;
            Ok(Outcome::Peeked { name, settings })
        }
        StoreRequest::Save {
            name,
            settings,
            then,
        } => {
            store.save(&name, &settings).map_err(failed)?;
            Ok(Outcome::Saved {
                name,
                settings,
                then,
            })
        }
        StoreRequest::Named {
            action,
            name,
            current,
            settings,
            then,
        } => {
            let stored = match action {
                // A suggestion is stored by `SaveCopy`, never made active.
                NameAction::SaveAs | NameAction::SaveSuggestion => store.save_as(&name, &settings),
                NameAction::Rename => store.rename(&current, &name),
                // The built-in profile is not stored: its copy is the
                // settings on screen (it holds no saved edits).
                NameAction::Duplicate if current == crate::profiles::BUILT_IN => {
                    store.save_as(&name, &settings)
                }
                NameAction::Duplicate => store.duplicate(&current, &name),
            }
            .map_err(failed)?;
            store.set_active(&stored).map_err(failed)?;
            // Save as stores the current edits; Rename and Duplicate take the
            // profile as saved (an edited one is saved or its edits dropped first).
            let saved = match action {
                NameAction::SaveAs | NameAction::SaveSuggestion => settings.clone(),
                NameAction::Duplicate if current == crate::profiles::BUILT_IN => settings.clone(),
                NameAction::Rename | NameAction::Duplicate => {
                    store.load(&stored).map_err(failed)?
                }
            };
            Ok(Outcome::Named {
                stored,
                saved,
                replaces: settings,
                copy_of: (action == NameAction::Duplicate).then_some(current),
                then,
            })
        }
        StoreRequest::Delete(name) => {
            store.delete(&name).map_err(failed)?;
            Ok(Outcome::Deleted(name))
        }
        StoreRequest::SaveCopy { name, settings } => {
            let name = store.save_as(&name, &settings).map_err(failed)?;
            Ok(Outcome::SavedCopy { name, settings })
        }
        StoreRequest::Import { name, json, path } => {
            let text = if path.trim().is_empty() {
                json
            } else {
                std::fs::read_to_string(path.trim())
                    .map_err(|e| crate::copy::cannot_read(path.trim(), &e))?
            };
            let (stored, imported) = store.import(&name, &text).map_err(failed)?;
            store.set_active(&stored).map_err(failed)?;
            Ok(Outcome::Imported { stored, imported })
        }
    }
}

impl ProfileWorker {
    /// Starts the thread; `repaint` is called after every reply.
    pub fn spawn(repaint: impl Fn() + Send + Sync + 'static) -> std::io::Result<Self> {
        let mut store = None;
        let stopped = || Reply {
            outcome: Outcome::Failed(crate::copy::PROFILES_THREAD_STOPPED.into()),
            names: None,
            notices: Vec::new(),
        };
        RequestWorker::start(
            "follow-inspector-profiles",
            repaint,
            stopped,
            move |request| {
                let outcome = run(request, &mut store);
                let (names, notices) = match &store {
                    Some(s) => (s.list().ok(), s.take_notices()),
                    None => (None, Vec::new()),
                };
                Reply {
                    outcome,
                    names,
                    notices,
                }
            },
        )
    }
}
