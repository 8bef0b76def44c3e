import type { ReplayResultMessage } from '../../src/protocol';
import { eachWithHostAndOrigin, SpawnedHost } from './host-harness';
import type { TestOrigin } from './test-origin';

let host: SpawnedHost;
let origin: TestOrigin;
eachWithHostAndOrigin((h, o) => {
  host = h;
  origin = o;
});

test('a replay with a host mapping reaches a local origin under the site\'s own name (Host header), without DNS', async () => {
  // `.invalid` never resolves (RFC 6761): only the mapping can make this replay reach anything.
  const site = `http://dev-site.invalid:${origin.port}`;
  const paths = ['/', '/app.css?size=300', '/logo.png?size=2000'];
  host.send({
    type: 'schedule', id: 'm1', pageId: 'p', documentUrl: `${site}/`, mode: 'replay', strategies: ['browser'],
    hostMappings: [`other.invalid:${origin.port}:127.0.0.2`, `dev-site.invalid:${origin.port}:127.0.0.1`],
    requests: paths.map((p, i) => ({ url: `${site}${p}`, priority: i === 0 ? 'document' : 'image', discoveredAt: i })),
  });
  await host.reader.waitFor((m) => m.id === 'm1' && (m.type === 'replay-summary' || m.type === 'error'), 'the replay');
  const [result] = host.reader.withId('m1');
  expect(result?.type).toBe('replay-result');
  const r = result as ReplayResultMessage;
  expect(r.requests.map((q) => [q.url, q.status, q.bytes])).toEqual(paths.map((p) => [`${site}${p}`, 200, Number(new URL(p, site).searchParams.get('size') ?? 0)]));
  // The server saw each request once, addressed to the mapped name.
  expect(origin.requests.map((q) => q.url).sort()).toEqual([...paths].sort());
  expect(new Set(origin.requests.map((q) => q.headers.host))).toEqual(new Set([`dev-site.invalid:${origin.port}`]));
});

test('a malformed mapping is refused before anything is fetched', async () => {
  host.send({
    type: 'schedule', id: 'm3', pageId: 'p', documentUrl: `${origin.origin}/`, mode: 'replay', strategies: ['browser'],
    hostMappings: ['dev-site.invalid:80:localhost'], requests: [{ url: `${origin.origin}/`, priority: 'document' }],
  });
  const reply = await host.reader.waitFor((m) => m.id === 'm3', 'the reply');
  expect(reply).toMatchObject({ type: 'error', code: 'E_INVALID_FIELD' });
  expect(origin.requests).toHaveLength(0);
});
