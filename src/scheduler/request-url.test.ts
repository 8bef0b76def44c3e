import { mulberry32 } from '../core/prng';
import { createRequest } from './request';
import { RequestUrls, type SplitUrl } from './request-url';

/** The full parse, as `createRequest` did it before the splitter: the reference the fast path must agree with. */
function parsed(raw: string): SplitUrl | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  const href = url.href.split('#')[0] as string;
  const origin = `${url.protocol}//${url.host}`;
  // The target as serialised (an empty query's `?` included), where the href has one after the origin.
  const path = href.startsWith(`${origin}/`) ? href.slice(origin.length) : `${url.pathname}${url.search}`;
  return { href, origin, path, port: Number(url.port || (url.protocol === 'https:' ? 443 : 80)) };
}

/** A splitter that has seen these origins parsed. */
function splitterFor(...origins: string[]): RequestUrls {
  const urls = new RequestUrls();
  for (const o of origins) createRequest({ url: `${o}/`, priority: 'image' }, 1, 0, urls);
  return urls;
}

describe('RequestUrls', () => {
  test('a plain URL under a parsed origin is split without a parse, exactly as the parse splits it', () => {
    const urls = splitterFor('http://127.0.0.1:8080', 'https://example.com');
    for (const raw of ['http://127.0.0.1:8080/b/1024/7', 'https://example.com/a/b.png?w=100&h=50', 'https://example.com/', "https://example.com/it's/(1)/~x;y=z:@"]) {
      expect({ raw, split: urls.lookup(raw) }).toEqual({ raw, split: parsed(raw) });
    }
  });

  test('left to the parse: unknown origins and anything the parse would rewrite', () => {
    const urls = splitterFor('http://127.0.0.1:8080', 'https://example.com');
    const rewritten = [
      'http://127.0.0.1:8081/a', // another origin
      'HTTPS://example.com/a', 'https://EXAMPLE.com/a', 'https://example.com:443/a', 'https://u:p@example.com/a',
      'https://example.com/a%20b', 'https://example.com/a b', 'https://example.com/./a', 'https://example.com/a/..', 'https://example.com/a/../b',
      'https://example.com/a?x=\'1\'', 'https://example.com/a#frag', 'https://example.com/a\\b', 'https://example.com/é', 'https://example.com/a|b',
      'https://example.com', 'https://example.com?x', ' https://example.com/a', 'https://example.com/a\n',
    ];
    for (const raw of rewritten) expect({ raw, split: urls.lookup(raw) }).toEqual({ raw, split: undefined });
  });

  test('agrees with the full parse on 20,000 random URLs (undefined, or the same split)', () => {
    const rnd = mulberry32(19);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)] as T;
    const origins = ['http://127.0.0.1:8080', 'https://example.com', 'http://a.test', 'http://[::1]:9000'];
    const prefixes = [...origins, 'http://127.0.0.1:80', 'https://example.com:443', 'https://Example.com', 'http://a.test.', 'http://0x7f.1:8080', 'ftp://a.test', 'http:/a.test'];
    const pieces = ['a', 'B', '0', '-', '.', '..', '/', '//', '?', '&', '=', '%', '%2e', '%2E', '#', "'", '(', ';', ':', '@', '~', '_', '!', '$', '*', '+', ',', ' ', '\t', '\\', '|', '^', '`', '{', '"', '<', 'é', '\u0000'];
    const urls = splitterFor(...origins);
    let fast = 0;
    for (let i = 0; i < 20_000; i++) {
      let target = '/';
      const n = Math.floor(rnd() * 8);
      for (let j = 0; j < n; j++) target += pick(pieces);
      const raw = `${pick(prefixes)}${rnd() < 0.95 ? target : target.slice(1)}`;
      const split = urls.lookup(raw);
      if (split === undefined) continue;
      fast += 1;
      expect({ raw, split }).toEqual({ raw, split: parsed(raw) });
    }
    // The comparison means something only if the fast path was taken often.
    expect(fast).toBeGreaterThan(2_000);
  });

  test('createRequest gives the same request with and without the splitter', () => {
    const urls = splitterFor('http://127.0.0.1:8080');
    for (const url of ['http://127.0.0.1:8080/x/y?z=1', 'http://127.0.0.1:8080/x/../y', 'http://127.0.0.1:25/mail']) {
      expect(createRequest({ url, priority: 'image' }, 3, 5, urls)).toEqual(createRequest({ url, priority: 'image' }, 3, 5));
    }
    expect(urls.lookup('http://127.0.0.1:25/mail')).toMatchObject({ port: 25 });
  });
});
