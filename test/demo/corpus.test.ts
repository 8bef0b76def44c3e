import {
  buildCorpus, canonicalPageName, Corpus, CorpusPage, DEFAULT_DEMO_PAGE, DEMO_PAGE_NAMES, DemoPageError,
  getBody, getPage, MCMANUS_159_NAME, PM95_IMAGE_COUNTS, PM95_IMAGE_SIZES,
} from '../../native-host/demo/corpus';
import { gifBytes, MIN_GIF_SIZE, SynthSizeError } from '../../native-host/demo/synth-bytes';

const corpus = buildCorpus();

function text(c: Corpus, path: string): string {
  const found = c.getBody(path);
  if (found === undefined) throw new Error(`no body for ${path}`);
  return found.body.toString('latin1');
}

/** Paths named by `src` and `href` attributes, excluding in-page anchors and data: URLs. */
function htmlRefs(html: string): string[] {
  return [...html.matchAll(/\b(?:src|href)="([^"]*)"/g)].map((m) => m[1] ?? '')
    .filter((ref) => !ref.startsWith('#') && !ref.startsWith('data:'));
}

function cssRefs(css: string): string[] {
  return [...css.matchAll(/url\(\s*["']?([^"')]+)["']?\s*\)/g)].map((m) => m[1] ?? '');
}

function expectValidGif(body: Buffer): void {
  expect(body.subarray(0, 6).toString('latin1')).toBe('GIF89a');
  expect(body[body.length - 1]).toBe(0x3b);
}

describe('pm95 pages (Padmanabhan & Mogul 1995, figure 6-1)', () => {
  it('lists every size × count and builds each by name with exact image sizes', () => {
    for (const size of PM95_IMAGE_SIZES) {
      for (const count of PM95_IMAGE_COUNTS) {
        const name = `pm95-${size}-${count}`;
        expect(DEMO_PAGE_NAMES).toContain(name);
        const page = corpus.getPage(name);
        expect(page.name).toBe(name);
        expect(page.resources).toHaveLength(count);
        for (const r of page.resources) {
          expect(r).toMatchObject({ size, contentType: 'image/gif', kind: 'image', discoveredBy: 'html' });
          const body = corpus.getBody(r.path)?.body;
          expect(body?.length).toBe(size);
          expectValidGif(body as Buffer);
        }
      }
    }
    expect([...PM95_IMAGE_SIZES]).toEqual([2544, 45566]);
    expect([...PM95_IMAGE_COUNTS]).toEqual([1, 5, 10, 20, 40]);
  });

  it('defaults to 10 images of 2544 bytes, behind a small text document', () => {
    const page = getPage(DEFAULT_DEMO_PAGE);
    expect(page.name).toBe('pm95-2544-10');
    expect(page.resources.map((r) => r.size)).toEqual(Array(10).fill(2544));
    expect(page.documentSize).toBeGreaterThan(2_000);
    expect(page.documentSize).toBeLessThan(8_000);
    const html = text(corpus, page.path);
    expect(html).toHaveLength(page.documentSize);
    expect(html.replace(/<[^>]*>/g, '').length).toBeGreaterThan(2_500); // a few KB of prose
  });

  it('builds other sizes and counts by name, within limits', () => {
    const page = corpus.getPage('pm95-100-3');
    expect(page.resources.map((r) => r.size)).toEqual([100, 100, 100]);
    expect(corpus.getBody(page.resources[2]?.path ?? '')?.body.length).toBe(100);
    expect(() => getPage('pm95-2544-1000')).toThrow(expect.objectContaining({ code: 'E_DEMO_PAGE_PARAMS' }));
    expect(() => getPage('pm95-10-1')).toThrow(expect.objectContaining({ code: 'E_DEMO_PAGE_PARAMS' }));
    expect(() => getPage('pm95-02544-10')).toThrow(expect.objectContaining({ code: 'E_DEMO_UNKNOWN_PAGE' }));
    expect(() => getPage('nope')).toThrow(DemoPageError);
    expect(canonicalPageName('pm95')).toBe('pm95-2544-10');
  });
});

describe('mcmanus-159 (McManus 2011, "The Apex of Pipelines")', () => {
  const page = corpus.getPage(MCMANUS_159_NAME);
  const of = (pred: (r: CorpusPage['resources'][number]) => boolean): number => page.resources.filter(pred).length;

  it('makes exactly 159 requests including the document', () => {
    expect(page.resources.length + 1).toBe(159);
    expect(new Set(page.resources.map((r) => r.path)).size).toBe(158);
    expect(page.resources.map((r) => r.path)).not.toContain(page.path);
  });

  it('has the newsletter composition: 145 <img>, 6 JS/CSS, favicon, fonts, CSS-only backgrounds', () => {
    expect(of((r) => r.kind === 'image' && r.discoveredBy === 'html')).toBe(145);
    expect(of((r) => r.kind === 'stylesheet' && r.renderBlocking)).toBe(3);
    expect(of((r) => r.kind === 'script' && r.renderBlocking)).toBe(2);
    expect(of((r) => r.kind === 'script' && !r.renderBlocking)).toBe(1);
    expect(of((r) => r.kind === 'icon')).toBe(1);
    expect(of((r) => r.kind === 'font')).toBe(3);
    expect(of((r) => r.discoveredBy === 'css')).toBe(3);
    expect(page.resources.filter((r) => r.discoveredBy === 'css').every((r) => r.kind === 'image')).toBe(true);
  });

  it('has mostly tiny images and a few larger ones up to ~20 KB', () => {
    const sizes = page.resources.filter((r) => r.kind === 'image' && r.discoveredBy === 'html').map((r) => r.size);
    expect(sizes.filter((s) => s < 1_024).length / sizes.length).toBeGreaterThan(2 / 3);
    expect(sizes.filter((s) => s <= 3_072).length / sizes.length).toBeGreaterThan(0.9);
    expect(sizes.filter((s) => s > 3_072).length).toBeGreaterThanOrEqual(3);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(20_480);
  });

  it('puts stylesheets and sync scripts in <head>, the async script marked async', () => {
    const html = text(corpus, page.path);
    const head = html.slice(0, html.indexOf('</head>'));
    for (const r of page.resources.filter((x) => x.renderBlocking)) expect(head).toContain(`"${r.path}"`);
    const asyncScript = page.resources.find((r) => r.kind === 'script' && !r.renderBlocking);
    expect(head).toContain(`<script async src="${asyncScript?.path}">`);
    for (const r of page.resources.filter((x) => x.kind === 'font')) {
      expect(head).toContain(`<link rel="preload" href="${r.path}" as="font"`);
    }
  });
});

describe('every page', () => {
  it('serves every resource with its declared type and exact size, on one origin', () => {
    for (const page of corpus.pages) {
      const doc = corpus.getBody(page.path);
      expect(doc?.contentType).toBe('text/html; charset=utf-8');
      expect(doc?.body.length).toBe(page.documentSize);
      for (const r of page.resources) {
        expect(r.path.startsWith(`/${page.name}/`)).toBe(true); // root-relative: same host:port
        const found = corpus.getBody(r.path);
        expect(found?.contentType).toBe(r.contentType);
        expect(found?.body.length).toBe(r.size);
        if (r.contentType === 'image/gif') expectValidGif(found?.body as Buffer);
      }
    }
  });

  it('references each resource from the HTML or the stylesheet its manifest names, and nothing else', () => {
    for (const page of corpus.pages) {
      const html = text(corpus, page.path);
      const fromHtml = new Set(htmlRefs(html));
      for (const r of page.resources) {
        const source = text(corpus, r.referencedFrom);
        if (r.discoveredBy === 'html') {
          expect(r.referencedFrom).toBe(page.path);
          expect(fromHtml.has(r.path)).toBe(true);
        } else {
          expect(page.resources.find((s) => s.path === r.referencedFrom)?.kind).toBe('stylesheet');
          expect(cssRefs(source)).toContain(r.path);
          expect(html).not.toContain(r.path); // discovered only once the stylesheet is parsed
        }
      }
      // No dangling reference: everything the HTML and CSS name is in the manifest.
      const known = new Set(page.resources.map((r) => r.path));
      const cssNamed = page.resources.filter((r) => r.kind === 'stylesheet').flatMap((r) => cssRefs(text(corpus, r.path)));
      for (const ref of [...fromHtml, ...cssNamed]) expect(known.has(ref)).toBe(true);
      expect(fromHtml.size).toBe(page.resources.filter((r) => r.discoveredBy === 'html').length);
    }
  });

  it('is deterministic: two builds are deep-equal, bytes included', () => {
    const again = buildCorpus();
    expect(again.pages).toEqual(corpus.pages);
    for (const page of corpus.pages) {
      for (const path of [page.path, ...page.resources.map((r) => r.path)]) {
        expect(again.getBody(path)?.body.equals(corpus.getBody(path)?.body as Buffer)).toBe(true);
      }
    }
  });
});

describe('getBody', () => {
  it('ignores query strings and rejects unknown or aliased paths', () => {
    const path = getPage('pm95').resources[0]?.path ?? '';
    expect(getBody(`${path}?run=2`)?.body.length).toBe(2544);
    expect(corpus.getBody('/nope/index.html')).toBeUndefined();
    expect(corpus.getBody('/pm95/index.html')).toBeUndefined();
    expect(corpus.getBody('/pm95-2544-10/img/99.gif')).toBeUndefined();
    expect(corpus.getBody('/')).toBeUndefined();
  });
});

describe('gifBytes', () => {
  it('produces a GIF of exactly every size from the minimum up', () => {
    for (let size = MIN_GIF_SIZE; size < 1_200; size++) {
      const body = gifBytes(size, `s${size}`);
      expect(body.length).toBe(size);
      expectValidGif(body);
    }
    expect(() => gifBytes(MIN_GIF_SIZE - 1, 'x')).toThrow(SynthSizeError);
  });
});
