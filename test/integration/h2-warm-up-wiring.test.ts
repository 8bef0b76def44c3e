import http2 from 'node:http2';
import { strategy } from '../../src/scheduler';
import { runList } from '../support/run-list';
import { testCert } from '../support/tls-cert';
import { startHttp2Server, startHttpServer } from '../support/tls-servers';

describe("the transport's HTTP/2 warm-up", () => {
  test("runs once, before the first TLS connection's own HTTP/2 session and in memory, and not for a plain-HTTP origin or a strategy without h2", async () => {
    const sessions: string[] = [];
    const connect = http2.connect;
    const spy = jest.spyOn(http2, 'connect').mockImplementation(((authority: string | URL, ...rest: unknown[]) => {
      sessions.push(new URL(String(authority)).host);
      return (connect as (...a: unknown[]) => http2.ClientHttp2Session)(authority, ...rest);
    }) as typeof http2.connect);
    const plain = await startHttpServer((_req, res) => res.end('ok'));
    const secure = await startHttp2Server((_req, res) => res.end('ok'));
    try {
      await runList(strategy('getlist'), [{ url: `http://localhost:${plain.port}/a` }]);
      await runList(strategy('browser'), [{ url: `https://localhost:${secure.port}/b` }], { ca: testCert().cert });
      expect(sessions).toEqual([]);
      const run = await runList(strategy('getlist'), [{ url: `https://localhost:${secure.port}/c` }, { url: `https://localhost:${secure.port}/d` }], { ca: testCert().cert });
      expect(run.results.map((r) => [r.status, r.protocol])).toEqual([[200, 'h2'], [200, 'h2']]);
      expect(sessions[0]).toBe('warm-up.invalid');
      expect(sessions.filter((h) => h === 'warm-up.invalid')).toHaveLength(1);
      expect(sessions.slice(1).every((h) => h === `localhost:${secure.port}`)).toBe(true);
      // The server saw only the load's own sessions.
      expect(secure.sessions()).toBe(sessions.length - 1);
    } finally {
      spy.mockRestore();
      await plain.close();
      await secure.close();
    }
  });
});
