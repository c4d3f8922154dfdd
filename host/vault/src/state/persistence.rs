//! A manager kept in its state database: restored from it once, then every configuration change written back.
//!
//! ```ignore
//! let db = Database::open("my-app").await?;
//! let credentials = CredentialsRepository::new(&db);           // locked until the user unlocks it
//! manager.set_credential_source(Some(Rc::new(credentials.clone())));
//! let persistence = Persistence::attach(&StateManager::new(&db), &manager).await?;
//! // the servers, their enablement and every thread's enabled tools are back; problems are reported
//! for problem in &persistence.report().problems { log(problem) }
//! ```
//!
//! Writes happen in the background, one at a time and in the order of the changes; [`Persistence::flush`] waits
//! for them. A failed write is kept in [`Persistence::write_errors`] and never stops the manager.

use super::database::SERVERS;
use super::manager::StateManager;
use futures_channel::{mpsc, oneshot};
use futures_util::StreamExt;
use mcp_worker_runtime::manager::{ManagerEvent, McpTransportManager};
use mcp_worker_runtime::observation::Watches;
use mcp_worker_runtime::persist::{RestoreReport, Saver, StateResult, Write, restore};
use mcp_worker_runtime::registry::RegistryChange;
use serde_json::Value;
use std::cell::RefCell;
use std::fmt;
use std::rc::Rc;

enum Op {
    Write(Write),
    Flush(oneshot::Sender<()>),
}

/// Keeps a manager's servers and its registry's thread enablement in a [`StateManager`]. Dropping it stops the
/// saving (writes already queued still happen).
pub struct Persistence {
    report: RestoreReport,
    writes: mpsc::UnboundedSender<Op>,
    errors: Rc<RefCell<Vec<String>>>,
    _watches: Watches,
}

impl fmt::Debug for Persistence {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Persistence")
            .field("report", &self.report)
            .field("write_errors", &self.errors.borrow().len())
            .finish_non_exhaustive()
    }
}

impl Persistence {
    /// Restores what `state` holds into `manager` (servers, their enablement, thread configurations; credentials
    /// stay in the repository, locked) and from then on saves every server added, removed, enabled or disabled and
    /// every change of a thread's enabled tools. Unreadable records are skipped and reported in
    /// [`Self::report`]; only a database that cannot be read at all is an error.
    pub async fn attach(state: &StateManager, manager: &McpTransportManager) -> StateResult<Self> {
        let servers = state.servers().load_all::<Value>().await?;
        let threads = state.threads().load_all().await?;
        let (report, saved) = restore(manager, servers, threads, SERVERS);

        let (writes, queue) = mpsc::unbounded();
        let errors = Rc::new(RefCell::new(Vec::new()));
        wasm_bindgen_futures::spawn_local(write_all(state.clone(), queue, errors.clone()));

        let saver = Rc::new(RefCell::new(Saver::new(saved)));
        let (sink, saving, weak) = (writes.clone(), saver.clone(), manager.downgrade());
        let manager_watch = manager.subscribe(Rc::new(move |event: &ManagerEvent| {
            let Some(manager) = weak.upgrade() else { return };
            if let Some(write) = saving.borrow_mut().manager_event(event, &manager) {
                let _ = sink.unbounded_send(Op::Write(write));
            }
        }));
        let registry = manager.registry().clone();
        let (sink, weak) = (writes.clone(), Rc::downgrade(&registry));
        let registry_watch = registry.subscribe(Rc::new(move |change: &RegistryChange| {
            let Some(registry) = weak.upgrade() else { return };
            for write in saver.borrow().registry_change(change, &registry) {
                let _ = sink.unbounded_send(Op::Write(write));
            }
        }));
        let manager = manager.clone();
        let watches = Watches::on_drop(move || {
            manager.unsubscribe(manager_watch);
            registry.unsubscribe(registry_watch);
        });
        Ok(Self { report, writes, errors, _watches: watches })
    }

    /// What the restore brought back and what it skipped.
    pub fn report(&self) -> &RestoreReport {
        &self.report
    }

    /// The writes that failed so far (each names its record; none holds a value).
    pub fn write_errors(&self) -> Vec<String> {
        self.errors.borrow().clone()
    }

    /// Resolves once every change made so far is written (or has failed). The future does not borrow `self`.
    pub fn flush(&self) -> impl Future<Output = ()> + 'static {
        let (done, written) = oneshot::channel();
        let queued = self.writes.unbounded_send(Op::Flush(done)).is_ok();
        async move {
            if queued {
                let _ = written.await;
            }
        }
    }
}

/// Writes queued changes one at a time, in order, until every sender is gone.
async fn write_all(state: StateManager, mut queue: mpsc::UnboundedReceiver<Op>, errors: Rc<RefCell<Vec<String>>>) {
    while let Some(op) = queue.next().await {
        let outcome = match op {
            Op::Flush(done) => {
                let _ = done.send(());
                continue;
            }
            Op::Write(Write::Server { name, config }) => state.servers().put(&name, &config).await,
            Op::Write(Write::RemoveServer(name)) => state.servers().delete(&name).await,
            Op::Write(Write::Thread { thread, tools }) => {
                state.threads().set_enabled_tools(&thread, &tools).await.map(|_| ())
            }
        };
        if let Err(error) = outcome {
            errors.borrow_mut().push(error.to_string());
        }
    }
}
