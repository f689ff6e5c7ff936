//! One pool of named worker threads for the crawl's fetches and the corpus
//! run: items are taken in order by whichever thread is free, results come
//! back in item order, and a cancel flag stops the taking of new items.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// Runs `work` on every item on at most `threads` threads named `{name}-{i}`,
/// and returns the results in item order; an item not started because
/// `cancel` was set has `None`. When no thread can be started, the calling
/// thread does the work.
pub fn map_ordered<T: Sync, R: Send>(
    items: &[T],
    threads: usize,
    name: &str,
    cancel: &AtomicBool,
    work: impl Fn(&T) -> R + Sync,
) -> Vec<Option<R>> {
    let next = AtomicUsize::new(0);
    let slots: Vec<Mutex<Option<R>>> = items.iter().map(|_| Mutex::new(None)).collect();
    let worker = || {
        while !cancel.load(Ordering::SeqCst) {
            let i = next.fetch_add(1, Ordering::SeqCst);
            let Some(item) = items.get(i) else { break };
            let result = work(item);
            if let Ok(mut slot) = slots[i].lock() {
                *slot = Some(result);
            }
        }
    };
    std::thread::scope(|scope| {
        for n in 0..threads.clamp(1, items.len().max(1)) {
            let spawned = std::thread::Builder::new()
                .name(format!("{name}-{n}"))
                .spawn_scoped(scope, worker);
            if spawned.is_err() {
                // No thread to spare: this one does the work.
                worker();
            }
        }
    });
    slots
        .into_iter()
        .map(|slot| slot.into_inner().ok().flatten())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_come_back_in_item_order_whatever_finishes_first() {
        let never = AtomicBool::new(false);
        let items: Vec<u64> = (0..20).collect();
        let out = map_ordered(&items, 4, "test-pool", &never, |&i| {
            std::thread::sleep(std::time::Duration::from_millis((20 - i) % 7));
            i * 10
        });
        let expected: Vec<Option<u64>> = items.iter().map(|i| Some(i * 10)).collect();
        assert_eq!(out, expected);
    }

    #[test]
    fn workers_are_named_and_cancel_stops_new_items() {
        let cancel = AtomicBool::new(false);
        let items: Vec<usize> = (0..10).collect();
        let out = map_ordered(&items, 1, "test-named", &cancel, |&i| {
            let name = std::thread::current().name().map(str::to_owned);
            if i == 2 {
                cancel.store(true, Ordering::SeqCst);
            }
            name
        });
        assert_eq!(
            out[0].as_ref().and_then(|n| n.as_deref()),
            Some("test-named-0")
        );
        assert!(out[2].is_some());
        assert!(out[3..].iter().all(Option::is_none));
    }
}
