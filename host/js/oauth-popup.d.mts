/** The redirect page to register with authorization servers and to give as `oauth.redirectUri`. */
export const callbackUrl: string;
/** Opens `url` in a popup and resolves with the redirect page's URL once the user is sent back (for `oauth.authorize`). */
export function popupAuthorize(url: string, options?: { timeoutMs?: number; features?: string }): Promise<string>;
