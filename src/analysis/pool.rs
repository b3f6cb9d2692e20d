//! Positions searched at once: a queue of jobs by priority, and one thread a position at a time, each with an
//! engine of its own (its own tree, settings and random generator), so that positions share nothing but the
//! network and its evaluation cache, whose answers do not depend on who asked first.

use std::cmp::Ordering as CmpOrdering;
use std::collections::BinaryHeap;
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::thread::JoinHandle;

use crate::gtp::Engine;

/// A job: what a thread does with its engine.
pub type Work = Box<dyn FnOnce(&mut Engine) + Send>;

/// A queued job.
struct Job {
    priority: i64,
    order: u64,
    /// What the job is for (a query's id and turn), so that a terminated one can be taken out of the queue.
    key: Option<(String, usize)>,
    work: Work,
}

impl PartialEq for Job {
    fn eq(&self, other: &Job) -> bool {
        self.cmp(other) == CmpOrdering::Equal
    }
}
impl Eq for Job {}
impl PartialOrd for Job {
    fn partial_cmp(&self, other: &Job) -> Option<CmpOrdering> {
        Some(self.cmp(other))
    }
}
impl Ord for Job {
    /// The higher priority first, then the job queued first.
    fn cmp(&self, other: &Job) -> CmpOrdering {
        self.priority
            .cmp(&other.priority)
            .then(other.order.cmp(&self.order))
    }
}

#[derive(Default)]
struct Queue {
    heap: BinaryHeap<Job>,
    next: u64,
    /// No more jobs come: the threads end once the queue is empty.
    closed: bool,
}

#[derive(Default)]
struct Inner {
    queue: Mutex<Queue>,
    ready: Condvar,
}

impl Inner {
    fn lock(&self) -> MutexGuard<'_, Queue> {
        self.queue.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// The threads and their queue.
pub struct Pool {
    inner: Arc<Inner>,
    threads: Vec<JoinHandle<()>>,
}

impl Pool {
    /// One thread for each engine.
    ///
    /// # Errors
    /// When a thread cannot be started.
    pub fn new(engines: Vec<Engine>) -> std::io::Result<Pool> {
        let inner = Arc::new(Inner::default());
        let mut threads = Vec::new();
        for (i, mut engine) in engines.into_iter().enumerate() {
            let inner = inner.clone();
            threads.push(
                std::thread::Builder::new()
                    .name(format!("analysis-{i}"))
                    .spawn(move || work(&inner, &mut engine))?,
            );
        }
        Ok(Pool { inner, threads })
    }

    /// Queues `work`, with its priority and what it is for.
    pub fn submit(&self, priority: i64, key: Option<(String, usize)>, work: Work) {
        let mut q = self.inner.lock();
        let order = q.next;
        q.next += 1;
        q.heap.push(Job {
            priority,
            order,
            key,
            work,
        });
        drop(q);
        self.inner.ready.notify_one();
    }

    /// Takes out of the queue the jobs whose key `pick` chooses, and gives their keys.
    pub fn withdraw(&self, pick: &dyn Fn(&str, usize) -> bool) -> Vec<(String, usize)> {
        let mut q = self.inner.lock();
        let (gone, kept): (Vec<Job>, Vec<Job>) = std::mem::take(&mut q.heap)
            .into_vec()
            .into_iter()
            .partition(|j| j.key.as_ref().is_some_and(|(id, t)| pick(id, *t)));
        q.heap = kept.into();
        gone.into_iter().filter_map(|j| j.key).collect()
    }

    /// Runs every job queued, then ends the threads.
    pub fn finish(self) {
        self.inner.lock().closed = true;
        self.inner.ready.notify_all();
        for t in self.threads {
            if t.join().is_err() {
                log::error!("an analysis thread ended in a panic");
            }
        }
    }
}

/// A thread's loop: the next job, until the queue is empty and closed. A job that panics (a bug) is logged and
/// its engine's tree dropped; the thread goes on.
fn work(inner: &Inner, engine: &mut Engine) {
    loop {
        let job = {
            let mut q = inner.lock();
            loop {
                if let Some(job) = q.heap.pop() {
                    break job;
                }
                if q.closed {
                    return;
                }
                q = inner.ready.wait(q).unwrap_or_else(PoisonError::into_inner);
            }
        };
        let work = job.work;
        if std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| work(engine))).is_err() {
            log::error!("internal error (a bug, please report it): an analysis job panicked");
            engine.searcher.clear();
        }
    }
}
