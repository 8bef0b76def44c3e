// Learned hints in real browsers: two visits of a page with late-found resources teach the
// extension its list; the third visit gets them as `<link>` elements the background pushes at commit (lean
// capture, the default, both browsers) or as a `Link` header on the document (DNR session rules:
// Chromium with Detailed capture), and the test server's log — not the extension — shows the hinted requests arriving
// before the style sheet that names them could have been answered, each exactly once, and no
// request the unhinted loads did not make.
import { describeE2e } from './harness/browsers';
import type { ExtensionCopy } from './harness/extension-build';
import { openPopupForTab, waitForText } from './harness/popup';
import { afterDocument, afterSheet, hintedVisit, learnVisit, paths, useHintsFixture, type HintedVisit, type HintsBrowser } from './harness/hints-check';
import { launchChromium, type LaunchedChromium } from './harness/launch-chromium';
import { launchChromiumDetailed } from './harness/detailed-capture';
import { launchFirefox, type LaunchedFirefox } from './harness/launch-firefox';
import type { TempDirs } from './harness/temp-dirs';
import type { SiteRequest } from './site/site-server';


/** How the hints reach the page: `<link>` elements pushed at commit (lean, hint-push.ts), or DNR's `Link` header (Chromium, Detailed capture). */
type Mechanism = 'link-elements' | 'link-header';

/**
 * Requests the server must see before the held-back sheet could have been answered. Firefox holds
 * image requests (preloads included) while a render-blocking sheet is pending — the unhinted
 * parser image from the other origin waits too — so there only the font can go early. Chromium's
 * pushed `<link>` elements carry the font once the document has a body, where its preload cannot
 * hold the paint (CHROMIUM_HINT_LIMITS, `after-body`); a `Link` header preloads a font only where
 * the visits measured their path and say it arrives before the paint (hints-paint.test.ts has such
 * a page): this page's loopback responses give no path sample, so there the font still waits for
 * the sheet, and only its origin's CORS connection is early.
 */
const EARLY: Record<string, readonly string[]> = { 'chromium link-elements': ['/img/hint-bg.png', '/font/face.woff2'], 'chromium link-header': ['/img/hint-bg.png'], 'firefox link-elements': ['/font/face.woff2'] };
const FONT_PRELOADS: Record<string, 0 | 1> = { 'chromium link-elements': 1, 'chromium link-header': 0, 'firefox link-elements': 1 };

function suite(name: 'chromium' | 'firefox', mechanism: Mechanism, launch: (dirs: TempDirs, extension: ExtensionCopy) => Promise<HintsBrowser>): void {
  const cell = `${name} ${mechanism}`;
  const early = EARLY[cell] ?? [];
  describeE2e(`e2e hints: ${name} (${mechanism === 'link-header' ? 'Detailed capture: DNR Link header' : 'lean capture: <link> elements'})`, () => {
    const fx = useHintsFixture(name, launch);
    const unhinted: SiteRequest[][] = [];
    let hinted: HintedVisit;

    test('two unhinted visits are learned; unhinted, the late resources wait for the held-back sheet', async () => {
      if (!fx.launched) throw new Error(`${name} did not start`);
      for (const visits of [1, 2]) unhinted.push(await learnVisit(fx.launched.browser, fx.query, fx.site, visits));
      for (const log of unhinted) {
        expect(afterSheet(log, '/img/hint-bg.png')).toBeGreaterThanOrEqual(0);
        expect(afterSheet(log, '/font/face.woff2')).toBeGreaterThanOrEqual(0);
      }
    }, 60_000);

    test('the third visit is hinted: preconnects and preloads with the consuming requests’ as and crossorigin', async () => {
      if (!fx.launched) throw new Error(`${name} did not start`);
      hinted = await hintedVisit(fx.launched.browser, fx.query, fx.site);
      // Which mechanism is earlier (docs/extension.md): GETLIST_E2E_DEBUG=1 prints document → hinted request.
      if (process.env.GETLIST_E2E_DEBUG) console.log(`hints ${name} ${mechanism}: ${early.map((p) => `${p} ${afterDocument(hinted.log, p)} ms after the document`).join(', ')}`);
      const preloads = hinted.view.applied?.preloads ?? [];
      const font = { rel: 'preload', href: `${fx.site.other}/font/face.woff2`, as: 'font', crossorigin: 'anonymous', type: 'font/woff2', ...(cell === 'chromium link-elements' ? { afterBody: true } : {}) };
      expect(preloads.filter((p) => p.as === 'font')).toEqual(FONT_PRELOADS[cell] === 1 ? [font] : []);
      expect(preloads).toEqual(expect.arrayContaining([
        expect.objectContaining({ rel: 'preload', href: `${fx.site.main}/img/hint-bg.png`, as: 'image' }),
        expect.objectContaining({ rel: 'preload', href: `${fx.site.main}/img/hint-inserted.png`, as: 'image' }),
      ]));
      expect(hinted.view.applied?.preconnects).toEqual(expect.arrayContaining([{ rel: 'preconnect', href: fx.site.other, crossorigin: 'anonymous' }]));
      // Named by the other origin's sheet (no Resource Timing entry in Chromium: lean learning takes it
      // from the style scan), in the form the CSS fetch takes: no crossorigin.
      expect(preloads).toContainEqual({ rel: 'preload', href: `${fx.site.other}/img/hint-cross-bg.png`, as: 'image' });
      // The mechanism: one element per hint applied, each the hint itself, or none where the header carries them.
      const all = [...(hinted.view.applied?.preconnects ?? []), ...(hinted.view.applied?.preloads ?? [])];
      expect([...hinted.hintElements].sort()).toEqual(mechanism === 'link-elements' ? all.map((h) => `${h.rel} ${h.href}`).sort() : []);
    }, 40_000);

    test.each([...early])('the server saw the hinted %s before the sheet naming it could have been answered', (path) => {
      expect(afterSheet(hinted.log, path)).toBeLessThan(0);
    });

    if (FONT_PRELOADS[cell] === 0) {
      test('the font, not preloaded, still waits for the sheet naming it', () => {
        expect(afterSheet(hinted.log, '/font/face.woff2')).toBeGreaterThanOrEqual(0);
      });
    }

    test('a background the browser never fetched (its element not rendered) is never hinted: preloaded only if the unhinted loads fetched it', () => {
      const gone = `${fx.site.other}/img/hint-gone.png`;
      const fetchedUnhinted = unhinted.every((log) => paths(log).includes(gone));
      expect(unhinted.some((log) => paths(log).includes(gone))).toBe(fetchedUnhinted);
      expect((hinted.view.applied?.preloads ?? []).some((p) => p.href === gone)).toBe(fetchedUnhinted);
      expect(paths(hinted.log).includes(gone)).toBe(fetchedUnhinted);
    });

    test('no extra and no duplicate request: the hinted load asked for exactly what each unhinted load did, once each', () => {
      const hintedPaths = paths(hinted.log);
      expect([...hintedPaths].sort()).toEqual([...new Set(hintedPaths)].sort());
      for (const log of unhinted) expect([...new Set(hintedPaths)].sort()).toEqual([...new Set(paths(log))].sort());
      expect(hinted.view.outcome?.duplicates).toEqual([]);
    });

    test('the outcome names every preload used', () => {
      const wasted = hinted.view.outcome?.verdicts.filter((v) => v.verdict === 'wasted' && v.hint.rel === 'preload') ?? [];
      expect(wasted).toEqual([]);
      expect(hinted.view.outcome?.unhintedVisits).toBe(2);
    });

    test('the popup shows the hints applied, used and wasted, and the comparison with the unhinted visits', async () => {
      if (!fx.launched) throw new Error(`${name} did not start`);
      const applied = (hinted.view.applied?.preconnects.length ?? 0) + (hinted.view.applied?.preloads.length ?? 0);
      const used = hinted.view.outcome?.verdicts.filter((v) => v.verdict === 'used').length ?? -1;
      const { page: popup, errors } = await openPopupForTab(fx.launched.browser, fx.launched.extensionOrigin, hinted.tabId);
      const summary = await waitForText(popup, '[data-testid=hints-summary]', (t) => t.includes('used'), 'the hints summary');
      expect(summary).toContain(`${applied} hints applied`);
      expect(summary).toContain(`${used} used`);
      expect(await waitForText(popup, '[data-testid=hints-saved]', (t) => t.length > 0, 'the time comparison')).toContain('median of 2 earlier unhinted visit(s)');
      expect(errors.filter((e) => e.startsWith('pageerror'))).toEqual([]);
    }, 30_000);
  });
}

suite('chromium', 'link-elements', async (dirs, extension) => {
  const c: LaunchedChromium = await launchChromium({ extensionDir: extension.dir, userDataDir: dirs.make('hints-chromium-profile'), env: { HOME: dirs.make('hints-chromium-home'), GETLIST_DATA_DIR: dirs.make('hints-chromium-data') } });
  await c.serviceWorker();
  return c;
});

suite('chromium', 'link-header', (dirs, extension) =>
  launchChromiumDetailed({ extensionDir: extension.dir, userDataDir: dirs.make('hints-chromium-detailed-profile'), env: { HOME: dirs.make('hints-chromium-detailed-home'), GETLIST_DATA_DIR: dirs.make('hints-chromium-detailed-data') } }),
);

suite('firefox', 'link-elements', async (dirs, extension) => {
  const f: LaunchedFirefox = await launchFirefox({ extensionDir: extension.dir, home: dirs.make('hints-firefox-home'), profileDir: dirs.make('hints-firefox-profile'), env: { GETLIST_DATA_DIR: dirs.make('hints-firefox-data') } });
  return f;
});
