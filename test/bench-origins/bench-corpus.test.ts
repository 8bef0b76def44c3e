import {
  ALMANAC_ORIGINS, BENCH_PAGE_NAMES, benchPageBuild, buildBenchPage, getBenchPage, pageBytes, requestCount,
  type BenchPage, type OriginBaseUrl,
} from '../../bench/corpus/bench-corpus';
import { MAX_BASE_URL_LENGTH } from '../../bench/corpus/bench-page-types';
import { getPage } from '../../native-host/demo/corpus';

const byName: OriginBaseUrl = (o) => `https://${o}`;
// Loopback-style links: one port per origin, as the origin servers write them in tests.
const byPort: OriginBaseUrl = (o) => `http://127.0.0.1:${40_000 + Object.values(ALMANAC_ORIGINS).indexOf(o as never)}`;

const rendered = new Map<string, string>();
function text(page: BenchPage, origin: string, path: string, base: OriginBaseUrl): string {
  const key = `${page.name} ${origin}${path} ${base('x')}`;
  let hit = rendered.get(key);
  if (hit === undefined) {
    const body = benchPageBuild(page.name).bodyOf(origin, path, base);
    if (body === undefined) throw new Error(`no body for ${origin}${path}`);
    hit = body.body.toString('latin1');
    rendered.set(key, hit);
  }
  return hit;
}

/** Absolute URLs in a document or stylesheet: attributes, url(), and quoted strings in scripts. */
function absoluteUrls(body: string): string[] {
  return [...body.matchAll(/(?:src|href)="(https?:[^"]+)"|url\("(https?:[^"]+)"\)|"(https?:\/\/[^"]+)"/g)]
    .map((m) => m[1] ?? m[2] ?? m[3] ?? '');
}

describe('almanac pages (Web Almanac 2024, Page Weight)', () => {
  const median = getBenchPage('almanac-median');
  const p90 = getBenchPage('almanac-p90');

  it('median: about 70 requests and 2.3 MB (±10%) over about 10 origins', () => {
    expect(requestCount(median)).toBeGreaterThanOrEqual(65);
    expect(requestCount(median)).toBeLessThanOrEqual(75);
    expect(Math.abs(pageBytes(median) - 2_300_000) / 2_300_000).toBeLessThanOrEqual(0.1);
    expect(median.origins.length).toBeGreaterThanOrEqual(8);
    expect(median.origins.length).toBeLessThanOrEqual(12);
    expect(median.origins[0]).toBe(median.document.origin);
  });

  it('p90: about 175 requests, heavier than the median', () => {
    expect(requestCount(p90)).toBeGreaterThanOrEqual(165);
    expect(requestCount(p90)).toBeLessThanOrEqual(185);
    expect(pageBytes(p90)).toBeGreaterThan(2 * pageBytes(median));
  });

  it.each(['almanac-median', 'almanac-p90'])('%s mixes JS, images, CSS, fonts and HTML and has late resources of every kind', (name) => {
    const page = getBenchPage(name);
    const kinds = new Set(page.resources.map((r) => r.kind));
    for (const k of ['script', 'image', 'stylesheet', 'font', 'icon']) expect(kinds).toContain(k);
    const late = (by: string, kind: string) => page.resources.filter((r) => r.discoveredBy === by && r.kind === kind);
    expect(late('css', 'image').length).toBeGreaterThan(0); // CSS background images
    expect(late('css', 'font').length).toBeGreaterThan(0); // @font-face
    expect(late('script', 'image').length).toBeGreaterThan(0); // inserted after DOMContentLoaded
    // Every resource lives on one of the page's origins, once.
    const keys = page.resources.map((r) => `${r.origin}${r.path}`);
    expect(new Set(keys).size).toBe(keys.length);
    for (const r of page.resources) expect(page.origins).toContain(r.origin);
  });

  it('is deterministic: two builds give the same manifest and bytes', () => {
    const a = buildBenchPage('almanac-median');
    const b = buildBenchPage('almanac-median');
    expect(b.page).toEqual(a.page);
    for (const r of [a.page.document, ...a.page.resources]) {
      expect(b.bodyOf(r.origin, r.path, byPort)?.body.equals(a.bodyOf(r.origin, r.path, byPort)?.body ?? Buffer.alloc(0))).toBe(true);
    }
  });

  it.each([['names', byName], ['loopback ports', byPort]] as const)('bodies have the exact manifest size and type whatever the links (%s)', (_label, base) => {
    for (const page of [median, p90]) {
      const build = buildBenchPage(page.name);
      for (const r of [page.document, ...page.resources]) {
        const body = build.bodyOf(r.origin, r.path, base);
        expect([r.path, body?.body.length, body?.contentType]).toEqual([r.path, r.size, r.contentType]);
      }
    }
  });

  it('every URL the document and stylesheets reference is in the manifest, and the manifest is exactly what they reference', () => {
    for (const page of [median, p90]) {
      const listed = new Set(page.resources.map((r) => `https://${r.origin}${r.path}`));
      const referenced = new Set<string>();
      const sources = [page.document, ...page.resources.filter((r) => r.kind === 'stylesheet')];
      for (const s of sources) for (const url of absoluteUrls(text(page, s.origin, s.path, byName))) referenced.add(url);
      expect([...referenced].filter((u) => !listed.has(u))).toEqual([]);
      expect([...listed].filter((u) => !referenced.has(u))).toEqual([]);
      // Each resource is named by the text its manifest entry says it is.
      for (const r of page.resources) {
        expect(text(page, r.referencedFrom.origin, r.referencedFrom.path, byName)).toContain(`https://${r.origin}${r.path}`);
      }
    }
  });

  it('script-inserted images appear only inside the inline script, not as markup', () => {
    const html = text(median, median.document.origin, median.document.path, byName);
    for (const r of median.resources.filter((x) => x.discoveredBy === 'script')) {
      const url = `https://${r.origin}${r.path}`;
      expect(html).toContain(`"${url}"`);
      expect(html).not.toContain(`src="${url}"`);
    }
    expect(html).toMatch(/addEventListener\("DOMContentLoaded"/);
  });

  it('refuses base URLs that would not fit the padded size', () => {
    const build = buildBenchPage('almanac-median');
    const long = `https://${'x'.repeat(MAX_BASE_URL_LENGTH)}`;
    expect(() => build.bodyOf(median.document.origin, median.document.path, () => long)).toThrow(expect.objectContaining({ code: 'E_BENCH_BASE_URL' }));
  });
});

describe('demo pages in the bench corpus', () => {
  it('lists the almanac pages, pm95 and mcmanus-159, and refuses unknown names', () => {
    expect(BENCH_PAGE_NAMES).toEqual(expect.arrayContaining(['almanac-median', 'almanac-p90', 'pm95-2544-10', 'mcmanus-159']));
    expect(() => getBenchPage('nope')).toThrow(expect.objectContaining({ code: 'E_BENCH_UNKNOWN_PAGE' }));
  });

  it.each(['pm95-2544-10', 'mcmanus-159'])('%s is the demo page, single-origin, same bytes', (name) => {
    const bench = getBenchPage(name);
    const demo = getPage(name);
    expect(bench.singleOrigin).toBe(true);
    expect(bench.origins).toHaveLength(1);
    expect(requestCount(bench)).toBe(demo.resources.length + 1);
    expect(bench.resources.map((r) => [r.path, r.size, r.discoveredBy])).toEqual(demo.resources.map((r) => [r.path, r.size, r.discoveredBy]));
    const build = buildBenchPage(name);
    expect(build.bodyOf(bench.origins[0] ?? '', bench.document.path, byName)?.body.length).toBe(demo.documentSize);
  });
});

describe('images are pictures of the size the page shows them at (Largest Contentful Paint can be an image)', () => {
  /** The `<img>` elements' sizes by URL: `width`/`height` attributes, or the inline script's `i.width`/`i.height`. */
  function shownSizes(html: string): Map<string, [number, number]> {
    const out = new Map<string, [number, number]>();
    for (const m of html.matchAll(/<img src="([^"]+)"[^>]*?width="(\d+)" height="(\d+)"/g)) out.set(m[1] ?? '', [Number(m[2]), Number(m[3])]);
    const inserted = /\[([^\]]*)\]\.forEach[^]*?i\.width=(\d+);i\.height=(\d+)/.exec(html);
    for (const u of [...(inserted?.[1] ?? '').matchAll(/"([^"]+)"/g)]) out.set(u[1] ?? '', [Number(inserted?.[2]), Number(inserted?.[3])]);
    return out;
  }
  const gifSize = (b: Buffer): [number, number] => [b.readUInt16LE(6), b.readUInt16LE(8)];

  it.each(['real-news', 'real-shop', 'real-small', 'almanac-median'])('%s: every image the document shows is served at its shown size; only the tracking pixel is 1×1', (name) => {
    const page = getBenchPage(name);
    const build = benchPageBuild(name);
    const shown = shownSizes(text(page, page.document.origin, page.document.path, byName));
    const ones: string[] = [];
    for (const r of page.resources.filter((x) => x.kind === 'image')) {
      const body = build.bodyOf(r.origin, r.path, byName)?.body as Buffer;
      expect(body.subarray(0, 6).toString('latin1')).toBe('GIF89a');
      const at = shown.get(`https://${r.origin}${r.path}`);
      if (r.discoveredBy === 'css') {
        expect(gifSize(body)).toEqual([640, 40]);
      } else if (at && at[0] > 1) {
        expect(gifSize(body)).toEqual(at);
      } else {
        expect(at).toEqual([1, 1]);
        expect(gifSize(body)).toEqual([1, 1]);
        ones.push(r.path);
      }
    }
    expect(ones.every((p) => /\/(?:px|pixel)\.gif$/.test(p))).toBe(true);
    expect(ones.length).toBeLessThanOrEqual(1);
  });

  it('real pages lead with a full-width picture larger than any other', () => {
    for (const name of ['real-news', 'real-shop', 'real-small']) {
      const page = getBenchPage(name);
      const lead = page.resources.find((r) => r.path.endsWith('/img/p0.gif'));
      expect(lead?.pixels).toEqual({ width: 800, height: 450 });
      const others = page.resources.filter((r) => r !== lead && r.pixels).map((r) => (r.pixels?.width ?? 0) * (r.pixels?.height ?? 0));
      expect(Math.max(...others)).toBeLessThan(800 * 450);
    }
  });
});
