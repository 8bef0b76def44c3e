import { formatAxisMs, layoutCdfPlot } from './cdf-plot';

const margin = { top: 10, right: 16, bottom: 30, left: 40 };

describe('CDF axis labels', () => {
  test('a log axis over data that includes 0 ms (an IP literal’s DNS) never labels its origin "0 ms"', () => {
    const l = layoutCdfPlot([{ name: 'dns', points: [{ ms: 0, cdf: 0.5 }, { ms: 3, cdf: 1 }] }], { width: 300, height: 200, margin, scale: 'log' });
    const first = l.xTicks[0];
    expect(first?.x).toBe(margin.left);
    expect(first?.label).toBe('≤ 0.1 ms');
    for (const t of l.xTicks) expect(t.label).not.toMatch(/^(≤ )?0 ms$/);
    // Decades: 0.1, 1, 10 ms.
    expect(l.xTicks.map((t) => t.label)).toEqual(['≤ 0.1 ms', '1 ms', '10 ms']);
  });

  test('the right-most label is anchored at its end, so it stays inside the plot’s width', () => {
    for (const scale of ['log', 'linear'] as const) {
      const l = layoutCdfPlot([{ name: 'total', points: [{ ms: 2, cdf: 0.5 }, { ms: 700, cdf: 1 }] }], { width: 300, height: 200, margin, scale });
      const last = l.xTicks[l.xTicks.length - 1];
      expect(last?.x).toBeCloseTo(300 - margin.right);
      expect(last?.anchor).toBe('end');
      expect(l.xTicks.slice(0, -1).every((t) => t.anchor === 'middle')).toBe(true);
    }
  });

  test('formatAxisMs keeps sub-millisecond ticks distinct', () => {
    expect([0, 0.01, 0.1, 0.25, 1, 10, 1500].map(formatAxisMs)).toEqual(['0 ms', '0.01 ms', '0.1 ms', '0.25 ms', '1 ms', '10 ms', '1.5 s']);
  });
});

describe('coinciding CDF lines', () => {
  test('tcp and total on http: with no DNS are the same line: the later one is marked sameAs the earlier', () => {
    const same = [{ ms: 0.4, cdf: 0.5 }, { ms: 0.9, cdf: 1 }];
    const l = layoutCdfPlot(
      [
        { name: 'dns', points: [{ ms: 0, cdf: 1 }] },
        { name: 'tcp', points: same },
        { name: 'total', points: same.map((p) => ({ ...p })) },
      ],
      { scale: 'log' },
    );
    expect(l.lines.map((x) => [x.name, x.sameAs])).toEqual([
      ['dns', undefined],
      ['tcp', undefined],
      ['total', 'tcp'],
    ]);
  });

  test('lines that differ by one step are not marked', () => {
    const l = layoutCdfPlot([
      { name: 'tcp', points: [{ ms: 1, cdf: 1 }] },
      { name: 'total', points: [{ ms: 2, cdf: 1 }] },
    ]);
    expect(l.lines.every((x) => x.sameAs === undefined)).toBe(true);
  });
});
