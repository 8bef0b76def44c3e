import { baselineOf, contextFor, createSpeculationState, documentCacheControl, documentKept, forgetSpeculation, frequentTargets, linkFollowed, pageCommitted, pageServed, speculationsSettled } from './follow-state';
import { speculationStateFromJson, speculationStateToJson } from './speculation-state-json';
import type { ServedReport } from './speculation-types';

const A = 'https://shop.test/a.html';
const B = 'https://shop.test/b.html';
const C = 'https://shop.test/c.html';
const served = (more: Partial<ServedReport> = {}): ServedReport => ({ deliveryType: '', prerendered: false, navigationType: 'navigate', responseStartMs: 100, encodedBodySize: 1000, ...more });

function visitAndFollow(state: ReturnType<typeof createSpeculationState>, to: string | undefined): void {
  pageCommitted(state, A);
  if (to) {
    linkFollowed(state, A, to);
    pageCommitted(state, to);
  }
}

describe('follow state', () => {
  test('a link followed on most earlier visits (at least 2) is frequent; a minority one is not', () => {
    const state = createSpeculationState();
    visitAndFollow(state, B);
    pageCommitted(state, A);
    expect(frequentTargets(state, A)).toEqual([]);
    linkFollowed(state, A, B);
    visitAndFollow(state, C);
    pageCommitted(state, A); // the current visit
    // 3 earlier visits: B twice, C once.
    expect(frequentTargets(state, A)).toEqual([B]);
    expect(contextFor(state, A, { prerender: false, eagerness: 'eager' }).frequent).toEqual([B]);
    expect(contextFor(state, A, { prerender: false, eagerness: 'moderate' }).frequent).toEqual([]);
  });

  test('with prerender allowed, the page is told which same-origin pages were loaded before (a hover prerenders only those)', () => {
    const state = createSpeculationState();
    pageCommitted(state, A);
    pageCommitted(state, `${B}#part`);
    pageCommitted(state, 'https://other.test/b.html');
    expect(contextFor(state, A, { prerender: true, eagerness: 'moderate' }).visited).toEqual([A, B]);
    expect(contextFor(state, A, { prerender: false, eagerness: 'moderate' }).visited).toEqual([]);
  });

  test('cross-origin follows are not learned', () => {
    const state = createSpeculationState();
    pageCommitted(state, A);
    linkFollowed(state, A, 'https://other.test/x.html');
    expect(state.pages.get(A)?.follows).toEqual({});
  });

  test('query keys are learned per template and handed to the page', () => {
    const state = createSpeculationState();
    pageCommitted(state, 'https://shop.test/search?q=a&page=2');
    pageCommitted(state, 'https://other.test/search?x=1');
    expect(contextFor(state, A, { prerender: true, eagerness: 'moderate' })).toMatchObject({ action: 'prerender', site: { queryKeys: { 'https://shop.test/search': ['q', 'page'] } } });
  });

  test('no-store is remembered and forgotten when the page stops sending it', () => {
    const state = createSpeculationState();
    documentCacheControl(state, B, 'private, no-store');
    expect(contextFor(state, A, { prerender: false, eagerness: 'moderate' }).site.noStore).toEqual([B]);
    documentCacheControl(state, B, 'max-age=60');
    expect(state.noStore.size).toBe(0);
  });

  test('a document the cache did not keep counts as no-store until a visit finds it kept', () => {
    const state = createSpeculationState();
    documentKept(state, B, false);
    expect(contextFor(state, A, { prerender: false, eagerness: 'moderate' }).site.noStore).toEqual([B]);
    documentKept(state, B, true);
    expect(state.noStore.size).toBe(0);
  });

  test('outcomes: the followed one is a hit, the others waste their last known size or are unsized', () => {
    const state = createSpeculationState();
    pageServed(state, B, served({ encodedBodySize: 512 }));
    speculationsSettled(state, 'shop.test', [B, C, A], A);
    expect(state.sites.get('shop.test')).toEqual({ speculated: 3, followed: 1, wastedBytes: 512, wastedUnsized: 1 });
  });

  test('only plain navigations the network served make the baseline', () => {
    const state = createSpeculationState();
    pageServed(state, A, served({ responseStartMs: 100, lcpMs: 300 }));
    pageServed(state, A, served({ responseStartMs: 140, lcpMs: 340 }));
    pageServed(state, A, served({ responseStartMs: 5, deliveryType: 'navigational-prefetch' }));
    pageServed(state, A, served({ responseStartMs: 0, prerendered: true }));
    pageServed(state, A, served({ responseStartMs: 1, navigationType: 'back_forward' }));
    expect(baselineOf(state.baselines.get(A) ?? [])).toEqual({ visits: 2, responseStartMs: 120, lcpMs: 320 });
  });

  test('forget removes one host or everything', () => {
    const state = createSpeculationState();
    visitAndFollow(state, B);
    pageCommitted(state, 'https://other.test/x?y=1');
    speculationsSettled(state, 'shop.test', [B], B);
    expect(forgetSpeculation(state, 'other.test')).toBe(2);
    expect(state.pages.has(A)).toBe(true);
    forgetSpeculation(state);
    expect(state.pages.size + state.sites.size + state.queryKeys.size).toBe(0);
  });

  test('the JSON round trip keeps every item and drops malformed ones', () => {
    const state = createSpeculationState();
    visitAndFollow(state, B);
    pageServed(state, A, served({ lcpMs: 200 }));
    documentCacheControl(state, C, 'no-store');
    speculationsSettled(state, 'shop.test', [B, C], B);
    const json = JSON.parse(JSON.stringify(speculationStateToJson(state))) as ReturnType<typeof speculationStateToJson>;
    expect(speculationStateFromJson(json)).toEqual(state);
    const corrupt = { ...json, pages: [...json.pages, ['x', { visits: -1, follows: {} }], 'junk'], sites: [['h', { speculated: 1, followed: 2, wastedBytes: 0, wastedUnsized: 0 }]] };
    const back = speculationStateFromJson(corrupt);
    expect([...back.pages.keys()]).toEqual([...state.pages.keys()]);
    expect(back.sites.size).toBe(0);
    expect(speculationStateFromJson({ version: 2 })).toEqual(createSpeculationState());
  });
});
