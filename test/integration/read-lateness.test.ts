import type http from 'node:http';
import { Scheduler, strategy, type TransportHandler } from '../../src/scheduler';
import { UndiciTransport } from '../../native-host/transport/undici-transport';
import { blockLoop } from '../support/block-loop';
import { startHttpServer } from '../support/tls-servers';

/**
 * Each body chunk the transport reports carries how late it may have been read: the event loop's
 * busy time since the connection's previous read (loop-busy.ts). The peak's shape counts a read
 * from the earliest moment its bytes may have arrived (src/scheduler/peak-delivery.ts), so a loop
 * held busy must show as lateness, and an idle loop must not.
 */
describe('how late a body chunk was read (flight.ts, peak-delivery.ts)', () => {
  test('a chunk that arrived while the loop was held busy reports at least the busy time; one read by an idle loop reports little', async () => {
    const BLOCK = 80;
    const PART = 'x'.repeat(1000);
    let response: http.ServerResponse | undefined;
    const server = await startHttpServer((_req, r) => {
      const res = r as http.ServerResponse;
      res.writeHead(200, { 'content-type': 'text/plain', 'content-length': String(3 * PART.length) });
      res.write(PART);
      response = res;
    }, '127.0.0.1');
    const transport = new UndiciTransport();
    const scheduler = new Scheduler({ strategy: strategy('browser'), transport, clock: { now: () => performance.now() } });
    const reads: Array<{ bytes: number; lateMs: number | undefined }> = [];
    const responseData: TransportHandler['responseData'] = (id, bytes, lateMs) => {
      reads.push({ bytes, lateMs });
      scheduler.responseData(id, bytes, lateMs);
      if (reads.length === 1) {
        // The second part leaves the server now (loopback: it is in the client's socket at once),
        // and this loop stays busy before it can read it.
        response?.write(PART);
        blockLoop(BLOCK);
      } else if (reads.length === 2) {
        // The third part comes after a quiet wait: the loop is idle in poll when it arrives.
        setTimeout(() => response?.end(PART), 150);
      }
    };
    // The scheduler answers the transport; only its body reads are watched on the way.
    const recorder = new Proxy(scheduler, {
      get: (target, key) => (key === 'responseData' ? responseData : (Reflect.get(target, key) as unknown)),
    });
    transport.attach(recorder);
    try {
      scheduler.enqueue({ url: `http://127.0.0.1:${server.port}/`, priority: 'image' });
      await scheduler.whenIdle();
      expect(reads.map((r) => r.bytes)).toEqual([PART.length, PART.length, PART.length]);
      expect(reads[1]?.lateMs).toBeGreaterThanOrEqual(BLOCK);
      expect(reads[2]?.lateMs).toBeLessThan(BLOCK / 2);
    } finally {
      scheduler.close();
      await transport.close();
      await server.close();
    }
  });
});
