// The form of an elicitation request, built from its `requestedSchema`: the flat schemas MCP allows (strings with
// an optional format, single and multiple choices, numbers, booleans), each field labelled with its title, its
// description as a hint, its default filled in, and its error beside it. Every part of the schema is untrusted:
// anything unexpected becomes a field that says it cannot be filled in, never an exception.
import { h } from "./dom.js";
import { clip } from "./listing.js";

/** Fields built at most: a schema with more says how many were left out. */
const MAX_FIELDS = 100;
/** Input types for the string formats MCP allows. */
const FORMAT_INPUT = { email: "email", uri: "url", date: "date", "date-time": "datetime-local" };

const text = (value) => (typeof value === "string" ? value : "");
const isObject = (value) => value != null && typeof value === "object" && !Array.isArray(value);

/**
 * Builds the form body. Returns `{ element, read }`: `read()` marks the invalid fields and returns
 * `{ content, invalid }`, `content` holding the valid values and `invalid` the fields that are not (each with
 * `focus()`).
 */
export function buildElicitationForm(requestedSchema, idPrefix) {
  const schema = isObject(requestedSchema) ? requestedSchema : {};
  const properties = isObject(schema.properties) ? Object.entries(schema.properties) : [];
  const required = new Set(Array.isArray(schema.required) ? schema.required.filter((n) => typeof n === "string") : []);
  const fields = properties
    .slice(0, MAX_FIELDS)
    .map(([name, prop], i) => buildField(name, isObject(prop) ? prop : {}, required.has(name), `${idPrefix}-${i}`));
  const element = h(
    "div",
    { class: "elicit-fields" },
    fields.length === 0 ? h("p", { class: "muted" }, "The server asks for no values: accept or decline.") : fields.map((f) => f.element),
    properties.length > MAX_FIELDS ? h("p", { class: "field-error" }, `${properties.length - MAX_FIELDS} more fields were left out.`) : null,
  );

  function read() {
    const entries = [];
    const invalid = [];
    for (const field of fields) {
      const { value, error } = field.read();
      field.setError(error);
      if (error) invalid.push(field);
      else if (value !== undefined) entries.push([field.name, value]);
    }
    // fromEntries makes own properties of every name, `__proto__` included.
    return { content: Object.fromEntries(entries), invalid };
  }

  return { element, read };
}

/** The options of a single or multiple choice: `enum` (with `enumNames`) or `oneOf`/`anyOf` of `{ const, title }`. */
function choices(schema) {
  if (Array.isArray(schema.enum)) {
    const names = Array.isArray(schema.enumNames) ? schema.enumNames : [];
    return schema.enum.filter((v) => typeof v === "string").map((v, i) => ({ value: v, label: clip(names[i], 200) || clip(v, 200) }));
  }
  const variants = Array.isArray(schema.oneOf) ? schema.oneOf : Array.isArray(schema.anyOf) ? schema.anyOf : null;
  if (!variants) return null;
  return variants.filter((v) => isObject(v) && typeof v.const === "string").map((v) => ({ value: v.const, label: clip(v.title, 200) || clip(v.const, 200) }));
}

function kindOf(prop) {
  const options = choices(prop);
  if (options?.length) return { kind: "choice", options };
  if (prop.type === "array" && isObject(prop.items)) {
    const itemOptions = choices(prop.items);
    if (itemOptions?.length) return { kind: "multi", options: itemOptions };
  }
  // `["string", "null"]` (how schema generators spell an optional value) counts as a string.
  const types = Array.isArray(prop.type) ? prop.type.filter((t) => t !== "null") : [prop.type];
  if (types.length === 1 && ["string", "number", "integer", "boolean"].includes(types[0])) return { kind: types[0] };
  return { kind: "unsupported" };
}

function buildField(name, prop, isRequired, id) {
  const { kind, options } = kindOf(prop);
  const label = clip(prop.title, 200) || clip(name, 200);
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const described = `${hintId} ${errorId}`;
  const common = { id, name, "data-testid": `elicit-${name}`, "aria-describedby": described, "aria-required": isRequired ? "true" : null };
  const requiredMark = isRequired ? h("span", { class: "required", title: "required" }, "*", h("span", { class: "sr-only" }, " (required)")) : null;
  const hint = h("p", { id: hintId, class: "field-hint" }, clip(prop.description, 2000));
  const error = h("p", { id: errorId, class: "field-error", "data-testid": `elicit-error-${name}` });
  const missing = { error: `${label} is required` };
  let input;
  let control;
  let read;

  if (kind === "choice") {
    const chosen = options.some((o) => o.value === prop.default) ? prop.default : "";
    input = h(
      "select",
      common,
      h("option", { value: "", selected: chosen === "" }, isRequired ? "Choose…" : "(none)"),
      options.map((o) => h("option", { value: o.value, selected: o.value === chosen }, o.label)),
    );
    control = [h("label", { for: id }, label, requiredMark), input];
    read = () => (input.value === "" ? (isRequired ? missing : {}) : { value: input.value });
  } else if (kind === "multi") {
    const defaults = new Set(Array.isArray(prop.default) ? prop.default : []);
    const boxes = options.map((o, i) =>
      h("input", { type: "checkbox", id: `${id}-${i}`, value: o.value, checked: defaults.has(o.value), "data-testid": `elicit-${name}-option` }),
    );
    input = boxes[0];
    control = h(
      "fieldset",
      { class: "choice-group", "data-testid": `elicit-${name}`, "aria-describedby": described },
      h("legend", {}, label, requiredMark),
      boxes.map((box, i) => h("label", { class: "check-row", for: box.id }, box, options[i].label)),
    );
    read = () => {
      const value = boxes.filter((b) => b.checked).map((b) => b.value);
      const min = Number.isInteger(prop.minItems) ? prop.minItems : isRequired ? 1 : 0;
      if (value.length < min) return { error: min === 1 ? `Choose at least one for ${label}` : `Choose at least ${min} for ${label}` };
      if (Number.isInteger(prop.maxItems) && value.length > prop.maxItems) return { error: `Choose at most ${prop.maxItems} for ${label}` };
      return value.length || isRequired ? { value } : {};
    };
  } else if (kind === "boolean") {
    input = h("input", { ...common, type: "checkbox", checked: prop.default === true });
    control = h("div", { class: "check-row" }, input, h("label", { for: id }, label, requiredMark));
    read = () => ({ value: input.checked });
  } else if (kind === "number" || kind === "integer") {
    const min = typeof prop.minimum === "number" ? prop.minimum : null;
    const max = typeof prop.maximum === "number" ? prop.maximum : null;
    input = h("input", {
      ...common,
      type: "number",
      step: kind === "integer" ? "1" : "any",
      min: min ?? null,
      max: max ?? null,
      value: typeof prop.default === "number" ? String(prop.default) : null,
    });
    control = [h("label", { for: id }, label, requiredMark, range(min, max)), input];
    read = () => {
      if (input.validity.badInput) return { error: `${label} must be a number` };
      if (input.value.trim() === "") return isRequired ? missing : {};
      const value = Number(input.value);
      if (!Number.isFinite(value)) return { error: `${label} must be a number` };
      if (kind === "integer" && !Number.isInteger(value)) return { error: `${label} must be a whole number` };
      if (min !== null && value < min) return { error: `${label} must be at least ${min}` };
      if (max !== null && value > max) return { error: `${label} must be at most ${max}` };
      return { value };
    };
  } else if (kind === "string") {
    const format = text(prop.format);
    const type = FORMAT_INPUT[format] ?? "text";
    input = h("input", { ...common, type, autocomplete: "off", value: initialString(prop.default, format) });
    control = [h("label", { for: id }, label, requiredMark, format ? h("span", { class: "field-type" }, format) : null), input];
    read = () => readString(input, prop, format, label, isRequired ? missing : null);
  } else {
    input = h("input", { ...common, type: "text", disabled: true, value: "" });
    control = [h("label", { for: id }, label, requiredMark), input];
    const type = Array.isArray(prop.type) ? prop.type.join(" | ") : text(prop.type) || "no type";
    hint.textContent = `This field (${clip(type, 100)}) cannot be filled in here.`;
    read = () => (isRequired ? { error: `${label} is required, but its type cannot be filled in here` } : {});
  }

  const element = h("div", { class: `field field-${kind}` }, control, hint, error);
  element.addEventListener("input", () => setError(null));
  element.addEventListener("change", () => setError(null));

  function setError(message) {
    error.textContent = message ?? "";
    const target = kind === "multi" ? control : input;
    if (message) target.setAttribute("aria-invalid", "true");
    else target.removeAttribute("aria-invalid");
  }

  return { name, element, read, setError, focus: () => input?.focus() };
}

function range(min, max) {
  if (min === null && max === null) return null;
  const said = min !== null && max !== null ? `${min} to ${max}` : min !== null ? `at least ${min}` : `at most ${max}`;
  return h("span", { class: "field-type" }, said);
}

/** A default as the input shows it: a date-time in local time (what datetime-local holds). */
function initialString(value, format) {
  if (typeof value !== "string") return null;
  if (format !== "date-time") return value;
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return null;
  const local = new Date(date.getTime() - date.getTimezoneOffset() * 60_000);
  return local.toISOString().slice(0, 16);
}

function readString(input, prop, format, label, missing) {
  const value = input.value;
  if (value === "") return missing ?? {};
  if (input.validity.typeMismatch || input.validity.badInput) {
    return { error: format === "email" ? `${label} must be an email address` : format === "uri" ? `${label} must be a URL` : `${label} is not valid` };
  }
  if (typeof prop.minLength === "number" && value.length < prop.minLength) return { error: `${label} must be at least ${prop.minLength} characters` };
  if (typeof prop.maxLength === "number" && value.length > prop.maxLength) return { error: `${label} must be at most ${prop.maxLength} characters` };
  // datetime-local holds local time without a zone; the protocol's date-time is RFC 3339 with one.
  if (format === "date-time") {
    const date = new Date(value);
    return Number.isNaN(date.getTime()) ? { error: `${label} is not a valid date and time` } : { value: date.toISOString() };
  }
  return { value };
}
