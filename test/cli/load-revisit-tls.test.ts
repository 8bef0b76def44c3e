import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { main } from '../../native-host/cli/main';
import type { RunJson } from '../../src/run';
import { testCert } from '../support/tls-cert';
import { startHttpsServer, type TestServer } from '../support/tls-servers';
import type https from 'node:https';

const IMAGES = ['/a.png', '/b.png', '/c.png'];
const PAGE = `<!doctype html><title>t</title>${IMAGES.map((p) => `<img src="${p}">`).join('')}`;

/** The page and its images, each request logged with the client port of the connection it came on. */
function site(log: Array<{ path: string; port: number | undefined }>) {
  return (req: { url?: string; socket: { remotePort?: number } }, res: { setHeader(k: string, v: string): unknown; end(b: string | Buffer): unknown }) => {
    const p = req.url ?? '/';
    log.push({ path: p, port: req.socket.remotePort });
    res.setHeader('content-type', p.endsWith('.html') ? 'text/html' : 'image/png');
    res.end(p.endsWith('.html') ? PAGE : Buffer.alloc(600, 1));
  };
}

function capture() {
  let out = '';
  return { io: { out: (s: string) => void (out += s), err: () => undefined }, out: () => out };
}

describe('getlist load --revisit resumes TLS as a returning visitor\'s browser does', () => {
  let dir: string;
  let caFile: string;
  let server: TestServer<https.Server>;
  const log: Array<{ path: string; port: number | undefined }> = [];
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'getlist-revisit-tls-'));
    caFile = path.join(dir, 'ca.pem');
    writeFileSync(caFile, testCert().cert);
    server = await startHttpsServer(site(log));
  });
  afterAll(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(() => {
    log.length = 0;
    server.tls.length = 0;
  });

  /** Whether the server saw the connection from this client port resume a session. */
  const resumedAt = (port: number | undefined) => server.tls.find((t) => t.remotePort === port)?.resumed;

  async function load(...flags: string[]): Promise<RunJson[]> {
    const c = capture();
    const url = `https://localhost:${server.port}/page.html`;
    expect(await main(['load', url, '--strategy', 'browser,getlist', '--ca', caFile, '--json', ...flags], c.io)).toBe(0);
    return (JSON.parse(c.out()) as { runs: RunJson[] }).runs;
  }

  test('every measured connection resumes, and the server agrees; each strategy\'s first load starts from no session', async () => {
    const runs = await load('--revisit', '--repeat', '2');
    expect(runs).toHaveLength(4);
    // A connection that carried no request sends its TLS Finished as it closes, at the load's end
    // (native-host/transport/finished-hold.ts): the server completes that handshake a moment later.
    const ports = runs.flatMap((r) => r.handshakes.map((h) => h.localPort));
    for (let i = 0; i < 100 && ports.some((p) => resumedAt(p) === undefined); i++) await new Promise((r) => setTimeout(r, 10));
    for (const run of runs) {
      expect(run.requests.every((r) => r.status === 200)).toBe(true);
      expect(run.handshakes.length).toBeGreaterThan(0);
      expect(run.handshakes.map((h) => h.resumed)).toEqual(run.handshakes.map(() => true));
      expect(run.handshakes.map((h) => resumedAt(h.localPort))).toEqual(run.handshakes.map(() => true));
    }
    // The document's four earlier fetches are the unmeasured loads, browser's then getlist's: each
    // came on a full handshake, so no strategy resumed a session another strategy was given.
    const documents = log.filter((l) => l.path === '/page.html');
    expect(documents).toHaveLength(6);
    expect(documents.slice(0, 2).map((d) => resumedAt(d.port))).toEqual([false, false]);
  });

  test('without --revisit every run is a first visit: its document comes on a full handshake', async () => {
    const runs = await load('--repeat', '2');
    expect(runs).toHaveLength(4);
    const documents = log.filter((l) => l.path === '/page.html');
    expect(documents.map((d) => resumedAt(d.port))).toEqual([false, false, false, false]);
    for (const run of runs) {
      const doc = run.requests.find((r) => r.url.endsWith('/page.html'));
      expect(run.handshakes.find((h) => h.connectionId === doc?.connectionId)?.resumed).toBe(false);
    }
  });
});
