/**
 * Why a zoo member misses a goal, where the miss has been traced to its cause: the bound, its
 * evidence (a results file of tail-trace-main.ts) and what would move it. The zoo's goal table
 * prints it beside the MISS.
 */
import type { ZooMember } from '../origins/zoo/zoo-members';

const PM_FIRST = 'P&M at 50 ms, first visit ≤ 5.5 RTT';
const PM_GAIN = 'P&M at 50 ms, ≥ 1.4 × browser';

/** What the traces of both members show, and why no client can move it. */
const NAGLE_TAIL = 'Traced with `zoo-tail-trace.js` (tcpdump on both sides of the link, `ss -tin`, the server\'s log; `results/raw/zoo-tail-trace.json.gz`): '
  + 'on every connection the last segment of a pipelined burst, a partial one, leaves the server only when the client\'s ACK of its previous partial segment arrives, '
  + 'about one round trip after the segment before it, and the client sent every one of those ACKs the moment the data arrived (no delayed ACK). '
  + 'That is Nagle\'s algorithm (RFC 896; Linux holds a partial segment while an earlier partial one is unacknowledged). '
  + 'A client cannot acknowledge a segment before it arrives, and a request written to carry the ACK reaches the server no sooner, '
  + 'so each connection\'s last burst ends a round trip (less its own sending time) after its first response, whatever the client schedules, short of sending each request alone, which costs that round trip per request; `browser` does so and pays none of the hold. '
  + 'The one scheduling lever left is when the last burst starts: on a first visit it waits a round trip for the probe to prove order (docs/scheduler.md), and that wait and the hold add up; getlist keeps the probe, as its safety against servers that break pipelines. '
  + 'Apache answers the same loads without a held segment.';

const WHY: Readonly<Partial<Record<ZooMember, Readonly<Record<string, string>>>>> = {
  nginx: {
    [PM_FIRST]: `${NAGLE_TAIL} On nginx the holds come on every connection, the document's too: nginx sets TCP_NODELAY on a plain-HTTP connection only when it goes idle in keep-alive, and where \`tcp_nopush\` corked it (Debian's \`tcp_nopush on\` with \`sendfile\`), only on FreeBSD and macOS (nginx/src/http/ngx_http_request.c, \`ngx_http_set_keepalive\`; bench/README.md, "Why nginx holds a burst's tail"), so on Linux Nagle stays on. `
      + 'With `tcp_nopush off` and nothing else changed (`zoo-tail-trace.js --nginx-nopush-off`, `results/raw/zoo-tail-trace-nopush-{on,off}-{1,2}.json.gz`, alternated) no segment was held and the load medians fell by most of a round trip (the table in bench/README.md). '
      + 'What would move it: `tcp_nopush off` in the server\'s configuration. No client socket option would: the client\'s ACKs are already immediate, so TCP_QUICKACK (which Node does not expose) would change nothing.',
    [PM_GAIN]: 'The same held tail as the first visit\'s (above).',
  },
  plain: {
    [PM_FIRST]: `${NAGLE_TAIL} Node's \`net\` leaves Nagle on; the same origin with TCP_NODELAY on its accepted sockets (\`zoo-tail-trace.js --plain-nodelay\`, \`results/raw/zoo-tail-trace-nodelay.json.gz\`) held no segment. `
      + 'What would move it: `socket.setNoDelay(true)` (or `noDelay: true` on the server) in the origin; no client socket option would, the client\'s ACKs being already immediate.',
    [PM_GAIN]: 'The same held tail as the first visit\'s (above).',
  },
};

/** The traced reason for `member` missing `goal`, if there is one. */
export function zooWhy(member: ZooMember, goal: string): string | undefined {
  return WHY[member]?.[goal];
}
