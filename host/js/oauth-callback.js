// The OAuth redirect page's script: hands this page's URL (code and state) to the page that opened the sign-in
// (oauth-popup.mjs), on a channel of this origin, and closes the window.
const channel = new BroadcastChannel("mcp-worker-oauth");
channel.postMessage({ url: location.href });
channel.close();
window.close();
