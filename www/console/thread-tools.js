// Which tools a thread's entries enable (names, and prefixes ending in `*` such as `mcp__echo__*`), and how to turn
// one tool off when a prefix covers it. Pure functions: no DOM, no runtime (tested under Node).

/** Whether `entries` enable the registry name `name`. */
export function enabledBy(entries, name) {
  return entries.some((entry) => (entry.endsWith("*") ? name.startsWith(entry.slice(0, -1)) : entry === name));
}

/**
 * The change that turns `name` off in a thread with `entries`, given every registered name: `{ disable, enable }`
 * to pass to `disableTools` and `enableTools`. A prefix that covers it gives way to the names it covers, less this one.
 */
export function turnOff(entries, name, registered) {
  if (entries.includes(name)) return { disable: [name], enable: [] };
  const prefixes = entries.filter((entry) => entry.endsWith("*") && name.startsWith(entry.slice(0, -1)));
  const enable = registered.filter((other) => other !== name && enabledBy(prefixes, other) && !entries.includes(other));
  return { disable: prefixes, enable };
}
