//! The demo site: `target/site/` assembled from `www/`, the bundles and the host package, and a small static
//! file server for it (used by `demo`, the end-to-end tests and the bench).

use std::fs;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::thread::JoinHandle;

use tiny_http::{Header, Method, Request, Response, Server, StatusCode};

use crate::build::{self, Profile, copy_dir, remove_dir};
use crate::{Result, display, root, setup, target_dir};

const SERVER_THREADS: usize = 4;

/// `cargo xtask demo`: setup, release build, assemble, serve until interrupted.
pub(crate) fn demo(port: u16) -> Result {
    setup::setup()?;
    build::build(Profile::Release)?;
    let site = assemble()?;
    let handle = serve(&site, SocketAddr::from(([127, 0, 0, 1], port)))?;
    println!("mcp-worker console: {}", handle.url());
    println!("serving {} (Ctrl-C to stop)", display(&site));
    handle.wait();
    Ok(())
}

/// Builds `target/site/`: a copy of `www/*`, `target/bundles` as `bundles/`, `target/pkg` as `pkg/`.
pub(crate) fn assemble() -> Result<PathBuf> {
    let site = target_dir().join("site");
    println!("== assemble {}", display(&site));
    remove_dir(&site)?;
    fs::create_dir_all(&site).map_err(|e| format!("cannot create {}: {e}", display(&site)))?;
    let www = root().join("www");
    if www.is_dir() {
        copy_dir(&www, &site)?;
    } else {
        println!("note: no www/ directory yet: the site has no pages");
    }
    for (from, to) in [("bundles", "bundles"), ("pkg", "pkg")] {
        let from = target_dir().join(from);
        if from.is_dir() {
            copy_dir(&from, &site.join(to))?;
        } else {
            println!("note: {} missing (nothing built yet)", display(&from));
        }
    }
    Ok(site)
}

/// A running static file server. Dropping it stops the server.
pub(crate) struct ServerHandle {
    addr: SocketAddr,
    server: Arc<Server>,
    threads: Vec<JoinHandle<()>>,
}

impl ServerHandle {
    pub(crate) fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// `http://<addr>/`
    pub(crate) fn url(&self) -> String {
        format!("http://{}/", self.addr())
    }

    /// Blocks while the server runs (forever, unless a thread dies).
    pub(crate) fn wait(mut self) {
        for thread in self.threads.drain(..) {
            let _ = thread.join();
        }
    }
}

impl std::fmt::Debug for ServerHandle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ServerHandle").field("addr", &self.addr).field("threads", &self.threads.len()).finish()
    }
}

impl Drop for ServerHandle {
    fn drop(&mut self) {
        for _ in &self.threads {
            self.server.unblock();
        }
        for thread in self.threads.drain(..) {
            let _ = thread.join();
        }
    }
}

/// Serves the files under `root` on `addr` (port 0 picks a free port) from a few background threads.
pub(crate) fn serve(root: &Path, addr: SocketAddr) -> Result<ServerHandle> {
    let root = root.canonicalize().map_err(|e| format!("cannot serve {}: {e}", root.display()))?;
    let server = Server::http(addr).map_err(|e| format!("cannot listen on {addr}: {e}"))?;
    let addr = server.server_addr().to_ip().ok_or_else(|| format!("listening on {addr}, but not on an IP address"))?;
    let server = Arc::new(server);
    let threads = (0..SERVER_THREADS)
        .map(|_| {
            let (server, root) = (Arc::clone(&server), root.clone());
            std::thread::spawn(move || {
                while let Ok(request) = server.recv() {
                    respond(&root, request);
                }
            })
        })
        .collect();
    Ok(ServerHandle { addr, server, threads })
}

/// What a request maps to.
#[derive(Debug, PartialEq, Eq)]
enum Target {
    File(PathBuf),
    /// A directory requested without its trailing slash: redirect so relative URLs resolve.
    Redirect(String),
    NotFound,
    BadRequest,
}

fn resolve(root: &Path, url: &str) -> Target {
    let Some(path) = url_path(url) else { return Target::BadRequest };
    let Some(relative) = safe_relative(&path) else { return Target::BadRequest };
    let candidate = root.join(relative);
    // Belt and braces: the resolved file (after symlinks) must stay under the root.
    let resolved = match candidate.canonicalize() {
        Ok(resolved) if resolved.starts_with(root) => resolved,
        _ => return Target::NotFound,
    };
    if resolved.is_dir() {
        if !path.ends_with('/') {
            return Target::Redirect(format!("{path}/"));
        }
        let index = resolved.join("index.html");
        return if index.is_file() { Target::File(index) } else { Target::NotFound };
    }
    if resolved.is_file() { Target::File(resolved) } else { Target::NotFound }
}

/// The decoded path of a request URL (no query or fragment); `None` if the percent-encoding is invalid.
fn url_path(url: &str) -> Option<String> {
    let raw = url.split(['?', '#']).next().unwrap_or_default();
    let bytes = raw.as_bytes();
    let mut decoded = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = std::str::from_utf8(bytes.get(i + 1..i + 3)?).ok()?;
            decoded.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            decoded.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(decoded).ok()
}

/// The path relative to the site root, or `None` if it could leave the root (`..`, backslashes, NUL).
fn safe_relative(path: &str) -> Option<PathBuf> {
    if !path.starts_with('/') || path.contains(['\\', '\0']) {
        return None;
    }
    let mut relative = PathBuf::new();
    for segment in path.split('/') {
        match segment {
            "" | "." => {}
            ".." => return None,
            segment => relative.push(segment),
        }
    }
    Some(relative)
}

/// The Content-Type for a file, by extension.
pub(crate) fn mime_type(path: &Path) -> &'static str {
    let extension = path.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase);
    match extension.as_deref() {
        Some("html" | "htm") => "text/html; charset=utf-8",
        Some("js" | "mjs") => "text/javascript; charset=utf-8",
        Some("wasm") => "application/wasm",
        Some("json" | "map") => "application/json",
        Some("css") => "text/css; charset=utf-8",
        Some("svg") => "image/svg+xml",
        Some("png") => "image/png",
        Some("ico") => "image/x-icon",
        Some("txt" | "md" | "ts") => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}

fn header(name: &str, value: &str) -> Option<Header> {
    Header::from_bytes(name.as_bytes(), value.as_bytes()).ok()
}

fn respond(root: &Path, request: Request) {
    // tiny_http leaves the body out of responses to HEAD and keeps their Content-Length.
    if !matches!(request.method(), Method::Get | Method::Head) {
        let _ = request.respond(text(405, "method not allowed\n"));
        return;
    }
    let mut response = match resolve(root, request.url()) {
        Target::File(path) => match fs::read(&path) {
            Ok(bytes) => {
                // A Content-Length instead of chunked encoding (tiny_http chunks bodies over 32 KB by default).
                let mut response = Response::from_data(bytes).with_chunked_threshold(usize::MAX);
                response.add_header_opt(header("Content-Type", mime_type(&path)));
                response
            }
            Err(_) => text(404, "not found\n"),
        },
        Target::Redirect(location) => {
            let mut response = text(301, "moved\n");
            response.add_header_opt(header("Location", &location));
            response
        }
        Target::NotFound => text(404, "not found\n"),
        Target::BadRequest => text(400, "bad request\n"),
    };
    response.add_header_opt(header("Cache-Control", "no-store"));
    let _ = request.respond(response);
}

fn text(status: u16, body: &str) -> Response<std::io::Cursor<Vec<u8>>> {
    let mut response = Response::from_data(body.as_bytes().to_vec()).with_status_code(StatusCode(status));
    response.add_header_opt(header("Content-Type", "text/plain; charset=utf-8"));
    response
}

trait AddHeaderOpt {
    fn add_header_opt(&mut self, header: Option<Header>);
}

impl<R: std::io::Read> AddHeaderOpt for Response<R> {
    fn add_header_opt(&mut self, header: Option<Header>) {
        if let Some(header) = header {
            self.add_header(header);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{Read as _, Write as _};
    use std::net::TcpStream;

    #[test]
    fn mime_types() {
        assert_eq!(mime_type(Path::new("a/index.html")), "text/html; charset=utf-8");
        assert_eq!(mime_type(Path::new("server.js")), "text/javascript; charset=utf-8");
        assert_eq!(mime_type(Path::new("x.mjs")), "text/javascript; charset=utf-8");
        assert_eq!(mime_type(Path::new("server_bg.wasm")), "application/wasm");
        assert_eq!(mime_type(Path::new("manifest.json")), "application/json");
        assert_eq!(mime_type(Path::new("a.CSS")), "text/css; charset=utf-8");
        assert_eq!(mime_type(Path::new("logo.svg")), "image/svg+xml");
        assert_eq!(mime_type(Path::new("logo.png")), "image/png");
        assert_eq!(mime_type(Path::new("blob")), "application/octet-stream");
    }

    #[test]
    fn traversal_is_rejected() {
        assert_eq!(safe_relative("/../etc/passwd"), None);
        assert_eq!(safe_relative("/a/../../b"), None);
        assert_eq!(safe_relative("/a/.."), None);
        assert_eq!(safe_relative("/a\\..\\b"), None);
        assert_eq!(safe_relative("relative"), None);
        assert_eq!(url_path("/%2e%2e/x").as_deref(), Some("/../x"));
        assert_eq!(safe_relative("/a/./b//c.js"), Some(PathBuf::from("a/b/c.js")));
        assert_eq!(safe_relative("/"), Some(PathBuf::new()));
    }

    #[test]
    fn url_decoding() {
        assert_eq!(url_path("/a%20b.js?v=1#x").as_deref(), Some("/a b.js"));
        assert_eq!(url_path("/bad%zz"), None);
        assert_eq!(url_path("/cut%2"), None);
    }

    fn temp_site(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("xtask-site-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(dir.join("sub")).unwrap();
        fs::write(dir.join("index.html"), "<h1>hi</h1>").unwrap();
        fs::write(dir.join("sub/m.wasm"), b"\0asm\x01\0\0\0").unwrap();
        fs::write(dir.join("sub/index.html"), "sub").unwrap();
        fs::write(dir.join("sub/big.bin"), vec![7u8; 100_000]).unwrap();
        dir.canonicalize().unwrap()
    }

    #[test]
    fn resolves_files_directories_and_misses() {
        let root = temp_site("resolve");
        assert_eq!(resolve(&root, "/"), Target::File(root.join("index.html")));
        assert_eq!(resolve(&root, "/sub/"), Target::File(root.join("sub/index.html")));
        assert_eq!(resolve(&root, "/sub"), Target::Redirect("/sub/".to_owned()));
        assert_eq!(resolve(&root, "/sub/m.wasm?x"), Target::File(root.join("sub/m.wasm")));
        assert_eq!(resolve(&root, "/nope.js"), Target::NotFound);
        assert_eq!(resolve(&root, "/sub/../../etc/passwd"), Target::BadRequest);
        assert_eq!(resolve(&root, "/%2e%2e/etc/passwd"), Target::BadRequest);
        fs::remove_dir_all(&root).unwrap();
    }

    fn get(addr: SocketAddr, path: &str) -> String {
        let mut stream = TcpStream::connect(addr).unwrap();
        write!(stream, "GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").unwrap();
        let mut response = String::new();
        stream.read_to_string(&mut response).unwrap();
        response
    }

    #[test]
    fn serves_over_http() {
        let root = temp_site("serve");
        let handle = serve(&root, SocketAddr::from(([127, 0, 0, 1], 0))).unwrap();
        assert_ne!(handle.addr().port(), 0);
        let wasm = get(handle.addr(), "/sub/m.wasm").to_ascii_lowercase();
        assert!(wasm.starts_with("http/1.1 200"), "{wasm}");
        assert!(wasm.contains("content-type: application/wasm"), "{wasm}");
        assert!(wasm.contains("cache-control: no-store"), "{wasm}");
        assert!(wasm.contains("content-length: 8"), "{wasm}");
        let big = get(handle.addr(), "/sub/big.bin").to_ascii_lowercase();
        assert!(big.contains("content-length: 100000") && !big.contains("chunked"), "{}", &big[..200]);
        let index = get(handle.addr(), "/");
        assert!(index.contains("<h1>hi</h1>"), "{index}");
        assert!(get(handle.addr(), "/missing").starts_with("HTTP/1.1 404"));
        assert!(get(handle.addr(), "/../index.html").starts_with("HTTP/1.1 400"));
        drop(handle);
        fs::remove_dir_all(&root).unwrap();
    }
}
