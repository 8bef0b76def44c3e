import { escapeXml, linePanel, niceTicks, svgDocument, type PanelSpec } from '../../bench/report/svg-chart';
import { polylines, xmlProblems } from './xml-check';

const panel = (over: Partial<PanelSpec> = {}): PanelSpec => ({
  title: 'Load time <vs> images & "size"',
  xLabel: 'number of images',
  yLabel: 'ms',
  xTicks: [1, 5, 10, 20, 40],
  series: [
    { name: 'http10', points: [{ x: 40, y: 9000 }, { x: 1, y: 300 }, { x: 10, y: 1800 }, { x: 5, y: 900 }] },
    { name: 'getlist', points: [{ x: 1, y: 250 }, { x: 5, y: null }, { x: 10, y: Number.NaN }, { x: 20, y: 700 }, { x: 40, y: undefined }] },
    { name: 'h2', points: [{ x: 1, y: null }] },
    { name: 'lower bound', dashed: true, points: [{ x: 1, y: 200 }, { x: 40, y: 600 }] },
  ],
  ...over,
});

describe('svg chart', () => {
  it('is well-formed XML with one svg root, escaped text, and a title', () => {
    const svg = svgDocument('a & b', [panel(), panel({ title: 'second' })], 760, 340, 'note <1>');
    expect(xmlProblems(svg)).toEqual([]);
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(svg).toContain('Load time &lt;vs&gt; images &amp; &quot;size&quot;');
    expect(svg.match(/<g class="panel">/g)).toHaveLength(2);
    expect(svg).toContain('height="702"'); // two 340-px panels + the footnote line
  });

  it('draws points in increasing x and skips missing ones', () => {
    const lines = polylines(linePanel(panel(), { x: 0, y: 0, width: 760, height: 340 }));
    const http10 = lines.get('http10') as number[][];
    const getlist = lines.get('getlist') as number[][];
    expect(http10).toHaveLength(4);
    expect(getlist).toHaveLength(2);
    for (const pts of lines.values()) {
      const xs = pts.map((p) => p[0] as number);
      expect([...xs].sort((a, b) => a - b)).toEqual(xs);
      expect(new Set(xs).size).toBe(xs.length);
    }
    // A series with no data draws no line but keeps a legend entry saying so.
    expect(lines.has('h2')).toBe(false);
  });

  it('puts larger y higher (smaller SVG y) and x on the tick positions', () => {
    const svg = linePanel(panel(), { x: 0, y: 0, width: 760, height: 340 });
    expect(svg).toContain('h2 (no data)');
    const http10 = polylines(svg).get('http10') as number[][];
    const ys = http10.map((p) => p[1] as number);
    expect([...ys].sort((a, b) => b - a)).toEqual(ys);
    expect(svg).toContain('stroke-dasharray');
  });

  it('nice ticks cover the maximum in round steps', () => {
    expect(niceTicks(9000)).toEqual([0, 2000, 4000, 6000, 8000, 10_000]);
    expect(niceTicks(346.66)).toEqual([0, 100, 200, 300, 400]);
    expect(niceTicks(0)).toEqual([0, 1]);
    for (const max of [1, 7, 123, 4567, 98_765]) {
      const t = niceTicks(max);
      expect(t[t.length - 1]).toBeGreaterThanOrEqual(max);
      expect(t.length).toBeLessThanOrEqual(12);
    }
  });

  it('escapes the five XML specials it needs', () => {
    expect(escapeXml('<a href="x">&</a>')).toBe('&lt;a href=&quot;x&quot;&gt;&amp;&lt;/a&gt;');
  });
});
