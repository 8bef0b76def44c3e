import { discoveryWarmUpSteps } from './warm-up';

describe('discovery warm-up', () => {
  it('runs every step without throwing and exercises what a real page makes the scanner do', () => {
    const found: string[] = [];
    for (const step of discoveryWarmUpSteps((url) => found.push(url))) step();
    const paths = found.map((u) => new URL(u).pathname);
    // Markup: style sheets, scripts, a preload, srcset and <picture> choices, a style attribute.
    expect(paths).toEqual(expect.arrayContaining(['/css/s0.css', '/js/a.js', '/js/c.js', '/f/p.woff2', '/img/i0-1x.jpg', '/img/p1-l.webp', '/bg/s2.png']));
    // Style sheets: an @import, a background only a matched rule fetches, and a font text is set in.
    expect(paths).toContain('/css/imported.css');
    expect(paths.some((p) => /^\/bg\/r\d+\.png$/.test(p))).toBe(true);
    expect(paths.some((p) => /^\/f\/w\d+\.woff2$/.test(p))).toBe(true);
    // Spread over several small pages, so no step matches a sheet against a large document.
    expect(new Set(found.map((u) => new URL(u).origin)).size).toBeGreaterThan(3);
  });
});
