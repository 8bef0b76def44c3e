import tls from 'node:tls';
import { ConnectTimer } from '../../native-host/transport/connect-timer';
import { CONNECT_TIMER_CHILD_SOURCE } from '../../native-host/transport/connect-timer-child';
import { TimingConnector } from '../../native-host/transport/timing-connector';
import { WARM_UP_SERVERNAME } from '../../native-host/transport/tls-warm-up';
import { testCert } from '../support/tls-cert';
import { startHttpServer, startHttpsServer } from '../support/tls-servers';

const ok = (_req: unknown, res: { end(b: string): unknown }) => res.end('ok');

describe("a process's first TLS client", () => {
  test('is made and dropped in the turn after the first TLS SYN, with the trust context, while the round trip runs; the real ClientHello follows; never for plain HTTP, and once per process', async () => {
    // A child that holds each connected socket 150 ms before handing it over: a TCP round trip.
    const HAND_OVER = 'send({ id: m.id, tcpMs, remoteAddress: s.remoteAddress }, s)';
    expect(CONNECT_TIMER_CHILD_SOURCE).toContain(HAND_OVER);
    const slow = new ConnectTimer(CONNECT_TIMER_CHILD_SOURCE.replace(HAND_OVER, `setTimeout(() => ${HAND_OVER}, 150)`));
    const plain = await startHttpServer(ok);
    const secure = await startHttpsServer(ok);
    const made: Array<{ at: number; servername: string | undefined; context: unknown; client: tls.TLSSocket }> = [];
    const connect = tls.connect;
    const spy = jest.spyOn(tls, 'connect').mockImplementation(((options: tls.ConnectionOptions) => {
      const client = connect(options);
      made.push({ at: performance.now(), servername: options.servername, context: options.secureContext, client });
      return client;
    }) as typeof tls.connect);
    try {
      expect(await slow.warmUp()).toBe(true);
      const started: number[] = [];
      const connector = new TimingConnector({ ca: testCert().cert, onTlsStart: () => started.push(performance.now()) }, undefined, undefined, () => slow);
      const h = await connector.open(`http://localhost:${plain.port}`, 1);
      h.socket.destroy();
      expect(made).toHaveLength(0);

      for (const id of [2, 3]) {
        const { socket, handshake } = await connector.open(`https://localhost:${secure.port}`, id);
        socket.destroy();
        expect(handshake.tlsVersion).toMatch(/^TLSv1\.[23]$/);
      }
      // Two warm-up clients, then one real client per connection.
      expect(made.map((m) => m.servername)).toEqual([WARM_UP_SERVERNAME, WARM_UP_SERVERNAME, 'localhost', 'localhost']);
      // Made while the first connection's round trip ran, long before its ClientHello.
      expect((started[0] as number) - (made[1]?.at as number)).toBeGreaterThan(100);
      for (const m of made.slice(0, 2)) {
        expect(m.client.destroyed).toBe(true);
        // The trust context the real clients use: its first use is warmed too.
        expect(m.context).toBe(made[2]?.context);
      }
      // Only the real connections reached the server (each completes its handshake as it closes).
      for (let i = 0; i < 50 && secure.tls.length < 2; i++) await new Promise((r) => setTimeout(r, 20));
      await new Promise((r) => setTimeout(r, 50));
      expect(secure.tls).toHaveLength(2);
    } finally {
      spy.mockRestore();
      slow.close();
      await plain.close();
      await secure.close();
    }
  });
});
