//! The settings on screen: edited in the settings panel and the top bar,
//! reset, a key reverted, a suggested domain allowed. Each re-decides the
//! shown pages without fetching (`loading::reclassify`).

use super::InspectorApp;
use crate::policy::Settings;
use crate::ui::command::SettingsCommand;

impl InspectorApp {
    pub(super) fn carry_out_settings(&mut self, command: SettingsCommand) {
        match command {
            SettingsCommand::SettingsEdited | SettingsCommand::LimitsEdited => self.reclassify(),
            SettingsCommand::ResetSettings => {
                self.settings = Settings::default();
                self.reclassify();
            }
            SettingsCommand::RevertKey(key) => {
                let defaults = serde_json::to_value(Settings::default()).ok();
                let current = serde_json::to_value(&self.settings).ok();
                if let (Some(d), Some(mut c)) = (defaults, current) {
                    c[key] = d[key].clone();
                    if let Ok(settings) = serde_json::from_value(c) {
                        self.settings = settings;
                        self.reclassify();
                    }
                }
            }
            SettingsCommand::AddAllowedDomain(domain) => {
                let list = &mut self.settings.follow_allowed_domains;
                if !list.trim().is_empty() {
                    list.push(',');
                }
                list.push_str(&domain);
                self.notice = Some(crate::copy::added_allowed_domain(&domain));
                self.reclassify();
            }
        }
    }
}
