/**
 * Hints the hint engine can apply to this page, each with the saving the model predicts for it:
 *
 * - preload a resource the critical path found late (a font, a style sheet or an image named by a
 *   style sheet or inserted by a script): what if the document named it, found at its first byte;
 * - preconnect an origin whose handshake is on the critical path: what if its handshake began at
 *   the document's first byte (`hintedOrigins`);
 * - fetchpriority=high for the LCP image candidate (the largest image found in the first
 *   viewport) when it waited queued for a connection: what if it had not waited.
 *
 * A what-if moves requests earlier in the model (src/bound/lower-bound.ts, run on this load's own
 * structure and path): each request's completion in the what-if bound against the actual bound is
 * how much earlier it could end, and the predicted page end is every measured end moved that much
 * earlier; the saving is the page end less that. Scripts are never suggested for preload (a
 * classic/module or credentials mismatch fetches them twice, as the hint list's rule says). Pure.
 */
import { lowerBound, type LowerBound } from '../../bound/lower-bound';
import { AS_BY_TYPE, typeOf } from '../hints/observe-visit';
import type { HintAs } from '../hints/hint-types';
import type { Discovery } from '../model/page-record';
import type { Diagnosis } from './diagnose';
import { loadBoundOptions, loadStructure } from './load-structure';

export type Suggestion =
  | {
    kind: 'preload'; href: string; as: HintAs; crossorigin?: 'anonymous'; type?: string; predictedSavingMs: number;
    /**
     * What the document itself names on the critical path ahead of it (the head of its chain). The
     * prediction keeps their order; a `Link` header preloads them ahead of it (applied-suggestion.ts
     * `headerHintsOf`), so it cannot take the connection the first of them was to have.
     */
    namedAhead?: Array<{ href: string; as: HintAs }>;
  }
  | { kind: 'preconnect'; href: string; crossorigin?: 'anonymous'; predictedSavingMs: number }
  | { kind: 'fetchpriority'; href: string; predictedSavingMs: number };

/** Suggestions predicted to save at least this much: less is within a load's own spread. */
export const MIN_SAVING_MS = 1;

export function suggestionsFor(d: Diagnosis, discoveries: readonly Discovery[] = []): Suggestion[] {
  const out: Suggestion[] = [];
  const link = { rttMs: d.rttMs, downBitsPerSec: d.downBitsPerSec };
  const options = loadBoundOptions(d.load);
  const requests = d.load.requests;
  const documentOrigin = requests[0]?.origin ?? '';
  for (const [step, l] of d.criticalPath.entries()) {
    const i = indexOf(d, l.url, l.doneMs);
    const r = requests[i];
    if (r === undefined || step === 0) continue;
    const as = AS_BY_TYPE[r.type];
    if (as !== undefined && as !== 'script' && r.parent !== 0) {
      const moved = lowerBound(loadStructure(d.load, '', i), link, options);
      const type = typeOf(as, r.url);
      const ahead = namedAhead(d, step);
      out.push({
        kind: 'preload', href: r.url, as, ...(as === 'font' ? { crossorigin: 'anonymous' as const } : {}), ...(type ? { type } : {}), predictedSavingMs: savingOf(d, d.bound, moved),
        ...(ahead.length > 0 ? { namedAhead: ahead } : {}),
      });
    }
    if (l.handshakeMs > 0 && r.origin !== documentOrigin && !out.some((s) => s.kind === 'preconnect' && s.href === r.origin)) {
      const moved = lowerBound(loadStructure(d.load, ''), link, { ...options, hintedOrigins: [r.origin] });
      out.push({ kind: 'preconnect', href: r.origin, ...(as === 'font' ? { crossorigin: 'anonymous' as const } : {}), predictedSavingMs: savingOf(d, d.bound, moved) });
    }
  }
  const lcp = lcpCandidate(d, discoveries);
  if (lcp !== undefined) out.push(lcp);
  return out.filter((s) => s.predictedSavingMs >= MIN_SAVING_MS).sort((a, b) => b.predictedSavingMs - a.predictedSavingMs);
}

/** The critical path's links before `step` that the document itself names (never scripts: see above). */
function namedAhead(d: Diagnosis, step: number): Array<{ href: string; as: HintAs }> {
  const out: Array<{ href: string; as: HintAs }> = [];
  for (const l of d.criticalPath.slice(1, step)) {
    const r = d.load.requests[indexOf(d, l.url, l.doneMs)];
    const as = r === undefined ? undefined : AS_BY_TYPE[r.type];
    if (r !== undefined && r.parent === 0 && as !== undefined && as !== 'script') out.push({ href: r.url, as });
  }
  return out;
}

/** The page end predicted when every request ends earlier by the what-if's gain on it. */
function savingOf(d: Diagnosis, base: LowerBound, moved: LowerBound): number {
  let end = 0;
  d.load.requests.forEach((r, i) => {
    const gain = Math.max(0, (base.requests[i]?.completeMs ?? 0) - (moved.requests[i]?.completeMs ?? 0));
    end = Math.max(end, r.doneMs - gain);
  });
  return d.endMs - end;
}

function indexOf(d: Diagnosis, url: string, doneMs: number): number {
  return d.load.requests.findIndex((r) => r.url === url && r.doneMs === doneMs);
}

/**
 * The largest image found in the first viewport, when it waited queued for a connection: with
 * fetchpriority=high it is sent first among what waits, so it ends that much earlier.
 */
function lcpCandidate(d: Diagnosis, discoveries: readonly Discovery[]): Suggestion | undefined {
  const inViewport = new Set(discoveries.filter((x) => x.kind === 'image' && x.inViewport).map((x) => x.url));
  let best: number | undefined;
  d.load.requests.forEach((r, i) => {
    if (r.type === 'image' && inViewport.has(r.url) && (best === undefined || r.size > (d.load.requests[best]?.size ?? 0))) best = i;
  });
  const r = best === undefined ? undefined : d.load.requests[best];
  if (r === undefined) return undefined;
  const handshake = r.handshake === undefined ? 0 : r.handshake.readyMs - r.handshake.startMs;
  const queued = Math.max(0, r.sentMs - r.discoveredMs - handshake);
  const end = Math.max(...d.load.requests.map((x) => (x === r ? x.doneMs - queued : x.doneMs)));
  return { kind: 'fetchpriority', href: r.url, predictedSavingMs: d.endMs - end };
}
