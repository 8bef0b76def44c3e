import { detailedPermissions, isFirefox, type PermissionsLike } from '../platform/detailed-capture';
import { h } from './dom';

/** What Detailed capture adds, and what it costs: the options card and the popup say the same. */
export const DETAILED_CAPTURE_TEXT = {
  adds: 'webRequest records of every request: per-request headers for the HAR, server IP addresses, failed requests, redirect hops of sub-resources, and (Chromium) early hints as a Link header.',
  costs: 'While an extension holds the webRequest or declarativeNetRequest permission, Chromium routes every request of every page through its browser process (WebRequestAPI::MayHaveProxies), listeners or not: measured at about 0.16 ms of browser CPU per request, and +20–30 % on the load time of pages of many images (bench/overhead/main.ts). Lean capture, the default, reads the page’s own Resource and Navigation Timing instead and holds neither permission.',
  applies: {
    firefox: 'Turning it on or off reloads getlist at once; pages already open need a reload.',
    chromium: 'Chromium applies it when it next starts: restart Chromium after turning it on or off (Chromium counts the extensions whose requests it proxies only as it loads them, and a reload of getlist does not change that count).',
  },
} as const;

/** What the user must do for a change to apply, in this browser. */
export function appliesWhen(extensionBaseUrl: string): string {
  return isFirefox(extensionBaseUrl) ? DETAILED_CAPTURE_TEXT.applies.firefox : DETAILED_CAPTURE_TEXT.applies.chromium;
}

/**
 * Asks for, or gives back, Detailed capture's optional permissions. The request runs with no await
 * before it, inside the click's user gesture (both browsers require one). In Firefox the background
 * hears the change and reloads the extension (background/capture-reload.ts), which closes this
 * page; Chromium applies it at its next start.
 */
export function setDetailedCapture(permissions: PermissionsLike, extensionBaseUrl: string, on: boolean): Promise<boolean> {
  const needed = { permissions: detailedPermissions(extensionBaseUrl) };
  return on ? permissions.request(needed) : permissions.remove(needed).then((removed) => !removed);
}

/** The popup's "not exposed — turn on Detailed capture" button. */
export function detailedCaptureButton(permissions: PermissionsLike, extensionBaseUrl: string): HTMLElement {
  const result = h('span', { class: 'muted', 'aria-live': 'polite' });
  const button = h('button', { type: 'button', 'data-testid': 'detailed-capture-button', title: `${DETAILED_CAPTURE_TEXT.adds} ${DETAILED_CAPTURE_TEXT.costs}` }, 'Turn on Detailed capture');
  button.addEventListener('click', () => {
    const asked = setDetailedCapture(permissions, extensionBaseUrl, true);
    button.disabled = true;
    void asked.then(
      (granted) => {
        button.disabled = false;
        result.textContent = granted ? ` Granted. ${appliesWhen(extensionBaseUrl)}` : ' Not granted.';
      },
      (err: unknown) => {
        button.disabled = false;
        result.textContent = ` Not granted: ${err instanceof Error ? err.message : String(err)}`;
      },
    );
  });
  return h('span', {}, button, result);
}

/** The options page's card: the mode in effect, a switch, what each mode measures and costs. */
export async function detailedCaptureCard(container: HTMLElement, permissions: PermissionsLike, extensionBaseUrl: string): Promise<void> {
  const granted = await permissions.contains({ permissions: detailedPermissions(extensionBaseUrl) }).catch(() => false);
  const toggle = h('input', { type: 'checkbox', 'data-testid': 'detailed-capture', ...(granted ? { checked: true } : {}) });
  const firefox = isFirefox(extensionBaseUrl);
  const status = h('span', { 'data-testid': 'detailed-capture-status', 'aria-live': 'polite' }, granted ? `On: Detailed capture (webRequest)${firefox ? '' : ', from Chromium’s start after the grant'}.` : 'Off: lean capture (the page’s own timing).');
  toggle.addEventListener('change', () => {
    const want = toggle.checked;
    const asked = setDetailedCapture(permissions, extensionBaseUrl, want);
    status.textContent = want ? 'Asking for the permission…' : 'Giving the permission back…';
    void asked.then(
      (on) => {
        toggle.checked = on;
        status.textContent = on !== want ? 'Not changed.' : firefox ? 'Reloading getlist…' : `${on ? 'Granted' : 'Given back'}: restart Chromium to apply it.`;
      },
      (err: unknown) => {
        toggle.checked = !want;
        status.textContent = `Not changed: ${err instanceof Error ? err.message : String(err)}`;
      },
    );
  });
  container.replaceChildren(
    h('label', {}, toggle, ' Detailed capture'),
    h('p', {}, status),
    h('p', { class: 'muted' }, `Adds ${DETAILED_CAPTURE_TEXT.adds}`),
    h('p', { class: 'muted' }, `Costs: ${DETAILED_CAPTURE_TEXT.costs}`),
    h('p', { class: 'muted' }, appliesWhen(extensionBaseUrl)),
  );
}
