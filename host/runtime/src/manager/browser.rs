//! The manager in the browser: `setTimeout` and `spawn_local` as its [`Platform`], module Web Workers as its
//! [`Launcher`], and one compiled `WebAssembly.Module` per bundle, shared by every worker of that bundle.

use super::platform::{LaunchRequest, Launcher, Platform};
use super::{ManagerOptions, McpTransportManager};
use crate::config::TransportConfig;
use crate::manifest::{BundleManifest, fetch::fetch_text, manifest_url};
use crate::registry::ToolRegistry;
use crate::{Error, Result};
use futures_util::FutureExt;
use futures_util::future::{LocalBoxFuture, Shared};
use js_sys::WebAssembly;
use litemap::LiteMap;
use mcp_worker_client::Error as ClientError;
use mcp_worker_client::http;
use mcp_worker_client::http::transport::HttpSpec;
use mcp_worker_client::sandbox::Isolation;
use mcp_worker_client::server_requests::Spawner;
use mcp_worker_client::session::McpClient;
use mcp_worker_client::worker::{WorkerSpec, compile_module};
use std::cell::{Cell, RefCell};
use std::rc::Rc;

/// Time and tasks in the page.
#[derive(Debug, Clone, Copy, Default)]
pub struct BrowserPlatform;

impl Platform for BrowserPlatform {
    fn now_ms(&self) -> f64 {
        js_sys::Date::now()
    }

    fn sleep(&self, ms: u32) -> LocalBoxFuture<'static, ()> {
        Box::pin(gloo_timers::future::TimeoutFuture::new(ms))
    }

    fn spawn(&self, task: LocalBoxFuture<'static, ()>) {
        wasm_bindgen_futures::spawn_local(task);
    }
}

/// A [`Spawner`] for [`mcp_worker_client::server_requests::ServerRequestHandlers`] in the page.
pub fn spawner() -> Spawner {
    Rc::new(wasm_bindgen_futures::spawn_local)
}

type Compile = Shared<LocalBoxFuture<'static, Result<WebAssembly::Module, String>>>;

/// Starts wasm servers in module Web Workers, compiling each bundle's wasm once.
#[derive(Default)]
pub struct WorkerLauncher {
    modules: RefCell<LiteMap<String, Compile>>,
    compiles: Cell<usize>,
}

impl std::fmt::Debug for WorkerLauncher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WorkerLauncher").field("compiles", &self.compiles.get()).finish_non_exhaustive()
    }
}

impl WorkerLauncher {
    /// A launcher with an empty module cache.
    pub fn new() -> Self {
        Self::default()
    }

    /// How many compiles were started (one per bundle, unless a compile failed and was retried).
    pub fn compile_count(&self) -> usize {
        self.compiles.get()
    }

    /// The compiled module for a bundle: compiled at the first request, shared by every later one (concurrent
    /// ones included). A failed compile is not cached.
    fn module(self: &Rc<Self>, wasm_url: &str) -> Compile {
        if let Some(compile) = self.modules.borrow().get(wasm_url) {
            return compile.clone();
        }
        self.compiles.set(self.compiles.get() + 1);
        let url = wasm_url.to_owned();
        let weak = Rc::downgrade(self);
        let compile: Compile = async move {
            let outcome = compile_module(&url).await.map_err(|e| e.to_string());
            if outcome.is_err()
                && let Some(launcher) = weak.upgrade()
            {
                launcher.modules.borrow_mut().remove(&url);
            }
            outcome
        }
        .boxed_local()
        .shared();
        self.modules.borrow_mut().insert(wasm_url.to_owned(), compile.clone());
        compile
    }
}

/// The launcher as the manager holds it (it needs `Rc<Self>` for its cache).
#[derive(Debug, Default, Clone)]
pub struct SharedWorkerLauncher(pub Rc<WorkerLauncher>);

impl Launcher for SharedWorkerLauncher {
    /// Fetched at each start (the browser's cache decides about the network), so that a redeployed bundle's
    /// declarations are the ones asked for.
    fn manifest(
        &self,
        server: &str,
        transport: &TransportConfig,
    ) -> LocalBoxFuture<'static, Result<Option<BundleManifest>>> {
        let url = match transport {
            TransportConfig::Wasm { worker_url, .. } => manifest_url(worker_url),
            _ => None,
        };
        let server = server.to_owned();
        Box::pin(async move {
            let Some(url) = url else { return Ok(None) };
            let text =
                fetch_text(&url).await.map_err(|cause| ClientError::WorkerLoad { server: server.clone(), cause })?;
            let Some((text, url)) = text else { return Ok(None) };
            BundleManifest::parse(&text).map(Some).map_err(|reason| Error::InvalidManifest { server, url, reason })
        })
    }

    fn launch(&self, request: LaunchRequest) -> LocalBoxFuture<'static, Result<McpClient>> {
        let launcher = self.0.clone();
        Box::pin(async move {
            let LaunchRequest {
                server,
                transport,
                env,
                headers,
                client,
                on_connection,
                isolation,
                limits,
                on_blocked,
                oauth,
                on_authorization_required,
                ..
            } = request;
            let (worker_url, wasm_url) = match transport {
                TransportConfig::Wasm { worker_url, wasm_url } => (worker_url, wasm_url),
                TransportConfig::Http { url, legacy_sse, proxy, .. } => {
                    let mut spec = HttpSpec::new(server, url)
                        .legacy_sse(legacy_sse)
                        .proxy(proxy)
                        .oauth(oauth)
                        .on_authorization_required(on_authorization_required)
                        .client_options(client)
                        .on_connection(on_connection)
                        .max_frame_chars(limits.max_frame_chars);
                    for (name, value) in &headers {
                        spec = spec.header(name.as_str(), value.expose());
                    }
                    drop(headers);
                    return Ok(http::transport::connect(spec).await?);
                }
                other => {
                    let reason = other.unavailable_reason().unwrap_or("unsupported transport").to_owned();
                    return Err(Error::Unavailable { server, status: super::ServerStatus::Error, reason });
                }
            };
            // A compiled module crosses only to workers on the page's origin; a sandboxed worker compiles its own
            // (the browser caches compiled code by URL).
            let page_origin = isolation == Isolation::PageOrigin;
            let module = match (&wasm_url, bundle_wasm_url(&worker_url)) {
                _ if !page_origin => None,
                // An explicit wasm URL must compile.
                (Some(url), _) => Some(
                    launcher
                        .module(url)
                        .await
                        .map_err(|cause| ClientError::WorkerLoad { server: server.clone(), cause })?,
                ),
                // The bundle's usual layout: try it; a worker without it (a JS server) fetches what it needs.
                (None, Some(url)) => launcher.module(&url).await.ok(),
                (None, None) => None,
            };
            let handshake = client.initialize_timeout_ms;
            let mut spec = WorkerSpec::new(server, worker_url)
                .isolation(isolation)
                .limits(limits)
                .on_blocked(on_blocked)
                .client_options(client)
                .handshake_timeout_ms(handshake)
                .on_connection(on_connection);
            for (name, value) in &env {
                // The spec keeps its own copy, wiped with it; `env`'s is wiped when it is dropped here.
                spec = spec.env(name.as_str(), value.expose());
            }
            drop(env);
            if let Some(module) = module {
                spec = spec.module(module);
            }
            if let Some(url) = wasm_url {
                spec = spec.wasm_url(url);
            }
            Ok(McpClient::spawn(spec).await?)
        })
    }
}

/// `…/bootstrap.js` → `…/server_bg.wasm`: where `cargo xtask build` puts a bundle's wasm.
fn bundle_wasm_url(worker_url: &str) -> Option<String> {
    worker_url.strip_suffix("bootstrap.js").map(|base| format!("{base}server_bg.wasm"))
}

/// A launcher of module Web Workers for the page, each bundle's wasm compiled once and shared.
pub fn worker_launcher() -> Rc<dyn Launcher> {
    Rc::new(SharedWorkerLauncher(Rc::new(WorkerLauncher::new())))
}

impl McpTransportManager {
    /// A manager for the page: workers as launcher (with the shared module cache), `setTimeout` as clock.
    pub fn for_browser(registry: Rc<ToolRegistry>, options: ManagerOptions) -> (Self, Rc<WorkerLauncher>) {
        let launcher = Rc::new(WorkerLauncher::new());
        let manager =
            Self::new(Rc::new(BrowserPlatform), Rc::new(SharedWorkerLauncher(launcher.clone())), registry, options);
        (manager, launcher)
    }
}
