/** The redirect page to register with authorization servers and to give as `oauth.redirectUri`. */
export const callbackUrl: string;
/** Opens `url` in a popup and resolves with the redirect page's URL once the user is sent back (for `oauth.authorize`). */
export function popupAuthorize(url: string, options?: { timeoutMs?: number; features?: string }): Promise<string>;
/** The CSP hash source (`'sha256-…'`) of the redirect page's inline script: a Content-Security-Policy that serves the page must allow it in `script-src`. */
export const callbackScriptHash: string;
/** For an app whose own route is the redirect URI: hands the page's URL (code and state) to the page that opened the sign-in, and closes the window. */
export function finishSignIn(): void;
