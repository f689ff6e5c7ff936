//! Save for ticket: the loaded inspection written as a web archive on a
//! named thread (the file system is asked whether the file exists there, not
//! in a frame).

use std::path::PathBuf;
use std::time::SystemTime;

use crate::archive::{ArchiveError, SaveRequest, Saved};
use crate::inspect::Inspection;
use crate::ui::tasks::background::{Background, Status};

/// What to save, owned by the thread.
pub struct SaveJob {
    pub path: PathBuf,
    pub inspection: Inspection,
    pub profile: Option<String>,
    /// Replace the file when it exists (the user said so).
    pub overwrite: bool,
}

/// How a save ended.
pub enum SaveOutcome {
    Saved {
        saved: Saved,
        /// UTC, `YYYY-MM-DD HH:MM`.
        at: String,
    },
    /// The file exists and `overwrite` was not given: nothing was written.
    Exists(PathBuf),
    Failed(ArchiveError),
}

/// A save in progress.
pub struct SaveTask {
    work: Background<(), SaveOutcome>,
}

fn run(job: SaveJob) -> SaveOutcome {
    // Said in full in the status bar, so a relative path names where it went.
    let path = std::path::absolute(&job.path).unwrap_or(job.path);
    // `symlink_metadata`: a dangling link is a file that exists too.
    if !job.overwrite && std::fs::symlink_metadata(&path).is_ok() {
        return SaveOutcome::Exists(path);
    }
    let request = SaveRequest {
        inspection: &job.inspection,
        other: None,
        profile: job.profile.as_deref(),
    };
    match crate::archive::save(&path, &request) {
        Ok(saved) => SaveOutcome::Saved {
            saved,
            at: utc_minute(SystemTime::now()),
        },
        Err(e) => SaveOutcome::Failed(e),
    }
}

impl SaveTask {
    pub fn spawn(
        job: SaveJob,
        repaint: impl Fn() + Send + Sync + 'static,
    ) -> std::io::Result<SaveTask> {
        let work = Background::spawn("follow-inspector-save-archive", repaint, move |_| run(job))?;
        Ok(SaveTask { work })
    }

    /// `None` while running; never blocks.
    pub fn poll(&self) -> Option<SaveOutcome> {
        match self.work.poll(|()| {}) {
            Status::Running => None,
            Status::Finished(outcome) => Some(outcome),
            Status::Vanished => Some(SaveOutcome::Failed(ArchiveError::Write {
                path: PathBuf::new(),
                source: std::sync::Arc::new(crate::fetch::local_write::WriteError::Stream(
                    std::io::Error::other(crate::copy::BACKGROUND_TASK_STOPPED),
                )),
            })),
        }
    }
}

/// UTC `YYYY-MM-DD HH:MM` of `now`.
pub fn utc_minute(now: SystemTime) -> String {
    chrono::DateTime::<chrono::Utc>::from(now)
        .format("%Y-%m-%d %H:%M")
        .to_string()
}

#[cfg(test)]
mod tests {
    use std::time::UNIX_EPOCH;

    use super::*;

    #[test]
    fn the_time_is_said_in_utc() {
        assert_eq!(utc_minute(UNIX_EPOCH), "1970-01-01 00:00");
        let t = UNIX_EPOCH + std::time::Duration::from_secs(1_796_135_083);
        assert_eq!(utc_minute(t), "2026-12-01 14:24");
    }
}
