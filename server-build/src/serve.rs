//! A static file server for development, on loopback: one thread per connection, keep-alive, `GET` and `HEAD`,
//! nothing outside its root, and a `Host` check against DNS rebinding. The caller decides each file's headers (its
//! Content-Type is given), so that a site can add its own policy.

use std::fs;
use std::io::{BufRead, BufReader, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::Duration;

use crate::Result;

/// How long an idle keep-alive connection is kept.
const IDLE_TIMEOUT: Duration = Duration::from_secs(30);

/// The longest request head accepted.
const MAX_HEAD_BYTES: usize = 64 * 1024;

/// The headers of a file, given its path under the served root (`book/index.html`) and its Content-Type.
pub type Headers = fn(&Path, &str) -> Vec<(&'static str, String)>;

/// Content-Type, and CORS for everything: server bundles are loaded by sandboxed workers, from opaque origins.
pub fn bundle_headers(_path: &Path, content_type: &str) -> Vec<(&'static str, String)> {
    vec![("Content-Type", content_type.to_owned()), ("Access-Control-Allow-Origin", "*".to_owned())]
}

/// A running static file server. Dropping it stops the server.
pub struct ServerHandle {
    addr: SocketAddr,
    stop: Arc<AtomicBool>,
    acceptor: Option<JoinHandle<()>>,
}

impl ServerHandle {
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// `http://<addr>/`
    pub fn url(&self) -> String {
        format!("http://{}/", self.addr())
    }

    /// Blocks while the server runs (forever, unless the accept loop dies).
    pub fn wait(mut self) {
        if let Some(acceptor) = self.acceptor.take() {
            let _ = acceptor.join();
        }
    }
}

impl std::fmt::Debug for ServerHandle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ServerHandle").field("addr", &self.addr).finish()
    }
}

impl Drop for ServerHandle {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        // Wake the blocking accept so the loop sees the flag.
        let _ = TcpStream::connect(self.addr);
        if let Some(acceptor) = self.acceptor.take() {
            let _ = acceptor.join();
        }
    }
}

/// Serves the files under `root` on `addr` (port 0 picks a free port). One thread per connection: a browser
/// opens several keep-alive connections at once, and a pooled server that queues a connection behind an idle
/// keep-alive one stalls the page load.
pub fn serve(root: &Path, addr: SocketAddr, headers: Headers) -> Result<ServerHandle> {
    let root = root.canonicalize().map_err(|e| format!("cannot serve {}: {e}", root.display()))?;
    let listener = TcpListener::bind(addr).map_err(|e| format!("cannot listen on {addr}: {e}"))?;
    let addr = listener.local_addr().map_err(|e| format!("cannot read the listening address: {e}"))?;
    let stop = Arc::new(AtomicBool::new(false));
    let stop_flag = Arc::clone(&stop);
    let acceptor = std::thread::spawn(move || {
        for stream in listener.incoming() {
            if stop_flag.load(Ordering::SeqCst) {
                break;
            }
            let Ok(stream) = stream else { continue };
            let root = root.clone();
            let port = addr.port();
            std::thread::spawn(move || serve_connection(&root, port, headers, stream));
        }
    });
    Ok(ServerHandle { addr, stop, acceptor: Some(acceptor) })
}

/// Answers requests on one keep-alive connection until the client closes it or goes idle.
fn serve_connection(root: &Path, port: u16, headers: Headers, stream: TcpStream) {
    let _ = stream.set_read_timeout(Some(IDLE_TIMEOUT));
    let Ok(write_half) = stream.try_clone() else { return };
    let mut reader = BufReader::new(stream);
    let mut writer = write_half;
    loop {
        let Some(head) = read_head(&mut reader) else { return };
        let keep_alive = !head.to_ascii_lowercase().contains("connection: close");
        let mut parts = head.lines().next().unwrap_or_default().split_whitespace();
        let (method, url) = (parts.next().unwrap_or_default(), parts.next().unwrap_or_default());
        let response = match method {
            _ if !host_allowed(&head, port) => {
                text(403, "this server answers only to 127.0.0.1, localhost and [::1] with its port (DNS rebinding)\n")
            }
            "GET" | "HEAD" => respond(root, url, headers),
            _ => text(405, "method not allowed\n"),
        };
        if response.write_to(&mut writer, method == "HEAD", keep_alive).is_err()
            || !keep_alive
            || method != "GET" && method != "HEAD"
        {
            return;
        }
    }
}

/// Reads a request head (request line and headers) up to the blank line; `None` at end of stream or on error.
fn read_head(reader: &mut impl BufRead) -> Option<String> {
    let mut head = String::new();
    loop {
        let mut line = String::new();
        match reader.read_line(&mut line) {
            Ok(0) | Err(_) => return None,
            Ok(_) if line == "\r\n" || line == "\n" => return (!head.is_empty()).then_some(head),
            Ok(_) if head.len() > MAX_HEAD_BYTES => return None,
            Ok(_) => head.push_str(&line),
        }
    }
}

/// An HTTP response with a full body (always a Content-Length, never chunked).
struct HttpResponse {
    status: u16,
    headers: Vec<(&'static str, String)>,
    body: Vec<u8>,
}

impl HttpResponse {
    fn write_to(&self, out: &mut impl Write, head_only: bool, keep_alive: bool) -> std::io::Result<()> {
        let reason = match self.status {
            200 => "OK",
            301 => "Moved Permanently",
            400 => "Bad Request",
            403 => "Forbidden",
            404 => "Not Found",
            405 => "Method Not Allowed",
            _ => "",
        };
        let mut head = format!("HTTP/1.1 {} {reason}\r\nContent-Length: {}\r\n", self.status, self.body.len());
        for (name, value) in &self.headers {
            head.push_str(&format!("{name}: {value}\r\n"));
        }
        // Cross-origin isolation gives pages precise timers (the bench) and is harmless for the console.
        head.push_str("Cache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\n");
        head.push_str("Cross-Origin-Opener-Policy: same-origin\r\n");
        // `cross-origin`: sandboxed servers run in opaque origins, to which every file of the site is cross-origin.
        head.push_str("Cross-Origin-Embedder-Policy: require-corp\r\nCross-Origin-Resource-Policy: cross-origin\r\n");
        head.push_str(if keep_alive { "Connection: keep-alive\r\n\r\n" } else { "Connection: close\r\n\r\n" });
        out.write_all(head.as_bytes())?;
        if !head_only {
            out.write_all(&self.body)?;
        }
        out.flush()
    }
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

/// The decoded path of a request URL (no query or fragment); `None` if the percent-encoding is invalid (a `%`
/// without two hex digits, or bytes that are not UTF-8).
fn url_path(url: &str) -> Option<String> {
    let raw = url.split(['?', '#']).next().unwrap_or_default();
    let well_formed =
        raw.split('%').skip(1).all(|rest| rest.bytes().take(2).filter(u8::is_ascii_hexdigit).count() == 2);
    well_formed.then(|| percent_encoding::percent_decode_str(raw).decode_utf8().ok().map(|s| s.into_owned())).flatten()
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
pub fn mime_type(path: &Path) -> &'static str {
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

fn respond(root: &Path, url: &str, headers: Headers) -> HttpResponse {
    match resolve(root, url) {
        Target::File(path) => match fs::read(&path) {
            Ok(body) => {
                let named = path.strip_prefix(root).unwrap_or(&path);
                HttpResponse { status: 200, headers: headers(named, mime_type(&path)), body }
            }
            Err(_) => text(404, "not found\n"),
        },
        Target::Redirect(location) => {
            let mut response = text(301, "moved\n");
            response.headers.push(("Location", location));
            response
        }
        Target::NotFound => text(404, "not found\n"),
        Target::BadRequest => text(400, "bad request\n"),
    }
}

fn text(status: u16, body: &str) -> HttpResponse {
    HttpResponse {
        status,
        headers: vec![("Content-Type", "text/plain; charset=utf-8".into())],
        body: body.as_bytes().to_vec(),
    }
}

/// Whether a request head's `Host` names this server as the browser reached it on 127.0.0.1: `127.0.0.1`,
/// `localhost` or `[::1]`, with the port. A page on another name that resolves here (DNS rebinding) is refused.
fn host_allowed(head: &str, port: u16) -> bool {
    let host = head.lines().skip(1).find_map(|line| {
        let (name, value) = line.split_once(':')?;
        name.trim().eq_ignore_ascii_case("host").then(|| value.trim().to_ascii_lowercase())
    });
    let Some(host) = host else { return false };
    ["127.0.0.1", "localhost", "[::1]"].iter().any(|name| host == format!("{name}:{port}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read as _;
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
        get_as(addr, path, &addr.to_string())
    }

    fn get_as(addr: SocketAddr, path: &str, host: &str) -> String {
        let mut stream = TcpStream::connect(addr).unwrap();
        write!(stream, "GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n").unwrap();
        let mut response = String::new();
        stream.read_to_string(&mut response).unwrap();
        response
    }

    #[test]
    fn serves_over_http() {
        let root = temp_site("serve");
        let handle = serve(&root, SocketAddr::from(([127, 0, 0, 1], 0)), bundle_headers).unwrap();
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
        assert!(wasm.contains("cross-origin-embedder-policy: require-corp"), "{wasm}");
        assert!(wasm.contains("x-content-type-options: nosniff"), "{wasm}");
        assert!(wasm.contains("access-control-allow-origin: *"), "{wasm}");
        let rebound = get_as(handle.addr(), "/", &format!("attacker.example:{}", handle.addr().port()));
        assert!(rebound.starts_with("HTTP/1.1 403") && rebound.contains("DNS rebinding"), "{rebound}");
        drop(handle);
        fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn idle_keep_alive_connections_never_block_a_new_one() {
        let root = temp_site("keepalive");
        let handle = serve(&root, SocketAddr::from(([127, 0, 0, 1], 0)), bundle_headers).unwrap();
        // A browser holds several keep-alive connections open; a new one must still be answered at once.
        let idle: Vec<TcpStream> = (0..8)
            .map(|_| {
                let mut stream = TcpStream::connect(handle.addr()).unwrap();
                write!(stream, "GET / HTTP/1.1\r\nHost: {}\r\n\r\n", handle.addr()).unwrap();
                let mut first = [0u8; 12];
                stream.read_exact(&mut first).unwrap();
                assert_eq!(&first, b"HTTP/1.1 200");
                stream
            })
            .collect();
        let fresh = TcpStream::connect(handle.addr()).unwrap();
        fresh.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
        let mut fresh = fresh;
        write!(fresh, "GET /sub/m.wasm HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n", handle.addr()).unwrap();
        let mut response = String::new();
        fresh.read_to_string(&mut response).unwrap();
        assert!(response.starts_with("HTTP/1.1 200"), "{response}");
        drop(idle);
        drop(handle);
        fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn only_loopback_names_with_the_port_are_answered() {
        let head = |host: &str| format!("GET / HTTP/1.1\r\nHost: {host}\r\nAccept: */*\r\n");
        assert!(host_allowed(&head("127.0.0.1:8080"), 8080));
        assert!(host_allowed(&head("localhost:8080"), 8080));
        assert!(host_allowed(&head("LOCALHOST:8080"), 8080));
        assert!(host_allowed(&head("[::1]:8080"), 8080));
        assert!(!host_allowed(&head("attacker.example:8080"), 8080));
        assert!(!host_allowed(&head("127.0.0.1.attacker.example:8080"), 8080));
        assert!(!host_allowed(&head("127.0.0.1:9090"), 8080));
        assert!(!host_allowed(&head("127.0.0.1"), 8080));
        assert!(!host_allowed("GET / HTTP/1.1\r\nAccept: */*\r\n", 8080));
    }
}
