// The tool-calling loop of one user turn: ask the model; while it asks for tools, run them all for the chat's
// thread, give it their results and ask again; stop at its answer, or after MAX_ROUNDS rounds of tool calls.

export const MAX_ROUNDS = 10;
/** Characters of a tool result given back to the model; a huge result is cut, with a note saying so. */
const TOOL_CONTENT_LIMIT = 100_000;

/**
 * Runs one turn. `history` holds the conversation as Chat Completions messages (the user's message already last)
 * and is extended with each complete round (the assistant's calls and their tool messages), so an aborted or failed
 * turn leaves it valid to send again.
 * - `ask(messages, signal)` → `{ message: { content, toolCalls }, model }` (see chat-endpoint.js)
 * - `execute(calls, signal)` → ART `ToolResult`s in call order (`McpRuntime.executeTools`)
 * - `transcript`: where it is shown (see chat-transcript.js)
 * Rejects with what went wrong (an `AbortError` when `signal` aborts); resolves when the model answered.
 */
export async function runTurn({ history, ask, execute, transcript, signal }) {
  for (let round = 1; round <= MAX_ROUNDS; round++) {
    const { message, model } = await ask(history, signal);
    if (message.toolCalls.length === 0) {
      history.push({ role: "assistant", content: message.content });
      transcript.assistant(message.content, model);
      return;
    }
    if (message.content) transcript.assistant(message.content, model);
    const calls = message.toolCalls;
    const views = calls.map((call) => transcript.toolCall(call));
    let results;
    try {
      results = await execute(
        calls.map((call) => ({ callId: call.id, toolName: call.name, arguments: call.arguments })),
        signal,
      );
    } catch (error) {
      const reason = error?.name === "AbortError" ? "Stopped before the result came." : "The call was not made.";
      for (const view of views) view.cancel(reason);
      throw error;
    }
    const byId = new Map(results.map((result) => [result.callId, result]));
    const outcomes = calls.map((call, index) => byId.get(call.id) ?? results[index]);
    outcomes.forEach((result, index) => views[index].settle(result));
    history.push(
      {
        role: "assistant",
        content: message.content || null,
        tool_calls: calls.map((call) => ({ id: call.id, type: "function", function: { name: call.name, arguments: call.arguments } })),
      },
      ...calls.map((call, index) => ({ role: "tool", tool_call_id: call.id, content: toolContent(outcomes[index]) })),
    );
  }
  transcript.notice(
    `Stopped after ${MAX_ROUNDS} rounds of tool calls without an answer from the model. Send a message to let it go on.`,
  );
}

/** What the model reads of a result: the output's text blocks joined, else its JSON; for a failure, the error. */
export function toolContent(result) {
  let content;
  if (!result) content = "Error: no result came back for this call.";
  else if (result.status !== "success") content = `Error: ${result.error ?? "the call failed"}`;
  else {
    const blocks = Array.isArray(result.output?.content) ? result.output.content : [];
    const texts = blocks.filter((block) => block?.type === "text" && typeof block.text === "string").map((block) => block.text);
    content = texts.length ? texts.join("\n") : JSON.stringify(result.output ?? null);
  }
  return content.length > TOOL_CONTENT_LIMIT
    ? `${content.slice(0, TOOL_CONTENT_LIMIT)}\n[… ${content.length - TOOL_CONTENT_LIMIT} more characters cut]`
    : content;
}
