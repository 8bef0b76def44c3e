import type { HostMessage, ReplayResultMessage } from '../../src/protocol';
import { pageAddressSpace, privateNetworkCheck } from '../../native-host/transport/private-network';
import { eachWithHostAndOrigin, SpawnedHost } from './host-harness';
import type { TestOrigin } from './test-origin';

let host: SpawnedHost;
let origin: TestOrigin;
eachWithHostAndOrigin((h, o) => {
  host = h;
  origin = o;
});

async function replay(id: string, documentUrl: string, allowPrivateNetwork?: boolean): Promise<HostMessage[]> {
  const requests = [0, 1, 2].map((i) => ({ url: `${origin.origin}/r/${i}?size=${100 + i}`, priority: 'image' as const }));
  host.send({ type: 'schedule', id, pageId: id, documentUrl, mode: 'replay', strategies: ['browser'], requests, ...(allowPrivateNetwork !== undefined ? { allowPrivateNetwork } : {}) });
  await host.reader.waitFor((m) => m.id === id && (m.type === 'replay-summary' || m.type === 'error'), `the end of replay ${id}`);
  return host.reader.withId(id);
}

// The page is a public address literal, so nothing resolves and nothing is sent to it: only its
// list (on loopback) is replayed.
const PUBLIC_PAGE = 'http://203.0.113.7/page.html';

test('a public page may not make the host connect to loopback: every request fails with E_PRIVATE_NETWORK, nothing reaches the server', async () => {
  const messages = await replay('pna-1', PUBLIC_PAGE);
  const result = messages.find((m) => m.type === 'replay-result') as ReplayResultMessage;
  expect(result.requests.map((r) => r.error?.code)).toEqual(['E_PRIVATE_NETWORK', 'E_PRIVATE_NETWORK', 'E_PRIVATE_NETWORK']);
  expect(origin.requests).toHaveLength(0);
});

test('the user allowed it: the same list is fetched; a loopback page may always reach loopback', async () => {
  const allowed = (await replay('pna-2', PUBLIC_PAGE, true)).find((m) => m.type === 'replay-result') as ReplayResultMessage;
  expect(allowed.requests.map((r) => [r.status, r.bytes])).toEqual([[200, 100], [200, 101], [200, 102]]);
  const local = (await replay('pna-3', `${origin.origin}/page.html`)).find((m) => m.type === 'replay-result') as ReplayResultMessage;
  expect(local.requests.map((r) => r.error)).toEqual([null, null, null]); // null: no error (src/run)
});

test('page address spaces: literals, names resolving to public or private addresses, unresolvable names', async () => {
  const fake = (addrs: string[] | Error) => async () => {
    if (addrs instanceof Error) throw addrs;
    return addrs;
  };
  expect(await pageAddressSpace('http://10.0.0.1/', fake(['8.8.8.8']))).toBe('private');
  expect(await pageAddressSpace('http://[::1]:8080/')).toBe('local');
  expect(await pageAddressSpace('https://a.test/', fake(['192.168.1.2', '93.184.216.34']))).toBe('public');
  expect(await pageAddressSpace('https://a.test/', fake(['192.168.1.2']))).toBe('private');
  expect(await pageAddressSpace('https://a.test/', fake(new Error('ENOTFOUND')))).toBe('public');
  const check = await privateNetworkCheck('https://a.test/', false, fake(['192.168.1.2']));
  expect(check?.('127.0.0.1')?.message).toContain('may not make getlist connect to 127.0.0.1 (local)');
  expect(check?.('10.1.1.1')).toBeUndefined(); // private → private is allowed
  expect(check?.('1.1.1.1')).toBeUndefined();
  expect(await privateNetworkCheck('https://a.test/', true, fake(['1.1.1.1']))).toBeUndefined();
});
