import { h } from './dom';
import { checkSiteAccess, requestSiteAccess, type PermissionsLike } from './site-access';

/**
 * Shows the `grant-access` block in `container` when the extension lacks site access, and
 * empties it once the user grants it (then calls `onGranted`). Shows nothing when access is
 * held or the browser would not say.
 */
export async function showSiteAccess(container: HTMLElement, permissions: PermissionsLike, onGranted?: () => void): Promise<void> {
  if ((await checkSiteAccess(permissions)) !== 'missing') {
    container.replaceChildren();
    return;
  }
  container.replaceChildren(grantAccessBlock(permissions, () => {
    container.replaceChildren();
    onGranted?.();
  }));
}

function grantAccessBlock(permissions: PermissionsLike, granted: () => void): HTMLElement {
  const result = h('p', { class: 'error-text', 'data-testid': 'grant-access-result', 'aria-live': 'polite' });
  const button = h('button', { type: 'button', class: 'primary', 'data-testid': 'grant-access-button' }, 'Allow access to sites');
  button.addEventListener('click', () => {
    // No await before the request: it must run inside the click's user gesture.
    const asked = requestSiteAccess(permissions);
    button.disabled = true;
    result.textContent = '';
    void asked.then((r) => {
      button.disabled = false;
      if (r.granted) granted();
      else result.textContent = r.error ? `Access was not granted: ${r.error}` : 'Access was not granted.';
    });
  });
  return h(
    'section',
    { class: 'grant-access', 'data-testid': 'grant-access', role: 'alert' },
    h('strong', {}, 'getlist needs access to sites'),
    h('p', {}, 'To observe page loads, getlist must see the requests and navigations of the http and https pages you open. The browser has not granted that access yet, so no page is recorded, measured or replayed.'),
    h('div', { class: 'row' }, button),
    h('p', { class: 'muted' }, 'You can also allow it in the browser’s add-on settings (Firefox: about:addons → getlist → Permissions). Pages already open need a reload afterwards.'),
    result,
  );
}
