import type { HintList } from '../hints/hint-types';
import { withAppliedHints } from '../hints/hint-list';
import { appliedFor, appliedFromJson, headerHintsOf, hintOf, measuredSavingMs, withApplied, APPLIED_PER_PAGE, type AppliedSuggestion } from './applied-suggestion';

const FONT: AppliedSuggestion = { key: 'http://a.test/index.html', suggestion: { kind: 'preload', href: 'http://a.test/f.woff2', as: 'font', crossorigin: 'anonymous', type: 'font/woff2', predictedSavingMs: 100 }, appliedAt: 1000, baselineEndMs: 351 };

describe('applied suggestions', () => {
  it('become the hint engine\'s own hints; a Chromium font waits for the body', () => {
    expect(hintOf(FONT.suggestion, { fontPreloads: 'after-body' })).toEqual({ rel: 'preload', href: 'http://a.test/f.woff2', as: 'font', crossorigin: 'anonymous', type: 'font/woff2', afterBody: true });
    expect(hintOf(FONT.suggestion, { fontPreloads: 'any' })).not.toHaveProperty('afterBody');
    expect(hintOf({ kind: 'preconnect', href: 'http://b.test', predictedSavingMs: 5 }, { fontPreloads: 'any' })).toEqual({ rel: 'preconnect', href: 'http://b.test' });
    expect(hintOf({ kind: 'fetchpriority', href: 'http://a.test/hero.jpg', predictedSavingMs: 5 }, { fontPreloads: 'any' })).toEqual({ rel: 'preload', href: 'http://a.test/hero.jpg', as: 'image', fetchpriority: 'high' });
  });

  it('in a Link header, follow what the document names ahead of them on their chain, in its order', () => {
    const chained = { ...FONT.suggestion, namedAhead: [{ href: 'http://a.test/a.css', as: 'style' as const }] };
    expect(headerHintsOf(chained, { fontPreloads: 'before-paint' })).toEqual([
      { rel: 'preload', href: 'http://a.test/a.css', as: 'style' },
      { rel: 'preload', href: 'http://a.test/f.woff2', as: 'font', crossorigin: 'anonymous', type: 'font/woff2' },
    ]);
    expect(headerHintsOf(FONT.suggestion, { fontPreloads: 'before-paint' })).toEqual([hintOf(FONT.suggestion, { fontPreloads: 'before-paint' })]);
    const kept = { ...FONT, suggestion: chained };
    expect(appliedFromJson([kept, { ...kept, suggestion: { ...chained, namedAhead: [{ href: 'javascript:x', as: 'style' }] } }, { ...kept, suggestion: { ...chained, namedAhead: 'a.css' } }])).toEqual([kept]);
  });

  it('measure a saving only on a visit that started after they were applied', () => {
    expect(measuredSavingMs(FONT, 999, 250, 0)).toBeUndefined();
    expect(measuredSavingMs(FONT, 2000, 250, 0)).toBe(101);
    expect(measuredSavingMs(FONT, 2000, 400, 0)).toBe(-49);
  });

  it('count the saving from each visit’s document request: a document connection opened ahead is not the suggestion’s', () => {
    const sent = { ...FONT, baselineDocumentSentMs: 50 };
    expect(measuredSavingMs(sent, 2000, 250, 50)).toBe(101);
    // The next visit's document went out at once, on a connection already open: the same page end, less its handshake.
    expect(measuredSavingMs(sent, 2000, 200, 0)).toBe(101);
    expect(appliedFromJson([sent, { ...sent, baselineDocumentSentMs: 'x' }])).toEqual([sent]);
  });

  it('are kept once per page and href, the latest winning, at most APPLIED_PER_PAGE per page', () => {
    const again = { ...FONT, appliedAt: 5000 };
    expect(withApplied([FONT], again)).toEqual([again]);
    let all: AppliedSuggestion[] = [];
    for (let i = 0; i < APPLIED_PER_PAGE + 3; i++) all = withApplied(all, { ...FONT, suggestion: { ...FONT.suggestion, href: `http://a.test/f${i}.woff2` } });
    expect(all).toHaveLength(APPLIED_PER_PAGE);
    expect(all[0]?.suggestion.href).toBe('http://a.test/f3.woff2');
    expect(appliedFor(all, 'http://a.test/index.html#top')).toHaveLength(APPLIED_PER_PAGE);
    expect(appliedFor(all, 'http://a.test/other.html')).toEqual([]);
  });

  it('read back from storage: only well-formed entries survive', () => {
    expect(appliedFromJson('nope')).toEqual([]);
    expect(appliedFromJson([FONT, { ...FONT, baselineEndMs: 'x' }, { ...FONT, suggestion: { ...FONT.suggestion, href: 'javascript:x' } }, { ...FONT, suggestion: { ...FONT.suggestion, as: 'script' } }, null])).toEqual([FONT]);
  });

  it('join the page\'s learned hint list after its own hints, each href once', () => {
    const list: HintList = { url: 'http://a.test/index.html', keys: [], preconnects: [{ rel: 'preconnect', href: 'http://b.test' }], preloads: [] };
    const merged = withAppliedHints(list, [{ rel: 'preconnect', href: 'http://b.test' }, hintOf(FONT.suggestion, { fontPreloads: 'any' })]);
    expect(merged.preconnects).toEqual(list.preconnects);
    expect(merged.preloads.map((p) => p.href)).toEqual(['http://a.test/f.woff2']);
  });
});
