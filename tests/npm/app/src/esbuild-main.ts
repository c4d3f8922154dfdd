// esbuild does not follow `new URL(…, import.meta.url)`: the wasm is imported as a file (`--loader:.wasm=file`),
// which gives its URL.
import init from "mcp-worker";
import wasmUrl from "mcp-worker/wasm";
import { report, run } from "./app.ts";

report(init({ module_or_path: wasmUrl }).then(run));
