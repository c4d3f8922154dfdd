// The argument form: one field per property of a tool's inputSchema, plus the raw-JSON editor.
import { h, pretty } from "./dom.js";

/**
 * What kind of input a property gets. Types like `["string", "null"]` or `anyOf: [X, {type: "null"}]` (how
 * schema generators spell Option<X>) count as X; anything else that is not a plain scalar is edited as JSON.
 */
export function fieldKind(schema, root) {
  const prop = resolveRef(schema, root);
  if (Array.isArray(prop.enum) && prop.enum.length > 0 && prop.enum.every((v) => typeof v === "string")) return "enum";
  let types = Array.isArray(prop.type) ? prop.type : prop.type ? [prop.type] : [];
  const variants = prop.anyOf ?? prop.oneOf;
  if (types.length === 0 && Array.isArray(variants)) {
    const nonNull = variants.filter((v) => resolveRef(v, root).type !== "null");
    if (nonNull.length === 1) return fieldKind(nonNull[0], root);
  }
  types = types.filter((t) => t !== "null");
  if (types.length !== 1) return "json";
  return { string: "string", number: "number", integer: "integer", boolean: "boolean" }[types[0]] ?? "json";
}

/** Follows a local `$ref` (`#/$defs/X` or `#/definitions/X`); anything else is returned unchanged. */
function resolveRef(schema, root) {
  if (!schema || typeof schema !== "object") return {};
  const ref = schema.$ref;
  if (typeof ref !== "string" || !ref.startsWith("#/")) return schema;
  let target = root;
  for (const part of ref.slice(2).split("/")) target = target?.[part.replaceAll("~1", "/").replaceAll("~0", "~")];
  return target && typeof target === "object" ? { ...target, ...schema, $ref: undefined } : schema;
}

/**
 * Builds the form for one tool. `idPrefix` keeps element ids unique. Returns the element and:
 * - `read()`: `{ args, errors: [{ name, message }] }`, marking the invalid fields;
 * - `check(args)` and `write(args)`: fill the fields from an object (when leaving raw-JSON mode), refusing values
 *   the fields cannot show so that switching modes never silently drops an argument.
 */
export function buildArgsForm(inputSchema, idPrefix) {
  const schema = inputSchema && typeof inputSchema === "object" ? inputSchema : {};
  const properties = schema.properties && typeof schema.properties === "object" ? schema.properties : {};
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  // Ids use the position, not the name: property names may hold spaces, which ids cannot.
  const fields = Object.entries(properties).map(([name, prop], i) =>
    buildField(name, resolveRef(prop, schema), fieldKind(prop, schema), required.has(name), `${idPrefix}-${i}`),
  );

  const element = h(
    "div",
    { class: "fields" },
    fields.length === 0 ? h("p", { class: "muted" }, "This tool takes no arguments.") : fields.map((f) => f.element),
  );

  /** The arguments the fields hold (valid ones only) and the errors of the others, marked unless `mark` is false. */
  function read({ mark = true } = {}) {
    const args = {};
    const errors = [];
    for (const field of fields) {
      const result = field.read();
      if (mark) field.setError(result.error);
      if (result.error) errors.push({ name: field.name, message: result.error });
      else if (result.value !== undefined) args[field.name] = result.value;
    }
    return { args, errors };
  }

  /** Why `args` cannot be shown in the form without losing something (empty when it can). */
  function check(args) {
    const problems = Object.keys(args)
      .filter((key) => !Object.hasOwn(properties, key))
      .map((key) => `${key} is not in the input schema`);
    for (const field of fields) {
      if (!field.canHold(args[field.name])) problems.push(`${field.name} is not a ${field.kind} value`);
    }
    return problems;
  }

  function write(args) {
    for (const field of fields) {
      field.write(args[field.name]);
      field.setError(null);
    }
  }

  return { element, read, check, write, focusFirst: () => fields[0]?.input.focus() };
}

function buildField(name, prop, kind, isRequired, id) {
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const common = {
    id,
    name,
    "data-testid": `arg-${name}`,
    "aria-required": isRequired ? "true" : null,
    "aria-describedby": `${hintId} ${errorId}`,
  };
  let input;
  if (kind === "boolean") {
    input = h("input", { ...common, type: "checkbox", checked: prop.default === true });
  } else if (kind === "enum") {
    input = h(
      "select",
      common,
      isRequired ? null : h("option", { value: "" }, "(not set)"),
      prop.enum.map((v) => h("option", { value: v, selected: v === prop.default }, v)),
    );
  } else if (kind === "number" || kind === "integer") {
    input = h("input", {
      ...common,
      type: "number",
      inputmode: kind === "integer" ? "numeric" : "decimal",
      step: kind === "integer" ? "1" : "any",
      min: typeof prop.minimum === "number" ? String(prop.minimum) : null,
      max: typeof prop.maximum === "number" ? String(prop.maximum) : null,
      value: typeof prop.default === "number" ? String(prop.default) : null,
    });
  } else if (kind === "string") {
    input = h("input", {
      ...common,
      type: "text",
      autocomplete: "off",
      spellcheck: "false",
      value: typeof prop.default === "string" ? prop.default : null,
    });
  } else {
    input = h("textarea", {
      ...common,
      class: "mono",
      rows: "3",
      spellcheck: "false",
      placeholder: "JSON value",
      value: prop.default !== undefined ? pretty(prop.default) : null,
    });
  }
  // An optional checkbox is sent only once touched: unchecked would otherwise always send `false`.
  let touched = false;
  input.addEventListener("input", () => {
    touched = true;
    setError(null);
  });

  const typeLabel = kind === "enum" ? "enum" : kind === "json" ? describeType(prop) : kind;
  const label = h(
    "label",
    { for: id },
    h("span", { class: "field-name mono" }, name),
    isRequired ? h("span", { class: "required", title: "required" }, "*", h("span", { class: "sr-only" }, " (required)")) : null,
    h("span", { class: "field-type" }, typeLabel),
  );
  const hint = h("p", { id: hintId, class: "field-hint" }, prop.description ?? prop.title ?? "");
  const error = h("p", { id: errorId, class: "field-error", "data-testid": `arg-error-${name}` });
  const element = h(
    "div",
    { class: `field field-${kind}` },
    kind === "boolean" ? h("div", { class: "check-row" }, input, label) : [label, input],
    hint,
    error,
  );

  function setError(message) {
    error.textContent = message ?? "";
    if (message) input.setAttribute("aria-invalid", "true");
    else input.removeAttribute("aria-invalid");
  }

  function read() {
    const missing = { error: `${name} is required` };
    switch (kind) {
      case "boolean":
        return { value: isRequired || touched ? input.checked : undefined };
      case "enum":
        return input.value === "" ? (isRequired ? missing : {}) : { value: input.value };
      case "string":
        return input.value === "" ? (isRequired ? missing : {}) : { value: input.value };
      case "number":
      case "integer": {
        // A number input reports "" for text it cannot parse; badInput tells that apart from an empty field.
        if (input.validity.badInput) return { error: `${name} must be a number` };
        if (input.value.trim() === "") return isRequired ? missing : {};
        const value = Number(input.value);
        if (!Number.isFinite(value)) return { error: `${name} must be a finite number` };
        if (kind === "integer" && !Number.isInteger(value)) return { error: `${name} must be a whole number` };
        return { value };
      }
      default: {
        if (input.value.trim() === "") return isRequired ? missing : {};
        try {
          return { value: JSON.parse(input.value) };
        } catch (e) {
          return { error: `${name} is not valid JSON: ${e.message}` };
        }
      }
    }
  }

  function write(value) {
    touched = value !== undefined;
    if (kind === "boolean") input.checked = value === true;
    else if (value === undefined) input.value = "";
    else input.value = kind === "json" ? pretty(value) : String(value);
  }

  function canHold(value) {
    if (value === undefined || kind === "json") return true;
    if (kind === "boolean") return typeof value === "boolean";
    if (kind === "string") return typeof value === "string";
    if (kind === "enum") return prop.enum.includes(value);
    return typeof value === "number" && (kind === "number" || Number.isInteger(value));
  }

  return { name, kind, input, element, read, canHold, write, setError };
}

function describeType(prop) {
  if (Array.isArray(prop.type)) return prop.type.join(" | ");
  return prop.type ?? "json";
}
