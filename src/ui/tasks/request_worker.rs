//! A named thread that answers requests one at a time, in the order they were
//! sent, one answer each. Dropping it waits for the queued requests, so a
//! write asked for just before quitting is not lost.

use std::sync::mpsc::{self, Sender};

use crate::ui::tasks::background::{Background, Status};

pub struct RequestWorker<Q, A> {
    requests: Option<Sender<Q>>,
    work: Background<A, ()>,
    in_flight: usize,
    /// The answer to each request still unanswered when the thread is gone.
    stopped: fn() -> A,
}

impl<Q: Send + 'static, A: Send + 'static> RequestWorker<Q, A> {
    /// Starts the thread; `repaint` is called after every answer.
    pub fn start(
        name: &str,
        repaint: impl Fn() + Send + Sync + 'static,
        stopped: fn() -> A,
        mut answer: impl FnMut(Q) -> A + Send + 'static,
    ) -> std::io::Result<Self> {
        let (requests, inbox) = mpsc::channel::<Q>();
        let work = Background::spawn(name, repaint, move |answers| {
            // Ends when the app drops its sender, after the queued requests.
            // The cancel flag is not read: a queued write must not be lost.
            for request in inbox {
                if !answers.progress(answer(request)) {
                    break;
                }
            }
        })?;
        Ok(Self {
            requests: Some(requests),
            work,
            in_flight: 0,
            stopped,
        })
    }
}

impl<Q, A> RequestWorker<Q, A> {
    /// Queues a request; `false` when the thread is gone.
    pub fn send(&mut self, request: Q) -> bool {
        let sent = self
            .requests
            .as_ref()
            .is_some_and(|tx| tx.send(request).is_ok());
        if sent {
            self.in_flight += 1;
        }
        sent
    }

    /// Requests not answered yet.
    pub fn is_busy(&self) -> bool {
        self.in_flight > 0
    }

    /// The answers that arrived; never blocks.
    pub fn poll(&mut self) -> Vec<A> {
        let mut answers = Vec::new();
        let status = self.work.poll(|answer| answers.push(answer));
        let ended = !matches!(status, Status::Running);
        if ended && self.in_flight > answers.len() {
            answers.push((self.stopped)());
        }
        self.in_flight = if ended {
            0
        } else {
            self.in_flight.saturating_sub(answers.len())
        };
        answers
    }
}

impl<Q, A> Drop for RequestWorker<Q, A> {
    fn drop(&mut self) {
        // Closing the channel ends the thread once the queued requests are
        // done; waiting for them keeps every write.
        self.requests = None;
        self.work.join();
    }
}
