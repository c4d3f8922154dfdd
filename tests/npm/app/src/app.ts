// The app: the full runtime from the package, one server from a bundle, one tool call, and the status events it saw.
import { McpRuntime, type StatusEvent } from "mcp-worker";

export interface Outcome {
  text: string;
  statuses: string[];
}

export async function run(): Promise<Outcome> {
  const runtime = await McpRuntime.create();
  const statuses: string[] = [];
  const unsubscribe = runtime.subscribe((event: StatusEvent) => {
    if (event.type === "serverStatus") statuses.push(event.status);
  });
  runtime.addServer({ name: "echo", workerUrl: new URL("bundles/echo/bootstrap.js", location.href).href });
  const result = await runtime.callTool("echo", "echo", { text: "hello from a fresh app" });
  const first = result.content[0];
  const text = first?.type === "text" ? first.text : JSON.stringify(result);
  unsubscribe();
  runtime.close();
  return { text, statuses };
}

declare global {
  interface Window {
    outcome?: Outcome | { error: string };
  }
}

export function report(work: Promise<Outcome>): void {
  work.then(
    (outcome) => {
      window.outcome = outcome;
    },
    (error: unknown) => {
      window.outcome = { error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) };
    },
  ).finally(() => {
    document.getElementById("out")!.textContent = JSON.stringify(window.outcome);
  });
}
