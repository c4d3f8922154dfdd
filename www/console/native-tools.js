// The console's own tools: native tools that run in the page, registered in the same registry as the servers'
// tools, so agents (the chat) see both side by side.
import { app, toast } from "./app.js";

const TOOLS = [
  {
    definition: {
      name: "page_clock",
      title: "Local date and time",
      description: "The user's local date, time and time zone, from the browser this console runs in.",
      inputSchema: { type: "object", properties: {}, additionalProperties: false },
      outputSchema: {
        type: "object",
        properties: { iso: { type: "string" }, local: { type: "string" }, timeZone: { type: "string" } },
        required: ["iso", "local", "timeZone"],
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    execute: () => {
      const now = new Date();
      return { iso: now.toISOString(), local: now.toLocaleString(), timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone };
    },
  },
  {
    definition: {
      name: "show_notice",
      title: "Show a notice",
      description: "Shows a short message to the user in the console (a notice in the corner of the page). Returns once it is shown.",
      inputSchema: {
        type: "object",
        properties: { message: { type: "string", description: "What to show, at most 280 characters", maxLength: 280 } },
        required: ["message"],
        additionalProperties: false,
      },
      // It changes what the user sees, nothing else.
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    execute: ({ message }) => {
      toast(`Notice from an agent: ${message}`, "info");
      return { shown: true };
    },
  },
];

/** Registers the console's tools; returns their registry names. */
export function registerNativeTools() {
  return TOOLS.map(({ definition, execute }) => app.runtime.registerTool(definition, execute));
}
