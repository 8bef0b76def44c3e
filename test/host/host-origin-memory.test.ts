import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { runHost } from '../../native-host/host/host';
import { storeDirIn } from '../../native-host/store/data-dir';
import { openStore, type LmdbStore } from '../../native-host/store/lmdb-store';
import type { HostMessage } from '../../src/protocol';
import { bodyFor, startRawServer, type WireRequest } from '../support/raw-http-server';
import { FrameReader } from './frame-reader';
import { frame } from './host-harness';

/** `runHost` in process on a real store (LMDB in a temporary data dir). */
function startHost(store: LmdbStore) {
  const stdin = new PassThrough();
  const reader = new FrameReader();
  let log = '';
  const stdout = new Writable({ write: (chunk: Buffer, _enc, cb) => (reader.push(chunk), cb()) });
  const stderr = new Writable({ write: (chunk: Buffer, _enc, cb) => ((log += chunk.toString()), cb()) });
  const exited = runHost({ stdin, stdout, stderr, hostVersion: '9.9.9', store });
  const replay = async (id: string, documentUrl: string, urls: readonly string[]) => {
    const requests = urls.map((url) => (url.endsWith('.css') ? { url, priority: 'blocking', resourceType: 'stylesheet' } : { url, priority: 'image', resourceType: 'image' }));
    stdin.write(frame(JSON.stringify({ id, type: 'schedule', pageId: id, documentUrl, mode: 'replay', strategies: ['getlist'], requests })));
    return (await reader.waitFor((m) => m.id === id && m.type === 'replay-result', `replay ${id}`)) as Extract<HostMessage, { type: 'replay-result' }>;
  };
  const stop = async () => {
    stdin.end();
    expect(await exited).toBe(0);
    expect(reader.violations).toEqual([]);
  };
  return { replay, stop, log: () => log };
}

const IMAGES = 24;
/** The server closes each connection after this many responses (nginx's `keepalive_requests`). */
const BUDGET = 5;

/** Deepest pipeline on the wire: requests on one connection that arrived before any response on it was written. */
function unansweredDepth(reqs: readonly WireRequest[]): number {
  const perConn = new Map<number, number>();
  for (const r of reqs) if (r.responsesSentBefore === 0) perConn.set(r.connection, (perConn.get(r.connection) ?? 0) + 1);
  return Math.max(0, ...perConn.values());
}

/**
 * When the server first answered a request that arrived behind an unanswered one on its connection:
 * no proof of order (docs/scheduler.md, pipelining's probe) can reach the client before it. Once one
 * has, a connection still waiting for its first answer may take full depth: the origin is proven.
 */
function firstPipelinedAnswer(reqs: readonly WireRequest[]): number {
  let first = Infinity;
  for (const r of reqs) if (r.responsesSentBefore < r.index && r.answeredAt !== undefined) first = Math.min(first, r.answeredAt);
  return first;
}

let dataDir: string;
beforeEach(() => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'getlist-memory-'));
});
afterEach(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

test('a second getlist replay of a page starts from what the first learned, across a host restart: full-depth pipelining from the first request, within the learned request budget', async () => {
  const server = await startRawServer((req) => {
    const last = req.index === BUDGET - 1;
    const css = req.path.endsWith('.css');
    const type = css ? 'text/css' : 'image/gif';
    // The stylesheet is answered last, so images can be pipelined behind it before it begins.
    return { body: bodyFor(req.path, 2_544), delayMs: css ? 120 : 20, closeAfter: last, headers: { 'content-type': type, ...(last ? { connection: 'close' } : {}) } };
  });
  const doc = `${server.origin}/page.html`;
  // A stylesheet beside the images: an image pipelined behind it and answered in order proves the
  // origin keeps order (a swap would contradict a Content-Type); images alone never can.
  const urls = [`${server.origin}/s.css`, ...Array.from({ length: IMAGES }, (_, i) => `${server.origin}/i${i}.gif`)];
  let store = await openStore({ dir: storeDirIn(dataDir) });
  try {
    let host = startHost(store);
    const first = await host.replay('r1', doc, urls);
    expect(first.requests.filter((r) => r.error)).toEqual([]);
    const firstWire = server.requests.splice(0);
    const second = await host.replay('r2', doc, urls);
    expect(second.requests.filter((r) => r.error)).toEqual([]);
    const secondWire = server.requests.splice(0);
    await host.stop();
    await store.close();

    // Restart: a new store handle and a new host start from what is on disk.
    store = await openStore({ dir: storeDirIn(dataDir) });
    const facts = [];
    for await (const f of store.originFacts(server.origin)) facts.push(f);
    expect(facts).toEqual([expect.objectContaining({ origin: server.origin, pipelining: 'good', protocol: 'http/1.1', requestBudget: BUDGET })]);
    const pages = [];
    for await (const p of store.pageOrigins(doc)) pages.push(p);
    expect(pages).toEqual([expect.objectContaining({ url: doc, origins: [{ origin: server.origin, requests: urls.length }] })]);
    host = startHost(store);
    const third = await host.replay('r3', doc, urls);
    expect(third.requests.filter((r) => r.error)).toEqual([]);
    const thirdWire = server.requests.splice(0);
    await host.stop();

    // First visit: until the origin has answered a pipelined request, the probe sends at most 2
    // before the first answer on a connection.
    const proven = firstPipelinedAnswer(firstWire);
    expect(proven).toBeLessThan(Infinity);
    expect(unansweredDepth(firstWire.filter((r) => r.at < proven))).toBeLessThanOrEqual(2);
    // Revisits: a connection is filled to the learned budget before its first answer, never past it.
    for (const wire of [secondWire, thirdWire]) {
      expect(unansweredDepth(wire)).toBe(BUDGET);
      expect(Math.max(...wire.map((r) => r.index))).toBe(BUDGET - 1);
    }
  } finally {
    await store.close();
    await server.close();
  }
});
