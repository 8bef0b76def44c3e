// Learning that does not depend on the user staying, in real browsers (lean capture): a visit whose
// tab is closed a second after `load`, and one left by a same-tab navigation within a second of
// `load`, are both learned (the extension's storage.local holds them) well before the five seconds
// a staying user's visit waits — and the next visit, a same-tab navigation too, gets the hints: the
// test server's log shows the background the held-back sheet names asked for before the sheet could
// have been answered. After a page's second visit the native host discovers it (document and style
// sheets, no cookie): a font only another origin's sheet names, which Chromium's timeline never
// shows, is learned as the host's. Chromium with Detailed capture, whose page record for the next
// navigation opens at its start, before the commit that ends the visit, learns the same visits.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'puppeteer-core';
import { describeE2e } from './harness/browsers';
import type { ExtensionCopy } from './harness/extension-build';
import { findTabId, getPage, WAIT_MS } from './harness/extension-pages';
import { afterSheet, getHints, HINTS_PAGE, paths, useHintsFixture, type HintsBrowser } from './harness/hints-check';
import { launchChromiumDetailed } from './harness/detailed-capture';
import { launchChromium } from './harness/launch-chromium';
import { launchFirefox } from './harness/launch-firefox';
import { registerHost } from './harness/register-host';
import type { TempDirs } from './harness/temp-dirs';
import { LEARN_DELAY_MS } from '../../src/page/hints/visit-end';
import { learnedItemKey } from '../../src/page/hints/learned-state-items';

/** How long a visit stays after `load` before its tab is closed or navigated on. */
const DWELL_MS = 1000;
/** A learned visit must be stored this soon after its end: before the settled end (LEARN_DELAY_MS after `load`) could have learned it. */
const STORED_WITHIN_MS = LEARN_DELAY_MS - DWELL_MS - 1000;

interface StoredEntry {
  key: string;
  visits: Array<{ resources: Array<{ url: string; late: boolean; as: string; host?: true }> }>;
}

/** Polls storage.local until `done` holds for `url`'s entry; throws with the last one. */
async function storedUntil(query: Page, url: string, done: (e: StoredEntry | undefined) => boolean, what: string): Promise<StoredEntry | undefined> {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const entry = await storedEntry(query, url);
    if (done(entry)) return entry;
    if (Date.now() > deadline) throw new Error(`${url}: ${what} not stored within ${WAIT_MS} ms: ${JSON.stringify(entry)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** The learned entry for `url` as the extension stored it (its item in storage.local, read from the extension's own page). */
async function storedEntry(query: Page, url: string): Promise<StoredEntry | undefined> {
  return (await query.evaluate(async (key: string) => {
    const g = globalThis as unknown as { browser?: { storage: { local: { get(k: string): Promise<Record<string, unknown>> } } }; chrome?: { storage: { local: { get(k: string): Promise<Record<string, unknown>> } } } };
    const api = g.browser ?? g.chrome;
    return (await api!.storage.local.get(key))[key];
  }, learnedItemKey(url))) as StoredEntry | undefined;
}

/** Polls storage.local until `url` has `visits` learned visits; the ms it took. */
async function storedWithin(query: Page, url: string, visits: number): Promise<number> {
  const start = Date.now();
  while ((await storedEntry(query, url))?.visits.length !== visits) {
    if (Date.now() - start > WAIT_MS) throw new Error(`${url}: ${visits} learned visit(s) not stored within ${WAIT_MS} ms: ${JSON.stringify(await storedEntry(query, url))}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return Date.now() - start;
}

/** Each browser's host data dir (its host.log tells why a discovery failed). */
const dataDirs: Record<string, string> = {};
function hostLog(name: string): string {
  try {
    return readFileSync(join(dataDirs[name] ?? '', 'host.log'), 'utf8').slice(-3000);
  } catch (err) {
    return String(err);
  }
}

function suite(name: 'chromium' | 'firefox', launch: (dirs: TempDirs, extension: ExtensionCopy) => Promise<HintsBrowser>, capture: 'lean' | 'detailed' = 'lean'): void {
  describeE2e(`e2e hints learned without the user staying: ${name}${capture === 'detailed' ? ' (Detailed capture)' : ''}`, () => {
    const fx = useHintsFixture(name, launch);
    let tab: Page;
    let url: string;

    test('a visit whose tab is closed a second after load is learned, with its late resources', async () => {
      if (!fx.launched) throw new Error(`${name} did not start`);
      url = fx.site.url(HINTS_PAGE);
      const first = await fx.launched.browser.newPage();
      await first.goto(url, { waitUntil: 'load', timeout: WAIT_MS });
      await new Promise((r) => setTimeout(r, DWELL_MS));
      await first.close();
      expect(await storedWithin(fx.query, url, 1)).toBeLessThan(STORED_WITHIN_MS);
      const learned = (await storedEntry(fx.query, url))?.visits[0]?.resources.filter((r) => r.late).map((r) => r.url) ?? [];
      // The background named only by the held-back sheet, and the image a script inserts after DOMContentLoaded.
      expect(learned).toEqual(expect.arrayContaining([`${fx.site.main}/img/hint-bg.png`, `${fx.site.main}/img/hint-inserted.png`]));
    }, 40_000);

    test('a visit left by a same-tab navigation within a second of load is learned', async () => {
      if (!fx.launched) throw new Error(`${name} did not start`);
      tab = await fx.launched.browser.newPage();
      await tab.goto(url, { waitUntil: 'load', timeout: WAIT_MS });
      await new Promise((r) => setTimeout(r, DWELL_MS - 200));
      await tab.goto(fx.site.url('index.html'), { waitUntil: 'load', timeout: WAIT_MS });
      expect(await storedWithin(fx.query, url, 2)).toBeLessThan(STORED_WITHIN_MS);
    }, 40_000);

    test('the next visit, by a same-tab navigation, gets the learned hints: the background is asked for before its sheet could have been answered', async () => {
      if (!fx.launched) throw new Error(`${name} did not start`);
      const mark = fx.site.requests.length;
      await tab.goto(url, { waitUntil: 'load', timeout: WAIT_MS });
      const tabId = await findTabId(fx.query, url);
      const view = await getHints(fx.query, tabId);
      expect(view.applied?.preloads.map((p) => p.href)).toEqual(expect.arrayContaining([`${fx.site.main}/img/hint-bg.png`, `${fx.site.main}/img/hint-inserted.png`]));
      await new Promise((r) => setTimeout(r, 500));
      const log = fx.site.requests.slice(mark).filter((r) => !r.userAgent.startsWith('getlist/'));
      // Firefox holds image requests while a render-blocking sheet is pending (hints.test.ts): there the font goes early.
      const early = name === 'chromium' ? '/img/hint-bg.png' : '/font/face.woff2';
      expect(afterSheet(log, early)).toBeLessThan(0);
      const hinted = paths(log);
      expect(hinted).toEqual([...new Set(hinted)]);
    }, 40_000);

    // The fill-in is lean capture's: Detailed capture sees a cross-origin sheet's fetches itself.
    if (capture === 'detailed') return;

    test('after a page’s second visit the host discovers it without cookies, and a font only another origin’s sheet names is learned', async () => {
      if (!fx.launched) throw new Error(`${name} did not start`);
      const page = fx.site.url('fill-in.html');
      const mark = fx.site.requests.length;
      const records: unknown[] = [];
      for (const visits of [1, 2]) {
        const t = await fx.launched.browser.newPage();
        await t.goto(page, { waitUntil: 'load', timeout: WAIT_MS });
        await new Promise((r) => setTimeout(r, DWELL_MS));
        const record = (await getPage(fx.query, await findTabId(fx.query, page))).page;
        records.push(record && { documentCookies: record.documentCookies, styleScanned: record.styleScanned, loadAt: record.loadAt });
        await t.close();
        await storedWithin(fx.query, page, visits);
      }
      // The host's discovery follows the second learned visit.
      const deadline = Date.now() + WAIT_MS;
      while (!fx.site.requests.slice(mark).some((r) => r.userAgent.startsWith('getlist/') && r.url === page)) {
        if (Date.now() > deadline) throw new Error(`the host never fetched ${page}; the visits' records: ${JSON.stringify(records)}; host log: ${hostLog(name)}`);
        await new Promise((r) => setTimeout(r, 100));
      }
      const font = `${fx.site.other}/font/fill-face.woff2`;
      const entry = await storedUntil(fx.query, page, (e) => (e?.visits ?? []).every((v) => v.resources.some((r) => r.url === font)), 'the font');
      // Chromium's timeline has no entry for what a cross-origin sheet fetches: there only the host could name it.
      if (name === 'chromium') for (const v of entry?.visits ?? []) expect(v.resources.find((r) => r.url === font)).toMatchObject({ as: 'font', host: true, late: true });
      // The host fetched the document and the style sheet, not the font or the background they name, and sent no cookie.
      const byHost = fx.site.requests.slice(mark).filter((r) => r.userAgent.startsWith('getlist/') && r.path.includes('fill-'));
      expect(byHost.map((r) => r.url).sort()).toEqual([page, `${fx.site.other}/fill-in-cross.css`].sort());
      expect(byHost.filter((r) => r.cookie)).toEqual([]);
    }, 60_000);
  });
}

suite('chromium', async (dirs, extension) => {
  // The native host, registered as `getlist install` does, for the fill-in.
  const [userDataDir, home, dataDir] = [dirs.make('learn-chromium-profile'), dirs.make('learn-chromium-home'), dirs.make('learn-chromium-data')];
  dataDirs.chromium = dataDir;
  await registerHost({ browser: 'chromium', userDataDir, home, dataDir });
  const c = await launchChromium({ extensionDir: extension.dir, userDataDir, env: { HOME: home, GETLIST_DATA_DIR: dataDir } });
  await c.serviceWorker();
  return c;
});

suite('firefox', async (dirs, extension) => {
  const [home, dataDir] = [dirs.make('learn-firefox-home'), dirs.make('learn-firefox-data')];
  dataDirs.firefox = dataDir;
  await registerHost({ browser: 'firefox', home, dataDir });
  return launchFirefox({ extensionDir: extension.dir, home, profileDir: dirs.make('learn-firefox-profile'), env: { GETLIST_DATA_DIR: dataDir } });
});

suite('chromium', (dirs, extension) => launchChromiumDetailed({ extensionDir: extension.dir, userDataDir: dirs.make('learn-detailed-profile'), env: { HOME: dirs.make('learn-detailed-home'), GETLIST_DATA_DIR: dirs.make('learn-detailed-data') } }), 'detailed');
