import { CHAIN, entry, record } from '../../../test/support/recorded-chain';
import type { Discovery, PageRecord } from '../model/page-record';
import { diagnose, type Diagnosis } from './diagnose';
import { suggestionsFor } from './suggestions';

function ok(page: PageRecord): Diagnosis {
  const d = diagnose(page);
  if (d.status !== 'ok') throw new Error(d.message);
  return d;
}

describe('suggestions and their predicted savings (a 50 ms path, worked by hand)', () => {
  it('a font found by an @imported sheet: preloading it saves its two late round trips; preloading the sheet, one', () => {
    // Bound: document 50–100, a.css 100–150, b.css 150–200, font 200–250. Preloaded, the font is
    // found at the document's first byte (100) and ends at 150: 100 ms earlier, so the measured end
    // (351) moves to 251. The sheet preloaded ends 50 ms earlier, and the font it names with it.
    expect(suggestionsFor(ok(record(CHAIN)))).toEqual([
      { kind: 'preload', href: 'http://a.test/f.woff2', as: 'font', crossorigin: 'anonymous', type: 'font/woff2', predictedSavingMs: 100, namedAhead: [{ href: 'http://a.test/a.css', as: 'style' }] },
      { kind: 'preload', href: 'http://a.test/b.css', as: 'style', type: 'text/css', predictedSavingMs: 50, namedAhead: [{ href: 'http://a.test/a.css', as: 'style' }] },
    ]);
  });

  it('a font origin whose handshake is on the critical path: preconnecting it saves the handshake, up to the next request\'s end', () => {
    const timings = [
      entry('http://a.test/a.css', 'link', 103),
      entry('http://fonts.test/f.woff2', 'css', 300, { domainLookupStart: 300, connectStart: 300, connectEnd: 350, requestStart: 350, responseStart: 400, responseEnd: 401 }),
    ];
    const suggestions = suggestionsFor(ok(record(timings)));
    // Bound: the font found at a.css's first byte (150), its handshake to 200, done at 250. Its
    // handshake begun at the document's first byte (100): done at 200. Preloaded: the same.
    expect(suggestions).toContainEqual({ kind: 'preconnect', href: 'http://fonts.test', crossorigin: 'anonymous', predictedSavingMs: 50 });
    expect(suggestions).toContainEqual(expect.objectContaining({ kind: 'preload', href: 'http://fonts.test/f.woff2', predictedSavingMs: 50 }));
  });

  it('the LCP image that waited for a connection: fetchpriority=high saves its wait, down to the next latest end', () => {
    const hero = 'http://a.test/hero.jpg';
    const timings = [entry('http://a.test/a.css', 'link', 103), entry(hero, 'img', 180, { startTime: 104, responseEnd: 300, encodedBodySize: 90_000 })];
    const discoveries: Discovery[] = [{ url: hero, kind: 'image', priority: 'visible-image', atMs: 104, inViewport: true, tag: 'img', late: false }];
    const page = record(timings, { discoveries });
    // Queued 104 → 180 (76 ms); ending at 224 it would still be last.
    expect(suggestionsFor(ok(page), discoveries)).toContainEqual({ kind: 'fetchpriority', href: hero, predictedSavingMs: 76 });
    // Out of the first viewport it is no LCP candidate.
    const below = discoveries.map((x) => ({ ...x, inViewport: false }));
    expect(suggestionsFor(ok(record(timings, { discoveries: below })), below).map((s) => s.kind)).not.toContain('fetchpriority');
  });

  it('nothing to suggest when every request is named by the document on a warm connection', () => {
    expect(suggestionsFor(ok(record([entry('http://a.test/a.css', 'link', 103), entry('http://a.test/x.png', 'img', 104)])))).toEqual([]);
  });
});
