//! The browsers' temporary profile folders, `follow-inspector-browser-<pid>-N`
//! in the temporary directory: removed once the whole browser (its process
//! group) has exited, also on SIGINT and SIGTERM; folders left by an
//! inspector killed with SIGKILL are removed by the next one to launch a
//! browser.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
use std::sync::{Mutex, Once};
use std::time::{Duration, Instant};

const PREFIX: &str = "follow-inspector-browser-";
/// How long a killed browser's processes get to go before the folder is
/// removed anyway.
const EXIT_WAIT: Duration = Duration::from_secs(3);

/// The running browsers: process group and profile folder.
static LIVE: Mutex<Vec<(i32, PathBuf)>> = Mutex::new(Vec::new());
static SIGNAL_PIPE: AtomicI32 = AtomicI32::new(-1);
/// SIGINT or SIGTERM arrived: the watcher is cleaning up and will end the
/// process by the signal.
static SIGNALLED: AtomicBool = AtomicBool::new(false);
static SETUP: Once = Once::new();

/// A new profile folder's path for this process.
pub fn new_dir(n: u64) -> PathBuf {
    std::env::temp_dir().join(format!("{PREFIX}{}-{n}", std::process::id()))
}

/// Once per process: removes stale folders and installs the signal cleanup.
pub fn set_up() {
    SETUP.call_once(|| {
        remove_stale(&std::env::temp_dir());
        install_signal_cleanup();
    });
}

/// Waits for the end when a signal's cleanup runs: the killed browser makes
/// the page fail, and the inspector must not exit with that error first.
pub fn hold_if_signalled() {
    while SIGNALLED.load(Ordering::SeqCst) {
        std::thread::park();
    }
}

/// Remembers a running browser, for the signal cleanup.
pub fn track(group: i32, dir: &Path) {
    if let Ok(mut live) = LIVE.lock() {
        live.push((group, dir.to_path_buf()));
    }
}

/// Kills the browser's whole process group, waits for it to go, removes its
/// folder. `reap` waits for the browser process itself.
pub fn stop(group: i32, dir: &Path, reap: impl FnOnce()) {
    // SAFETY: kill has no memory preconditions; a negative pid names the group.
    unsafe { libc::kill(-group, libc::SIGKILL) };
    reap();
    wait_group_gone(group);
    let _ = std::fs::remove_dir_all(dir);
    if let Ok(mut live) = LIVE.lock() {
        live.retain(|(g, _)| *g != group);
    }
}

fn wait_group_gone(group: i32) {
    let until = Instant::now() + EXIT_WAIT;
    // SAFETY: signal 0 only asks whether the group still has a process.
    while unsafe { libc::kill(-group, 0) } == 0 && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Removes the folders of inspectors that no longer run.
fn remove_stale(tmp: &Path) {
    let Ok(entries) = std::fs::read_dir(tmp) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name
            .to_str()
            .and_then(|n| n.strip_prefix(PREFIX))
            .and_then(|rest| rest.split('-').next())
            .and_then(|pid| pid.parse::<i32>().ok())
        else {
            continue;
        };
        if pid != std::process::id() as i32 && !alive(pid) {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

fn alive(pid: i32) -> bool {
    // SAFETY: signal 0 sends nothing; EPERM means it runs as another user.
    unsafe { libc::kill(pid, 0) == 0 || *libc::__errno_location() == libc::EPERM }
}

extern "C" fn on_signal(signal: libc::c_int) {
    let fd = SIGNAL_PIPE.load(Ordering::SeqCst);
    let byte = signal as u8;
    // SAFETY: write is async-signal-safe; the watcher thread does the rest.
    unsafe { libc::write(fd, (&raw const byte).cast(), 1) };
}

/// SIGINT and SIGTERM stop every browser and remove its folder, then end
/// the process by the same signal (so the exit status says 130 or 143).
fn install_signal_cleanup() {
    let mut fds = [0; 2];
    // SAFETY: `fds` has room for the two descriptors pipe2 writes.
    if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
        return;
    }
    SIGNAL_PIPE.store(fds[1], Ordering::SeqCst);
    let read_end = fds[0];
    let watcher = std::thread::Builder::new()
        .name("follow-inspector-signals".into())
        .spawn(move || {
            let mut byte = 0u8;
            // SAFETY: reading one byte into a live local from our own pipe.
            let n = unsafe { libc::read(read_end, (&raw mut byte).cast(), 1) };
            if n != 1 {
                return;
            }
            SIGNALLED.store(true, Ordering::SeqCst);
            let live = LIVE.lock().map(|l| l.clone()).unwrap_or_default();
            for (group, dir) in live {
                // SAFETY: the group is our browser, its leader our child.
                stop(group, &dir, || unsafe {
                    libc::waitpid(group, std::ptr::null_mut(), 0);
                });
            }
            let signal = libc::c_int::from(byte);
            // SAFETY: back to the default action, then die by the signal.
            unsafe {
                libc::signal(signal, libc::SIG_DFL);
                libc::raise(signal);
            }
        });
    if watcher.is_err() {
        return;
    }
    for signal in [libc::SIGINT, libc::SIGTERM] {
        // SAFETY: the handler only writes one byte to a pipe.
        unsafe { libc::signal(signal, on_signal as *const () as libc::sighandler_t) };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_folders_of_dead_inspectors_are_removed() {
        let tmp = std::env::temp_dir().join(format!("fi-profile-test-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&tmp);
        std::fs::create_dir_all(&tmp).unwrap();
        // A pid above the kernel's maximum is never alive.
        let dead = tmp.join(format!("{PREFIX}99999999-0"));
        let ours = tmp.join(format!("{PREFIX}{}-0", std::process::id()));
        let init = tmp.join(format!("{PREFIX}1-3"));
        let other = tmp.join("follow-inspector-notes");
        for dir in [&dead, &ours, &init, &other] {
            std::fs::create_dir_all(dir.join("Default")).unwrap();
        }
        remove_stale(&tmp);
        assert!(!dead.exists());
        assert!(ours.exists() && init.exists() && other.exists());
        std::fs::remove_dir_all(&tmp).unwrap();
    }
}
