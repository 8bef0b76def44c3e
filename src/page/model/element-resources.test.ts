import { cssImageUrls, elementResources, needsLayout, type ElementSnapshot } from './element-resources';
import { intersectsViewport } from './viewport';

const base = 'https://example.com/dir/page.html';
const el = (tag: string, attributes: Record<string, string>, extra: Partial<ElementSnapshot> = {}): ElementSnapshot => ({
  tag,
  attributes,
  inViewport: false,
  baseUrl: base,
  ...extra,
});

describe('elementResources', () => {
  test('scripts: sync is blocking, async/defer/module are script', () => {
    expect(elementResources(el('script', { src: 'a.js' }))).toEqual([{ url: 'https://example.com/dir/a.js', kind: 'script', priority: 'blocking' }]);
    for (const attrs of [{ async: '' }, { defer: '' }, { type: 'module' }] as Array<Record<string, string>>) {
      expect(elementResources(el('script', { src: '/b.js', ...attrs }))[0]?.priority).toBe('script');
    }
    expect(elementResources(el('script', { src: 'x', type: 'application/ld+json' }))).toEqual([]);
  });

  test('links by rel', () => {
    expect(elementResources(el('link', { rel: 'stylesheet', href: 's.css' }))[0]).toMatchObject({ kind: 'stylesheet', priority: 'blocking' });
    expect(elementResources(el('link', { rel: 'preload', as: 'font', href: 'f.woff2' }))[0]).toMatchObject({ kind: 'font', priority: 'font' });
    expect(elementResources(el('link', { rel: 'modulepreload', href: 'm.js' }))[0]).toMatchObject({ priority: 'script' });
    expect(elementResources(el('link', { rel: 'icon', href: '/favicon.ico' }))[0]).toMatchObject({ kind: 'icon', priority: 'other' });
    expect(elementResources(el('link', { rel: 'prefetch', href: 'n.html' }))[0]).toMatchObject({ priority: 'prefetch' });
  });

  test('images: viewport decides visible-image; currentSrc first, srcset candidates, de-duplicated', () => {
    const out = elementResources(
      el('img', { src: 'a.png', srcset: 'a.png 1x, a@2x.png 2x' }, { inViewport: true, currentSrc: 'https://example.com/dir/a@2x.png#frag' }),
    );
    expect(out.map((r) => r.url)).toEqual(['https://example.com/dir/a@2x.png', 'https://example.com/dir/a.png']);
    expect(out.every((r) => r.priority === 'visible-image')).toBe(true);
    expect(elementResources(el('img', { src: 'a.png' }))[0]?.priority).toBe('image');
    expect(elementResources(el('img', { src: 'a.png', loading: 'lazy' }, { inViewport: true }))[0]?.priority).toBe('image');
  });

  test('picture source, media, iframe, input image, object/embed', () => {
    expect(elementResources(el('source', { srcset: 'p.webp' }, { mediaParent: 'picture', inViewport: true }))[0]?.priority).toBe('visible-image');
    expect(elementResources(el('source', { src: 'v.mp4' }, { mediaParent: 'video' }))[0]).toMatchObject({ kind: 'media', priority: 'other' });
    expect(elementResources(el('track', { src: 'c.vtt' }))[0]).toMatchObject({ kind: 'track', priority: 'other' });
    expect(elementResources(el('iframe', { src: 'https://ads.example/f' }))[0]).toMatchObject({ kind: 'iframe', priority: 'other' });
    expect(elementResources(el('input', { type: 'IMAGE', src: 'go.png' }))[0]).toMatchObject({ kind: 'image' });
    expect(elementResources(el('input', { type: 'text', src: 'go.png' }))).toEqual([]);
    expect(elementResources(el('object', { data: 'o.swf' }))[0]).toMatchObject({ kind: 'object' });
    expect(elementResources(el('embed', { src: 'e.svg' }))[0]).toMatchObject({ kind: 'object' });
  });

  test('inline style url() backgrounds of any element', () => {
    expect(elementResources(el('div', { style: 'background: url("/bg.jpg") no-repeat' }, { inViewport: true }))).toEqual([
      { url: 'https://example.com/bg.jpg', kind: 'image', priority: 'visible-image' },
    ]);
    expect(elementResources(el('div', { style: 'color: red' }))).toEqual([]);
  });

  test('only http(s) URLs', () => {
    expect(elementResources(el('img', { src: 'data:image/png;base64,AAAA' }))).toEqual([]);
    expect(elementResources(el('iframe', { src: 'javascript:void 0' }))).toEqual([]);
    expect(elementResources(el('img', { src: '   ' }))).toEqual([]);
  });

  test('needsLayout: boxes and inline backgrounds wait for layout; scripts and links do not', () => {
    expect(needsLayout('img', {})).toBe(true);
    expect(needsLayout('div', { style: 'background-image:url(x.png)' })).toBe(true);
    expect(needsLayout('script', {})).toBe(false);
    expect(needsLayout('link', {})).toBe(false);
  });
});

describe('cssImageUrls', () => {
  test('url()s of a rule or computed value; never throws', () => {
    expect(cssImageUrls('.a { background-image: url(i/b.png), url("data:x") }', 'https://cdn.example/css/s.css')).toEqual(['https://cdn.example/css/i/b.png']);
    expect(cssImageUrls('url(x.png)', 'not a url')).toEqual([]);
  });
});

describe('intersectsViewport', () => {
  const vp = { width: 400, height: 300 };
  test.each([
    [{ top: 0, left: 0, width: 10, height: 10 }, true],
    [{ top: 299, left: 399, width: 10, height: 10 }, true],
    [{ top: 300, left: 0, width: 10, height: 10 }, false],
    [{ top: -10, left: 0, width: 10, height: 10 }, false],
    [{ top: -10, left: -10, width: 11, height: 11 }, true],
    [{ top: 0, left: 400, width: 10, height: 10 }, false],
    [{ top: 0, left: 0, width: 0, height: 0 }, false],
    [{ top: 5, left: 5, width: NaN, height: 5 }, false],
  ])('%j → %s', (rect, expected) => {
    expect(intersectsViewport(rect, vp)).toBe(expected);
  });
});
