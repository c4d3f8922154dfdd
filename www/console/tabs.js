// The views as tabs (WAI-ARIA tabs pattern): one tab stop, arrow keys move between tabs, Home and End jump; the
// shown view is kept in the address (`#tools`), so a reload or a shared link opens the same view.
import { byTestId, emit, on } from "./app.js";

export function mountTabs(defaultView) {
  const list = byTestId("tabs");
  const tabs = [...list.querySelectorAll("[role=tab]")];
  const names = tabs.map((tab) => tab.dataset.view);

  function show(name, { focus = false } = {}) {
    if (!names.includes(name)) name = defaultView;
    for (const tab of tabs) {
      const selected = tab.dataset.view === name;
      tab.setAttribute("aria-selected", String(selected));
      tab.tabIndex = selected ? 0 : -1;
      document.getElementById(tab.getAttribute("aria-controls")).hidden = !selected;
      if (selected && focus) tab.focus();
    }
    if (location.hash.slice(1) !== name) history.replaceState(null, "", `#${name}`);
    emit("view", name);
  }

  list.addEventListener("click", (event) => {
    const tab = event.target.closest("[role=tab]");
    if (tab) show(tab.dataset.view);
  });
  list.addEventListener("keydown", (event) => {
    const index = tabs.indexOf(document.activeElement);
    if (index < 0) return;
    const next = { ArrowRight: index + 1, ArrowLeft: index - 1, Home: 0, End: tabs.length - 1 }[event.key];
    if (next === undefined) return;
    event.preventDefault();
    show(names[(next + tabs.length) % tabs.length], { focus: true });
  });
  on("show-view", (name) => show(name, { focus: false }));
  window.addEventListener("hashchange", () => show(location.hash.slice(1)));
  show(location.hash.slice(1) || defaultView);
}
