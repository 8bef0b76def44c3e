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
import { BenchRunError } from '../cli/bench-run-error';
import { ensureLinkPrivileges } from '../link/rootless';
import type { ZooMember } from '../origins/zoo/zoo-members';
import { childOutput } from '../run/child-output';
import { median } from '../../src/stats/median';
import { round } from '../engine/stats';
import { parseFirstResponseArgs } from './first-response-args';
import { startZooLink, type ZooLink } from './zoo-link';

const RTT_MS = 100;

interface Fetch {
  bytes: number;
  connectMs: number;
  tlsMs: number;
  firstByteMs: number;
  lastByteMs: number;
}

/** `fetches` curl fetches of `url` on one member, each on a connection of its own. */
async function fetchFirstResponses(z: ZooLink, member: ZooMember, url: string, fetches: number): Promise<Fetch[]> {
  const out: Fetch[] = [];
  for (let i = 0; i < fetches; i++) {
    const args = ['-s', '-o', '/dev/null', '--http2', '--cacert', z.zoo.caPath, '-w', '%{time_connect} %{time_appconnect} %{time_starttransfer} %{time_total} %{http_version} %{size_download}', url];
    const r = await childOutput(z.link.execInClient('curl', args, { stdio: ['ignore', 'pipe', 'pipe'] }), 20_000, `curl ${member}`);
    const [connect, tls, start, total, version, size] = r.stdout.trim().split(' ');
    if (r.code !== 0 || version !== '2') throw new BenchRunError('E_RUN_FAILED', `curl on ${member} exited ${r.code ?? r.signal} over HTTP/${version ?? '?'}: ${r.stderr.trim().slice(0, 200)}`);
    const s = (x: string | undefined) => Number(x) * 1000;
    out.push({ bytes: Number(size), connectMs: s(connect), tlsMs: s(tls) - s(connect), firstByteMs: s(start) - s(tls), lastByteMs: s(total) - s(tls) });
  }
  return out;
}

/** Median (min–max) of `xs` in round trips of the link. */
function inRtts(xs: readonly number[]): string {
  return `${round(median(xs) / RTT_MS, 2)} (${round(Math.min(...xs) / RTT_MS, 2)}–${round(Math.max(...xs) / RTT_MS, 2)})`;
}

async function main(argv: readonly string[]): Promise<number> {
  const args = parseFirstResponseArgs(argv);
  if (!args) return 0;
  const { servers, page, paths, fetches } = args;
  await ensureLinkPrivileges();
  process.stdout.write(`curl --http2, a new connection per fetch, ${RTT_MS} ms: medians in round trips (min–max)\nmember  resource  bytes  TCP  TLS  first byte after TLS  last byte after TLS\n`);
  for (const member of servers) {
    const z = await startZooLink({ member, pages: [page], rttMs: RTT_MS });
    try {
      const document = z.zoo.pageUrl(page, 'https');
      for (const path of paths) {
        const f = await fetchFirstResponses(z, member, new URL(path, document).href, fetches);
        process.stdout.write(`${member}  ${path}  ${f[0]?.bytes ?? '?'}  ${inRtts(f.map((x) => x.connectMs))}  ${inRtts(f.map((x) => x.tlsMs))}  ${inRtts(f.map((x) => x.firstByteMs))}  ${inRtts(f.map((x) => x.lastByteMs))}\n`);
      }
    } finally {
      await z.stop();
    }
  }
  return 0;
}

runMain('zoo-first-response', () => main(process.argv.slice(2)));
