import { benchPageBuild, getBenchPage, type OriginBaseUrl } from '../../bench/corpus/bench-corpus';
import { withHeadMarkup } from '../../bench/corpus/ideal-hints';

const byName: OriginBaseUrl = (o, scheme) => `${scheme ?? 'https'}://${o}`;
const PAGES = ['almanac-median', 'real-news', 'real-shop', 'real-small', 'mcmanus-159', 'pm95-2544-10'];

function body(page: string, origin: string, path: string): string {
  const b = benchPageBuild(page).bodyOf(origin, path, byName);
  if (!b) throw new Error(`no body for ${page} ${origin}${path}`);
  return b.body.toString('latin1');
}

/** `<link rel=X …>` elements of a document, as attribute maps. */
function links(html: string, rel: string): Array<Record<string, string>> {
  return [...html.matchAll(/<link ([^>]*)>/g)]
    .map((m) => Object.fromEntries([...(m[1] ?? '').matchAll(/([a-z]+)(?:="([^"]*)")?/g)].map((a) => [a[1] ?? '', a[2] ?? ''])))
    .filter((a) => a.rel === rel);
}

/**
 * What the browser can only find late, read off the rendered bodies themselves (not the manifest's
 * `discoveredBy`): every URL a stylesheet names, and every URL the document names only inside an
 * inline script.
 */
function lateUrls(page: string): Set<string> {
  const p = getBenchPage(page);
  const prefix = (o: string) => (p.singleOrigin ? '' : byName(o, p.schemes?.[o]));
  const out = new Set<string>();
  for (const r of p.resources.filter((x) => x.kind === 'stylesheet')) {
    for (const m of body(page, r.origin, r.path).matchAll(/url\("([^"]+)"\)/g)) out.add(m[1] ?? '');
  }
  const doc = body(page, p.document.origin, p.document.path);
  for (const s of doc.matchAll(/<script>([^]*?)<\/script>/g)) for (const m of (s[1] ?? '').matchAll(/"((?:https?:\/\/[^"/]+)?\/[^"]+)"/g)) out.add(m[1] ?? '');
  // Only what the page really loads (a script's own strings can name other things).
  const loaded = new Set(p.resources.map((r) => `${prefix(r.origin)}${r.path}`));
  return new Set([...out].filter((u) => loaded.has(u)));
}

describe('ideal-hints page variant (the attainable-gain bound on hinting)', () => {
  it.each(PAGES)('%s+ideal preloads exactly what its sheets and scripts name, in the form the consuming request takes', (name) => {
    const base = getBenchPage(name);
    const variant = getBenchPage(`${name}+ideal`);
    expect(variant.resources).toEqual(base.resources);
    expect(variant.document.path).not.toBe(base.document.path);
    const doc = body(`${name}+ideal`, variant.document.origin, variant.document.path);
    const preloads = links(doc, 'preload');
    expect(new Set(preloads.map((l) => l.href))).toEqual(lateUrls(name));
    expect(preloads.length).toBe(new Set(preloads.map((l) => l.href)).size);
    for (const l of preloads) {
      const isFont = /\.woff2?$/.test(l.href ?? '');
      expect(l.as).toBe(isFont ? 'font' : /\.css$/.test(l.href ?? '') ? 'style' : /\.js$/.test(l.href ?? '') ? 'script' : 'image');
      expect('crossorigin' in l).toBe(isFont);
    }
    // Every origin other than the document's, in each CORS mode its requests use.
    const want = new Set(base.singleOrigin ? [] : base.resources.filter((r) => r.origin !== base.document.origin).map((r) => `${byName(r.origin, base.schemes?.[r.origin])} ${r.kind === 'font'}`));
    const head = doc.slice(0, doc.indexOf('<title>'));
    expect(new Set(links(head, 'preconnect').map((l) => `${l.href} ${'crossorigin' in l}`))).toEqual(want);
  });

  it.each(PAGES.filter((p) => p !== 'pm95-2544-10'))('%s+ideal: the hints open the head, the document is otherwise the base one, at its size where it has padding to give', (name) => {
    const base = getBenchPage(name);
    const variant = getBenchPage(`${name}+ideal`);
    const a = body(name, base.document.origin, base.document.path);
    const b = body(`${name}+ideal`, variant.document.origin, variant.document.path);
    const added = [...b.matchAll(/\n<link rel="(?:preconnect|preload)"[^>]*>/g)].length - [...a.matchAll(/\n<link rel="(?:preconnect|preload)"[^>]*>/g)].length;
    expect(added).toBeGreaterThan(0);
    // The demo pages (mcmanus-159) end without a padding comment: their document grows by the hints.
    if (a.endsWith('-->')) expect(b.length).toBe(a.length);
    else expect(b.length).toBeGreaterThan(a.length);
    const hints = [...b.matchAll(/\n<link rel="(?:preconnect|preload)"[^>]*>/g)];
    const first = hints[0];
    expect(first?.index).toBeLessThan(b.indexOf('<title>'));
    // Without hint lines (the base page's own preconnects too) and the padding, the same bytes.
    const strip = (s: string) => s.replace(/\n<link rel="(?:preconnect|preload)"[^>]*>/g, '').replace(/<!--[^]*-->$/, '');
    expect(strip(b).length).toBeLessThan(b.length - hints.length * 30);
    expect(strip(b)).toBe(strip(a));
  });

  it.each(PAGES)('%s+all preloads every subresource the page loads, each once, at high priority, in the form its request takes', (name) => {
    const base = getBenchPage(name);
    const variant = getBenchPage(`${name}+all`);
    expect(variant.resources).toEqual(base.resources);
    expect(variant.document.path).toMatch(/\.all\.html$/);
    const doc = body(`${name}+all`, variant.document.origin, variant.document.path);
    const prefix = (o: string) => (base.singleOrigin ? '' : byName(o, base.schemes?.[o]));
    // Read off the base document and its sheets: every URL they name that the page loads.
    // The icon aside: browsers fetch it when they like, so a preload of it may be a request the page does not make.
    const baseDoc = body(name, base.document.origin, base.document.path);
    const icons = new Set(links(baseDoc, 'icon').map((l) => l.href));
    const named = new Set([...lateUrls(name), ...[...baseDoc.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1] ?? '')].filter((u) => !icons.has(u)));
    const loaded = base.resources.map((r) => `${prefix(r.origin)}${r.path}`).filter((u) => named.has(u));
    const head = doc.slice(0, doc.indexOf('<title>'));
    const preloads = links(head, 'preload').filter((l) => l.fetchpriority === 'high');
    expect(preloads.map((l) => l.href).sort()).toEqual([...new Set(loaded)].sort());
    for (const l of preloads) {
      const isFont = /\.woff2?$/.test(l.href ?? '');
      expect(l.as).toBe(isFont ? 'font' : /\.css$/.test(l.href ?? '') ? 'style' : /\.js$/.test(l.href ?? '') ? 'script' : 'image');
      // Classic, credentialed scripts: a preload without crossorigin is the one their request matches.
      expect('crossorigin' in l).toBe(isFont);
    }
    // The same preconnects as the +ideal variant.
    const ideal = body(`${name}+ideal`, getBenchPage(`${name}+ideal`).document.origin, getBenchPage(`${name}+ideal`).document.path);
    expect(links(head, 'preconnect')).toEqual(links(ideal.slice(0, ideal.indexOf('<title>')), 'preconnect'));
  });

  it('a page with nothing late gets the same document under the variant path', () => {
    const base = getBenchPage('pm95-2544-10');
    const variant = getBenchPage('pm95-2544-10+ideal');
    expect(body('pm95-2544-10+ideal', variant.document.origin, variant.document.path)).toBe(body('pm95-2544-10', base.document.origin, base.document.path));
  });

  it('withHeadMarkup grows the document when its padding is too short, and never breaks the comment', () => {
    const html = '<html><head><meta charset="utf-8"><title>t</title></head></html><!--abcd-->';
    const out = withHeadMarkup(html, '<link rel="preconnect" href="https://x">');
    expect(out).toBe('<html><head><meta charset="utf-8">\n<link rel="preconnect" href="https://x"><title>t</title></head></html><!--cd-->');
    expect(withHeadMarkup('<head><title>t</title>', 'X')).toBe('<head>\nX<title>t</title>');
  });
});
