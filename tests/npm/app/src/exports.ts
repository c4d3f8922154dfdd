// Type-checked only: every export of the package resolves, with its types.
import initClient, { McpClient } from "mcp-worker/client";
import clientWasm from "mcp-worker/client/wasm";
import { connectArt, createCallIdTracker } from "mcp-worker/art";
import { callbackUrl, popupAuthorize } from "mcp-worker/oauth-popup";
import type { McpRuntime } from "mcp-worker";

export async function everyExport(runtime: McpRuntime): Promise<void> {
  await initClient({ module_or_path: clientWasm });
  const client: Promise<McpClient> = McpClient.spawn({ name: "echo", workerUrl: "/bundles/echo/bootstrap.js" });
  const tracker = createCallIdTracker();
  const redirect: string = callbackUrl;
  void [client, tracker, redirect, popupAuthorize, connectArt, runtime];
}
