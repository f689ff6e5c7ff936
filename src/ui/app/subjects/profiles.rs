//! The current profile and the profiles thread; changed by `app/profiles.rs`.

use crate::policy::Settings;
use crate::profiles::BUILT_IN;
use crate::ui::tasks::profiles::ProfileWorker;

/// The current profile, as saved, the profiles' names, and the thread that
/// reads and writes them.
pub struct ProfileState {
    /// Reads and writes the profiles off the frame; `None` if its thread
    /// could not start (a notice says so).
    pub worker: Option<ProfileWorker>,
    /// The current profile's name.
    pub name: String,
    /// The current profile as last saved: the settings are dirty when they differ.
    pub saved: Settings,
    pub names: Vec<String>,
    /// What happened to the profiles file; each stays until the user closes it.
    pub notices: Vec<String>,
}

impl ProfileState {
    pub fn new() -> Self {
        Self {
            worker: None,
            name: BUILT_IN.to_owned(),
            saved: Settings::default(),
            names: vec![BUILT_IN.to_owned()],
            notices: Vec::new(),
        }
    }
}
