/**
 * The three measurements behind `runSelfCheck`: handshake time against the configured RTT, goodput
 * against the configured rate, and drop rate against the configured loss.
 */
import { median } from '../../src/stats/median';
import { startLink, type Link } from './link-emulator';
import { num, startProbe } from './self-check-probe';

export interface CheckResult {
  name: string;
  passed: boolean;
  /** The acceptance range, in words. */
  expected: string;
  measured: string;
  details: Record<string, number>;
}

const round = (x: number, digits = 2): number => Math.round(x * 10 ** digits) / 10 ** digits;

async function withLink<T>(opts: Parameters<typeof startLink>[0], body: (link: Link) => Promise<T>): Promise<T> {
  const link = await startLink(opts);
  try {
    return await body(link);
  } finally {
    await link.close();
  }
}

/**
 * Congestion control and congestion window of an established, never-written connection in the
 * server namespace, as `ss -ti` reports them.
 */
async function observedTcp(link: Link): Promise<{ cwnd: number; cc: string }> {
  const ss = link.execInServer('ss', ['-tin', 'state', 'established'], { stdio: ['ignore', 'pipe', 'ignore'] });
  let out = '';
  ss.stdout?.setEncoding('utf8').on('data', (s: string) => (out += s));
  await new Promise((resolve) => ss.once('close', resolve));
  return { cwnd: Number(/\bcwnd:(\d+)/.exec(out)?.[1] ?? NaN), cc: /^\s+([a-z0-9_]+) wscale/m.exec(out)?.[1] ?? 'unknown' };
}

/** (1) A TCP connect takes one RTT: median of 10 connects at 70 ms RTT within [70, 73] ms. */
export function checkConnectTime(rttMs = 70, count = 10): Promise<CheckResult[]> {
  return withLink({ rttMs }, async (link): Promise<CheckResult[]> => {
    const server = startProbe(link, 'server', { mode: 'tcp-server', host: link.serverAddrs[0], sendBytes: 0, deadlineMs: 20_000 });
    const port = num(await server.next(5_000), 'port');
    const client = startProbe(link, 'client', { mode: 'connect', host: link.serverAddrs[0], port, count, hold: true, deadlineMs: 20_000 });
    const times = (await client.next(15_000)).connectMs as number[];
    // The client sees the handshake complete half an RTT before the server receives the final ACK.
    await new Promise((resolve) => setTimeout(resolve, rttMs / 2 + 20));
    const tcp = await observedTcp(link);
    client.endInput();
    server.endInput();
    const med = median(times);
    return [
      {
        name: 'connect time',
        passed: med >= rttMs && med <= rttMs + 3,
        expected: `median of ${count} connects in [${rttMs}, ${rttMs + 3}] ms`,
        measured: `median ${round(med)} ms (min ${round(Math.min(...times))}, max ${round(Math.max(...times))})`,
        details: { rttMs, medianMs: round(med), minMs: round(Math.min(...times)), maxMs: round(Math.max(...times)) },
      },
      {
        name: 'tcp in use',
        passed: tcp.cwnd === link.info.initCwnd && tcp.cc === link.info.congestionControl,
        expected: `ss -ti shows ${link.info.congestionControl} and cwnd ${link.info.initCwnd} on a fresh server-side connection`,
        measured: `${tcp.cc}, cwnd ${tcp.cwnd}`,
        details: { initCwnd: tcp.cwnd },
      },
    ];
  });
}

/**
 * (2) Goodput of a 1,000,000-byte download at 1.544 Mbit/s, first byte to last byte, must reach
 * 90 % of the raw link rate. TCP/IP headers take ~3.5 % of every full packet (52 of 1500 bytes with
 * timestamps), so the wire utilisation is also computed from the bytes the forwarder delivered.
 */
export function checkThroughput(bitsPerSec = 1_544_000, bytes = 1_000_000): Promise<CheckResult> {
  return withLink({ rttMs: 40, downBitsPerSec: bitsPerSec, upBitsPerSec: bitsPerSec }, async (link) => {
    const server = startProbe(link, 'server', { mode: 'tcp-server', host: link.serverAddrs[0], sendBytes: bytes, deadlineMs: 30_000 });
    const port = num(await server.next(5_000), 'port');
    const before = await link.stats();
    const client = startProbe(link, 'client', { mode: 'download', host: link.serverAddrs[0], port, deadlineMs: 25_000 });
    const result = await client.next(25_000);
    const after = await link.stats();
    server.endInput();
    const got = num(result, 'bytes');
    const seconds = num(result, 'firstToLastMs') / 1000;
    const goodput = ((got - num(result, 'firstChunkBytes')) * 8) / seconds;
    const wireBytes = after.down.bytesOut - before.down.bytesOut;
    const wireUtil = (goodput * (wireBytes / got)) / bitsPerSec;
    const ratio = goodput / bitsPerSec;
    return {
      name: 'throughput',
      passed: got === bytes && ratio >= 0.9 && ratio <= 1 && wireUtil >= 0.9 && wireUtil <= 1.01,
      expected: `goodput ≥ 90 % of ${bitsPerSec / 1e6} Mbit/s and wire utilisation in [90, 101] %`,
      measured: `goodput ${round(goodput / 1e6, 3)} Mbit/s = ${round(ratio * 100, 1)} %, wire ${round(wireUtil * 100, 1)} % (overhead ${round((wireBytes / got - 1) * 100, 1)} %)`,
      details: {
        bytes: got, seconds: round(seconds, 3), goodputBitsPerSec: Math.round(goodput), goodputRatio: round(ratio, 4),
        wireUtilisation: round(wireUtil, 4), wireBytes, droppedQueue: after.down.droppedQueue - before.down.droppedQueue,
      },
    };
  });
}

/** (3) 20,000 UDP datagrams client → server at 2 % loss: drop rate within [1.6, 2.4] %. */
export function checkLoss(loss = 0.02, count = 20_000): Promise<CheckResult> {
  return withLink({ rttMs: 10, loss, seed: 7 }, async (link) => {
    const sink = startProbe(link, 'server', { mode: 'udp-sink', host: link.serverAddrs[0], deadlineMs: 30_000 });
    const port = num(await sink.next(5_000), 'port');
    const sender = startProbe(link, 'client', { mode: 'udp-send', host: link.serverAddrs[0], port, count, size: 64, batch: 20, deadlineMs: 20_000 });
    const sent = num(await sender.next(20_000), 'sent');
    await new Promise((resolve) => setTimeout(resolve, 4 * link.info.rttMs + 100)); // let in-flight datagrams land
    const stats = await link.stats();
    sink.endInput();
    const received = num(await sink.next(5_000), 'received');
    const forwarderRate = stats.up.droppedLoss / stats.up.packetsIn;
    const endToEnd = 1 - received / sent;
    const inRange = (r: number): boolean => r >= loss * 0.8 && r <= loss * 1.2;
    return {
      name: 'loss',
      passed: stats.up.packetsIn === sent && inRange(forwarderRate) && inRange(endToEnd),
      expected: `drop rate in [${round(loss * 80, 1)}, ${round(loss * 120, 1)}] % at the forwarder and end to end`,
      measured: `forwarder ${round(forwarderRate * 100, 3)} %, end to end ${round(endToEnd * 100, 3)} % (${sent} sent, ${received} received)`,
      details: {
        sent, received, forwarderIn: stats.up.packetsIn, droppedLoss: stats.up.droppedLoss,
        forwarderRate: round(forwarderRate, 5), endToEndRate: round(endToEnd, 5),
      },
    };
  });
}
