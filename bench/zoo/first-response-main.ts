/**
 * `node dist/bench/zoo-first-response.js [--servers a,b,…] [--page P] [--paths a,b,…] [--fetches N]`
 * — how many round trips a zoo member takes to answer the first request on a new TLS connection,
 * per resource size, seen by curl alone (`curl --http2`, a fresh connection per fetch) at 100 ms
 * with no cap: TCP connect, TLS, and the response's first byte after TLS (`time_starttransfer −
 * time_appconnect`) and its last, in round trips of the link. One round trip is what the lower bound
 * (bench/model/MODEL.md) gives a request sent as its connection opens, with the body's first bytes
 * readable as they come; a member that puts more of the response in its first TLS record than the
 * first flight has room for delivers the first byte with the record's last, a round trip later.
 * Needs root or user namespaces and the members' Debian packages.
 */
import { runMain } from '../cli/run-main';
import type { ZooMember } from '../origins/zoo/zoo-members';
import { parseFirstResponseArgs } from './first-response-args';
import { BenchRunError } from '../cli/bench-run-error';
import { startLink } from '../link/link-emulator';
import { ensureLinkPrivileges } from '../link/rootless';
import { netnsSpawn } from '../origins/start-origins';
import { startZoo } from '../origins/zoo/start-zoo';
import { NO_CAP_BITS_PER_SEC } from '../real/real-bounds';
import { childOutput } from '../run/child-output';
import { originsFor } from '../run/run-link';
import { median } from '../../src/stats/median';
import { round } from '../engine/stats';

const RTT_MS = 100;

interface Fetch {
  bytes: number;
  connectMs: number;
  tlsMs: number;
  firstByteMs: number;
  lastByteMs: number;
}

/** `fetches` curl fetches of one resource of the page on one member, each on a connection of its own. */
async function fetchFirstResponses(member: ZooMember, page: string, path: string, fetches: number): Promise<Fetch[]> {
  const names = originsFor([page]);
  const link = await startLink({ rttMs: RTT_MS, downBitsPerSec: NO_CAP_BITS_PER_SEC, upBitsPerSec: NO_CAP_BITS_PER_SEC, loss: 0, hosts: names.length, seed: 1 });
  const hostMap = Object.fromEntries(names.map((n, i) => [n, link.serverAddrs[i] ?? '']));
  link.setClientHosts(hostMap);
  const zoo = await startZoo({ member, bindings: names.map((origin) => ({ origin, address: hostMap[origin] ?? '', httpPort: 80, httpsPort: 443 })), pages: [page], linkHosts: 'name', spawn: netnsSpawn(link.serverNs) });
  try {
    const url = new URL(path, zoo.pageUrl(page, 'https')).href;
    const out: Fetch[] = [];
    for (let i = 0; i < fetches; i++) {
      const args = ['-s', '-o', '/dev/null', '--http2', '--cacert', zoo.caPath, '-w', '%{time_connect} %{time_appconnect} %{time_starttransfer} %{time_total} %{http_version} %{size_download}', url];
      const r = await childOutput(link.execInClient('curl', args, { stdio: ['ignore', 'pipe', 'pipe'] }), 20_000, `curl ${member}`);
      const [connect, tls, start, total, version, size] = r.stdout.trim().split(' ');
      if (r.code !== 0 || version !== '2') throw new BenchRunError('E_RUN_FAILED', `curl on ${member} exited ${r.code ?? r.signal} over HTTP/${version ?? '?'}: ${r.stderr.trim().slice(0, 200)}`);
      const s = (x: string | undefined) => Number(x) * 1000;
      out.push({ bytes: Number(size), connectMs: s(connect), tlsMs: s(tls) - s(connect), firstByteMs: s(start) - s(tls), lastByteMs: s(total) - s(tls) });
    }
    return out;
  } finally {
    await zoo.stop().catch(() => undefined);
    await link.close().catch(() => undefined);
  }
}

async function main(argv: readonly string[]): Promise<number> {
  const args = parseFirstResponseArgs(argv);
  if (!args) return 0;
  const { servers, page, paths, fetches } = args;
  await ensureLinkPrivileges();
  process.stdout.write(`curl --http2, a new connection per fetch, ${RTT_MS} ms: medians in round trips (min–max)\nmember  resource  bytes  TCP  TLS  first byte after TLS  last byte after TLS\n`);
  for (const member of servers) {
    for (const path of paths) {
      const f = await fetchFirstResponses(member, page, path, fetches);
      const rtts = (xs: number[]) => `${round(median(xs) / RTT_MS, 2)} (${round(Math.min(...xs) / RTT_MS, 2)}–${round(Math.max(...xs) / RTT_MS, 2)})`;
      process.stdout.write(`${member}  ${path}  ${f[0]?.bytes ?? '?'}  ${rtts(f.map((x) => x.connectMs))}  ${rtts(f.map((x) => x.tlsMs))}  ${rtts(f.map((x) => x.firstByteMs))}  ${rtts(f.map((x) => x.lastByteMs))}\n`);
    }
  }
  return 0;
}

runMain('zoo-first-response', () => main(process.argv.slice(2)));
