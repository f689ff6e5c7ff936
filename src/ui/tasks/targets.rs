//! The targets file read and written on a thread of its own, so a slow disk
//! never stalls a frame. Requests run in the order they were sent. A mark
//! reads the file again first: when it is not what was last read (edited in
//! another program meanwhile), nothing is written and the new text is taken
//! in. Writes go to a file beside it, renamed into place.

use std::fs::{self, OpenOptions};
use std::io::{ErrorKind, Write as _};
use std::path::{Path, PathBuf};

use crate::copy;
use crate::corpus::truth::Targets;
use crate::corpus::truth::edit::{self, Edit, Mark, NEW_TARGETS_HEADER};
use crate::fetch::local::{self, FileError};
use crate::fetch::local_write::{self, Streams, WriteError};
use crate::ui::tasks::request_worker::RequestWorker;

#[derive(Debug)]
pub enum TargetsRequest {
    /// Read the file; with `create`, first write a new one holding only the
    /// header when there is none.
    Open { path: PathBuf, create: bool },
    /// Mark a link in the file opened last.
    Mark(Mark),
    /// Put back the text the last mark replaced.
    Undo,
}

#[derive(Debug)]
pub enum TargetsOutcome {
    Opened {
        path: PathBuf,
        targets: Targets,
        created: bool,
    },
    /// There is no such file: ask whether to create it.
    Missing(PathBuf),
    Marked {
        path: PathBuf,
        targets: Targets,
        edit: Edit,
        url: String,
        written: Written,
    },
    /// The last mark was undone.
    Undone {
        path: PathBuf,
        targets: Targets,
        written: Written,
    },
    /// Nothing was written. `targets`: the file as it was read again.
    Failed {
        message: String,
        targets: Option<(PathBuf, Targets)>,
    },
}

/// A text's fingerprint: equal texts have equal ones (a different text the
/// same one by chance only, 1 in 2^64).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fingerprint(u64);

impl Fingerprint {
    fn of(text: &str) -> Self {
        use std::hash::{Hash as _, Hasher as _};
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        text.hash(&mut hasher);
        Self(hasher.finish())
    }
}

/// The file's text before and after a mark or an undo, so the window can
/// tell when its file is back to what a run read (every mark since undone)
/// without keeping the text itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Written {
    pub was: Fingerprint,
    pub now: Fingerprint,
}

/// The targets thread: requests in, one outcome per request out.
pub type TargetsWorker = RequestWorker<TargetsRequest, TargetsOutcome>;

/// The file in use and its text as last read or written.
struct OpenFile {
    path: PathBuf,
    text: String,
    /// The text before the last mark written, for Undo.
    before: Option<String>,
}

fn is_missing(err: &FileError) -> bool {
    matches!(err, FileError::Io { source, .. } if source.kind() == ErrorKind::NotFound)
}

fn parse(text: &str, path: &Path) -> Result<Targets, String> {
    if text.trim().is_empty() {
        return Ok(Targets::default());
    }
    Targets::parse(text.as_bytes(), path).map_err(|e| copy::cannot_read_targets(&e))
}

fn open(path: PathBuf, create: bool, file: &mut Option<OpenFile>) -> TargetsOutcome {
    let failed = |message| TargetsOutcome::Failed {
        message,
        targets: None,
    };
    let mut created = false;
    if create {
        // Never over a file that appeared meanwhile.
        let made = OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&path)
            .and_then(|mut f| f.write_all(format!("{NEW_TARGETS_HEADER}\n").as_bytes()));
        match made {
            Ok(()) => created = true,
            Err(e) if e.kind() == ErrorKind::AlreadyExists => {}
            Err(e) => return failed(copy::cannot_write_targets(&path, &e)),
        }
    }
    let text = match local::read_text(&path) {
        Ok(text) => text,
        Err(e) if is_missing(&e) => return TargetsOutcome::Missing(path),
        Err(e) => return failed(copy::cannot_read_targets(&e)),
    };
    match parse(&text, &path) {
        Ok(targets) => {
            *file = Some(OpenFile {
                path: path.clone(),
                text,
                before: None,
            });
            TargetsOutcome::Opened {
                path,
                targets,
                created,
            }
        }
        Err(message) => failed(message),
    }
}

/// Writes `text` in place of the file through [`local_write`] (a new file
/// renamed over it, its permissions kept); a failed write leaves no partial
/// file behind, and a link, pipe or device put at the path is not written.
fn write_atomically(path: &Path, text: &str) -> Result<(), WriteError> {
    local_write::write_file(path, Streams::Refuse, |out| out.write_all(text.as_bytes())).map(|_| ())
}

fn failed(message: String) -> TargetsOutcome {
    TargetsOutcome::Failed {
        message,
        targets: None,
    }
}

/// The file's text when it is still what was last read or written; else
/// why not, with the new text taken in (nothing may be written over it).
fn unchanged_text(open: &mut OpenFile) -> Result<String, TargetsOutcome> {
    let path = open.path.clone();
    let text = match local::read_text(&path) {
        Ok(text) => text,
        Err(e) if is_missing(&e) => return Err(failed(copy::targets_gone(&path))),
        Err(e) => return Err(failed(copy::cannot_read_targets(&e))),
    };
    if text == open.text {
        return Ok(text);
    }
    let message = copy::targets_changed_on_disk(&path);
    open.text.clone_from(&text);
    open.before = None;
    Err(match parse(&text, &path) {
        Ok(targets) => TargetsOutcome::Failed {
            message,
            targets: Some((path, targets)),
        },
        Err(problem) => failed(format!("{message} {problem}")),
    })
}

/// Writes `text` in place of the file, then reads it back: the table shows
/// what the file holds.
fn write_and_read_back(open: &mut OpenFile, text: &str) -> Result<Targets, TargetsOutcome> {
    let path = &open.path;
    if fs::metadata(path).is_ok_and(|m| m.permissions().readonly()) {
        return Err(failed(copy::targets_read_only(path)));
    }
    write_atomically(path, text).map_err(|e| failed(copy::cannot_write_targets(path, &e)))?;
    let written = local::read_text(path).map_err(|e| failed(copy::cannot_read_targets(&e)))?;
    open.text.clone_from(&written);
    parse(&written, path).map_err(failed)
}

fn mark(mark: Mark, file: &mut Option<OpenFile>) -> TargetsOutcome {
    let Some(open) = file else {
        return failed(copy::CHOOSE_TARGETS_FILE_FIRST.into());
    };
    let text = match unchanged_text(open) {
        Ok(text) => text,
        Err(outcome) => return outcome,
    };
    let (new_text, edit) = match edit::apply_mark(&text, &mark) {
        Ok(done) => done,
        Err(e) => return failed(copy::cannot_read_targets(&e)),
    };
    let written = if edit == Edit::Unchanged {
        parse(&text, &open.path).map_err(failed)
    } else {
        write_and_read_back(open, &new_text)
    };
    match written {
        Ok(targets) => {
            let written = Written {
                was: Fingerprint::of(&text),
                now: Fingerprint::of(&open.text),
            };
            if edit != Edit::Unchanged {
                open.before = Some(text);
            }
            TargetsOutcome::Marked {
                path: open.path.clone(),
                targets,
                edit,
                url: mark.url,
                written,
            }
        }
        Err(outcome) => outcome,
    }
}

fn undo(file: &mut Option<OpenFile>) -> TargetsOutcome {
    let Some(open) = file else {
        return failed(copy::CHOOSE_TARGETS_FILE_FIRST.into());
    };
    let marked = match unchanged_text(open) {
        Ok(text) => text,
        Err(outcome) => return outcome,
    };
    let Some(before) = open.before.take() else {
        return failed(copy::NOTHING_TO_UNDO.into());
    };
    match write_and_read_back(open, &before) {
        Ok(targets) => TargetsOutcome::Undone {
            path: open.path.clone(),
            targets,
            written: Written {
                was: Fingerprint::of(&marked),
                now: Fingerprint::of(&open.text),
            },
        },
        Err(outcome) => {
            open.before = Some(before);
            outcome
        }
    }
}

impl TargetsWorker {
    /// Starts the thread; `repaint` is called after every outcome.
    pub fn spawn(repaint: impl Fn() + Send + Sync + 'static) -> std::io::Result<Self> {
        let mut file = None;
        let stopped = || TargetsOutcome::Failed {
            message: copy::TARGETS_THREAD_STOPPED.into(),
            targets: None,
        };
        RequestWorker::start(
            "follow-inspector-targets",
            repaint,
            stopped,
            move |request| match request {
                TargetsRequest::Open { path, create } => open(path, create, &mut file),
                TargetsRequest::Mark(m) => mark(m, &mut file),
                TargetsRequest::Undo => undo(&mut file),
            },
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mark_over_a_targets_file_swapped_for_a_link_writes_nothing() {
        let dir = std::env::temp_dir().join(format!("fi-targets-link-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        let elsewhere = dir.join("elsewhere.tsv");
        let precious = format!("{NEW_TARGETS_HEADER}\n");
        fs::write(&elsewhere, &precious).unwrap();
        let path = dir.join("targets.tsv");
        std::os::unix::fs::symlink(&elsewhere, &path).unwrap();
        let mut file = Some(OpenFile {
            path: path.clone(),
            text: precious.clone(),
            before: None,
        });
        let outcome = mark(
            Mark {
                id: "https://acme.test/".into(),
                url: "https://acme.test/kontakt".into(),
                index: 0,
                text: "Kontakt".into(),
                kind: Some(crate::corpus::truth::TargetKind::Contact),
            },
            &mut file,
        );
        let TargetsOutcome::Failed { message, .. } = outcome else {
            panic!("{outcome:?}");
        };
        assert!(
            message.contains("it is a symbolic link") && message.ends_with("Nothing was changed."),
            "{message}"
        );
        assert_eq!(fs::read_to_string(&elsewhere).unwrap(), precious);
        assert!(path.symlink_metadata().unwrap().file_type().is_symlink());
        let mut names: Vec<_> = fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        names.sort();
        assert_eq!(names, ["elsewhere.tsv", "targets.tsv"]);
    }
}
