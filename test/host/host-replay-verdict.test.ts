// A replay against an origin whose certificate the host does not trust: every request fails on
// the wire, and the popup's verdict (src/page/model/replay-verdict.ts) marks the strategy invalid
// with the certificate's reason, instead of showing a fast "total".
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { PageRecord } from '../../src/page/model/page-record';
import type { ReplayResultMessage } from '../../src/protocol';
import { replayVerdicts } from '../../src/page/model/replay-verdict';
import { testCert } from '../support/tls-cert';
import { startHttpsServer } from '../support/tls-servers';
import { SpawnedHost } from './host-harness';

test('a replay whose requests fail on an untrusted self-signed certificate is invalid, with the certificate’s reason and how to trust it', async () => {
  let served = 0;
  const server = await startHttpsServer((_req, res) => {
    served++;
    res.end('x');
  });
  const host = new SpawnedHost();
  try {
    const urls = Array.from({ length: 4 }, (_, i) => `https://localhost:${server.port}/r/${i}`);
    host.send({ type: 'schedule', id: 'v1', pageId: 'p', documentUrl: urls[0] as string, mode: 'replay', strategies: ['browser'], requests: urls.map((url, i) => ({ url, priority: 'image', resourceType: i === 0 ? 'main_frame' : 'image', discoveredAt: 0 })) });
    await host.reader.waitFor((m) => m.id === 'v1' && (m.type === 'replay-summary' || m.type === 'error'), 'the end of replay v1');
    const results = host.reader.withId('v1').filter((m): m is ReplayResultMessage => m.type === 'replay-result');
    // The server answered nothing: no TLS handshake completed, so no request reached it.
    expect(served).toBe(0);
    const page = { pageId: 'p', tabId: 1, url: urls[0], startedAt: 0, requests: [], discoveries: [], timings: [], replay: { status: 'done', startedAt: 0, strategies: ['browser'], results } } as unknown as PageRecord;
    const [verdict] = replayVerdicts(page);
    expect(verdict).toMatchObject({ strategy: 'browser', valid: false, requests: 4, failed: 4 });
    expect(verdict?.failures).toHaveLength(1);
    expect(verdict?.failures[0]?.reason).toMatch(/not trusted/);
    expect(verdict?.failures[0]?.reason).toContain('--ca FILE');
  } finally {
    await host.dispose();
    await server.close();
  }
});

test('with the server’s CA as the replay’s caFile, the same replay reaches the server and is valid; an unreadable caFile is E_CA_FILE before anything is fetched', async () => {
  let served = 0;
  const server = await startHttpsServer((_req, res) => {
    served++;
    res.end('x');
  });
  const dir = mkdtempSync(path.join(tmpdir(), 'getlist-ca-'));
  const caFile = path.join(dir, 'ca.pem');
  writeFileSync(caFile, testCert().cert);
  const host = new SpawnedHost();
  try {
    const urls = Array.from({ length: 4 }, (_, i) => `https://localhost:${server.port}/r/${i}`);
    const schedule = { type: 'schedule', pageId: 'p', documentUrl: urls[0] as string, mode: 'replay', strategies: ['browser'], requests: urls.map((url) => ({ url, priority: 'image', resourceType: 'image' })) };
    host.send({ ...schedule, id: 'c1', caFile });
    await host.reader.waitFor((m) => m.id === 'c1' && (m.type === 'replay-summary' || m.type === 'error'), 'the end of replay c1');
    const results = host.reader.withId('c1').filter((m): m is ReplayResultMessage => m.type === 'replay-result');
    expect(served).toBe(4);
    const page = { pageId: 'p', tabId: 1, url: urls[0], startedAt: 0, requests: [], discoveries: [], timings: [], replay: { status: 'done', startedAt: 0, strategies: ['browser'], results } } as unknown as PageRecord;
    expect(replayVerdicts(page)).toMatchObject([{ strategy: 'browser', valid: true, failed: 0 }]);

    host.send({ ...schedule, id: 'c2', caFile: path.join(dir, 'missing.pem') });
    const reply = await host.reader.waitFor((m) => m.id === 'c2', 'a reply to c2');
    expect(reply).toMatchObject({ type: 'error', code: 'E_CA_FILE', message: expect.stringContaining('missing.pem') });
    expect(served).toBe(4);
  } finally {
    await host.dispose();
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
