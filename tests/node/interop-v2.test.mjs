// The everything bundle's `serve.mjs` as the official TypeScript SDK v2 client (`@modelcontextprotocol/client`) sees
// it, in both eras of MCP: 2026-07-28 (no handshake, `_meta` on every request, `input_required` answered by the
// client's own handlers and retried, `subscriptions/listen`, mirrored HTTP headers), negotiated by `server/discover`
// whether the client pins that revision or negotiates (`auto`), over stdio and over Streamable HTTP; and 2025-11-25
// (the v2 client's default), where the very same tools ask their questions as real server-to-client requests.
// Last, the client's negotiation itself: `auto` against a server of the handshake era only falls back to it.
//
//   node --test tests/node/          (after `cargo xtask build`; MCP_WORKER_BUNDLES=<dir> [target/bundles])
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import http from "node:http";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import {
  Client,
  LOG_LEVEL_META_KEY,
  ProtocolError,
  SdkError,
  StreamableHTTPClientTransport,
  SUBSCRIPTION_ID_META_KEY,
} from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";

const REPOSITORY = fileURLToPath(new URL("../..", import.meta.url));
const BUNDLES = process.env.MCP_WORKER_BUNDLES || join(REPOSITORY, "target/bundles");
const EVERYTHING = join(BUNDLES, "everything");
assert.ok(existsSync(join(EVERYTHING, "serve.mjs")), `no ${EVERYTHING}/serve.mjs: build the bundles first (cargo xtask build)`);

const MODERN = "2026-07-28";
const LEGACY = "2025-11-25";
// The v2 client's `versionNegotiation` for each way of reaching the modern era (its default is the legacy one).
const NEGOTIATIONS = {
  pin: { mode: { pin: MODERN }, probe: { timeoutMs: 5000 } },
  auto: { mode: "auto", probe: { timeoutMs: 5000 } },
};
// What the user answers to the forms everything asks for, by field.
const ANSWERS = { name: "Grace Hopper", color: "teal", username: "grace", email: "grace@example.com" };
const ROOTS = [
  { uri: "file:///home/grace/compilers", name: "compilers" },
  { uri: "file:///home/grace/cobol", name: "cobol" },
];
const GREETING = "Good morning, Grace";
// Tools of everything that a client of either era must find.
const FIXTURES = [
  "test_simple_text",
  "test_tool_with_progress",
  "test_elicitation",
  "test_input_required_result_elicitation",
  "test_input_required_result_multiple_inputs",
  "test_input_required_result_multi_round",
  "test_logging_tool",
  "test_trigger_tool_change",
  "test_custom_header",
  "update_watched_resource",
];

// ---- helpers ----

/** A v2 client with the handlers of a user who answers everything (`asked` records each question: its id, as the
 * handler sees it, and its params); `versionNegotiation` undefined is the client's default, the 2025 handshake. */
function v2Client(versionNegotiation) {
  const client = new Client(
    { name: "interop-v2-test", version: "1.0.0" },
    {
      capabilities: { elicitation: { form: {} }, sampling: {}, roots: { listChanged: true } },
      ...(versionNegotiation && { versionNegotiation }),
    },
  );
  const asked = { elicitation: [], sampling: [], roots: [] };
  client.setRequestHandler("elicitation/create", async (request, ctx) => {
    asked.elicitation.push({ id: ctx.mcpReq.id, params: request.params });
    const fields = Object.keys(request.params.requestedSchema?.properties ?? {});
    return { action: "accept", content: Object.fromEntries(fields.map((field) => [field, ANSWERS[field]])) };
  });
  client.setRequestHandler("sampling/createMessage", async (request, ctx) => {
    asked.sampling.push({ id: ctx.mcpReq.id, params: request.params });
    return { role: "assistant", content: { type: "text", text: GREETING }, model: "test-model" };
  });
  client.setRequestHandler("roots/list", async (request, ctx) => {
    asked.roots.push({ id: ctx.mcpReq.id, params: request.params });
    return { roots: ROOTS };
  });
  return { client, asked };
}

const stdioTransport = (bundle) =>
  new StdioClientTransport({
    command: process.execPath,
    args: [join(bundle, "serve.mjs")],
    env: { PATH: process.env.PATH },
    stderr: "pipe",
  });

/** A Streamable HTTP transport that records the headers of every request it sends (in `sent`). */
function httpTransport(url) {
  const sent = [];
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    fetch: (input, init) => {
      sent.push(new Headers(init?.headers));
      return fetch(input, init);
    },
  });
  return { transport, sent };
}

// Starts `serve.mjs --http 0`; resolves to `{ url, port, child }` once it prints its URL.
function startHttp(bundle) {
  const child = spawn(process.execPath, [join(bundle, "serve.mjs"), "--http", "0"], {
    env: { PATH: process.env.PATH },
    stdio: ["ignore", "ignore", "pipe"],
  });
  return new Promise((resolve, reject) => {
    let stderr = "";
    child.stderr.on("data", (d) => {
      stderr += d;
      const url = stderr.match(/http:\/\/127\.0\.0\.1:(\d+)\/mcp/);
      if (url) resolve({ url: url[0], port: Number(url[1]), child });
    });
    child.on("exit", (code) => reject(new Error(`serve.mjs exited (${code}): ${stderr}`)));
  });
}

// One HTTP request with exactly the headers given: `{ status, headers, body }`.
function request(port, { headers = {}, body } = {}) {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port, method: "POST", path: "/mcp", headers }, (res) => {
      let text = "";
      res.on("data", (d) => (text += d));
      res.on("end", () => resolve({ status: res.statusCode, headers: res.headers, body: text }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

// A call of everything's slow_operation that runs for 2 s unless cancelled.
const SLOW = { name: "slow_operation", arguments: { steps: 40, step_ms: 50 } };
const text = (result) => result.content.map((c) => c.text).join("");
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// Waits until `condition()` holds (notifications arrive on their own streams, in no order with the calls' answers).
async function eventually(condition, what, ms = 2000) {
  for (const start = Date.now(); !(await condition()); await sleep(10)) {
    if (Date.now() - start > ms) assert.fail(`${what}: nothing after ${ms} ms`);
  }
}

// ---- MCP 2026-07-28 ----

/** The modern era through `connect()`, which resolves to `{ client, asked, legacyListing, close }` (and over HTTP
 * `sent`, the headers of each request): a connected v2 client, its user's questions, and the tool names a client
 * of the handshake era lists from the same server. */
function modernSuite(title, connect, { http = false } = {}) {
  describe(title, () => {
    let session;
    before(async () => {
      session = await connect();
    });
    after(() => session?.close());

    it("negotiates 2026-07-28 through server/discover and lists everything's tools, as the handshake era does", async () => {
      const { client } = session;
      assert.equal(client.getProtocolEra(), "modern");
      assert.equal(client.getNegotiatedProtocolVersion(), MODERN);
      assert.ok(client.getDiscoverResult().supportedVersions.includes(MODERN));
      assert.equal(client.getServerVersion().name, "everything");
      assert.ok(client.getServerCapabilities().tools.listChanged);
      const names = (await client.listTools()).tools.map((t) => t.name);
      for (const name of FIXTURES) assert.ok(names.includes(name), `${name} is listed`);
      const legacy = await session.legacyListing();
      assert.deepEqual(names, legacy);
    });

    it("calls a tool, and answers an unknown one with a JSON-RPC error naming it", async () => {
      const { client } = session;
      const simple = await client.callTool({ name: "test_simple_text", arguments: {} });
      assert.equal(text(simple), "This is a simple text response for testing.");
      await assert.rejects(client.callTool({ name: "no_such_tool", arguments: {} }), (error) => {
        assert.ok(error instanceof ProtocolError, String(error));
        assert.equal(error.code, -32602);
        assert.match(error.message, /no_such_tool/);
        return true;
      });
    });

    it("asks for a form as input_required: the client's elicitation handler answers once and the retry completes", async () => {
      const { client, asked } = session;
      asked.elicitation.length = 0;
      const result = await client.callTool({ name: "test_input_required_result_elicitation", arguments: {} });
      assert.equal(text(result), `Hello, ${ANSWERS.name}!`);
      assert.equal(asked.elicitation.length, 1);
      // The handler sees the question's key in the input_required result, not an id of a request from the server.
      assert.equal(asked.elicitation[0].id, "user_name");
      assert.equal(asked.elicitation[0].params.message, "What is your name?");
    });

    it("asks for a form, a model's message and the roots in one round", async () => {
      const { client, asked } = session;
      for (const list of Object.values(asked)) list.length = 0;
      const result = await client.callTool({ name: "test_input_required_result_multiple_inputs", arguments: {} });
      assert.equal(text(result), `Name: ${ANSWERS.name}; Greeting: ${GREETING}; Roots: ${ROOTS.length}`);
      assert.deepEqual(
        Object.fromEntries(Object.entries(asked).map(([kind, list]) => [kind, list.map((q) => q.id)])),
        { elicitation: ["user_name"], sampling: ["greeting"], roots: ["client_roots"] },
      );
      assert.equal(asked.sampling[0].params.messages[0].content.text, "Generate a greeting");
    });

    it("asks two questions in two rounds, the second after the first is answered", async () => {
      const { client, asked } = session;
      asked.elicitation.length = 0;
      const result = await client.callTool({ name: "test_input_required_result_multi_round", arguments: {} });
      assert.equal(text(result), `Multi-round complete for ${ANSWERS.name} who likes ${ANSWERS.color}`);
      assert.deepEqual(asked.elicitation.map((q) => q.id), ["step1", "step2"]);
    });

    // Over stdio too: the v2 client loses progress that arrives in one read with its request's answer (its
    // notification handlers run a microtask later than its response handler), but test_tool_with_progress waits
    // 50 ms between its last progress and its answer, so they never share a read; this did not reproduce.
    it("reports progress", async () => {
      const { client } = session;
      const progress = [];
      const onprogress = (p) => progress.push(p);
      const result = await client.callTool({ name: "test_tool_with_progress", arguments: {} }, { onprogress });
      assert.equal(text(result), "Progress test completed");
      assert.deepEqual(
        progress.map((p) => [p.progress, p.total, p.message]),
        [[0, 100, "Starting"], [50, 100, "Halfway"], [100, 100, "Complete"]],
      );
    });

    // The v2 client never sets a log level by itself (and refuses logging/setLevel on this era): a request names
    // its own in `_meta`.
    it("logs only for a request that names a log level, at that level", async () => {
      const { client } = session;
      const logs = [];
      client.setNotificationHandler("notifications/message", (n) => logs.push(n.params));
      try {
        const call = (level) =>
          client.callTool({ name: "test_logging_tool", arguments: {}, ...(level && { _meta: { [LOG_LEVEL_META_KEY]: level } }) });
        assert.equal(text(await call(undefined)), "Logging evaluated");
        await call("error");
        await call("info");
        await sleep(50); // the client hands notifications to their handlers a little after the answer
        const data = "Logging evaluated at the requested level";
        assert.deepEqual(logs, [{ level: "info", logger: "test_logging_tool", data }]);
      } finally {
        client.removeNotificationHandler("notifications/message");
      }
    });

    it("tells a listening client its tools changed and a watched resource was updated, until it stops listening", async () => {
      const { client } = session;
      const changed = [];
      const updated = [];
      client.setNotificationHandler("notifications/tools/list_changed", (n) => changed.push(n.params));
      client.setNotificationHandler("notifications/resources/updated", (n) => updated.push(n.params));
      try {
        const listed = (await client.listTools()).tools.map((t) => t.name);
        assert.ok(!listed.includes("triggered_tool"));
        const filter = { toolsListChanged: true, resourceSubscriptions: ["test://watched-resource"] };
        const subscription = await client.listen(filter);
        assert.deepEqual(subscription.honoredFilter, filter);

        assert.equal(text(await client.callTool({ name: "test_trigger_tool_change", arguments: {} })), "Mutation triggered");
        await eventually(() => changed.length > 0, "tools/list_changed");
        assert.equal(typeof changed[0]._meta?.[SUBSCRIPTION_ID_META_KEY], "string");
        // The client caches tools/list (everything says for how long); the notification is what makes it ask again.
        assert.ok((await client.listTools()).tools.some((t) => t.name === "triggered_tool"), "the new tool is listed");

        const update = await client.callTool({ name: "update_watched_resource", arguments: {} });
        assert.match(text(update), /subscribers notified: true/);
        await eventually(() => updated.length > 0, "resources/updated");
        assert.equal(updated[0].uri, "test://watched-resource");
        assert.equal(updated[0]._meta?.[SUBSCRIPTION_ID_META_KEY], changed[0]._meta[SUBSCRIPTION_ID_META_KEY]);

        await subscription.close();
        assert.equal(await subscription.closed, "local");
        await client.callTool({ name: "test_trigger_tool_change", arguments: {} });
        await client.callTool({ name: "update_watched_resource", arguments: {} });
        await sleep(150);
        assert.equal(changed.length, 1, "no list_changed once the client stopped listening");
        assert.equal(updated.length, 1, "no resources/updated once the client stopped listening");
      } finally {
        client.removeNotificationHandler("notifications/tools/list_changed");
        client.removeNotificationHandler("notifications/resources/updated");
      }
    });

    // Over stdio the client sends notifications/cancelled; over HTTP it only drops the request's connection.
    it("stops a tool whose call the client aborts", async () => {
      const { client } = session;
      const stats = async () => (await client.callTool({ name: "slow_operation_stats", arguments: {} })).structuredContent;
      const first = await stats();
      const aborted = new AbortController();
      const call = client.callTool(SLOW, { signal: aborted.signal });
      await eventually(async () => (await stats()).started > first.started, "slow_operation started");
      aborted.abort("the user gave up");
      await assert.rejects(call, /the user gave up/);
      await eventually(async () => (await stats()).cancelled > first.cancelled, "slow_operation cancelled");
      const last = await stats();
      assert.deepEqual(last, { started: first.started + 1, completed: first.completed, cancelled: first.cancelled + 1 });
    });

    if (!http) {
      // The v2 client ends the server's stdin, then waits up to 2 s for it to exit before it sends SIGTERM.
      it("exits as soon as the client closes, with a cancelled call and a closed subscription never answered", async () => {
        const { client } = session;
        const subscription = await client.listen({ toolsListChanged: true });
        await subscription.close();
        const aborted = new AbortController();
        const call = client.callTool(SLOW, { signal: aborted.signal });
        await sleep(50);
        aborted.abort("closing");
        await assert.rejects(call);
        const started = Date.now();
        await session.close();
        session = undefined;
        const took = Date.now() - started;
        assert.ok(took < 1000, `closed in ${took} ms`);
      });
    }

    if (http) {
      it("gets the x-mcp-header argument mirrored in Mcp-Param-Region by the client, encoded when not ASCII", async () => {
        const { client, sent } = session;
        for (const region of ["eu-west-1", "São Paulo"]) {
          sent.length = 0;
          const result = await client.callTool({ name: "test_custom_header", arguments: { region } });
          assert.equal(text(result), `region: ${region}`);
          const header = sent.at(-1).get("mcp-param-region");
          assert.equal(header, /^[\x20-\x7e]*$/.test(region) ? region : `=?base64?${Buffer.from(region).toString("base64")}?=`);
        }
      });
    }
  });
}

for (const [mode, versionNegotiation] of Object.entries(NEGOTIATIONS)) {
  // Both modes send server/discover first; on the plain StdioClientTransport the client does it on a process of
  // its own, which it then kills (so serve.mjs starts twice).
  modernSuite(`v2 client, ${mode} ${MODERN}, over stdio`, async () => {
    const { client, asked } = v2Client(versionNegotiation);
    await client.connect(stdioTransport(EVERYTHING));
    const legacyListing = async () => {
      const legacy = v2Client().client;
      await legacy.connect(stdioTransport(EVERYTHING));
      try {
        return (await legacy.listTools()).tools.map((t) => t.name);
      } finally {
        await legacy.close();
      }
    };
    return { client, asked, legacyListing, close: () => client.close() };
  });

  let server;
  modernSuite(
    `v2 client, ${mode} ${MODERN}, over Streamable HTTP`,
    async () => {
      server = await startHttp(EVERYTHING);
      const { client, asked } = v2Client(versionNegotiation);
      const { transport, sent } = httpTransport(server.url);
      await client.connect(transport);
      const legacyListing = async () => {
        const legacy = v2Client().client;
        await legacy.connect(new StreamableHTTPClientTransport(new URL(server.url)));
        try {
          return (await legacy.listTools()).tools.map((t) => t.name);
        } finally {
          await legacy.close();
        }
      };
      const close = async () => {
        await client.close();
        server.child.kill();
      };
      return { client, asked, sent, legacyListing, close };
    },
    { http: true },
  );
}

describe(`serve.mjs --http, ${MODERN} requests by hand`, () => {
  let server;
  before(async () => {
    server = await startHttp(EVERYTHING);
  });
  after(() => server?.child.kill());

  it("refuses a tools/call whose Mcp-Param-Region header does not mirror its region: 400, -32020", async () => {
    const port = server.port;
    const call = (id, region) =>
      request(port, {
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "mcp-protocol-version": MODERN,
          "mcp-method": "tools/call",
          "mcp-name": "test_custom_header",
          "mcp-param-region": region,
        },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id,
          method: "tools/call",
          params: {
            name: "test_custom_header",
            arguments: { region: "eu-west-1" },
            _meta: {
              "io.modelcontextprotocol/protocolVersion": MODERN,
              "io.modelcontextprotocol/clientCapabilities": {},
            },
          },
        }),
      });
    const mirrored = await call(1, "eu-west-1");
    assert.equal(mirrored.status, 200, mirrored.body);
    assert.equal(text(JSON.parse(mirrored.body).result), "region: eu-west-1");
    const wrong = await call(2, "us-east-1");
    assert.equal(wrong.status, 400);
    const answer = JSON.parse(wrong.body);
    assert.equal(answer.id, 2);
    assert.equal(answer.error.code, -32020);
    assert.match(answer.error.message, /Mcp-Param-Region/);
  });
});

// ---- MCP 2025-11-25, the v2 client's default ----

function legacySuite(title, connect) {
  describe(title, () => {
    let session;
    before(async () => {
      session = await connect();
    });
    after(() => session?.close());

    it("initializes (no server/discover) and calls a tool", async () => {
      const { client } = session;
      assert.equal(client.getProtocolEra(), "legacy");
      assert.equal(client.getNegotiatedProtocolVersion(), LEGACY);
      assert.equal(client.getDiscoverResult(), undefined);
      assert.equal(client.getServerVersion().name, "everything");
      const simple = await client.callTool({ name: "test_simple_text", arguments: {} });
      assert.equal(text(simple), "This is a simple text response for testing.");
    });

    it("asks the questions of the input_required tools as real requests to the client, with the same results", async () => {
      const { client, asked } = session;
      for (const list of Object.values(asked)) list.length = 0;
      const hello = await client.callTool({ name: "test_input_required_result_elicitation", arguments: {} });
      assert.equal(text(hello), `Hello, ${ANSWERS.name}!`);
      assert.equal(asked.elicitation.length, 1);
      // A JSON-RPC request from the server has the server's id, not the question's key of the modern era.
      assert.equal(typeof asked.elicitation[0].id, "number");
      assert.equal(asked.elicitation[0].params.message, "What is your name?");

      const all = await client.callTool({ name: "test_input_required_result_multiple_inputs", arguments: {} });
      assert.equal(text(all), `Name: ${ANSWERS.name}; Greeting: ${GREETING}; Roots: ${ROOTS.length}`);
      const rounds = await client.callTool({ name: "test_input_required_result_multi_round", arguments: {} });
      assert.equal(text(rounds), `Multi-round complete for ${ANSWERS.name} who likes ${ANSWERS.color}`);
      assert.deepEqual([asked.elicitation.length, asked.sampling.length, asked.roots.length], [4, 1, 1]);
      assert.ok(Object.values(asked).flat().every((q) => typeof q.id === "number"));

      const form = await client.callTool({ name: "test_elicitation", arguments: { message: "Who are you?" } });
      const content = JSON.stringify({ email: ANSWERS.email, username: ANSWERS.username });
      assert.equal(text(form), `User response: action=accept, content=${content}`);
    });
  });
}

legacySuite(`v2 client, default ${LEGACY}, over stdio`, async () => {
  const { client, asked } = v2Client();
  await client.connect(stdioTransport(EVERYTHING));
  return { client, asked, close: () => client.close() };
});

legacySuite(`v2 client, default ${LEGACY}, over Streamable HTTP`, async () => {
  const server = await startHttp(EVERYTHING);
  const { client, asked } = v2Client();
  const transport = new StreamableHTTPClientTransport(new URL(server.url));
  await client.connect(transport);
  assert.ok(transport.sessionId, "the handshake era has sessions");
  return {
    client,
    asked,
    close: async () => {
      await client.close();
      server.child.kill();
    },
  };
});

// ---- the negotiation itself ----

describe("v2 client negotiation against a server of the handshake era only", () => {
  // The v1 SDK's McpServer over stdio: it answers server/discover with -32601.
  const legacyOnly = () =>
    new StdioClientTransport({
      command: process.execPath,
      args: [
        "--input-type=module",
        "-e",
        `import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
         import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
         const server = new McpServer({ name: "legacy-only", version: "1.0.0" });
         const hello = async () => ({ content: [{ type: "text", text: "hello" }] });
         server.registerTool("hello", { description: "Says hello" }, hello);
         await server.connect(new StdioServerTransport());`,
      ],
      cwd: REPOSITORY,
      env: { PATH: process.env.PATH },
      stderr: "pipe",
    });

  it("falls back to 2025-11-25 in auto mode, and fails when pinned to 2026-07-28", async () => {
    const { client } = v2Client(NEGOTIATIONS.auto);
    await client.connect(legacyOnly());
    try {
      assert.equal(client.getProtocolEra(), "legacy");
      assert.equal(client.getNegotiatedProtocolVersion(), LEGACY);
      assert.equal(text(await client.callTool({ name: "hello", arguments: {} })), "hello");
    } finally {
      await client.close();
    }
    const pinned = v2Client(NEGOTIATIONS.pin).client;
    await assert.rejects(pinned.connect(legacyOnly()), (error) => {
      assert.ok(error instanceof SdkError, String(error));
      assert.equal(error.code, "ERA_NEGOTIATION_FAILED");
      return true;
    });
    await pinned.close();
  });
});
