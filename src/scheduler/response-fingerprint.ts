import type { DispatchState, FingerprintPair } from './connection-state';
import { expectedFamily } from './content-type-check';
import type { ScheduledRequest } from './request';

/**
 * Fingerprint order proofs: on a revisit, two pipelined requests whose URLs' last trusted
 * responses differ show whether the server kept their order, whatever their types.
 *
 * A fingerprint is the body's length and digest as received (`ResponseEndInfo.digest`, a
 * collision-resistant hash the transport computes only on origins not yet proven), of a 200
 * response. Validators cannot stand in for it: with `etag off` and files of one size written in
 * one second (P&M's page, many image sets), length, `Last-Modified` and even a weak `ETag` are the
 * same for every image, so no pair would differ.
 *
 * **Invariant (soundness).** A and B are pipelined on one connection, B written before A's
 * response began (the server held both and could have swapped them), fA ≠ fB their remembered
 * fingerprints. r1 and r2 are the responses framed as A's and B's. Neither result is delivered
 * before both have ended, and then:
 *
 * - `proof` — fp(r1) = fA and fp(r2) = fB: each body is byte for byte its own URL's last trusted
 *   body, so neither is another request's, whatever the server did; and a server that could have
 *   swapped two distinguishable responses did not. Both results are released and the origin
 *   counts an order proof (pipeline-health.ts).
 * - `swap` — fp(r1) = fB or fp(r2) = fA: a response answered the other request. Treated as a
 *   desync: both discarded, the connection closed, the origin demoted, both fetched again alone.
 * - `changed` — anything else: a body changed since it was trusted, and a changed body cannot be
 *   told from another request's. Both are discarded, even one that matches its own fingerprint
 *   (fp(r1) = fA while B changed: B's new body may be A's old one, answered out of order), and
 *   both are fetched again unpipelined (a retry goes alone, nothing behind it), no proof counted.
 *
 * So a result from an unproven pair is delivered only when its bytes equal its own URL's trusted
 * bytes. Body bytes still stream to response hooks as they arrive, as for any held response: a
 * consumer keeps the final attempt's (a retry's head starts its body over). Limit, as for every
 * order proof: once proven, the origin is trusted at full depth, so a server that reorders only
 * some pairs may swap a later one (Firefox's green state took the same risk).
 */
export type PairVerdict = 'proof' | 'swap' | 'changed';
export type { FingerprintPair, PairEnd } from './connection-state';

/** The fingerprint of a response, or undefined when it has none to compare. */
export function fingerprintOf(status: number | undefined, bytes: number, digest: string | undefined): string | undefined {
  return status === 200 && digest !== undefined ? `${bytes}:${digest}` : undefined;
}

/**
 * Whether `req` may be pipelined right behind `ahead` as a fingerprint pair: both fingerprints are
 * known and differ, `ahead`'s response has not begun (so the pair is at risk, and can prove), and
 * `ahead` is in no pair yet.
 */
export function canPair(ahead: DispatchState | undefined, req: ScheduledRequest): boolean {
  if (ahead === undefined || ahead.firstByteAt !== undefined || ahead.pair !== undefined) return false;
  const fa = ahead.request.knownFingerprint;
  const fb = req.knownFingerprint;
  return fa !== undefined && fb !== undefined && fa !== fb;
}

/**
 * Pairs `behind`, written right after `ahead` while `ahead`'s response had not begun, when no
 * `Content-Type` could show their swap (the same type family) and their fingerprints can
 * (`canPair`): from then on neither result is delivered before the pair's verdict.
 */
export function pairIfIndistinct(ahead: DispatchState, behind: DispatchState): void {
  if (expectedFamily(ahead.request.resourceType) !== expectedFamily(behind.request.resourceType) || !canPair(ahead, behind.request)) return;
  const pair: FingerprintPair = { ahead, behind, ends: new Map() };
  ahead.pair = pair;
  behind.pair = pair;
}

/** The verdict once both members have ended (see the invariant above). */
export function pairVerdict(p: FingerprintPair): PairVerdict {
  const r1 = p.ends.get(p.ahead)?.fingerprint;
  const r2 = p.ends.get(p.behind)?.fingerprint;
  const fa = p.ahead.request.knownFingerprint;
  const fb = p.behind.request.knownFingerprint;
  if (r1 !== undefined && r1 === fb) return 'swap';
  if (r2 !== undefined && r2 === fa) return 'swap';
  return r1 !== undefined && r1 === fa && r2 !== undefined && r2 === fb ? 'proof' : 'changed';
}
