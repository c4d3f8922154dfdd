// The page's side of the mcp-worker wire protocol's boot/connect handshake (docs/wire-protocol.md), shared by the
// bench's baselines and contenders that are not behind our host: wait for the worker's `boot`, then hand it a
// MessagePort and an environment.

export function waitForBoot(worker) {
  return new Promise((resolve, reject) => {
    worker.onmessage = (event) => {
      const kind = event.data?.mcpWorker;
      if (kind === "boot") resolve();
      else if (kind === "fatal") reject(new Error(`worker fatal: ${event.data.error}`));
    };
    worker.onerror = (event) => reject(new Error(`worker error: ${event.message ?? "script failed to load"}`));
  });
}

/** Starts a module worker and does the host's side of the handshake; resolves with the worker and the page's port. */
export async function connectWorker(url, { module, env = {} } = {}) {
  const worker = new Worker(url, { type: "module" });
  await waitForBoot(worker);
  const { port1, port2 } = new MessageChannel();
  const connect = { mcpWorker: "connect", v: 1, port: port2, env };
  if (module) connect.module = module;
  worker.postMessage(connect, [port2]);
  return { worker, port: port1 };
}
