import type { Browser, Page } from 'puppeteer-core';
import { openExtensionPage, sendUi, WAIT_MS } from './extension-pages';
import type { InPage } from './in-page';
import { launchChromium, type LaunchChromiumOptions, type LaunchedChromium } from './launch-chromium';

/**
 * Turns on Detailed capture as a user does: a trusted click (CDP / BiDi input, not a script's
 * `click()`) on the options page's switch, which calls `permissions.request` inside the gesture.
 * Chromium grants `webRequest` and `declarativeNetRequestWithHostAccess` without a prompt (neither
 * has a permission warning); Firefox needs `extensions.webextOptionalPermissionPrompts` = false
 * (launchFirefox sets it) to accept without its doorhanger. Resolves with the status line once the
 * grant is in (Chromium), or once the extension reloaded and closed the page (Firefox: '').
 */
async function clickDetailedCapture(browser: Browser, extensionOrigin: string): Promise<string> {
  const { page: options } = await openExtensionPage(browser, `${extensionOrigin}/options.html`);
  // The card renders after an async permissions.contains while the page around it still lays out:
  // a click can find no box yet ("not clickable") or land where the switch was a moment before, so
  // it is repeated until the switch is checked. A page that no longer answers was closed by the
  // extension's reload (Firefox): the click took. (BiDi may never answer on a closed page: raced.)
  const SWITCH = '[data-testid=detailed-capture]';
  const checkedNow = () =>
    Promise.race([
      options.$eval(SWITCH, (e) => (e as unknown as { checked: boolean }).checked).catch(() => undefined),
      new Promise<undefined>((r) => setTimeout(() => r(undefined), 3000)),
    ]);
  const deadline = Date.now() + WAIT_MS;
  let clicked = false;
  for (;;) {
    const checked = await checkedNow();
    if (checked === true) break;
    if (checked === undefined && clicked) return '';
    if (checked === false) {
      await options.click(SWITCH).catch(() => undefined);
      clicked = true;
    }
    if (Date.now() > deadline) throw new Error(`Detailed capture: the switch did not take the click within ${WAIT_MS} ms`);
    await new Promise((r) => setTimeout(r, 500));
  }
  for (;;) {
    // A page of a reloaded extension is gone: evaluating in it fails, or never answers (BiDi).
    const status = await Promise.race([
      options.$eval('[data-testid=detailed-capture-status]', (e) => e.textContent ?? '').catch(() => undefined),
      new Promise<undefined>((r) => setTimeout(() => r(undefined), 1000)),
    ]);
    if (status === undefined) return '';
    if (status.startsWith('Granted')) return status;
    if (Date.now() > deadline) throw new Error(`Detailed capture: no grant within ${WAIT_MS} ms of the click (status: ${status})`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * Chromium: grants Detailed capture, then restarts the browser on the same profile — the one way a
 * grant reaches Chromium's request proxy (extension/platform/detailed-capture.ts). Returns the
 * restarted browser.
 */
export async function launchChromiumDetailed(options: LaunchChromiumOptions): Promise<LaunchedChromium> {
  return grantDetailedAndRestart(() => launchChromium(options));
}

/** What grantDetailedAndRestart needs of a Chromium it starts: launchChromium's answer, or one started elsewhere (a link's namespace). */
export type DetailedChromium = Pick<LaunchedChromium, 'browser' | 'extensionOrigin' | 'serviceWorker' | 'close'>;

/** launchChromiumDetailed for any way of starting Chromium: `launch` starts it on the same profile each time. */
export async function grantDetailedAndRestart<T extends DetailedChromium>(launch: () => Promise<T>): Promise<T> {
  const first = await launch();
  try {
    await first.serviceWorker();
    const status = await clickDetailedCapture(first.browser, first.extensionOrigin);
    if (!status.includes('restart Chromium')) throw new Error(`Detailed capture: unexpected status after the grant: ${status}`);
  } finally {
    await first.close();
  }
  const second = await launch();
  try {
    await second.serviceWorker();
    const { page } = await openExtensionPage(second.browser, `${second.extensionOrigin}/options.html`);
    const state = await page.evaluate(async () => {
      const g = globalThis as unknown as InPage & { chrome?: { webRequest?: unknown } };
      return { granted: await g.chrome?.permissions.contains({ permissions: ['webRequest', 'declarativeNetRequestWithHostAccess'] }), api: g.chrome?.webRequest !== undefined };
    });
    await page.close();
    if (!state.granted || !state.api) throw new Error(`Detailed capture: after the restart the grant is not in effect (${JSON.stringify(state)})`);
  } catch (err) {
    await second.close();
    throw err;
  }
  return second;
}

/**
 * Firefox: grants Detailed capture; the extension reloads (closing the options page). Waits for the
 * reloaded background to answer and returns a fresh extension page to query it from.
 *
 * @param queryPage the extension page to reopen for UI messages (options.html)
 */
export async function enableDetailedCaptureFirefox(browser: Browser, extensionOrigin: string, queryPage: string): Promise<Page> {
  await clickDetailedCapture(browser, extensionOrigin);
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    try {
      const { page } = await openExtensionPage(browser, `${extensionOrigin}/${queryPage}`);
      const granted = await page.evaluate(async () => {
        const g = globalThis as unknown as InPage;
        return (g.browser ?? g.chrome)?.permissions.contains({ permissions: ['webRequest'] });
      });
      const reply = await sendUi(page, { type: 'get-settings' });
      if (granted === true && reply?.type === 'get-settings') return page;
      await page.close();
    } catch {
      // The reload is still under way.
    }
    if (Date.now() > deadline) throw new Error(`Detailed capture: no answer from the reloaded extension within ${WAIT_MS} ms`);
    await new Promise((r) => setTimeout(r, 300));
  }
}
