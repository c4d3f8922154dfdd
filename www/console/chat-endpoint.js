// The client of an OpenAI-compatible Chat Completions endpoint: one POST to `{base}/chat/completions`, and its answer
// checked field by field. A model's answer is untrusted input: whatever comes back (an HTTP error, no JSON, a
// missing field, a huge body) ends as an `EndpointError` with a sentence a person can act on, never as a TypeError.

/** The most of an answer that is read; past it the answer is refused rather than parsed. */
const MAX_ANSWER_BYTES = 8 * 1024 * 1024;
/** How much of an unexpected body an error message quotes (and of a model name the answer gives). */
const QUOTE_CHARS = 300;
/** The most tool calls one answer may ask for; more are refused rather than run at once. */
const MAX_TOOL_CALLS = 32;

/** A failed exchange with the endpoint. `code` (as the runtime's errors have one): HTTP, UNREACHABLE, MALFORMED. */
export class EndpointError extends Error {
  constructor(code, message) {
    super(message);
    this.name = "EndpointError";
    this.code = code;
  }
}

/** `{base}/chat/completions`, whether or not the base ends with a slash. */
function completionsUrl(base) {
  return `${base.replace(/\/+$/, "")}/chat/completions`;
}

/**
 * Asks the model for its next message. `tools` (OpenAI function tools) is left out of the request when empty.
 * Resolves `{ message: { content, toolCalls }, model }`: `content` a string (maybe empty), `toolCalls`
 * `[{ id, name, arguments }]` with `arguments` as the model wrote them (usually JSON text). An abort rejects with the
 * fetch's `AbortError`.
 */
export async function requestCompletion({ base, model, key, messages, tools, maxTokens, signal }) {
  const url = completionsUrl(base);
  const body = { model, messages };
  if (tools?.length) body.tools = tools;
  if (maxTokens) body.max_tokens = maxTokens;
  const headers = { "Content-Type": "application/json" };
  if (key) headers.Authorization = `Bearer ${key}`;
  let response;
  try {
    response = await fetch(url, { method: "POST", headers, body: JSON.stringify(body), signal });
  } catch (error) {
    if (error?.name === "AbortError") throw error;
    throw new EndpointError(
      "UNREACHABLE",
      `The endpoint (${url}) could not be reached from this page: is it running, and does it allow this page's origin (CORS)?`,
    );
  }
  const text = await readText(response, signal);
  if (!response.ok) {
    const detail = errorDetail(text);
    throw new EndpointError("HTTP", `The endpoint answered HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ""}${detail ? `: ${detail}` : ""}`);
  }
  let answer;
  try {
    answer = JSON.parse(text);
  } catch {
    throw malformed(`it is not JSON (it starts with ${quote(text)})`);
  }
  return { message: parseMessage(answer), model: typeof answer?.model === "string" && answer.model ? cut(answer.model) : model };
}

/** The body as text, refusing one larger than `MAX_ANSWER_BYTES`. */
async function readText(response, signal) {
  if (!response.body) return "";
  const reader = response.body.getReader();
  const chunks = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > MAX_ANSWER_BYTES) {
        reader.cancel().catch(() => {});
        throw malformed(`it is larger than ${MAX_ANSWER_BYTES / 1024 / 1024} MiB`);
      }
      chunks.push(value);
    }
  } catch (error) {
    if (error instanceof EndpointError || signal?.aborted) throw error;
    throw new EndpointError("UNREACHABLE", `The endpoint's answer broke off: ${error?.message ?? error}`);
  }
  return new TextDecoder().decode(await new Blob(chunks).arrayBuffer());
}

/** The `error.message` of an OpenAI-style error body, else the start of the body. */
function errorDetail(text) {
  try {
    const message = JSON.parse(text)?.error?.message;
    if (typeof message === "string" && message) return cut(message);
  } catch {
    // Not JSON: quoted as it is.
  }
  return cut(text.trim());
}

/** The first choice's message, checked. */
function parseMessage(answer) {
  if (answer?.error) throw malformed(`it is an error: ${errorDetail(JSON.stringify(answer))}`);
  const message = Array.isArray(answer?.choices) ? answer.choices[0]?.message : undefined;
  if (!message || typeof message !== "object") throw malformed("it has no choices[0].message");
  const content = contentText(message.content);
  if (content == null) throw malformed("choices[0].message.content is neither text nor a list of text parts");
  const calls = message.tool_calls ?? [];
  if (!Array.isArray(calls)) throw malformed("choices[0].message.tool_calls is not a list");
  if (calls.length > MAX_TOOL_CALLS) throw malformed(`it asks for ${calls.length} tool calls at once, more than the ${MAX_TOOL_CALLS} this chat runs`);
  const toolCalls = calls.map((call, index) => {
    const name = call?.function?.name;
    if (typeof name !== "string" || !name) throw malformed(`tool call ${index + 1} has no function.name`);
    const args = call.function.arguments;
    return {
      id: typeof call.id === "string" && call.id ? call.id : `call_${index + 1}`,
      name,
      arguments: args == null ? "{}" : typeof args === "string" ? args : JSON.stringify(args),
    };
  });
  return { content, toolCalls };
}

/** A message's `content` as text: a string, null, or a list of parts whose text parts are joined. */
function contentText(content) {
  if (content == null) return "";
  if (typeof content === "string") return content;
  if (Array.isArray(content)) return content.map((part) => (typeof part?.text === "string" ? part.text : "")).join("");
  return null;
}

function malformed(why) {
  return new EndpointError("MALFORMED", `The endpoint's answer is not a Chat Completions answer: ${why}.`);
}

function cut(text) {
  return text.length > QUOTE_CHARS ? `${text.slice(0, QUOTE_CHARS)}…` : text;
}

function quote(text) {
  return text.trim() ? `“${cut(text.trim())}”` : "nothing";
}
