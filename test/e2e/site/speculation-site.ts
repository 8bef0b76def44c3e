import https from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import type { LinkRefusal } from '../../../src/page/speculation/link-safety';

/** One request as the speculation site saw it. */
export interface SpeculationRequest {
  path: string;
  /** `Sec-Purpose` (`prefetch`, `prefetch;prerender`) when the browser fetched it ahead. */
  purpose: string | undefined;
  at: number;
}

export interface SpeculationSite {
  origin: string;
  requests: SpeculationRequest[];
  /** Body bytes the server sends for a page path (what Navigation Timing's `encodedBodySize` reads). */
  bodyBytes(path: string): number;
  url(path: string): string;
  close(): Promise<void>;
}

/**
 * Links on `/start.html` that must never be fetched ahead, each with the refusal that stops it
 * (src/page/speculation/link-safety.ts). `href` is relative to the site unless it is absolute;
 * `{{HOST}}` is the site's `host:port`, `{{PORT}}` its port.
 */
export const REFUSED_LINKS: ReadonlyArray<{ id: string; href: string; text: string; attrs?: string; code: LinkRefusal }> = [
  { id: 'logout', href: '/account/logout', text: 'Your account', code: 'action' },
  { id: 'signout-text', href: '/session/end', text: 'Sign out', code: 'action' },
  { id: 'delete', href: '/item/delete?id=7', text: 'This item', code: 'action' },
  { id: 'unsubscribe', href: '/mail/unsubscribe.html', text: 'Mail settings', code: 'action' },
  { id: 'cart', href: '/cart', text: 'Basket', code: 'action' },
  { id: 'checkout', href: '/checkout/start', text: 'Continue', code: 'action' },
  { id: 'query', href: '/next.html?token=abc', text: 'Next, tracked', code: 'unknown-query' },
  { id: 'download', href: '/report.html', text: 'Report', attrs: 'download', code: 'download' },
  { id: 'blank', href: '/blank.html', text: 'In a new tab', attrs: 'target="_blank"', code: 'other-window' },
  { id: 'creds', href: 'https://user:secret@{{HOST}}/creds.html', text: 'With credentials', code: 'credentials' },
  { id: 'pdf', href: '/paper.pdf', text: 'The paper', code: 'not-document' },
  { id: 'cross', href: 'https://localhost:{{PORT}}/cross.html', text: 'The same server by another name', code: 'cross-origin' },
];

/**
 * A small https site (HTTP/1.1, the test certificate) for speculation: `/start.html` links to
 * `/next.html` and `/other.html` (safe) and to every refused case above; `/own-rules.html` carries
 * speculation rules of its own and a link to `/next.html`; `/nostore.html` answers
 * `Cache-Control: no-store`; every other path is a small page. Pages are stale at once (`max-age=0`):
 * a prefetch Chromium could answer from its HTTP cache would never reach the log. Every request is
 * logged with its `Sec-Purpose`, so a test can show a refused URL was never asked for.
 */
export async function startSpeculationSite(tls: { cert: string | Buffer; key: string | Buffer }): Promise<SpeculationSite> {
  const requests: SpeculationRequest[] = [];
  let origin = '';
  const body = (path: string) => Buffer.from(page(path, origin));
  const server = https.createServer({ ...tls, ALPNProtocols: ['http/1.1'] }, (req, res) => {
    const path = req.url ?? '/';
    requests.push({ path, purpose: req.headers['sec-purpose'] as string | undefined, at: Date.now() });
    const pathname = path.split('?')[0] ?? '/';
    if (pathname === '/favicon.ico') {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end();
      return;
    }
    const bytes = body(pathname);
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': String(bytes.length), 'cache-control': pathname === '/nostore.html' ? 'no-store' : 'max-age=0' });
    res.end(bytes);
  });
  const sockets = new Set<Socket>();
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    requests,
    bodyBytes: (path) => body(path).length,
    url: (path) => `${origin}${path}`,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((ok) => server.close(() => ok()));
    },
  };
}

function page(path: string, origin: string): string {
  const host = origin.replace(/^https:\/\//, '');
  const links =
    path === '/start.html'
      ? [
          '<a id="next" href="/next.html">Next page</a>',
          '<a id="other" href="/other.html">Another page</a>',
          '<a id="fresh" href="/fresh.html">A page not visited yet</a>',
          '<a id="unseen" href="/unseen.html">Another page not visited yet</a>',
          '<a id="nostore" href="/nostore.html">A private page</a>',
          ...REFUSED_LINKS.map((l) => `<a id="${l.id}" href="${l.href.replace('{{HOST}}', host).replace('{{PORT}}', host.split(':')[1] ?? '')}" ${l.attrs ?? ''}>${l.text}</a>`),
        ]
      : path === '/own-rules.html'
        ? ['<a id="next" href="/next.html">Next page</a>']
        : ['<a id="start" href="/start.html">Start</a>'];
  const own = path === '/own-rules.html' ? '<script type="speculationrules">{"prefetch":[{"source":"list","urls":["/own-choice.html"],"eagerness":"conservative"}]}</script>' : '';
  const items = links.map((l) => `<li style="margin:12px 0">${l}</li>`).join('');
  return `<!doctype html><html><head><meta charset="utf-8"><title>${path}</title>${own}</head><body><h1>${path}</h1><ul>${items}</ul><p>${'A paragraph of this page. '.repeat(20)}</p></body></html>`;
}
