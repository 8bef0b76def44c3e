import type { ConnState, OriginState } from './connection-state';
import { createRequest, type ScheduledRequest } from './request';
import { shortResponseBytes, type Strategy } from './strategies';

/**
 * The framing order proof (`pipelining.orderProbe`): on first contact with an HTTP/1.1 origin whose
 * page gives no pair a swap would show in (a document and images: content-type-check.ts), the
 * scheduler pipelines a `HEAD` of the next waiting URL right ahead of that URL's `GET`.
 *
 * **Invariant (why a clean answer is a proof).** Both requests are written before the `HEAD`'s
 * response begins, so the server holds them at once and could answer them in either order. In
 * order, the `HEAD`'s answer is a head alone and the `GET`'s a head and its body. Swapped, the
 * `GET`'s head and body come first: read as the `HEAD`'s answer (which has no body, RFC 9110
 * §9.3.2) its body bytes stand where the next status line must be, and the framing guard fails
 * the connection (`E_DESYNC`: both discarded, fetched again alone, origin demoted) before any of
 * it reaches a result. So a `GET` answered with a body behind an unanswered `HEAD` proves the
 * server kept the order of a pair it could have swapped, whatever their types — only a body that
 * itself begins with a well-formed response head could pass for one.
 *
 * **Cost.** One request no browser makes, with no body, per origin and load, and only when more
 * requests wait for the origin than it has connections (below that every request gets its own
 * connection and pipelining gains nothing), and once a response showed the origin persistent —
 * HTTP/1.1 without `Connection: close`, whether or not it says `Connection: keep-alive` (the
 * transport keeps the connection open after the `HEAD`'s answer, response-framing.ts). Never on a revisit whose requests have remembered
 * fingerprints (response-fingerprint.ts proves order for free there), never once the origin is
 * proven or demoted. Counted in `SchedulerStats.orderProbes`; never reported as a result.
 */
export function orderProbeConnection(o: OriginState, strategy: Strategy, now: number): ConnState | undefined {
  const pipelining = strategy.pipelining;
  if (!pipelining || !pipelining.orderProbe || o.orderProbeSent || o.protocol !== 'http/1.1' || !o.persistent) return undefined;
  if (o.health.state(now) !== 'probing' || o.queue.size <= strategy.connections.maxPerOrigin) return undefined;
  const next = o.queue.peek();
  if (next === undefined || next.method !== 'GET' || next.knownFingerprint !== undefined) return undefined;
  const short = shortResponseBytes(strategy);
  let behind: ConnState | undefined;
  for (const c of o.conns) {
    if (c.state !== 'ready' || c.protocol !== 'http/1.1' || c.draining || c.gate !== undefined || c.blockers > 0) continue;
    if (c.outstanding.length === 0) return c;
    if (behind !== undefined || c.outstanding.length + 2 > pipelining.maxDepth) continue;
    // Behind responses already begun only (the HEAD must be the first one the server may
    // reorder), and only short ones (declared under about one initial window, `shortResponseBytes`):
    // behind a large image the proof would wait for its whole body.
    if (c.outstanding.every((d) => d.firstByteAt !== undefined && d.contentLength !== undefined && d.contentLength < short)) behind = c;
  }
  return behind;
}

/** The probe's `HEAD` of `target`'s URL: the scheduler's own request (`orderProbe`), id 0. */
export function orderProbeRequest(target: ScheduledRequest, now: number): ScheduledRequest {
  const req = createRequest({ url: target.url, method: 'HEAD', priority: target.priority, ...(target.resourceType !== undefined ? { resourceType: target.resourceType } : {}) }, 0, now);
  return { ...req, orderProbe: true };
}

/**
 * The same proof from the `GET`'s head alone, when it declares a body (`Content-Length` > 0): had
 * the two been swapped, the `HEAD`'s answer would have taken the `GET`'s head and the body's first
 * bytes would have stood where this head was read, failing the framing guard before it. So the
 * proof is complete once this head is read, before a body a server holds back (a corked burst's
 * tail) has arrived.
 */
export function isFramingProofHead(d: Parameters<typeof isFramingProof>[0], contentLength: number | undefined): boolean {
  return contentLength !== undefined && isFramingProof(d, contentLength);
}

/** Whether `d` (a `GET` answered with `bytes` of body) was pipelined right behind an unanswered `HEAD`. */
export function isFramingProof(d: { readonly request: { readonly method: string }; readonly aheadUnanswered: { readonly request: { readonly method: string } } | undefined }, bytes: number): boolean {
  return bytes > 0 && d.request.method === 'GET' && d.aheadUnanswered?.request.method === 'HEAD';
}
