// Under Vite the package's wasm is found by itself: Vite follows `new URL(…, import.meta.url)` and emits the file.
import init from "mcp-worker";
import { report, run } from "./app.ts";

report(init().then(run));
