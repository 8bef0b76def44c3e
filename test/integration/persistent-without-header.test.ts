import { strategy } from '../../src/scheduler';
import { InMemoryOriginMemory } from '../../src/origins/origin-memory';
import { loadPage } from '../../native-host/run/page-loader';
import { startDelayProxy } from '../support/delay-proxy';
import { responseBytes, segmentsOf, startScriptedOrigin } from '../support/scripted-origin';

/**
 * HTTP/1.1 connections persist unless the server says otherwise (RFC 9112 §9.3): nginx says
 * `Connection: keep-alive` on every response, Go's net/http and Caddy say nothing. getlist earns
 * pipelining on behaviour, so P&M's page (a document and 20 images of 2,544 bytes) on a first
 * visit over a 50 ms round trip takes the same round trips from both: one framing probe, and
 * the origin proven.
 */

const RTT_MS = 50;
const LOADS = 3;
const IMAGES = Array.from({ length: 20 }, (_, i) => ({ path: `/pm/${i}.gif`, body: Buffer.alloc(2544, 0x41 + i) }));
const DOC = Buffer.from(`<!doctype html><title>P&amp;M</title><link rel="icon" href="data:,">\n${IMAGES.map((r) => `<img src="${r.path}" alt="">`).join('\n')}\n`);

async function firstVisits(sayKeepAlive: boolean): Promise<{ medianMs: number; probes: number[]; verdicts: Array<string | undefined> }> {
  const keep: Array<[string, string]> = sayKeepAlive ? [['Connection', 'keep-alive']] : [];
  const server = await startScriptedOrigin((req) => {
    const img = IMAGES.find((r) => r.path === req.path);
    if (req.path === '/') return segmentsOf(responseBytes(200, [['Content-Type', 'text/html'], ...keep, ['Content-Length', String(DOC.length)]], DOC));
    if (!img) return segmentsOf(responseBytes(404, [...keep, ['Content-Length', '0']], undefined, 'Not Found'));
    return segmentsOf(responseBytes(200, [['Content-Type', 'image/gif'], ...keep, ['Content-Length', String(img.body.length)]], img.body));
  });
  const proxy = await startDelayProxy(Number(new URL(server.origin).port), RTT_MS / 2, '127.0.0.1');
  try {
    const totals: number[] = [];
    const probes: number[] = [];
    const verdicts: Array<string | undefined> = [];
    for (let i = 0; i < LOADS; i++) {
      // A memory of its own per load: each a first visit, and it says what the load proved.
      const memory = new InMemoryOriginMemory();
      const run = await loadPage({ url: `http://127.0.0.1:${proxy.port}/`, strategy: strategy('getlist'), memory, timeoutMs: 15_000 });
      expect(run.requests.filter((r) => r.error !== null)).toEqual([]);
      totals.push(run.totalMs);
      probes.push(run.orderProbes);
      verdicts.push(memory.get(`http://127.0.0.1:${proxy.port}`)?.pipelining);
    }
    totals.sort((a, b) => a - b);
    return { medianMs: totals[Math.floor(LOADS / 2)] as number, probes, verdicts };
  } finally {
    await proxy.close();
    await server.close();
  }
}

test('a first visit to P&M\'s page takes the same round trips whether or not the server says `Connection: keep-alive` (within one)', async () => {
  const said = await firstVisits(true);
  const silent = await firstVisits(false);
  // Both proven by one framing probe on every load.
  expect({ said: said.probes, silent: silent.probes }).toEqual({ said: [1, 1, 1], silent: [1, 1, 1] });
  expect({ said: said.verdicts, silent: silent.verdicts }).toEqual({ said: ['good', 'good', 'good'], silent: ['good', 'good', 'good'] });
  expect({ rtts: Math.abs(silent.medianMs - said.medianMs) / RTT_MS < 1 ? 'within one' : { said: said.medianMs, silent: silent.medianMs } }).toEqual({ rtts: 'within one' });
}, 60_000);
