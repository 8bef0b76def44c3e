/**
 * "Detailed capture": the optional `webRequest` (and, in Chromium, `declarativeNetRequestWithHostAccess`)
 * permissions. Off by default, because while any loaded extension holds either, Chromium routes
 * every request of every page through a proxy in its browser process, listeners or not
 * (`WebRequestAPI::MayHaveProxies`, extensions/browser/api/web_request/web_request_api.cc): about
 * 0.16 ms of browser CPU per request (bench/overhead/main.ts). Chromium counts the extensions holding
 * them only when an extension loads or unloads, from its *active* permissions, so an ungranted
 * optional permission costs nothing — and a grant takes effect only when Chromium next starts.
 * Checked in Chromium 156: after a runtime grant, `chrome.webRequest` exists and listeners can be
 * added, but no event arrives (no proxy); `runtime.reload()` does not change that (the unload
 * counts the granted permission down, the load counts it up: the count stays 0); after a browser
 * restart the events flow. Revoking likewise keeps the proxy until the restart.
 *
 * Firefox ESR 153 accepts only `webRequest` as an optional permission (`permissions.request` rejects
 * `declarativeNetRequestWithHostAccess`, and its manifest entry is ignored), so there Detailed
 * capture is webRequest alone and hints stay `<link>` elements. Firefox has no such proxy: a grant
 * applies at once; the extension reloads so its event page adds the listeners at start-up (the
 * only listeners that wake it).
 *
 * Used by the background and the extension pages; imports no polyfill (the caller passes its API).
 */
import type { CaptureMode } from '../../src/page/model/page-record';

export type { CaptureMode };

/** The `permissions` member of `browser.permissions.*` calls. */
export interface PermissionsLike {
  contains(p: { permissions?: string[] }): Promise<boolean>;
  request(p: { permissions?: string[] }): Promise<boolean>;
  remove(p: { permissions?: string[] }): Promise<boolean>;
}

const CHROMIUM_PERMISSIONS = ['webRequest', 'declarativeNetRequestWithHostAccess'] as const;
const FIREFOX_PERMISSIONS = ['webRequest'] as const;

/**
 * The optional permissions Detailed capture asks for in this browser.
 * @param extensionBaseUrl `runtime.getURL('')`: `moz-extension:` in Firefox
 */
export function detailedPermissions(extensionBaseUrl: string): string[] {
  return [...(isFirefox(extensionBaseUrl) ? FIREFOX_PERMISSIONS : CHROMIUM_PERMISSIONS)];
}

/** Firefox's extension pages are moz-extension:. */
export function isFirefox(extensionBaseUrl: string): boolean {
  return extensionBaseUrl.startsWith('moz-extension:');
}

/** Whether a permissions.onAdded/onRemoved change concerns Detailed capture. */
export function touchesDetailedCapture(changed: { permissions?: string[] } | undefined): boolean {
  return (changed?.permissions ?? []).some((p) => p === 'webRequest' || p.startsWith('declarativeNetRequest'));
}

/**
 * The mode from the APIs this context has now. Both browsers expose `webRequest` in an extension
 * context only while the permission is granted (checked in Chromium 156 and Firefox ESR 153), so
 * the background can tell synchronously, at start-up, before it adds its listeners (MV3 needs them
 * added in the first turn to be woken by them).
 */
export function captureModeOf(api: { webRequest?: unknown }): CaptureMode {
  return api.webRequest ? 'detailed' : 'lean';
}
