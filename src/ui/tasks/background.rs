//! One way to run work off the frame: a named thread that reports progress and
//! a result through a channel, a cancel flag it checks between steps, and a
//! poll that never blocks. Dropping the handle raises the cancel flag.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, Sender, TryRecvError};
use std::thread::JoinHandle;

enum Message<P, R> {
    Progress(P),
    Finished(R),
}

/// The work's side: reports progress (waking the window) and reads the cancel flag.
pub struct Reporter<P, R> {
    tx: Sender<Message<P, R>>,
    cancel: Arc<AtomicBool>,
    repaint: Arc<dyn Fn() + Send + Sync>,
}

impl<P, R> Reporter<P, R> {
    /// Sends `progress` to the frame; `false` when nobody listens any more.
    pub fn progress(&self, progress: P) -> bool {
        let sent = self.tx.send(Message::Progress(progress)).is_ok();
        (self.repaint)();
        sent
    }

    /// The flag the work checks to stop early; shared with what it calls.
    pub fn cancel_flag(&self) -> &Arc<AtomicBool> {
        &self.cancel
    }
}

/// What a poll found.
pub enum Status<R> {
    Running,
    Finished(R),
    /// The thread ended without a result: it panicked.
    Vanished,
}

/// A running piece of background work, `P` its progress, `R` its result.
pub struct Background<P, R> {
    rx: Receiver<Message<P, R>>,
    cancel: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl<P: Send + 'static, R: Send + 'static> Background<P, R> {
    /// Runs `work` on a thread called `name`; `repaint` wakes the window on
    /// every progress report and when the result is in.
    pub fn spawn(
        name: &str,
        repaint: impl Fn() + Send + Sync + 'static,
        work: impl FnOnce(&Reporter<P, R>) -> R + Send + 'static,
    ) -> std::io::Result<Self> {
        let (tx, rx) = mpsc::channel();
        let cancel = Arc::new(AtomicBool::new(false));
        let reporter = Reporter {
            tx,
            cancel: Arc::clone(&cancel),
            repaint: Arc::new(repaint),
        };
        let thread = std::thread::Builder::new()
            .name(name.to_owned())
            .spawn(move || {
                let result = work(&reporter);
                let _ = reporter.tx.send(Message::Finished(result));
                (reporter.repaint)();
            })?;
        Ok(Self {
            rx,
            cancel,
            thread: Some(thread),
        })
    }
}

impl<P, R> Background<P, R> {
    /// Hands every progress report that arrived to `on_progress`, in order;
    /// never blocks.
    pub fn poll(&self, mut on_progress: impl FnMut(P)) -> Status<R> {
        loop {
            match self.rx.try_recv() {
                Ok(Message::Progress(progress)) => on_progress(progress),
                Ok(Message::Finished(result)) => return Status::Finished(result),
                Err(TryRecvError::Empty) => return Status::Running,
                Err(TryRecvError::Disconnected) => return Status::Vanished,
            }
        }
    }

    /// Asks the work to stop at its next check.
    pub fn cancel(&self) {
        self.cancel.store(true, Ordering::SeqCst);
    }

    /// Waits for the thread to end (for work that must not be cut short).
    pub fn join(&mut self) {
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

impl<P, R> Drop for Background<P, R> {
    fn drop(&mut self) {
        self.cancel();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::Ordering;
    use std::time::{Duration, Instant};

    fn wait_for<R>(task: &Background<usize, R>, seen: &mut Vec<usize>) -> Status<R> {
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            match task.poll(|p| seen.push(p)) {
                Status::Running if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(2));
                }
                status => return status,
            }
        }
    }

    #[test]
    fn progress_arrives_in_order_then_the_result() {
        let task = Background::spawn(
            "fi-test-progress",
            || {},
            |r: &Reporter<usize, &str>| {
                for n in 1..=3 {
                    r.progress(n);
                }
                "done"
            },
        )
        .unwrap();
        let mut seen = Vec::new();
        assert!(matches!(
            wait_for(&task, &mut seen),
            Status::Finished("done")
        ));
        assert_eq!(seen, [1, 2, 3]);
    }

    #[test]
    fn the_work_runs_on_a_thread_with_the_given_name() {
        let task = Background::spawn(
            "fi-test-named",
            || {},
            |_: &Reporter<usize, _>| std::thread::current().name().map(str::to_owned),
        )
        .unwrap();
        let status = wait_for(&task, &mut Vec::new());
        assert!(matches!(status, Status::Finished(Some(name)) if name == "fi-test-named"));
    }

    #[test]
    fn dropping_the_handle_raises_the_cancel_flag() {
        let (tx, rx) = mpsc::channel();
        let task = Background::spawn(
            "fi-test-cancel",
            || {},
            move |r: &Reporter<usize, ()>| {
                let _ = tx.send(Arc::clone(r.cancel_flag()));
                while !r.cancel_flag().load(Ordering::SeqCst) {
                    std::thread::sleep(Duration::from_millis(1));
                }
            },
        )
        .unwrap();
        let flag = rx.recv().unwrap();
        assert!(!flag.load(Ordering::SeqCst));
        drop(task);
        assert!(flag.load(Ordering::SeqCst));
    }

    #[test]
    fn a_panicking_thread_is_reported_as_vanished() {
        let task = Background::spawn(
            "fi-test-panic",
            || {},
            |_: &Reporter<usize, ()>| panic!("on purpose"),
        )
        .unwrap();
        assert!(matches!(wait_for(&task, &mut Vec::new()), Status::Vanished));
    }
}
