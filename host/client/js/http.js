// The remote-server transport's requests, for the host's Rust code (src/http/transport/fetching.rs): each builds its
// request and reads its body's chunks in one call from wasm, rather than a call into JavaScript per header, option
// and field.

// Starts `fetch(url)`. `headers` is the headers' names and values, each followed by a NUL (no valid name or value
// holds one). Throws, naming the header, for a header the browser refuses.
export function fetchWith(url, method, headers, body, signal, manualRedirect) {
  const init = { method, headers: headersOf(headers) };
  if (body !== undefined) init.body = body;
  if (signal !== undefined) init.signal = signal;
  if (manualRedirect) init.redirect = "manual";
  return fetch(url, init);
}

// The last headers made, by their joined text: a session's requests mostly carry the same ones, and `fetch()` copies
// what it is given, so they are made once rather than a `Headers` and an `append` per header for each request. A
// transport forgets them when it closes (`forgetHeaders`).
let lastJoined = null;
let lastHeaders = null;

function headersOf(joined) {
  if (joined === lastJoined) return lastHeaders;
  const all = new Headers();
  const parts = joined.split("\0");
  for (let i = 0; i + 1 < parts.length; i += 2) {
    try {
      all.append(parts[i], parts[i + 1]);
    } catch {
      throw new TypeError(`the header ${JSON.stringify(parts[i])} is not a valid HTTP header`);
    }
  }
  lastJoined = joined;
  lastHeaders = all;
  return all;
}

// Forgets the kept headers: a transport that closes calls it, since they may hold its credentials (a bearer token,
// a configured key).
export function forgetHeaders() {
  lastJoined = null;
  lastHeaders = null;
}

// The next chunk of a body as text (`decoder` streams, so a character split between chunks comes out whole), or
// `undefined` once the body has ended (after what the decoder still held, if anything).
export function nextText(reader, decoder) {
  return reader.read().then(({ done, value }) => {
    if (!done) return decoder.decode(value, { stream: true });
    const rest = decoder.decode();
    return rest === "" ? undefined : rest;
  });
}
