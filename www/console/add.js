// The "Add servers" view: the catalogue first (one click each), then a form for any other server, then the import
// of an mcpServers file.
import { h } from "./dom.js";
import { mountCatalogue } from "./catalogue.js";
import { mountImport } from "./import.js";
import { mountServerForm } from "./server-form.js";

export function mount(view) {
  const catalogue = h("section", { class: "panel view-section", "aria-labelledby": "catalogue-title" });
  const form = h("section", { class: "panel view-section" });
  const importer = h("section", { class: "panel view-section" });
  view.replaceChildren(catalogue, h("div", { class: "add-columns" }, form, importer));
  mountCatalogue(catalogue);
  mountServerForm(form);
  mountImport(importer);
}
