// Under Vite the package's wasm is found by itself: Vite follows `new URL(…, import.meta.url)` and emits the file,
// and so it does the OAuth redirect page (one file, its script inline).
import init from "mcp-worker";
import { callbackUrl } from "mcp-worker/oauth-popup";
import { report, run } from "./app.ts";

window.callbackUrl = callbackUrl;
report(init().then(run));

declare global {
  interface Window {
    callbackUrl?: string;
  }
}
