import net from 'node:net';
import { guardSocket } from './guarded-socket';
import { ResponseFraming } from './response-framing';
import type { TransportError } from './transport-errors';

const ok = (body: string) => Buffer.from(`HTTP/1.1 200 OK\r\nContent-Length: ${body.length}\r\n\r\n${body}`, 'latin1');

/**
 * A real loopback connection whose client side is read as undici reads it (`read()` on
 * `readable`) through the guard; the server side writes whatever the test says, when it says.
 */
async function connection(quietMs: number) {
  let server!: net.Socket;
  const srv = net.createServer((s) => {
    s.setNoDelay(true);
    server = s;
  });
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const client = net.connect((srv.address() as net.AddressInfo).port, '127.0.0.1');
  await new Promise<void>((r) => client.once('connect', r));
  while (!server) await new Promise((r) => setImmediate(r));
  const framing = new ResponseFraming();
  const events: Array<{ at: number; what: string }> = [];
  const t0 = performance.now();
  const note = (what: string) => events.push({ at: performance.now() - t0, what });
  guardSocket(client, framing, {
    onTrusted: (n) => note(`trusted ${n}`),
    onFailure: (err: TransportError) => note(`failure ${err.code}`),
    onSuspect: () => note('suspect'),
    quietMs: () => quietMs,
  });
  client.on('readable', () => {
    while (client.read() !== null);
  });
  client.on('error', () => undefined);
  return {
    framing,
    events,
    write: (b: Buffer) => new Promise<void>((r) => server.write(b, () => r())),
    close: async () => {
      client.destroy();
      server.destroy();
      await new Promise<void>((r) => srv.close(() => r()));
    },
  };
}

const until = async (cond: () => boolean, ms = 2000) => {
  const end = performance.now() + ms;
  while (!cond() && performance.now() < end) await new Promise((r) => setTimeout(r, 2));
};

describe('guardSocket: an in-step point is trusted only after a quiet period', () => {
  test('is not trusted at once; trusted after the quiet period when nothing follows', async () => {
    const c = await connection(60);
    try {
      c.framing.expect('GET');
      c.framing.expect('GET');
      await c.write(Buffer.concat([ok('one'), ok('two')])); // one write: the two arrive glued
      await until(() => c.events.some((e) => e.what.startsWith('trusted')));
      const suspect = c.events.find((e) => e.what === 'suspect');
      const trusted = c.events.find((e) => e.what === 'trusted 2');
      expect(c.events.map((e) => e.what)).toEqual(['suspect', 'trusted 2']);
      // Trusted no sooner than the quiet period after the glued response arrived.
      expect((trusted?.at ?? 0) - (suspect?.at ?? 0)).toBeGreaterThanOrEqual(55);
    } finally {
      await c.close();
    }
  });

  test('a surplus arriving within the quiet period fails the connection, and the glued response is never trusted', async () => {
    const c = await connection(200);
    try {
      c.framing.expect('GET');
      c.framing.expect('GET');
      // The first response is short and a smuggled one follows it; the second request's real
      // answer comes in a later write.
      await c.write(Buffer.concat([ok('shor'), ok('SMUGGLE')]));
      await until(() => c.events.length > 0);
      await c.write(ok('the real second'));
      await until(() => c.events.some((e) => e.what.startsWith('failure')));
      expect(c.events.map((e) => e.what)).toEqual(['suspect', 'failure E_DESYNC']);
    } finally {
      await c.close();
    }
  });

  test('a connection that came through quiet points clean still waits at every in-step point: a surplus in a later read is caught', async () => {
    const c = await connection(60);
    try {
      let n = 0;
      for (let i = 0; i < 2; i++) {
        c.framing.expect('GET');
        c.framing.expect('GET');
        await c.write(Buffer.concat([ok(`a${i}`), ok(`b${i}`)]));
        n += 2;
        await until(() => c.events.some((e) => e.what === `trusted ${n}`));
      }
      c.framing.expect('GET');
      await c.write(ok('one')); // a response of its own, in a read of its own…
      await new Promise((r) => setTimeout(r, 10));
      await c.write(ok('SMUGGLE')); // …and an extra one in a later read, within the quiet period
      await until(() => c.events.some((e) => e.what.startsWith('failure')));
      expect(c.events.at(-1)?.what).toBe('failure E_DESYNC');
      expect(c.events.map((e) => e.what)).not.toContain(`trusted ${n + 1}`);
    } finally {
      await c.close();
    }
  });

  test('responses that each start a chunk of their own are trusted one quiet period after the last, together', async () => {
    const c = await connection(60);
    try {
      c.framing.expect('GET');
      await c.write(ok('one'));
      await until(() => c.events.length > 0);
      c.framing.expect('GET');
      const t = performance.now();
      await c.write(ok('two'));
      await until(() => c.events.some((e) => e.what.startsWith('trusted')));
      expect(c.events.map((e) => e.what)).toEqual(['suspect', 'trusted 2']);
      expect(performance.now() - t).toBeGreaterThanOrEqual(55);
    } finally {
      await c.close();
    }
  });
});

describe('guardSocket: a suspect connection keeps taking requests, and stays suspect until a quiet point', () => {
  test('an in-step point after a request written while suspect is not trusted, even when its last response started a chunk of its own', async () => {
    const c = await connection(200);
    try {
      c.framing.expect('GET');
      c.framing.expect('GET');
      // Request 1 is answered short with a smuggled response glued behind: counted as answer 2.
      await c.write(Buffer.concat([ok('shor'), ok('SMUGGLE')]));
      await until(() => c.events.length > 0);
      // Request 3 is written at once (nothing waits for the quiet period). The real answer to
      // request 2 comes in a chunk of its own and is counted as answer 3: in step, not glued.
      c.framing.expect('GET');
      await c.write(ok('the real second'));
      await new Promise((r) => setTimeout(r, 20));
      expect(c.events.map((e) => e.what)).toEqual(['suspect']);
      // The real answer to request 3 is the surplus that shows the shift.
      await c.write(ok('the real third'));
      await until(() => c.events.some((e) => e.what.startsWith('failure')));
      expect(c.events.map((e) => e.what)).toEqual(['suspect', 'failure E_DESYNC']);
    } finally {
      await c.close();
    }
  });

  test('an extra response anywhere since the last trusted point keeps the in-step point suspect, not only the last one', async () => {
    const c = await connection(200);
    try {
      for (let i = 0; i < 3; i++) c.framing.expect('GET');
      // Answer 1 short with a smuggled response glued behind it (counted as answer 2); the real
      // answer to request 2 then arrives in a chunk of its own and is counted as answer 3.
      await c.write(Buffer.concat([ok('shor'), ok('SMUGGLE')]));
      await new Promise((r) => setTimeout(r, 20));
      await c.write(ok('the real second'));
      await until(() => c.events.length > 0);
      await new Promise((r) => setTimeout(r, 20));
      expect(c.events.map((e) => e.what)).toEqual(['suspect']);
      await c.write(ok('the real third'));
      await until(() => c.events.some((e) => e.what.startsWith('failure')));
      expect(c.events.map((e) => e.what)).toEqual(['suspect', 'failure E_DESYNC']);
    } finally {
      await c.close();
    }
  });

  test('a request written during the quiet period restarts it: trusted only a quiet period after its answer', async () => {
    const c = await connection(60);
    try {
      c.framing.expect('GET');
      c.framing.expect('GET');
      await c.write(Buffer.concat([ok('one'), ok('two')]));
      await until(() => c.events.length > 0);
      c.framing.expect('GET');
      // The answer comes after the first quiet period would have ended.
      await new Promise((r) => setTimeout(r, 100));
      expect(c.events.map((e) => e.what)).toEqual(['suspect']);
      const answeredAt = performance.now();
      await c.write(ok('three'));
      await until(() => c.events.some((e) => e.what.startsWith('trusted')));
      expect(c.events.map((e) => e.what)).toEqual(['suspect', 'trusted 3']);
      expect(performance.now() - answeredAt).toBeGreaterThanOrEqual(55);
    } finally {
      await c.close();
    }
  });
});

describe('guardSocket: what undici reads', () => {
  test('a head split across reads, an interim response removed and bytes given back reach the reader whole and in order', async () => {
    let server!: net.Socket;
    const srv = net.createServer((s) => {
      s.setNoDelay(true);
      server = s;
    });
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
    const client = net.connect((srv.address() as net.AddressInfo).port, '127.0.0.1');
    await new Promise<void>((r) => client.once('connect', r));
    while (!server) await new Promise((r) => setImmediate(r));
    try {
      const framing = new ResponseFraming();
      guardSocket(client, framing, { onTrusted: () => undefined, onFailure: () => undefined, quietMs: () => 10_000 });
      // A reader like undici's: it parses part of each read and gives the rest back (`unshift`).
      const got: Buffer[] = [];
      client.on('readable', () => {
        for (let b = client.read() as Buffer | null; b !== null; b = client.read() as Buffer | null) {
          const take = Math.min(b.length, 7);
          got.push(b.subarray(0, take));
          if (take < b.length) client.unshift(b.subarray(take));
        }
      });
      for (let i = 0; i < 3; i++) framing.expect('GET');
      const interim = Buffer.from('HTTP/1.1 100 Continue\r\n\r\n', 'latin1');
      const stream = Buffer.concat([ok('a'.repeat(40)), interim, ok('b'.repeat(30)), ok('c'.repeat(20))]);
      const cut = stream.length - 30; // inside the third head
      const write = (b: Buffer) => new Promise<void>((r) => server.write(b, () => r()));
      await write(stream.subarray(0, cut));
      await until(() => Buffer.concat(got).length > 0);
      await new Promise((r) => setTimeout(r, 20));
      await write(stream.subarray(cut));
      const expected = Buffer.concat([ok('a'.repeat(40)), ok('b'.repeat(30)), ok('c'.repeat(20))]);
      await until(() => Buffer.concat(got).length >= expected.length);
      expect(Buffer.concat(got).toString('latin1')).toBe(expected.toString('latin1'));
      expect({ completed: framing.completed, inStep: framing.inStep }).toEqual({ completed: 3, inStep: true });
    } finally {
      client.destroy();
      server.destroy();
      await new Promise<void>((r) => srv.close(() => r()));
    }
  });
});
