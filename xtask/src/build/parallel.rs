//! Independent jobs run on every core: the packaging of a release build. wasm-opt as npm's binaryen ships it runs on
//! one thread (on the full host, 40 s real for 42.6 s of CPU), and it takes 35-40 s on each of the largest modules.

use std::collections::VecDeque;
use std::sync::{Mutex, PoisonError};
use std::thread;

use crate::Result;

/// One job: runs once, on whichever thread takes it.
pub(crate) type Job<'a> = Box<dyn FnOnce() -> Result + Send + 'a>;

/// Runs every job, as many at a time as the machine has cores, taking them in the order given (the longest first
/// packs best). Every job runs, whatever the others do; the errors of those that failed come back together.
pub(crate) fn run_all(jobs: Vec<Job<'_>>) -> Result {
    let threads = thread::available_parallelism().map_or(1, usize::from).clamp(1, jobs.len().max(1));
    let queue = Mutex::new(VecDeque::from(jobs));
    let errors = Mutex::new(Vec::new());
    thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                loop {
                    // A statement of its own: the queue's lock is let go before the job runs.
                    let next = queue.lock().unwrap_or_else(PoisonError::into_inner).pop_front();
                    let Some(job) = next else { break };
                    if let Err(error) = job() {
                        errors.lock().unwrap_or_else(PoisonError::into_inner).push(error);
                    }
                }
            });
        }
    });
    let errors = errors.into_inner().unwrap_or_else(PoisonError::into_inner);
    if errors.is_empty() { Ok(()) } else { Err(errors.join("\n")) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[test]
    fn every_job_runs_and_every_error_comes_back() {
        let ran = AtomicUsize::new(0);
        let jobs: Vec<Job<'_>> = (0..7)
            .map(|i| {
                let ran = &ran;
                Box::new(move || {
                    ran.fetch_add(1, Ordering::SeqCst);
                    if i % 3 == 0 { Err(format!("job {i} failed")) } else { Ok(()) }
                }) as Job<'_>
            })
            .collect();
        let error = run_all(jobs).unwrap_err();
        assert_eq!(ran.load(Ordering::SeqCst), 7);
        let mut failed: Vec<&str> = error.lines().collect();
        failed.sort_unstable();
        assert_eq!(failed, ["job 0 failed", "job 3 failed", "job 6 failed"]);
    }

    #[test]
    fn jobs_run_at_the_same_time_on_a_machine_of_several_cores() {
        if thread::available_parallelism().map_or(1, usize::from) < 2 {
            return;
        }
        // Each job tells the other it started, then waits to hear the same: one after the other, the first waits
        // in vain.
        let (to_second, from_first) = std::sync::mpsc::channel();
        let (to_first, from_second) = std::sync::mpsc::channel();
        let meet = |tell: std::sync::mpsc::Sender<()>, hear: std::sync::mpsc::Receiver<()>| -> Job<'_> {
            Box::new(move || {
                let _ = tell.send(());
                hear.recv_timeout(std::time::Duration::from_secs(20)).map_err(|_| "ran alone".to_owned())
            })
        };
        let jobs = vec![meet(to_second, from_second), meet(to_first, from_first)];
        assert_eq!(run_all(jobs), Ok(()));
    }

    #[test]
    fn no_jobs_is_success() {
        assert_eq!(run_all(Vec::new()), Ok(()));
    }
}
