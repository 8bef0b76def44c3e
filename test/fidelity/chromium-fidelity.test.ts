import fs from 'node:fs';
import path from 'node:path';
import { main } from '../../native-host/cli/main';
import { describeE2e } from '../e2e/harness/browsers';
import { TempDirs } from '../e2e/harness/temp-dirs';
import { startCatchAllOrigin, type CatchAllOrigin, type ServedRequest } from './catch-all-origin';
import { loadInChromium } from './chromium-requests';
import { compareFetches, formatFidelityTable, type FidelityRow } from './fidelity-compare';
import { FIDELITY_DIR, FIDELITY_FIXTURES, type FidelityFixture } from './fidelity-corpus';

/**
 * getlist fetches what a browser fetches. Each hand-written real-world-shaped page is
 * served behind one catch-all origin; headless Chromium loads it with JavaScript off and on, and
 * `getlist load` loads it; the server's own log (plus Chromium's CDP events) says who fetched
 * what. Recall is against Chromium with JS off (noscript-only URLs aside), precision against
 * everything Chromium fetched with JS off or on. The per-page table is printed for the notes.
 */
jest.setTimeout(600_000);

/** Hosts of Chromium's own background services; no fixture uses them. */
const CHROMIUM_SERVICE_HOST = /(^|\.)(google\.com|googleapis\.com|gvt1\.com|gstatic\.com|googleusercontent\.com)$/;

interface GetlistRun {
  requests: Array<{ url: string; bytes: number; decodedBytes: number; status: number; error?: unknown }>;
  skipped: Array<{ url: string; reason: string }>;
  orderProbes: number;
}

describeE2e('fidelity: getlist load against Chromium 156 on the real-world corpus', () => {
  const dirs = new TempDirs();
  let origin: CatchAllOrigin;
  const rows: FidelityRow[] = [];
  const bytes: Array<{ fixture: string; chromium: number; getlist: number; getlistReported: number }> = [];

  beforeAll(async () => {
    origin = await startCatchAllOrigin();
  });
  afterAll(async () => {
    await origin?.close();
    dirs.removeAll();
    if (rows.length > 0) {
      const wire = bytes.map((b) => `${b.fixture}: text bytes on the wire, getlist ${b.getlist} / Chromium ${b.chromium} = ${(b.getlist / b.chromium).toFixed(3)}`).join('\n');
      console.log(`Fidelity vs Chromium (1280×800, DPR 1)\n${formatFidelityTable(rows)}\n\n${wire}\n\n${rows.map((r) => `${r.fixture}: missed ${JSON.stringify(r.missed)} extra ${JSON.stringify(r.extra)}`).join('\n')}`);
    }
  });

  /** What the server answered while `run` ran. */
  async function served<T>(run: () => Promise<T>): Promise<{ result: T; log: ServedRequest[] }> {
    const from = origin.log.length;
    const result = await run();
    await new Promise((r) => setTimeout(r, 100));
    return { result, log: origin.log.slice(from) };
  }

  async function getlistLoad(f: FidelityFixture): Promise<GetlistRun> {
    let out = '';
    const code = await main(['load', f.url, '--json', '--strategy', 'getlist', '--insecure', '--timeout', '30000', '--connect-to', `::127.0.0.1:${origin.port}`], {
      out: (t) => {
        out += t;
      },
      err: () => undefined,
    });
    expect(code).toBe(0);
    const json = JSON.parse(out) as { runs: GetlistRun[] };
    return json.runs[0] as GetlistRun;
  }

  test.each(FIDELITY_FIXTURES.map((f) => [f.name, f] as const))('%s', async (_name, fixture) => {
    origin.serve(fixture);
    const off = await served(() => loadInChromium(fixture.url, origin.port, false, dirs));
    const on = await served(() => loadInChromium(fixture.url, origin.port, true, dirs));
    const probed = await served(() => getlistLoad(fixture));
    // The framing probe's HEADs (src/scheduler/order-probe.ts) are no fetch of the page: the run
    // counts them, and the server saw exactly as many, of URLs getlist then fetched.
    const heads = probed.log.filter((e) => e.method === 'HEAD');
    expect(heads).toHaveLength(probed.result.orderProbes);
    expect(heads.every((h) => probed.result.requests.some((r) => r.url === h.url))).toBe(true);
    const gl = { ...probed, log: probed.log.filter((e) => e.method !== 'HEAD') };

    // The witness agrees with getlist's own report: the URLs it fetched and the wire bytes of each.
    const reported = gl.result.requests.map((r) => r.url).sort();
    expect(gl.log.map((e) => e.url).sort()).toEqual(reported);
    for (const e of gl.log) expect(gl.result.requests.find((r) => r.url === e.url)?.bytes).toBe(e.wireBytes);
    expect(gl.log.every((e) => e.userAgent.startsWith('getlist/'))).toBe(true);

    // What crossed the wire (the server's log) is the reference; Chromium's own service requests
    // (update checks, sign-in, autofill — every host resolves here) are not the page's.
    const chromiumUrls = (run: typeof off) => new Set(run.log.map((e) => e.url).filter((u) => !CHROMIUM_SERVICE_HOST.test(new URL(u).hostname)));
    // CDP agrees: every page request Chromium reports sending reached the server.
    for (const u of off.result.requested) if (!CHROMIUM_SERVICE_HOST.test(new URL(u).hostname)) expect(chromiumUrls(off)).toContain(u);
    const html = fs.readFileSync(path.join(FIDELITY_DIR, fixture.name, 'index.html'), 'latin1');
    const noscript = [...html.matchAll(/<noscript>([\s\S]*?)<\/noscript>/gi)].map((m) => m[1]).join('\n');
    const row = compareFetches({ fixture: fixture.name, documentUrl: new URL(fixture.url).href, off: chromiumUrls(off), on: chromiumUrls(on), getlist: reported, noscript });
    rows.push(row);

    const text = (log: ServedRequest[]) => log.filter((e) => e.encoding !== undefined || /\.(css|js|html)$|load\.php|\/$/.test(new URL(e.url).pathname)).reduce((a, e) => a + e.wireBytes, 0);
    bytes.push({ fixture: fixture.name, chromium: text(on.log), getlist: text(gl.log), getlistReported: gl.result.requests.reduce((a, r) => a + r.bytes, 0) });

    expect(row.recall).toBeGreaterThanOrEqual(0.9);
    expect(row.precision).toBeGreaterThanOrEqual(0.9);
  });

  test('means meet the goals: recall ≥ 0.98 (JS off), precision ≥ 0.95 (JS off ∪ on)', () => {
    expect(rows).toHaveLength(FIDELITY_FIXTURES.length);
    const mean = (f: (r: FidelityRow) => number) => rows.reduce((a, r) => a + f(r), 0) / rows.length;
    expect(mean((r) => r.recall)).toBeGreaterThanOrEqual(0.98);
    expect(mean((r) => r.precision)).toBeGreaterThanOrEqual(0.95);
  });
});
