// OAuth sign-in in a popup window, for `McpRuntime.create({ oauth: { redirectUri: callbackUrl, authorize: popupAuthorize } })`:
// opens the authorization server's page, and resolves with the URL of the redirect page (oauth-callback.html, shipped
// beside this module) once the server sends the user back to it. The redirect page tells this page through a
// BroadcastChannel of the page's origin (an authorization server's Cross-Origin-Opener-Policy may cut the popup off
// from its opener), and only the answer carrying this attempt's `state` is taken. The redirect page is one file (its
// script is inline), so a bundler that copies it as an asset copies all of it; an app may instead make a route of its
// own the redirect page, which calls `finishSignIn()`.

/** The redirect page to register and to give as `oauth.redirectUri`. */
export const callbackUrl = new URL("./oauth-callback.html", import.meta.url).href;

/** The CSP hash source of the redirect page's inline script: a policy that serves the page must allow it in `script-src`. */
export const callbackScriptHash = "sha256-HI+CYZWdFOsWIugPfKIMW+u288/2ss37H3Lm18lNVJ0=";

/** What the redirect page does, for an app whose own route is the redirect URI: hands this page's URL (code and
 * state) to the page that opened the sign-in, and closes the window. */
export function finishSignIn() {
  const channel = new BroadcastChannel("mcp-worker-oauth");
  channel.postMessage({ url: location.href });
  channel.close();
  window.close();
}

/** Opens `url` in a popup and resolves with the redirect page's URL (its query holds the code and state). */
export function popupAuthorize(url, { timeoutMs = 300_000, features = "popup,width=520,height=720" } = {}) {
  const state = new URL(url).searchParams.get("state");
  return new Promise((resolve, reject) => {
    const channel = new BroadcastChannel("mcp-worker-oauth");
    let timer;
    const finish = (settle, value) => {
      clearTimeout(timer);
      channel.close();
      settle(value);
    };
    channel.onmessage = (event) => {
      const back = typeof event.data?.url === "string" ? new URL(event.data.url) : null;
      if (!back || back.searchParams.get("state") !== state) return;
      finish(resolve, back.href);
    };
    const popup = window.open(url, "mcp-worker-oauth", features);
    if (!popup) {
      finish(reject, new Error("the browser blocked the sign-in window: open it from a click, or allow popups for this page"));
      return;
    }
    timer = setTimeout(() => {
      popup.close();
      finish(reject, new Error(`the sign-in did not finish within ${Math.round(timeoutMs / 1000)} s`));
    }, timeoutMs);
  });
}
