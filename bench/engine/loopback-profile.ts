/**
 * `node [--cpu-prof] dist/bench/loopback-profile.js <undici|getlist|both> [bodyBytes] [requests] [runs]`
 * — one contender of the loopback throughput benchmark (bench/engine/loopback-throughput.ts) run
 * alone, or both alternating, against the same worker-thread server, for profiling: a CPU profile
 * of the engine bench mixes both contenders, and its ratio hides where one of them spends. Prints
 * one line per run: requests/s and the main thread's CPU per request (µs, schedstat). The first
 * runs are JIT warm-up. Defaults: getlist, 1,024 B, 20,000 requests, 6 runs. Take the bench lock.
 */
import { getlistRun, plainUndici } from './loopback-contenders';
import { startLoopbackServer } from './loopback-server';
import { mainThreadCpuMs } from './stats';
import { pipelineDepth, strategy } from '../../src/scheduler';
import { runMain } from '../cli/run-main';

const WHO = ['undici', 'getlist', 'both'] as const;

async function main(argv: readonly string[]): Promise<number> {
  const [who = 'getlist', size = '1024', count = '20000', times = '6'] = argv;
  const bodyBytes = Number(size);
  const requests = Number(count);
  const runs = Number(times);
  if (!(WHO as readonly string[]).includes(who) || ![bodyBytes, requests, runs].every((n) => Number.isInteger(n) && n > 0)) {
    process.stderr.write(`usage: loopback-profile.js <${WHO.join('|')}> [bodyBytes] [requests] [runs]; got ${JSON.stringify(argv)}\n`);
    return 2;
  }
  const s = strategy('getlist');
  const server = await startLoopbackServer([bodyBytes]);
  try {
    const paths = Array.from({ length: requests }, (_, i) => `/b/${bodyBytes}/${i}`);
    const urls = paths.map((p) => `${server.origin}${p}`);
    for (let r = 0; r < runs; r++) {
      const one = who === 'both' ? (r % 2 === 0 ? 'undici' : 'getlist') : who;
      const cpu0 = mainThreadCpuMs();
      const x = one === 'undici' ? await plainUndici(server.origin, paths, s.connections.maxPerOrigin, pipelineDepth(s)) : await getlistRun(urls, s);
      const cpu1 = mainThreadCpuMs();
      const cpu = cpu0 === undefined || cpu1 === undefined ? 'n/a' : (((cpu1 - cpu0) * 1000) / requests).toFixed(1);
      process.stdout.write(`${one.padEnd(7)} ${bodyBytes} B × ${requests}: ${Math.round(x.requestsPerSec)} req/s, ${cpu} µs CPU/request, ${x.errors} errors, ${x.connections} connections\n`);
    }
  } finally {
    await server.close();
  }
  return 0;
}

runMain('loopback-profile', () => main(process.argv.slice(2)));
