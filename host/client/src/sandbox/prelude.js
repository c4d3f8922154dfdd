// The end of the prelude of a worker the host starts from a script of its own, after the worker guard
// (`mcp_worker_protocol::worker_guard`; `entry`, the bundle's bootstrap URL, is defined above them): imports the
// server, whose code then runs after the guard.
import(entry).catch((error) => self.postMessage({ mcpWorker: "loadError", error: String((error && error.message) || error) }));
