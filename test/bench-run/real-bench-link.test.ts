/**
 * One real-shaped cell end to end (bench/real/real-bench.ts): real-small on a 20 ms link, loaded
 * once by getlist's `h2` strategy, by real Chromium and by real Chromium with HTTP/2 off
 * (`chromium-h1`), each checked against what nginx logged during that load. Root only.
 */
import { join } from 'node:path';
import { runRealLink } from '../../bench/real/real-bench';
import { describeBrowserCell } from '../bench-link/netns-gate';

const root = join(__dirname, '..', '..');
const cliPath = join(root, 'bin', 'getlist.js');

describeBrowserCell(root, 'real bench: one real-shaped cell on a real link', () => {
  test('chromium-h1 is served over HTTP/1.1 only and chromium over h2; every contender fetches the page once, as the server logs it', async () => {
    const [cell] = await runRealLink(
      { name: 'real-20', rttMs: 20, capBitsPerSec: undefined },
      [{ page: 'real-small', contenders: ['h2', 'chromium', 'chromium-h1'] }],
      1, cliPath, 30_000, () => undefined,
    );
    expect(cell?.errors).toEqual({ h2: [], chromium: [], 'chromium-h1': [] });
    expect(cell?.requests).toBe(12);
    for (const c of ['h2', 'chromium', 'chromium-h1']) {
      // Every request of the page, each once (the favicon aside).
      expect(cell?.server[c]?.[0]?.requests).toBe(12);
      // Twelve requests over two https origins take more than four round trips.
      expect(cell?.runs[c]?.[0]).toBeGreaterThan(4 * 20);
    }
    expect(cell?.server.h2?.[0]?.protocols).toEqual(['HTTP/2.0']);
    expect(cell?.server.chromium?.[0]?.protocols).toEqual(['HTTP/2.0']);
    expect(cell?.server['chromium-h1']?.[0]?.protocols).toEqual(['HTTP/1.1']);
    // Chromium's own account (CDP) agrees with the server's: how many connections carried a request
    // and the protocol of each. (h2 still takes three: the font service's style sheet and its font
    // go on separate connections, one with credentials and one without.)
    for (const c of ['chromium', 'chromium-h1']) {
      const trace = cell?.traces[c]?.[0];
      const used = new Set(trace?.requests.filter((r) => !r.url.endsWith('/favicon.ico')).map((r) => r.connection));
      expect(used.size).toBe(cell?.server[c]?.[0]?.connections);
      expect(new Set(trace?.connections.filter((k) => used.has(k.id)).map((k) => k.protocol))).toEqual(new Set([c === 'chromium' ? 'h2' : 'http/1.1']));
    }
    // Over HTTP/1.1 the six images of one origin go out on more than one connection per origin.
    expect(cell?.server['chromium-h1']?.[0]?.connections).toBeGreaterThan(3);
  }, 60_000);
});
