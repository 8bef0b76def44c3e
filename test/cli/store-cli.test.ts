import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { main } from '../../native-host/cli/main';
import { getPage } from '../../native-host/demo/corpus';
import { startDemoServer } from '../../native-host/demo/demo-server';
import { storeDirIn } from '../../native-host/store/data-dir';
import { openStore } from '../../native-host/store/lmdb-store';
import type { PageSummary, StoredHandshake } from '../../native-host/store/store-types';

const DAY = 86_400_000;

function capture() {
  let out = '';
  let err = '';
  return { io: { out: (s: string) => void (out += s), err: (s: string) => void (err += s) }, out: () => out, err: () => err };
}

async function run(argv: string[]) {
  const c = capture();
  const code = await main(argv, c.io);
  return { code, out: c.out(), err: c.err() };
}

// Ages relative to now, since the store enforces its 90-day retention on open.
const now = Date.now();
function hs(n: number, origin: string, daysAgo: number): StoredHandshake {
  const https = origin.startsWith('https:');
  return {
    connectionId: n, origin, startedAt: now - daysAgo * DAY, dnsMs: 2, tcpMs: 10 + n, tlsMs: https ? 30 + n : 0, totalMs: (https ? 42 : 12) + 2 * n,
    remoteAddress: '192.0.2.7', remotePort: https ? 443 : 80, localPort: 40000 + n, protocol: https && n % 2 === 0 ? 'h2' : 'http/1.1',
    tlsVersion: https ? 'TLSv1.3' : undefined, resumed: https && n % 3 === 0, source: 'measure', pageUrl: `${origin}/`,
  };
}

let tmp: string;
let dataDir: string;
beforeEach(async () => {
  tmp = mkdtempSync(path.join(os.tmpdir(), 'getlist-cli-store-'));
  dataDir = path.join(tmp, 'data');
  const store = await openStore({ dir: storeDirIn(dataDir) });
  // 12 recent records on two origins, 4 from 30 days ago.
  await store.addHandshakes([
    ...Array.from({ length: 8 }, (_, i) => hs(i, 'https://a.test', 1)),
    ...Array.from({ length: 4 }, (_, i) => hs(8 + i, 'http://b.test:8080', 2)),
    ...Array.from({ length: 4 }, (_, i) => hs(12 + i, 'https://a.test', 30)),
  ]);
  const summary: PageSummary = {
    pageId: 'pg1', url: 'https://a.test/', strategy: 'getlist', mode: 'measure', at: now - DAY, totalMs: 321, meanTtfbMs: 99,
    connectionsOpened: 3, requestsPerConnection: 4, requests: 12, bytes: 4096, errors: 0, handshakeP50Ms: null, handshakeP90Ms: null,
  };
  await store.addPageSummaries([summary]);
  await store.close();
});
afterEach(() => rmSync(tmp, { recursive: true, force: true }));

describe('getlist stats', () => {
  test('prints the percentile tables and the CDF for every phase', async () => {
    const r = await run(['stats', '--data-dir', dataDir]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^16 handshakes in .*handshakes \(all time\)/);
    for (const phase of ['dns', 'tcp', 'tls', 'total']) expect(r.out).toMatch(new RegExp(`^${phase}\\s+\\d+\\s`, 'm'));
    expect(r.out).toMatch(/^full\s+tls\s+\d+/m);
    expect(r.out).toMatch(/^resumed\s+total\s+\d+/m);
    expect(r.out).toMatch(/^h2\s+\d+/m);
    expect(r.out).toMatch(/^https:\/\/a\.test\s+12\s/m);
    expect(r.out).toMatch(/^total \(n=16, ms\)$/m);
    expect(r.out).toMatch(/p100 █+\s+\d/);
  });

  test('--json, --origin and --since select what is aggregated', async () => {
    const all = JSON.parse((await run(['stats', '--data-dir', dataDir, '--json'])).out);
    expect(all.count).toBe(16);
    const group = (doc: { groups: Array<{ group: string; key: string; count: number }> }, g: string, k: string) => doc.groups.find((x) => x.group === g && x.key === k)?.count;
    expect(group(all, 'origin', 'http://b.test:8080')).toBe(4);
    const recent = JSON.parse((await run(['stats', '--data-dir', dataDir, '--json', '--since', '7d'])).out);
    expect(recent.count).toBe(12);
    const old = JSON.parse((await run(['stats', '--data-dir', dataDir, '--json', '--until', '7d'])).out);
    expect(old.count).toBe(4);
    const a = JSON.parse((await run(['stats', '--data-dir', dataDir, '--json', '--origin', 'https://a.test/any/path', '--since', new Date(now - 10 * DAY).toISOString()])).out);
    expect(a.count).toBe(8);
    expect(a.query.origin).toBe('https://a.test');
  });

  test('with no store yet it reports 0 handshakes and creates nothing', async () => {
    const empty = path.join(tmp, 'nothing-here');
    const r = await run(['stats', '--data-dir', empty]);
    expect(r).toMatchObject({ code: 0, out: expect.stringMatching(/^0 handshakes in /) });
    expect(existsSync(empty)).toBe(false);
  });
});

describe('getlist export', () => {
  test('csv to stdout: the header, then CDF rows', async () => {
    const r = await run(['export', '--format', 'csv', '--data-dir', dataDir]);
    expect(r.code).toBe(0);
    const lines = r.out.split('\r\n');
    expect(lines[0]).toBe('group,key,phase,ms,cdf,count');
    expect(lines).toContain(`all,*,total,${42 + 2 * 15},1,16`);
  });

  test('prom --out FILE: written atomically with mode 0600, nothing on stdout, no temp file left', async () => {
    const out = path.join(tmp, 'exports', 'hs.prom');
    mkdirSync(path.dirname(out));
    writeFileSync(out, 'old contents');
    const r = await run(['export', '--format', 'prom', '--out', out, '--data-dir', dataDir]);
    expect(r).toMatchObject({ code: 0, out: '' });
    expect(r.err).toContain('16 handshakes as prom');
    const text = readFileSync(out, 'utf8');
    expect(text).toMatch(/^# HELP getlist_handshake_duration_seconds /);
    expect(text).toContain('getlist_handshake_duration_seconds_count{phase="total",origin="http://b.test:8080",protocol="http/1.1",tls="none",source="host"} 4\n');
    expect(statSync(out).mode & 0o777).toBe(0o600);
    expect(readdirSync(path.dirname(out))).toEqual(['hs.prom']);
  });

  test('json: the aggregation plus the page summaries, filtered like the handshakes', async () => {
    const doc = JSON.parse((await run(['export', '--format', 'json', '--data-dir', dataDir, '--origin', 'https://a.test'])).out);
    expect(doc).toMatchObject({ format: 'getlist-handshake-stats', count: 12, query: { origin: 'https://a.test', since: null } });
    expect(doc.pages.map((p: { pageId: string }) => p.pageId)).toEqual(['pg1']);
    const other = JSON.parse((await run(['export', '--format', 'json', '--data-dir', dataDir, '--origin', 'http://b.test:8080'])).out);
    expect(other.pages).toEqual([]);
  });
});

describe('bad input', () => {
  test.each([
    [['export', '--format', 'xml'], 'E_USAGE', 2],
    [['export'], 'E_USAGE', 2],
    [['export', '--format', 'csv', '--since', 'last tuesday'], 'E_USAGE', 2],
    [['stats', '--since', '7x'], 'E_USAGE', 2],
    [['stats', '--since', '2025-13-45'], 'E_USAGE', 2],
    [['stats', '--since', '1d', '--until', '2d'], 'E_USAGE', 2],
    [['stats', '--origin', 'a.test'], 'E_USAGE', 2],
    [['stats', '--origin', 'ftp://a.test'], 'E_USAGE', 2],
    [['stats', 'extra'], 'E_USAGE', 2],
  ])('%j fails with %s, exit %d', async (argv, code, exit) => {
    const r = await run([...argv, '--data-dir', dataDir]);
    expect(r.code).toBe(exit);
    expect(r.err).toMatch(new RegExp(`^getlist: ${code}: `));
    expect(r.out).toBe('');
  });

  test('an --out in a folder that cannot exist is E_EXPORT_WRITE, exit 1, naming the file', async () => {
    const blocker = path.join(tmp, 'a-file');
    writeFileSync(blocker, 'x');
    const out = path.join(blocker, 'hs.csv');
    const r = await run(['export', '--format', 'csv', '--out', out, '--data-dir', dataDir]);
    expect(r).toMatchObject({ code: 1, out: '' });
    expect(r.err).toMatch(/^getlist: E_EXPORT_WRITE: cannot write .*a-file\/hs\.csv \(ENOTDIR\)/);
 
    // A folder where the file should go: the rename fails, and the temporary file is cleaned up.
    const folder = path.join(tmp, 'taken');
    mkdirSync(folder);
    const r2 = await run(['export', '--format', 'csv', '--out', folder, '--data-dir', dataDir]);
    expect(r2).toMatchObject({ code: 1, out: '', err: expect.stringMatching(/^getlist: E_EXPORT_WRITE: cannot write .*taken \(EISDIR\)/) });
    expect(readdirSync(tmp).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  test('an --out that is a FIFO, a socket or a link to a device is E_EXPORT_WRITE, and stays what it was', async () => {
    const fifo = path.join(tmp, 'fifo');
    execFileSync('mkfifo', [fifo]);
    const socketPath = path.join(tmp, 'sock');
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(socketPath, resolve));
    const devLink = path.join(tmp, 'null-link');
    symlinkSync('/dev/null', devLink);
    try {
      for (const [out, kind] of [[fifo, 'a FIFO \\(named pipe\\)'], [socketPath, 'a socket'], [devLink, 'a character device']] as const) {
        const r = await run(['export', '--format', 'csv', '--out', out, '--data-dir', dataDir]);
        expect(r).toMatchObject({ code: 1, out: '', err: expect.stringMatching(new RegExp(`^getlist: E_EXPORT_WRITE: cannot write ${out}: it is ${kind}, not a regular file`)) });
      }
      expect(statSync(fifo).isFIFO()).toBe(true);
      expect(statSync(socketPath).isSocket()).toBe(true);
      expect(lstatSync(devLink).isSymbolicLink()).toBe(true);
      expect(readdirSync(tmp).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  test('a store held open by another handle (a host) does not block stats: both see the same records', async () => {
    const holder = await openStore({ dir: storeDirIn(dataDir) });
    try {
      await holder.addHandshakes([hs(99, 'https://held.test', 0)]);
      await holder.flush();
      const r = await run(['stats', '--data-dir', dataDir, '--json']);
      expect(r.code).toBe(0);
      expect(JSON.parse(r.out).count).toBe(17);
    } finally {
      await holder.close();
    }
  });
});

describe('getlist origins and forget', () => {
  const facts = [
    { origin: 'https://a.test', lastSeen: now - DAY, protocol: 'h2' as const, pipelining: 'good' as const, requestBudget: 100, maxConcurrentStreams: 128, rttMs: 42, rateBytesPerMs: 1250, connectionCap: 4, peakBytesPerMs: 2400.4 },
    { origin: 'http://b.test:8080', lastSeen: now - 2 * DAY, pipelining: 'bad' as const, pipeliningBadUntil: now + DAY, rateBytesPerMs: null, peakBytesPerMs: 900.6, peakHeld: false },
  ];
  beforeEach(async () => {
    const store = await openStore({ dir: storeDirIn(dataDir) });
    await store.putOriginFacts(facts);
    await store.close();
  });

  test('origins lists what was learned per origin, as a table and as JSON', async () => {
    const table = await run(['origins', '--data-dir', dataDir]);
    expect(table.code).toBe(0);
    expect(table.out).toMatch(/^2 origins in /);
    expect(table.out).toMatch(/^https:\/\/a\.test\s+\S+Z\s+h2\s+good\s+100\s+128\s+42\s+1250\s+4\s+2400$/m);
    expect(table.out).toMatch(new RegExp(`^http://b\\.test:8080\\s+\\S+Z\\s+–\\s+bad until ${new Date(now + DAY).toISOString()}\\s+–\\s+–\\s+–\\s+uncapped\\s+–\\s+≥ 901$`, 'm'));
    const json = JSON.parse((await run(['origins', '--data-dir', dataDir, '--json'])).out);
    expect(json).toEqual([facts[1], facts[0]]); // Key order: http: before https:.
    const one = JSON.parse((await run(['origins', '--data-dir', dataDir, '--json', '--origin', 'https://a.test/x'])).out);
    expect(one).toEqual([facts[0]]);
  });

  test('forget --origin removes the origin\'s records and facts, and nothing else; forget --all removes the rest', async () => {
    const r = await run(['forget', '--origin', 'https://a.test', '--data-dir', dataDir]);
    expect(r).toMatchObject({ code: 0, out: expect.stringMatching(/^forgot 13 records of https:\/\/a\.test in /) }); // 12 handshakes + 1 page.
    expect(JSON.parse((await run(['origins', '--data-dir', dataDir, '--json'])).out)).toEqual([facts[1]]);
    expect(JSON.parse((await run(['stats', '--data-dir', dataDir, '--json'])).out).count).toBe(4);
    expect((await run(['forget', '--all', '--data-dir', dataDir])).out).toMatch(/^forgot 4 records in /);
    expect(JSON.parse((await run(['origins', '--data-dir', dataDir, '--json'])).out)).toEqual([]);
  });

  test.each([[['forget']], [['forget', '--all', '--origin', 'https://a.test']], [['forget', '--origin', 'a.test']], [['metrics', '--listen', 'nowhere']]])('%j is E_USAGE', async (argv) => {
    const r = await run([...argv, '--data-dir', dataDir]);
    expect(r).toMatchObject({ code: 2, out: '', err: expect.stringMatching(/^getlist: E_USAGE: /) });
  });

  test('--help lists every option with its default', async () => {
    for (const [cmd, options] of [['forget', ['--all', '--origin', '--data-dir']], ['origins', ['--origin', '--json', '--data-dir']], ['metrics', ['--listen', '--since', '--data-dir']]] as const) {
      const help = (await run([cmd, '--help'])).out;
      for (const o of options) expect(help).toMatch(new RegExp(`^  ${o}\\b.*\\n?(.*\\n)*?.*\\(default`, 'm'));
    }
  });
});

describe('load --record', () => {
  test('saves the handshakes with source "cli" only when asked', async () => {
    const demo = await startDemoServer();
    try {
      const url = `${demo.origin}${getPage('pm95').path}`;
      const fresh = path.join(tmp, 'fresh');
      const plain = await run(['load', url, '--strategy', 'getlist', '--json']);
      expect(plain.code).toBe(0);
      expect(await run(['load', url, '--data-dir', fresh])).toMatchObject({ code: 2, err: expect.stringContaining('E_USAGE: --data-dir only applies with --record') });
      expect(existsSync(fresh)).toBe(false);

      const rec = await run(['load', url, '--strategy', 'getlist,http10', '--json', '--record', '--data-dir', fresh]);
      expect(rec.code).toBe(0);
      const opened = JSON.parse(rec.out).runs.reduce((a: number, r: { connectionsOpened: number }) => a + r.connectionsOpened, 0);
      const store = await openStore({ dir: storeDirIn(fresh) });
      const got: StoredHandshake[] = [];
      for await (const h of store.handshakes()) got.push(h);
      await store.close();
      expect(got).toHaveLength(opened);
      expect(got.every((h) => h.source === 'cli' && h.pageUrl === url && h.origin === demo.origin)).toBe(true);
    } finally {
      await demo.close();
    }
  });
});
