// A child process for the store's crash and multi-process tests, bundled at test time by
// store-child-build.ts (lmdb and classic-level stay external: NODE_PATH finds them).
//
//   node store-child.js burst DIR START   add 100 records every 50 ms, seq = connectionId from START;
//                                          after each hand-over print "<highest seq> <epoch ms>"
//   node store-child.js hold DIR          open the store, print "open", then wait to be killed
//   node store-child.js try-open DIR      print "opened" or the error code, and exit
//   node store-child.js count DIR         print "<records> has 1" (or "has no 1"): what this process sees
import { openStore } from '../../native-host/store/lmdb-store';
import type { StoredHandshake } from '../../native-host/store/store-types';

const [mode, dir, start] = process.argv.slice(2);
const ORIGINS = ['https://a.test', 'https://b.test', 'http://c.test'];

function record(seq: number): StoredHandshake {
  const origin = ORIGINS[seq % ORIGINS.length] as string;
  const https = origin.startsWith('https:');
  return {
    connectionId: seq, origin, startedAt: Date.now(), dnsMs: seq % 7, tcpMs: 1 + (seq % 13), tlsMs: https ? 2 + (seq % 17) : 0,
    totalMs: 3 + (seq % 37), remoteAddress: '127.0.0.1', remotePort: 443, localPort: 40000 + (seq % 20000),
    protocol: 'http/1.1', tlsVersion: https ? 'TLSv1.3' : undefined, resumed: seq % 5 === 0 && https, source: 'cli',
  };
}

async function main(): Promise<void> {
  if (mode === 'try-open') {
    try {
      const store = await openStore({ dir: dir as string });
      process.stdout.write('opened\n');
      await store.close();
    } catch (err) {
      process.stdout.write(`${(err as { code?: string }).code ?? String(err)}\n`);
    }
    return;
  }
  const store = await openStore({ dir: dir as string });
  if (mode === 'count') {
    let n = 0;
    let one = false;
    for await (const r of store.handshakes()) {
      n++;
      one ||= r.connectionId === 1;
    }
    process.stdout.write(`${n} ${one ? 'has 1' : 'has no 1'}\n`);
    await store.close();
    return;
  }
  if (mode === 'hold') {
    process.stdout.write('open\n');
    setInterval(() => undefined, 60_000);
    return;
  }
  let seq = Number(start ?? 0);
  const burst = async () => {
    const batch = Array.from({ length: 100 }, () => record(seq++));
    await store.addHandshakes(batch);
    process.stdout.write(`${seq - 1} ${Date.now()}\n`);
  };
  await burst();
  setInterval(() => void burst(), 50);
}

void main();
