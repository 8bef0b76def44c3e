import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ALMANAC_ORIGINS, benchPageBuild } from '../../bench/corpus/bench-corpus';
import { docrootOf, writeDocroots } from '../../bench/origins/docroot';
import { parseAccessLog } from '../../bench/origins/access-log';
import { renderNginxConfig, supportsHttp2Directive } from '../../bench/origins/nginx-config';
import { bindOrigin } from '../../bench/origins/origin-binding';
import { startOrigins } from '../../bench/origins/start-origins';

describe('origin servers: configuration and validation (no nginx needed)', () => {
  const www = bindOrigin({ origin: ALMANAC_ORIGINS.www, address: '198.19.0.2', httpPort: 80, httpsPort: 443 }, 'name');

  it('links by name drop default ports; by address keep the chosen ones', () => {
    expect([www.httpUrl, www.httpsUrl]).toEqual(['http://www.example.test', 'https://www.example.test']);
    const v6 = bindOrigin({ origin: 'a.example.test', address: '::1', httpPort: 8080, httpsPort: 8443 }, 'address');
    expect(v6.httpsUrl).toBe('https://[::1]:8443');
  });

  it('one server block per origin: HTTP/1.1 keep-alive, and TLS with HTTP/2 in the syntax the nginx version takes', () => {
    const input = { dir: '/w', docroot: '/w/www', origins: [www], certPath: '/w/c.pem', keyPath: '/w/k.pem' };
    const old = renderNginxConfig({ ...input, http2Directive: supportsHttp2Directive('nginx version: nginx/1.22.1') });
    expect(old).toContain('listen 198.19.0.2:443 ssl http2;');
    expect(old).toContain('keepalive_timeout 65;');
    expect(old).toContain('add_header Timing-Allow-Origin "*" always;');
    expect(old.match(/server \{/g)).toHaveLength(1);
    const fresh = renderNginxConfig({ ...input, http2Directive: supportsHttp2Directive('nginx version: nginx/1.26.0') });
    expect(fresh).toContain('listen 198.19.0.2:443 ssl;');
    expect(fresh).toContain('http2 on;');
  });

  it('parses access-log lines', () => {
    const [e] = parseAccessLog('1700000000.123 cdn1.example.test 40001 7 3 HTTP/1.1 200 2544 0.000 "GET /pm95-2544-10/img/01.gif"\n');
    expect(e).toMatchObject({ origin: 'cdn1.example.test', port: 40001, connection: 7, connectionRequests: 3, protocol: 'HTTP/1.1', bytes: 2544, path: '/pm95-2544-10/img/01.gif' });
  });

  it('refuses bad bindings and pages whose origins are not all bound, before starting anything', async () => {
    await expect(startOrigins({ bindings: [{ origin: 'Not A Host', address: '127.0.0.1' }] })).rejects.toMatchObject({ code: 'E_BAD_BINDING' });
    await expect(startOrigins({ bindings: [{ origin: 'a.example.test', address: 'localhost' }] })).rejects.toMatchObject({ code: 'E_BAD_BINDING' });
    if (process.env.GETLIST_NGINX === '0') return;
    await expect(startOrigins({ bindings: [{ origin: ALMANAC_ORIGINS.www, address: '127.0.0.1' }], pages: ['almanac-median'] }))
      .rejects.toMatchObject({ code: 'E_ORIGIN_UNBOUND', message: expect.stringContaining('static.example.test') });
  });
});

describe('docroots for several pages at once', () => {
  const bound = new Map(Object.values(ALMANAC_ORIGINS).map((origin, i) => [origin, bindOrigin({ origin, address: `198.19.0.${i + 1}`, httpPort: 80, httpsPort: 443 }, 'name')]));

  test('both almanac pages share the ten origins without sharing a file', () => {
    const root = mkdtempSync(join(tmpdir(), 'gl-docroot-'));
    try {
      const builds = [benchPageBuild('almanac-median'), benchPageBuild('almanac-p90')];
      const files = writeDocroots(root, builds, bound);
      const perPage = builds.map((b) => 2 * (1 + b.page.resources.length));
      expect(files).toBe(perPage[0]! + perPage[1]!);
      const median = builds[0]!.page.document;
      const p90 = builds[1]!.page.document;
      expect(median.path).not.toBe(p90.path);
      expect(statSync(join(docrootOf(root, 'http', p90.origin), p90.path)).size).toBe(p90.size);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  test('two pages claiming one URL with different bytes fail with E_ORIGIN_PATH_CONFLICT', () => {
    const root = mkdtempSync(join(tmpdir(), 'gl-docroot-'));
    try {
      const a = benchPageBuild('almanac-median');
      const b = benchPageBuild('almanac-p90');
      // b's document at a's document URL, with b's (different) bytes.
      const clash = { ...b, page: { ...b.page, document: { ...b.page.document, path: a.page.document.path } },
        bodyOf: (o: string, p: string, base: (o: string) => string) => b.bodyOf(o, p === a.page.document.path ? b.page.document.path : p, base) };
      expect(() => writeDocroots(root, [a, clash], bound)).toThrow(expect.objectContaining({ code: 'E_ORIGIN_PATH_CONFLICT' }));
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
