// The host fills in what a page's own timeline hides: after a page's second learned visit, if it
// needs no cookie, the background asks the host to discover it and merges what only its style
// sheets name into the learned visits, marked as the host's; the next visit is hinted with it.
import { HintsService } from '../../extension/background/hints-service';
import { HostFillIn } from '../../extension/background/host-fill-in';
import { hintsFor } from '../../src/page/hints/hint-list';
import { DEFAULT_HINT_LIMITS } from '../../src/page/hints/hint-types';
import type { PageRecord } from '../../src/page/model/page-record';
import * as reducer from '../../src/page/model/page-reducer';
import type { PageStore } from '../../extension/background/page-store';
import { learnedStateFromItems } from '../../src/page/hints/learned-state-items';
import { learnedStateToJson } from '../../src/page/hints/learned-state-json';
import { FakeHost, FakeTimers, learnedWritten, MemoryStorage, pageStore, settingsStore } from './background-fakes';

const URL_A = 'https://site.test/a';
const NO_RULES = { getSessionRules: async () => [], updateSessionRules: async () => undefined };
const FONT = 'https://fonts.test/f.woff2';
const DISCOVERED = [
  { url: 'https://site.test/s.css', as: 'style', via: 'html' },
  { url: 'https://site.test/img/p.png', as: 'image', via: 'html' },
  { url: FONT, as: 'font', via: 'css' },
  { url: 'https://fonts.test/imported.css', as: 'style', via: 'css' },
  { url: 'https://cdn.test/bg.png', as: 'image', via: 'css' },
];

/** A loaded visit of URL_A in tab 1 at `t`: what its content script reported of cookies and the style scan. */
async function visit(store: PageStore, t: number, o: { cookies?: boolean; scanned?: boolean; credentialed?: boolean }): Promise<PageRecord> {
  const page = await store.update((s) => {
    reducer.documentCommitted(s, { tabId: 1, frameId: 0, url: URL_A, timeStamp: t });
    const zero = { domainLookupStart: 0, domainLookupEnd: 0, connectStart: 0, secureConnectionStart: 0, connectEnd: 0, requestStart: 0, responseStart: 0, transferSize: 0, encodedBodySize: 0, nextHopProtocol: 'h2', restricted: true };
    reducer.timingsReported(s, 1, URL_A, [{ ...zero, name: 'https://site.test/late.png', initiatorType: 'css', startTime: 300, responseEnd: 400 }], undefined, undefined, undefined, o.cookies);
    reducer.discoveriesReported(s, 1, URL_A, [], undefined, o.scanned);
    const p = reducer.navigationCompleted(s, { tabId: 1, frameId: 0, url: URL_A, timeStamp: t + 500 });
    if (p && o.credentialed) p.requests.forEach((r) => (r.credentialed = true));
    return p;
  });
  if (!page) throw new Error('no page');
  return page;
}

async function setup(visits: Array<Parameters<typeof visit>[2]>) {
  const store = pageStore();
  const local = new MemoryStorage();
  const timers = new FakeTimers();
  const hints = new HintsService({ local, store, dnr: NO_RULES, settings: settingsStore(), mechanism: 'content-script', isIncognito: async () => false, warn: () => undefined, setTimeout: timers.setTimeout });
  const host = new FakeHost();
  const fillIn = new HostFillIn({ port: host, hints, settings: settingsStore(), warn: () => undefined });
  const pending: Array<Promise<void>> = [];
  for (const [i, o] of visits.entries()) {
    const page = await visit(store, 1000 * (i + 1), o);
    await hints.learn(1, page.pageId);
    pending.push(fillIn.visitLearned(page));
    await new Promise((r) => setTimeout(r, 0));
  }
  /** The learned state as storage holds it once the gathered write was made, as JSON text. */
  const stored = async () => {
    await learnedWritten(timers);
    return JSON.stringify(learnedStateToJson(learnedStateFromItems(local.items)));
  };
  return { hints, host, local, pending, stored };
}

describe('the host fills in what the page timeline hides', () => {
  test('after the second visit of a page without cookies: one discover, and what only its sheets name joins both visits, marked as the host’s', async () => {
    const { host, pending, hints, stored } = await setup([{ cookies: false }, { cookies: false }]);
    expect(host.sent.map((s) => s.body)).toEqual([{ type: 'discover', url: URL_A, allowPrivateNetwork: false }]);
    host.last().reply({ type: 'discovered', url: URL_A, resources: DISCOVERED });
    await Promise.all(pending);
    const state = JSON.parse(await stored()) as { entries: Array<{ key: string; visits: Array<{ resources: Array<Record<string, unknown>> }> }> };
    const page = state.entries.find((e) => e.key === URL_A)!;
    for (const v of page.visits) {
      expect(v.resources.filter((r) => r.host === true)).toEqual([
        { url: FONT, as: 'font', crossorigin: 'anonymous', type: 'font/woff2', late: true, atMs: 0, inViewport: false, size: 0, host: true },
        { url: 'https://fonts.test/imported.css', as: 'style', type: 'text/css', late: true, atMs: 0, inViewport: false, size: 0, host: true },
        // The style scan never ran to its end on these visits: the host's CSS background is taken too.
        { url: 'https://cdn.test/bg.png', as: 'image', late: true, atMs: 0, inViewport: false, size: 0, host: true },
      ]);
    }
    // Markup the browser parsed itself is not the host's to add.
    expect(await stored()).not.toContain('img/p.png');
    // The next visit is hinted with the font, in the form its request takes.
    expect(hintsFor((hints as unknown as { state: { entries: Map<string, never> } }).state.entries, URL_A, DEFAULT_HINT_LIMITS).preloads.map((p) => p.href)).toEqual(expect.arrayContaining([FONT, 'https://fonts.test/imported.css']));
  });

  test('where the style scan reported the rendered backgrounds, a CSS background the host names and the scan did not is left out (not fetched by the browser)', async () => {
    const { host, pending, stored } = await setup([{ cookies: false, scanned: true }, { cookies: false, scanned: true }]);
    host.last().reply({ type: 'discovered', url: URL_A, resources: DISCOVERED });
    await Promise.all(pending);
    expect(await stored()).toContain(FONT);
    expect(await stored()).not.toContain('cdn.test/bg.png');
  });

  test('no discover for a page seen once, a page with cookies or unknown cookies, or one whose requests carried credentials; and once per page', async () => {
    for (const visits of [[{ cookies: false }], [{ cookies: false }, { cookies: true }], [{ cookies: false }, {}], [{ cookies: false }, { cookies: false, credentialed: true }]]) {
      const { host } = await setup(visits);
      expect({ visits, sent: host.sent.length }).toEqual({ visits, sent: 0 });
    }
    const { host } = await setup([{ cookies: false }, { cookies: false }, { cookies: false }]);
    expect(host.sent).toHaveLength(1);
  });
});
