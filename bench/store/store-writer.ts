// The writer process of bench/store/main.ts: opens the store at DIR and hands it 20 handshakes every
// 20 ms (connectionId = a sequence from START), printing "<highest seq> <epoch ms>" after each
// hand-over, until it is killed.
//
//   node dist/bench/store-writer.js DIR START
import { openStore } from '../../native-host/store/lmdb-store';
import type { StoredHandshake } from '../../native-host/store/store-types';

const [dir, start] = process.argv.slice(2);

function record(seq: number): StoredHandshake {
  return {
    connectionId: seq, origin: `https://origin-${seq % 7}.test`, startedAt: Date.now(), dnsMs: seq % 5, tcpMs: 1 + (seq % 11), tlsMs: 2 + (seq % 13),
    totalMs: 3 + (seq % 29), remoteAddress: '192.0.2.1', remotePort: 443, localPort: 40000 + (seq % 20000), protocol: 'h2', tlsVersion: 'TLSv1.3',
    resumed: false, source: 'cli', pageUrl: `https://origin-${seq % 7}.test/`,
  };
}

async function main(): Promise<void> {
  const store = await openStore({ dir: dir as string });
  let seq = Number(start ?? 0);
  const burst = async () => {
    await store.addHandshakes(Array.from({ length: 20 }, () => record(seq++)));
    process.stdout.write(`${seq - 1} ${Date.now()}\n`);
  };
  await burst();
  setInterval(() => void burst(), 20);
}

void main();
