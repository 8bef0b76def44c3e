import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { main } from '../../native-host/cli/main';
import { bodyFor, startRawServer } from '../support/raw-http-server';

async function run(argv: string[]) {
  let out = '';
  let err = '';
  const code = await main(argv, { out: (s: string) => void (out += s), err: (s: string) => void (err += s) });
  return { code, out, err };
}

const IMAGES = 60;
/** The server closes each connection after this many responses (nginx's `keepalive_requests`). */
const BUDGET = 4;
const html = Buffer.from(`<!DOCTYPE html><html><body>${Array.from({ length: IMAGES }, (_, i) => `<img src="/i${i}.gif">`).join('')}</body></html>`);

let tmp: string;
beforeEach(() => {
  tmp = mkdtempSync(path.join(os.tmpdir(), 'getlist-cli-memory-'));
});
afterEach(() => {
  rmSync(tmp, { recursive: true, force: true });
});

test('load --record stores what the load learned, `origins` shows it as the server behaved; a plain load leaves it alone, --memory store writes back', async () => {
  const server = await startRawServer((req) => {
    const last = req.index === BUDGET - 1;
    const base = req.path === '/' ? { body: html, headers: { 'content-type': 'text/html' } } : { body: bodyFor(req.path, 2_544), headers: {} as Record<string, string> };
    return { ...base, delayMs: 10, closeAfter: last, headers: { ...base.headers, ...(last ? { connection: 'close' } : {}) } };
  });
  const url = `${server.origin}/`;
  const dataDir = path.join(tmp, 'data');
  const load = async (...extra: string[]) => {
    const r = await run(['load', url, '--strategy', 'getlist', '--json', ...extra]);
    expect(r).toMatchObject({ code: 0 });
    expect(JSON.parse(r.out).runs[0].errors).toBe(0);
    return server.requests.splice(0);
  };
  try {
    const plain = await load();
    expect(existsSync(dataDir)).toBe(false);
    const recorded = await load('--record', '--data-dir', dataDir);

    const listed = await run(['origins', '--data-dir', dataDir, '--json']);
    expect(listed.code).toBe(0);
    const facts = JSON.parse(listed.out);
    // What the server did: HTTP/1.1, and a close after BUDGET responses on every connection of the load.
    expect(facts).toEqual([expect.objectContaining({ origin: server.origin, protocol: 'http/1.1', requestBudget: BUDGET })]);
    // Requests written past a budget not yet known reach the server unanswered (see below).
    expect(Math.max(...recorded.filter((r) => r.index < BUDGET).map((r) => r.index))).toBe(BUDGET - 1);
    expect(new Set(recorded.filter((r) => r.method === 'GET' && r.index < BUDGET).map((r) => r.path)).size).toBe(IMAGES + 2);
    expect(new Set(recorded.map((r) => r.connection)).size).toBeGreaterThanOrEqual(Math.ceil((IMAGES + 2) / BUDGET));
    const table = await run(['origins', '--data-dir', dataDir]);
    // Pipelining's column reads `bad until …` when the first visit pipelined past the budget before
    // learning it: the server's `Connection: close` then came with requests behind it.
    expect(table.out).toMatch(new RegExp(`^${server.origin.replace(/\./g, '\\.')}\\s+\\S+Z\\s+http/1\\.1\\s+(?:bad until \\S+|\\S+)\\s+${BUDGET}\\s`, 'm'));

    // A plain load stays a first visit and leaves the store alone; --memory store reads it and writes back.
    await load();
    expect(JSON.parse((await run(['origins', '--data-dir', dataDir, '--json'])).out)).toEqual(facts);
    const remembered = await load('--memory', 'store', '--data-dir', dataDir);
    const after = JSON.parse((await run(['origins', '--data-dir', dataDir, '--json'])).out);
    expect(after).toEqual([expect.objectContaining({ origin: server.origin, protocol: 'http/1.1', requestBudget: BUDGET })]);
    expect(after[0].lastSeen).toBeGreaterThan(facts[0].lastSeen);
    // The page's requests (the framing probe's HEAD aside, order-probe.ts). A first visit pipelines
    // into a budget it does not know yet: a request written past a connection's budget is never
    // answered and is sent again elsewhere (RFC 9112 §9.3.2), so each is answered exactly once.
    const answered = (reqs: typeof plain) => reqs.filter((r) => r.method === 'GET' && r.index < BUDGET).map((r) => r.path);
    expect(answered(plain).length).toBe(IMAGES + 2);
    expect(new Set(answered(plain)).size).toBe(IMAGES + 2);
    // With the budget remembered, no connection is written past it: every request is sent once.
    expect(remembered.filter((r) => r.method === 'GET').length).toBe(IMAGES + 2);
  } finally {
    await server.close();
  }
});
