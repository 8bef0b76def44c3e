/**
 * The navigation benchmark's site: a news-like first party (`www.nav.test`) with an index and ten
 * articles linking to each other, a CDN (`cdn.nav.test`: the shared stylesheet, its web fonts found
 * late through `@font-face`, the app script, every image) and a third party (`widgets.nav.test`: an
 * async tag that inserts images). Each page has an LCP image (a GIF whose picture is as large as it
 * is shown, so it counts for Largest Contentful Paint), thumbnails, an image inserted by script, and
 * a bar of links no browser may fetch ahead: sign-out, delete, unsubscribe, cart, checkout, a URL
 * with credentials, an article with unknown query parameters, a download, a `target=_blank` link,
 * and a page served `no-store` (the live ticker, which the index links as an ordinary page).
 *
 * Every body is a pure function of its path (seeded PRNG): two runs serve the same bytes.
 */
import { fontBytes, gifPictureBytes } from '../../native-host/demo/synth-bytes';
import { cssRules, heading, jsFunctions, paragraph } from '../../native-host/demo/synth-text';
import { Prng } from '../../src/core/prng';

export const NAV_ORIGINS = { www: 'www.nav.test', cdn: 'cdn.nav.test', third: 'widgets.nav.test' } as const;
export const ARTICLE_COUNT = 10;
export const INDEX_PATH = '/index.html';
/** The page served `Cache-Control: no-store`: followable, never to be fetched ahead. */
export const LIVE_PATH = '/live/ticker.html';

/** How a file may be kept by the browser's cache (nav-nginx.ts turns it into `Cache-Control`). */
export type CacheClass = 'document' | 'static' | 'third' | 'no-store';

export interface SiteFile {
  origin: string;
  /** The path as served (no query). */
  path: string;
  body: Buffer;
  cache: CacheClass;
}

/** A link the bench's user may hover but that no speculation may fetch: its href, as written in the page. */
export interface NeverLink {
  kind: string;
  href: string;
  /** What the server's log shows when it is fetched: `host` and the request URI. */
  host: string;
  uri: string;
  /** Extra attributes of the anchor. */
  attrs?: string;
}

export const articlePath = (n: number): string => `/articles/a${n}.html`;

/** The links no speculation may follow; the same bar on every page. */
export const NEVER_LINKS: readonly NeverLink[] = [
  { kind: 'sign-out', href: '/account/sign-out', host: NAV_ORIGINS.www, uri: '/account/sign-out' },
  { kind: 'delete', href: '/account/delete', host: NAV_ORIGINS.www, uri: '/account/delete' },
  { kind: 'unsubscribe', href: '/newsletter/unsubscribe?list=daily', host: NAV_ORIGINS.www, uri: '/newsletter/unsubscribe?list=daily' },
  { kind: 'cart', href: '/cart', host: NAV_ORIGINS.www, uri: '/cart' },
  { kind: 'checkout', href: '/checkout', host: NAV_ORIGINS.www, uri: '/checkout' },
  { kind: 'credentials', href: `https://reader:secret@${NAV_ORIGINS.www}/members/`, host: NAV_ORIGINS.www, uri: '/members/' },
  { kind: 'unknown query', href: `${articlePath(4)}?session=8f2c11&ref=mail`, host: NAV_ORIGINS.www, uri: `${articlePath(4)}?session=8f2c11&ref=mail` },
  { kind: 'download', href: '/files/annual-report.pdf', host: NAV_ORIGINS.www, uri: '/files/annual-report.pdf', attrs: 'download' },
  { kind: 'target=_blank', href: '/print/a2.html', host: NAV_ORIGINS.www, uri: '/print/a2.html', attrs: 'target="_blank" rel="noopener"' },
  { kind: 'no-store', href: LIVE_PATH, host: NAV_ORIGINS.www, uri: LIVE_PATH },
];

/**
 * The links a user follows from each page (root-relative hrefs), the favourite first: the index
 * lists every article and the live ticker; an article links the index and three related articles;
 * the ticker links the index and the first articles.
 */
export function followLinks(page: string): string[] {
  if (page === INDEX_PATH) return [...Array.from({ length: ARTICLE_COUNT }, (_, i) => articlePath(i + 1)), LIVE_PATH];
  if (page === LIVE_PATH) return [INDEX_PATH, articlePath(1), articlePath(2), articlePath(3)];
  const n = Number(/a(\d+)\.html$/.exec(page)?.[1] ?? 1);
  const next = (k: number) => articlePath(((n - 1 + k) % ARTICLE_COUNT) + 1);
  return [next(1), next(2), next(5), INDEX_PATH];
}

/** Every followable page of the site. */
export const SITE_PAGES: readonly string[] = [INDEX_PATH, ...Array.from({ length: ARTICLE_COUNT }, (_, i) => articlePath(i + 1)), LIVE_PATH];

const cdn = `https://${NAV_ORIGINS.cdn}`;
const third = `https://${NAV_ORIGINS.third}`;
const THUMBS = 6;
const HERO = { width: 800, height: 420 };
const THUMB = { width: 160, height: 100 };

const slug = (page: string): string => page.replace(/^\/|\.html$/g, '').replace(/\//g, '-');

/** The page a subresource belongs to: every page's own images are named `/img/<page>-…`; undefined for the files all pages share. */
export function pageOfFile(uri: string): string | undefined {
  return SITE_PAGES.find((page) => uri.startsWith(`/img/${slug(page)}-`));
}

function pageHtml(page: string): string {
  const rng = new Prng(`nav-page ${page}`);
  const s = slug(page);
  const title = page === INDEX_PATH ? 'Front page' : heading(rng);
  const follow = followLinks(page).map((href) => `<li><a href="${href}">${href === INDEX_PATH ? 'Front page' : heading(rng)}</a></li>`).join('\n');
  const never = NEVER_LINKS.map((l) => `<a href="${l.href}"${l.attrs ? ` ${l.attrs}` : ''}>${l.kind}</a>`).join(' · ');
  const thumbs = Array.from({ length: THUMBS }, (_, k) => `<img src="${cdn}/img/${s}-t${k}.gif" width="${THUMB.width}" height="${THUMB.height}" alt="">`).join('\n');
  const text = Array.from({ length: 8 }, () => `<p>${paragraph(rng, 900)}</p>`).join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${title}</title>
<link rel="stylesheet" href="${cdn}/css/site.css">
<script src="${cdn}/js/app.js"></script>
<script async src="${third}/tag.js"></script>
</head><body>
<nav class="account">${never}</nav>
<h1>${title}</h1>
<ul class="follow">
${follow}
</ul>
<img class="hero" src="${cdn}/img/${s}-hero.gif" width="${HERO.width}" height="${HERO.height}" alt="">
${text}
<div class="thumbs">${thumbs}</div>
<script>
  // The late image a page's script inserts once it runs.
  var late = document.createElement('img'); late.src = '${cdn}/img/${s}-late.gif'; late.width = 320; late.height = 200;
  document.body.appendChild(late);
</script>
</body></html>
`;
}

function plainPage(title: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body><h1>${title}</h1><p><a href="${INDEX_PATH}">Front page</a></p></body></html>\n`;
}

const text = (origin: string, path: string, body: string, cache: CacheClass): SiteFile => ({ origin, path, body: Buffer.from(body), cache });

/** The whole site: every file of every origin. */
export function navSiteFiles(): SiteFile[] {
  const rng = new Prng('nav-site shared');
  const files: SiteFile[] = [];
  for (const page of SITE_PAGES) {
    const s = slug(page);
    files.push(text(NAV_ORIGINS.www, page, pageHtml(page), page === LIVE_PATH ? 'no-store' : 'document'));
    files.push({ origin: NAV_ORIGINS.cdn, path: `/img/${s}-hero.gif`, body: gifPictureBytes(140_000, `${s}-hero`, HERO), cache: 'static' });
    files.push({ origin: NAV_ORIGINS.cdn, path: `/img/${s}-late.gif`, body: gifPictureBytes(30_000, `${s}-late`, { width: 320, height: 200 }), cache: 'static' });
    for (let k = 0; k < THUMBS; k++) files.push({ origin: NAV_ORIGINS.cdn, path: `/img/${s}-t${k}.gif`, body: gifPictureBytes(9_000 + 2_000 * k, `${s}-t${k}`, THUMB), cache: 'static' });
    files.push({ origin: NAV_ORIGINS.third, path: `/img/${s}-w.gif`, body: gifPictureBytes(12_000, `${s}-w`, { width: 300, height: 250 }), cache: 'third' });
  }
  const fontFace = (name: string) => `@font-face { font-family: "${name}"; src: url("${cdn}/fonts/${name}.woff2") format("woff2"); }\n`;
  const css = `${fontFace('serif-text')}${fontFace('sans-head')}body { font-family: "serif-text", serif; max-width: 860px; margin: auto; }\nh1 { font-family: "sans-head", sans-serif; }\n.hero { display: block; width: 800px; height: 420px; }\n.thumbs img { margin: 4px; }\n`;
  files.push(text(NAV_ORIGINS.cdn, '/css/site.css', `${css}${cssRules(rng, 'nav', 24_000)}`, 'static'));
  files.push({ origin: NAV_ORIGINS.cdn, path: '/fonts/serif-text.woff2', body: fontBytes(38_000, 'serif-text'), cache: 'static' });
  files.push({ origin: NAV_ORIGINS.cdn, path: '/fonts/sans-head.woff2', body: fontBytes(26_000, 'sans-head'), cache: 'static' });
  files.push(text(NAV_ORIGINS.cdn, '/js/app.js', jsFunctions(rng, 'navApp', 48_000), 'static'));
  // The third party's tag inserts the page's widget image, named after the page it runs in.
  const tag = `(function () { var s = location.pathname.replace(/^\\/|\\.html$/g, '').replace(/\\//g, '-'); var i = new Image(300, 250); i.src = '${third}/img/' + s + '-w.gif'; document.addEventListener('DOMContentLoaded', function () { document.body.appendChild(i); }); })();\n`;
  files.push(text(NAV_ORIGINS.third, '/tag.js', `${tag}${jsFunctions(rng, 'navTag', 16_000)}`, 'third'));
  for (const l of NEVER_LINKS) {
    if (l.uri === LIVE_PATH) continue;
    const path = l.uri.replace(/\?.*$/, '');
    if (path === articlePath(4)) continue; // the article itself, with parameters it does not know
    const body = path.endsWith('.pdf') ? new Prng(path).fillBytes(Buffer.alloc(60_000)) as Buffer : Buffer.from(plainPage(l.kind));
    files.push({ origin: NAV_ORIGINS.www, path: path.endsWith('/') ? `${path}index.html` : path, body, cache: 'no-store' });
  }
  return files;
}
