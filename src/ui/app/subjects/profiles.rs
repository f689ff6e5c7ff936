//! The current profile and the profiles' names; changed by `app/profiles.rs`.

use crate::policy::Settings;
use crate::profiles::BUILT_IN;

/// The current profile, as saved, and the profiles' names (the thread that
/// reads and writes them is `tasks.profiles`).
pub struct ProfileState {
    /// The current profile's name.
    pub name: String,
    /// The current profile as last saved: the settings are dirty when they differ.
    pub saved: Settings,
    pub names: Vec<String>,
    /// What happened to the profiles file; each stays until the user closes it.
    pub notices: Vec<String>,
    /// The settings on screen when a switch, import or delete was answered
    /// for: its outcome replaces only these, not edits made since.
    pub replaces: Option<Settings>,
}

impl ProfileState {
    pub fn new() -> Self {
        Self {
            name: BUILT_IN.to_owned(),
            saved: Settings::default(),
            names: vec![BUILT_IN.to_owned()],
            notices: Vec::new(),
            replaces: None,
        }
    }
}
