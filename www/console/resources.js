// The "Resources & prompts" view: a server picker, then that server's resources (listed page by page, resource
// templates, a reader with subscribe/unsubscribe that re-reads a resource when the server says it changed) and its
// prompts (prompts.js). Listing starts a server that is not running; everything a server sends is shown as text.
import { announce, app, describe, on } from "./app.js";
import { clock, fill, h } from "./dom.js";
import { clip, objects, pagedList } from "./listing.js";
import { createPromptsPanel } from "./prompts.js";
import { renderBlock, safeMime, textView } from "./result.js";

/** What people read for each server status, after its name, next to the picker. */
const STATUS_TEXT = {
  connected: "is running",
  connecting: "is starting…",
  disconnected: "is not running: it starts when its resources or prompts are listed",
  needs_credentials: "is waiting for credentials (see the vault)",
  needs_authorization: "is waiting for a sign-in",
  error: "failed",
  disabled: "is disabled: enable it in the sidebar to use it",
};

export function mount(view) {
  const picker = h("select", { id: "resources-server", "data-testid": "resources-server", onchange: () => select(picker.value) });
  const status = h("p", { class: "features-status muted", "data-testid": "resources-server-status" });
  const refresh = h("button", { type: "button", class: "btn btn-small", "data-testid": "resources-refresh", onclick: () => load() }, "Refresh");
  const resources = createResourcesPanel();
  const prompts = createPromptsPanel();
  const empty = h("p", { class: "empty", "data-testid": "resources-no-server" }, "No server is configured yet: add one in “Add servers”.");
  const panels = h("div", { class: "features-grid" }, resources.element, prompts.element);
  fill(
    view,
    h(
      "div",
      { class: "features-bar" },
      h("label", { for: picker.id, class: "features-bar-label" }, "Server"),
      picker,
      refresh,
      status,
    ),
    empty,
    panels,
  );

  let selected = null;
  /** Whether the selected server's lists were fetched, and whether that failed (a failure is retried once it runs). */
  let loaded = { server: null, failed: false };

  function load() {
    if (!selected) return;
    loaded = { server: selected, failed: false };
    const failed = () => (loaded.failed = true);
    resources.show(selected).catch(failed);
    prompts.show(selected).catch(failed);
  }

  function select(name) {
    selected = name;
    picker.value = name ?? "";
    renderStatus();
    if (!view.hidden) load();
  }

  function renderStatus() {
    const health = selected ? app.health.get(selected) : null;
    if (!health) return fill(status, "");
    const said = STATUS_TEXT[health.status] ?? `is ${health.status}`;
    const error = health.status === "error" && health.lastError ? `: ${health.lastError}` : "";
    status.dataset.state = health.status;
    fill(status, h("span", { class: "status-dot", "aria-hidden": "true" }), ` ${selected} ${said}${error}`);
  }

  function renderPicker() {
    const names = [...app.health.keys()].sort();
    const key = names.join("\n");
    if (picker.dataset.names !== key) {
      picker.dataset.names = key;
      fill(picker, names.map((name) => h("option", { value: name }, name)));
    }
    empty.hidden = names.length > 0;
    panels.hidden = names.length === 0;
    picker.disabled = refresh.disabled = names.length === 0;
    if (!names.includes(selected)) select(names[0] ?? null);
    else picker.value = selected;
  }

  on("servers", () => {
    const failedBefore = loaded.server === selected && loaded.failed;
    renderPicker();
    renderStatus();
    // Lists that failed because the server was down are fetched again once it runs.
    if (failedBefore && app.health.get(selected)?.status === "connected" && !view.hidden) load();
  });
  on("view", (name) => {
    if (name === "resources" && selected && loaded.server !== selected) load();
  });
  on("event", (event) => {
    if (event?.server !== selected || loaded.server !== selected) return;
    if (event.type === "listChanged" && event.list === "resources") resources.relist();
    else if (event.type === "listChanged" && event.list === "prompts") prompts.relist();
    else if (event.type === "resourceUpdated") resources.updated(String(event.uri));
  });
  renderPicker();
}

const text = (value) => (typeof value === "string" ? value : "");

function createResourcesPanel() {
  let server = null;
  /** The resource in the reader: `{ uri, updatedAt }`, or null. */
  let shown = null;
  /** When each resource of this server last changed (uri → HH:MM:SS), as the server said. */
  let changes = new Map();
  let readRun = 0;
  let objectUrls = [];

  const resourceList = pagedList({
    testid: "resource-list",
    label: "Resources",
    emptyText: "This server lists no resources.",
    unsupportedText: "This server offers no resources.",
    item: resourceItem,
  });
  const templateList = pagedList({
    testid: "template-list",
    label: "Resource templates",
    emptyText: "No resource templates.",
    unsupportedText: "No resource templates.",
    item: templateItem,
  });
  const uriInput = h("input", { type: "text", id: "resource-uri", "data-testid": "resource-uri", spellcheck: "false", autocomplete: "off", class: "mono" });
  const uriForm = h(
    "form",
    {
      class: "uri-form",
      onsubmit: (event) => {
        event.preventDefault();
        if (uriInput.value.trim()) read(uriInput.value.trim());
      },
    },
    h("label", { for: uriInput.id }, "Read a URI"),
    h("div", { class: "uri-row" }, uriInput, h("button", { type: "submit", class: "btn btn-small", "data-testid": "resource-uri-read" }, "Read")),
  );
  const readerHead = h("div");
  const readerBody = h("div", { class: "reader-body" });
  const reader = h("div", { class: "resource-reader", "data-testid": "resource-reader" }, readerHead, readerBody);
  const element = h(
    "section",
    { class: "panel feature-panel", "aria-labelledby": "resources-title", "data-testid": "resources-panel" },
    h("header", { class: "panel-head" }, h("h2", { id: "resources-title" }, "Resources")),
    h(
      "div",
      { class: "feature-split" },
      h(
        "div",
        { class: "feature-lists" },
        resourceList.element,
        h("h3", { class: "feature-subhead" }, "Templates"),
        templateList.element,
        uriForm,
      ),
      reader,
    ),
  );

  function resourceItem(resource) {
    const uri = text(resource.uri);
    return h(
      "li",
      { class: "feature-item", "data-testid": "resource-item", dataset: { uri } },
      h(
        "button",
        { type: "button", class: "feature-select", "aria-current": shown?.uri === uri ? "true" : null, onclick: () => read(uri) },
        h("span", { class: "feature-name" }, clip(resource.title) || clip(resource.name) || clip(uri)),
        h("span", { class: "mono feature-uri" }, clip(uri)),
        clip(resource.description) ? h("span", { class: "feature-desc" }, clip(resource.description)) : null,
        h(
          "span",
          { class: "badges" },
          clip(resource.mimeType, 80) ? h("span", { class: "badge" }, clip(resource.mimeType, 80)) : null,
          h("span", { class: "badge badge-ok badge-subscribed", hidden: !subscriptions().includes(uri) }, "subscribed"),
          h("span", { class: "badge badge-changed", hidden: !changes.has(uri) }, `changed at ${changes.get(uri)}`),
        ),
      ),
    );
  }

  /** Brings a list entry's current mark and badges up to date, without listing again. */
  function markItems() {
    const subscribed = subscriptions();
    for (const item of resourceList.element.querySelectorAll("[data-testid=resource-item]")) {
      const uri = item.dataset.uri;
      const button = item.querySelector(".feature-select");
      if (uri === shown?.uri) button.setAttribute("aria-current", "true");
      else button.removeAttribute("aria-current");
      item.querySelector(".badge-subscribed").hidden = !subscribed.includes(uri);
      const changed = item.querySelector(".badge-changed");
      changed.hidden = !changes.has(uri);
      changed.textContent = `changed at ${changes.get(uri)}`;
    }
  }

  function templateItem(template) {
    const uriTemplate = text(template.uriTemplate);
    return h(
      "li",
      { class: "feature-item", "data-testid": "template-item", dataset: { template: uriTemplate } },
      h(
        "button",
        {
          type: "button",
          class: "feature-select",
          title: "Put this template in “Read a URI”, to fill in its variables",
          onclick: () => {
            uriInput.value = uriTemplate;
            uriInput.focus();
          },
        },
        h("span", { class: "feature-name" }, clip(template.title) || clip(template.name) || clip(uriTemplate)),
        h("span", { class: "mono feature-uri" }, clip(uriTemplate)),
        clip(template.description) ? h("span", { class: "feature-desc" }, clip(template.description)) : null,
      ),
    );
  }

  function subscriptions() {
    try {
      return server ? app.runtime.resourceSubscriptions(server) : [];
    } catch {
      return [];
    }
  }

  function relistResources() {
    return resourceList.start(async (cursor) => {
      const page = await app.runtime.listResources(server, cursor ? { cursor } : undefined);
      return { items: objects(page?.resources), nextCursor: page?.nextCursor };
    });
  }

  /** Reads `uri` into the reader; `updatedAt` (HH:MM:SS) says the read follows a change the server announced. */
  async function read(uri, updatedAt = null) {
    const run = ++readRun;
    const target = server;
    // A resource the server said changed keeps that mark: what is read now is the changed version.
    shown = { uri, updatedAt: updatedAt ?? changes.get(uri) ?? null };
    markItems();
    renderHead();
    renderBody({ state: "loading" });
    try {
      const result = await app.runtime.readResource(target, uri);
      if (run !== readRun) return;
      renderBody({ state: "ok", contents: objects(result?.contents) });
      if (updatedAt) announce(`${uri} changed; read again at ${updatedAt}`);
    } catch (error) {
      if (run === readRun) renderBody({ state: "error", error });
    }
  }

  /** The reader's head: the URI, Read again, Subscribe/Unsubscribe, and whether it changed. */
  function renderHead() {
    if (!shown) {
      fill(readerHead, h("p", { class: "empty" }, "Pick a resource to read it."));
      return;
    }
    const uri = shown.uri;
    const subscribed = subscriptions().includes(uri);
    const subscribeError = h("p", { class: "field-error", role: "alert", "data-testid": "resource-subscribe-error" });
    const toggle = h(
      "button",
      {
        type: "button",
        class: `btn btn-small${subscribed ? "" : " btn-primary"}`,
        "data-testid": "resource-subscribe",
        onclick: () => setSubscribed(uri, !subscribed, toggle, subscribeError),
      },
      subscribed ? "Unsubscribe" : "Subscribe to changes",
    );
    fill(
      readerHead,
      h(
        "div",
        { class: "reader-head" },
        h("h3", { class: "mono reader-uri", "data-testid": "resource-reader-uri" }, clip(uri, 1000)),
        h(
          "div",
          { class: "reader-actions" },
          h("button", { type: "button", class: "btn btn-small", "data-testid": "resource-reread", onclick: () => read(uri) }, "Read again"),
          toggle,
        ),
      ),
      subscribed || shown.updatedAt
        ? h(
            "p",
            { class: "reader-state" },
            subscribed ? h("span", { class: "pill pill-ok", "data-testid": "resource-subscribed" }, "Subscribed: read again on every change") : null,
            shown.updatedAt ? h("span", { class: "pill pill-pending", "data-testid": "resource-updated" }, `updated at ${shown.updatedAt}`) : null,
          )
        : null,
      subscribeError,
    );
  }

  /** The reader's body: what the last read returned (or why it failed). */
  function renderBody(outcome) {
    for (const url of objectUrls) URL.revokeObjectURL(url);
    objectUrls = [];
    readerBody.dataset.state = outcome.state;
    readerBody.setAttribute("aria-busy", outcome.state === "loading" ? "true" : "false");
    fill(
      readerBody,
      outcome.state === "loading" ? h("p", { class: "muted" }, "Reading…") : null,
      outcome.state === "error" ? h("p", { class: "error-box", role: "alert", "data-testid": "resource-error" }, describe(outcome.error)) : null,
      outcome.state === "ok"
        ? h(
            "div",
            { class: "content-blocks", "data-testid": "resource-contents" },
            outcome.contents.length === 0 ? h("p", { class: "muted" }, "The server returned no contents.") : outcome.contents.map(renderContents),
          )
        : null,
    );
  }

  async function setSubscribed(uri, subscribe, button, errorLine) {
    button.disabled = true;
    const target = server;
    try {
      if (subscribe) await app.runtime.subscribeResource(target, uri);
      else await app.runtime.unsubscribeResource(target, uri);
      if (target !== server) return;
      announce(subscribe ? `Subscribed to ${uri}` : `Unsubscribed from ${uri}`);
      if (shown?.uri === uri) renderHead();
      markItems();
    } catch (error) {
      button.disabled = false;
      errorLine.textContent = describe(error);
    }
  }

  /** One entry of `contents`: text in a <pre>; images previewed; every blob with its size and a download link. */
  function renderContents(contents) {
    const uri = text(contents.uri);
    const mime = text(contents.mimeType);
    const label = [mime || (typeof contents.blob === "string" ? "binary" : "text"), uri !== shown?.uri ? uri : ""].filter(Boolean).join(" · ");
    return h("div", { class: "content-block" }, h("div", { class: "block-label" }, clip(label)), contentsBody(contents, mime, uri));
  }

  function contentsBody(contents, mime, uri) {
    if (typeof contents.text === "string") return textView(contents.text);
    if (typeof contents.blob === "string") return blobView(contents.blob, mime, uri);
    return h("p", { class: "muted" }, "Neither text nor a blob: nothing to show.");
  }

  function blobView(base64, mime, uri) {
    let bytes;
    try {
      bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
    } catch {
      return h("p", { class: "error-box" }, "The blob is not valid base64.");
    }
    const url = URL.createObjectURL(new Blob([bytes], { type: safeMime(mime, "") ? mime : "application/octet-stream" }));
    objectUrls.push(url);
    const name = uri.split(/[/?#]/).filter(Boolean).pop()?.replace(/[^\w.-]+/g, "_") || "resource";
    return h(
      "div",
      { class: "blob-view" },
      safeMime(mime, "image/") ? renderBlock({ type: "image", data: base64, mimeType: mime }, "read from the resource") : null,
      safeMime(mime, "audio/") ? renderBlock({ type: "audio", data: base64, mimeType: mime }) : null,
      h(
        "p",
        { class: "blob-meta" },
        `${bytes.length.toLocaleString()} bytes · `,
        h("a", { href: url, download: name, "data-testid": "resource-download" }, `Download ${name}`),
      ),
    );
  }

  return {
    element,
    /** Lists the resources and templates of `name` (and empties the reader when the server changes). */
    show(name) {
      if (name !== server) {
        server = name;
        shown = null;
        changes = new Map();
        readRun += 1;
        uriInput.value = "";
        renderHead();
        renderBody({ state: "empty" });
      }
      return Promise.all([
        relistResources(),
        templateList.start(async (cursor) => {
          const page = await app.runtime.listResourceTemplates(server, cursor ? { cursor } : undefined);
          return { items: objects(page?.resourceTemplates), nextCursor: page?.nextCursor };
        }),
      ]);
    },
    relist: () => relistResources().catch(() => {}),
    /** The server says `uri` changed: the reader reads it again, the list marks it. */
    updated(uri) {
      const at = clock().slice(0, 8);
      changes.set(uri, at);
      if (shown?.uri === uri) read(uri, at);
      else markItems();
    },
  };
}
