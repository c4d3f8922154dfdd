// The add-server form: a worker bundle, a Streamable HTTP server or an HTTP+SSE server, with headers and an
// advanced section. stdio is shown but not offered: a page cannot start a process. The runtime checks the config;
// each problem it names is shown beside its field.
import { app, describe, emit, serverPrefix, toast } from "./app.js";
import { fill, h } from "./dom.js";

const STDIO_REASON =
  "A web page cannot start programs on your computer, so stdio servers cannot run here. Run such a server behind a Streamable HTTP bridge and add its URL instead.";

let formSeq = 0;

export function mountServerForm(section) {
  const id = `sf${++formSeq}`;
  const field = (name, label, input, hint) => {
    input.id = `${id}-${name}`;
    input.name = name;
    input.dataset.testid = `server-form-${name}`;
    const error = h("p", { class: "field-error", id: `${id}-${name}-error`, "data-testid": `server-form-${name}-error` });
    input.setAttribute("aria-describedby", [hint ? `${id}-${name}-hint` : null, error.id].filter(Boolean).join(" "));
    return h(
      "div",
      { class: "field", dataset: { field: name } },
      h("label", { for: input.id }, label),
      input,
      hint ? h("p", { class: "field-hint", id: `${id}-${name}-hint` }, hint) : null,
      error,
    );
  };
  const text = (props = {}) => h("input", { type: "text", autocomplete: "off", spellcheck: "false", ...props });
  const area = (props = {}) => h("textarea", { rows: "3", spellcheck: "false", class: "mono", ...props });

  const types = [
    ["wasm", "Worker bundle (wasm)", false],
    ["http", "Streamable HTTP", false],
    ["sse", "HTTP+SSE (older servers)", false],
    ["stdio", "stdio", true],
  ];
  const typeGroup = h(
    "fieldset",
    { class: "type-choice" },
    h("legend", {}, "Transport"),
    types.map(([value, label, disabled]) =>
      h(
        "label",
        { class: `radio${disabled ? " disabled" : ""}` },
        h("input", { type: "radio", name: `${id}-type`, value, checked: value === "wasm", disabled, "data-testid": `server-form-type-${value}`, "aria-describedby": disabled ? `${id}-stdio` : null }),
        label,
      ),
    ),
    h("p", { class: "field-hint", id: `${id}-stdio`, "data-testid": "server-form-stdio-reason" }, "stdio is not offered: ", STDIO_REASON),
  );

  const inputs = {
    name: text({ required: true, placeholder: "weather" }),
    workerUrl: text({ placeholder: "./bundles/echo/bootstrap.js" }),
    isolation: h("select", {}, h("option", { value: "sandbox" }, "Sandbox: its own origin (recommended)"), h("option", { value: "page" }, "The page's origin: only for code you trust like this page's own")),
    network: area({ placeholder: "https://api.example.com" }),
    url: text({ placeholder: "https://example.com/mcp", inputmode: "url" }),
    headers: area({ placeholder: "Authorization: Bearer ${API_KEY}" }),
    proxy: text({ placeholder: "http://127.0.0.1:8305/proxy?url={url}" }),
    credentials: area({ placeholder: "API_KEY: The key from your account page" }),
    env: area({ placeholder: "REGION=eu" }),
    timeoutMs: h("input", { type: "number", min: "1", step: "1", placeholder: "60000" }),
    protocol: h("select", {}, h("option", { value: "auto" }, "Automatic (2026-07-28 when the server speaks it)"), h("option", { value: "2026-07-28" }, "2026-07-28"), h("option", { value: "2025-11-25" }, "2025-11-25 (initialize handshake)")),
    allowDestructiveTools: h("input", { type: "checkbox" }),
    resourceTool: h("input", { type: "checkbox" }),
    autoStart: h("input", { type: "checkbox", checked: true }),
  };
  const check = (name, label, hint) => {
    const input = inputs[name];
    input.id = `${id}-${name}`;
    input.dataset.testid = `server-form-${name}`;
    return h("div", { class: "check-row" }, input, h("label", { for: input.id }, label), hint ? h("span", { class: "field-hint" }, hint) : null);
  };
  const wasmFields = h(
    "div",
    { class: "type-fields", dataset: { for: "wasm" } },
    field("workerUrl", "Bundle URL (its bootstrap.js)", inputs.workerUrl),
    field("isolation", "Runs in", inputs.isolation),
    field("network", "Network it may reach", inputs.network, "Origins, one per line. Everything else is blocked, and each block is reported."),
  );
  const httpFields = h(
    "div",
    { class: "type-fields", dataset: { for: "http" }, hidden: true },
    field("url", "Server URL", inputs.url, "It must allow this page's origin (CORS), or go through a proxy you run."),
    field("headers", "Headers", inputs.headers, "One per line, `Name: value`. ${NAME} is the server's credential NAME from the vault."),
  );
  const formError = h("p", { class: "form-error", role: "alert", "data-testid": "server-form-error" });
  const form = h(
    "form",
    { class: "server-form", novalidate: true, "data-testid": "server-form", "aria-labelledby": `${id}-title` },
    h("h2", { id: `${id}-title` }, "Add a server by hand"),
    field("name", "Name", inputs.name, "How tools are prefixed: mcp__<name>__<tool>."),
    typeGroup,
    wasmFields,
    httpFields,
    h(
      "details",
      { class: "advanced" },
      h("summary", { "data-testid": "server-form-advanced" }, "Advanced"),
      h("div", { class: "type-fields", dataset: { for: "http" }, hidden: true }, field("proxy", "Proxy", inputs.proxy, "A proxy you run, with {url} where the server's URL goes. It sees the headers.")),
      field("credentials", "Credentials it needs", inputs.credentials, "One per line, `NAME: what it is for`. They are asked for and kept in the vault."),
      field("env", "Environment", inputs.env, "One per line, `KEY=value`; ${NAME} is a credential. Do not write secrets here: use credentials."),
      field("timeoutMs", "Call timeout (ms)", inputs.timeoutMs),
      field("protocol", "Protocol", inputs.protocol),
      check("allowDestructiveTools", "Show its destructive tools to agents", "Tools that may change or delete things are hidden from agents unless you allow them."),
      check("resourceTool", "Give agents a read_resource tool for its resources"),
      check("autoStart", "Start it now"),
    ),
    formError,
    h("div", { class: "form-actions" }, h("button", { type: "submit", class: "btn btn-primary", "data-testid": "server-form-submit" }, "Add server")),
  );

  const selectedType = () => form.querySelector(`input[name="${id}-type"]:checked`).value;
  form.addEventListener("change", (event) => {
    if (event.target.name !== `${id}-type`) return;
    const remote = selectedType() !== "wasm";
    for (const part of form.querySelectorAll(".type-fields")) part.hidden = (part.dataset.for === "http") !== remote;
  });
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    submit(form, inputs, selectedType(), formError);
  });
  fill(section, form);
}

function submit(form, inputs, type, formError) {
  for (const error of form.querySelectorAll(".field-error")) error.textContent = "";
  for (const input of form.querySelectorAll("[aria-invalid]")) input.removeAttribute("aria-invalid");
  formError.textContent = "";
  const { config, problems } = readConfig(inputs, type);
  if (problems.length) return showProblems(form, problems, formError);
  try {
    app.runtime.addServer(config);
  } catch (error) {
    const problems = (error.errors ?? []).map((p) => ({ field: p.field, message: p.message }));
    if (problems.length) return showProblems(form, problems, formError);
    formError.textContent = describe(error);
    return;
  }
  app.runtime.enableTools(app.thread, [`${serverPrefix(config.name)}*`]);
  emit("tools");
  toast(`${config.name} added`, "ok");
  form.reset();
  form.dispatchEvent(new Event("change"));
  if (config.credentials?.length) emit("credentials-open", config.name);
}

/** The config the fields describe, and the problems found before the runtime sees it (lines that do not parse). */
function readConfig(inputs, type) {
  const problems = [];
  const lines = (input) => input.value.split("\n").map((l) => l.trim()).filter(Boolean);
  const pairs = (name, separator) => {
    const out = {};
    for (const line of lines(inputs[name])) {
      const at = line.indexOf(separator);
      if (at <= 0) problems.push({ field: name, message: `"${line}" is not \`name${separator} value\`` });
      else out[line.slice(0, at).trim()] = line.slice(at + 1).trim();
    }
    return out;
  };
  const config = { name: inputs.name.value.trim(), type, autoStart: inputs.autoStart.checked };
  if (!config.name) problems.push({ field: "name", message: "A server needs a name." });
  if (type === "wasm") {
    config.workerUrl = inputs.workerUrl.value.trim();
    config.isolation = inputs.isolation.value;
    const network = lines(inputs.network);
    if (network.length) config.network = network;
  } else {
    config.url = inputs.url.value.trim();
    const headers = pairs("headers", ":");
    if (Object.keys(headers).length) config.headers = headers;
    if (inputs.proxy.value.trim()) config.proxy = inputs.proxy.value.trim();
  }
  const credentials = lines(inputs.credentials).map((line) => {
    const at = line.indexOf(":");
    return at < 0 ? line : { name: line.slice(0, at).trim(), description: line.slice(at + 1).trim() };
  });
  if (credentials.length) config.credentials = credentials;
  const env = pairs("env", "=");
  if (Object.keys(env).length) config.env = env;
  if (inputs.timeoutMs.value) config.timeoutMs = Number(inputs.timeoutMs.value);
  if (inputs.protocol.value !== "auto") config.protocol = inputs.protocol.value;
  if (inputs.allowDestructiveTools.checked) config.allowDestructiveTools = true;
  if (inputs.resourceTool.checked) config.resourceTool = true;
  return { config, problems };
}

/** Shows each problem beside its field (`network[1]` is the network field), and focuses the first. */
function showProblems(form, problems, formError) {
  const unplaced = [];
  let first = null;
  for (const { field, message } of problems) {
    const name = String(field ?? "").split(/[.[]/)[0];
    const box = form.querySelector(`[data-field="${CSS.escape(name)}"]`);
    if (!box || box.closest("[hidden]")) {
      unplaced.push(`${field}: ${message}`);
      continue;
    }
    const error = box.querySelector(".field-error");
    error.textContent = error.textContent ? `${error.textContent} ${message}` : message;
    const input = box.querySelector("input, textarea, select");
    input.setAttribute("aria-invalid", "true");
    first ??= input;
    box.closest("details")?.setAttribute("open", "");
  }
  formError.textContent = unplaced.length ? `Not added: ${unplaced.join("; ")}` : "Not added: see the fields marked above.";
  first?.focus();
}
