import { CHAIN, record } from '../../../test/support/recorded-chain';
import { diagnose } from './diagnose';
import { gapRows, shortName, stripCells } from './path-strip';

describe('the critical path strip', () => {
  const d = diagnose(record(CHAIN));
  if (d.status !== 'ok') throw new Error(d.message);

  it('one cell per link, each cut into what it spent, summing to its time from the earliest it could be found to its last byte', () => {
    const cells = stripCells(d);
    expect(cells.map((c) => [c.label, c.foundBy])).toEqual([
      ['index.html', 'the document'],
      ['a.css', 'named in index.html, 3 ms after the bound finds it'],
      ['b.css', 'named in a.css, 6 ms after the bound finds it'],
      ['f.woff2', 'named in b.css, 100 ms after the bound finds it'],
    ]);
    // The font: found 94 ms after b.css's first byte (206 → 300), one round trip, 1 ms of transfer.
    expect(cells[3]?.segments).toEqual([{ spentOn: 'discovery', ms: 94 }, { spentOn: 'round-trip', ms: 50 }, { spentOn: 'transfer', ms: 1 }]);
    for (const [i, c] of cells.entries()) {
      const link = d.criticalPath[i];
      if (link === undefined) throw new Error('no link');
      expect(c.totalMs).toBeCloseTo(link.doneMs - (link.discoveredMs - link.discoveryWaitMs), 9);
    }
  });

  it('the gap rows: largest cause first, none under half a millisecond', () => {
    expect(gapRows(d.gap).map((r) => [r.cause, r.ms])).toEqual([['discoveryMs', 100], ['bandwidthMs', 1]]);
  });

  it('names a URL by its last path segment, or its host', () => {
    expect(shortName('https://a.test/')).toBe('a.test');
    expect(shortName('https://a.test/fonts/x%20y.woff2?v=1')).toBe('x y.woff2');
    expect(shortName('not a url')).toBe('not a url');
  });
});
