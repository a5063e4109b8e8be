//! Every thread that owns engine processes, so that Ctrl-C can stop them all: none is left
//! behind when the server exits.

use super::watch::WatchHandle;
use super::worker::WorkerHandle;
use std::sync::{Arc, Mutex};

/// The engine-owning threads started by the server.
#[derive(Default)]
pub struct Registry {
    workers: Mutex<Vec<Arc<WorkerHandle>>>,
    watches: Mutex<Vec<Arc<WatchHandle>>>,
}

impl Registry {
    /// Remembers a worker (and forgets finished ones).
    pub fn add_worker(&self, worker: &Arc<WorkerHandle>) {
        let mut workers = self.workers.lock().expect("registry lock");
        workers.retain(|w| !w.is_finished());
        workers.push(Arc::clone(worker));
    }

    /// Remembers a watched game (and forgets finished ones).
    pub fn add_watch(&self, watch: &Arc<WatchHandle>) {
        let mut watches = self.watches.lock().expect("registry lock");
        watches.retain(|w| !w.is_finished());
        watches.push(Arc::clone(watch));
    }

    /// Stops every thread and waits for it: engines get `stop`, `quit`, then a kill.
    pub fn shutdown(&self) {
        let watches: Vec<_> = self
            .watches
            .lock()
            .expect("registry lock")
            .drain(..)
            .collect();
        for watch in &watches {
            watch.stop();
        }
        let workers: Vec<_> = self
            .workers
            .lock()
            .expect("registry lock")
            .drain(..)
            .collect();
        for worker in &workers {
            worker.quit();
        }
    }
}
